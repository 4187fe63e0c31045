"""Spec 003 B context quality (``monitor.scoring.context_quality``).

Expected values are computed by hand, the arithmetic written next to them; none is taken
from the code under test. A naive TF-IDF written here (straight from the formula) checks
the optimised one on random inputs.
"""

from __future__ import annotations

import math
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monitor.events.rag_event import Chunk, GoldFact, Labels
from monitor.events.scored_event import ContextQuality
from monitor.scoring import grounding
from monitor.scoring.context_quality import (
    MAX_COMPARED,
    fact_dispersion,
    ngram_overlap,
    redundancy_ngram,
    redundancy_tfidf,
    score_context_quality,
    unique_token_ratio,
)
from monitor.scoring.tokens import content_terms, tokenize


def chunks(*contents: str) -> list[Chunk]:
    return [Chunk(chunk_id=f"c{i}", document_id=f"d{i}", content=c) for i, c in enumerate(contents)]


def approx(x: float) -> object:
    return pytest.approx(x, abs=1e-9)


# ------------------------------------------------------------------------- n-gram overlap


def test_identical_chunks_are_fully_redundant() -> None:
    text = "Employees receive fifteen days of paid vacation every year."
    q = score_context_quality(chunks(text, text, text), None)
    # every pair shares all of its trigrams: 7 / min(7, 7) = 1; mean of three 1s
    assert q.redundancy_ngram == 1.0
    # identical vectors: cosine 1
    assert q.redundancy_tfidf == approx(1.0)


def test_disjoint_chunks_are_not_redundant() -> None:
    q = score_context_quality(
        chunks("Laptops are replaced every three years.", "Parental leave lasts sixteen weeks."),
        None,
    )
    assert q.redundancy_ngram == 0.0
    assert q.redundancy_tfidf == 0.0


def test_partial_overlap_by_hand() -> None:
    a = "the cat sat on the mat"  # (the cat sat) (cat sat on) (sat on the) (on the mat): 4
    b = "a cat sat on the rug"  # (a cat sat) (cat sat on) (sat on the) (on the rug): 4
    c = "dogs bark loudly"  # (dogs bark loudly): 1
    # a, b share (cat sat on) and (sat on the): 2 / min(4, 4) = 0.5; a-c and b-c share none
    assert redundancy_ngram([a, b]) == 0.5
    # mean over the 3 pairs: (0.5 + 0 + 0) / 3
    assert redundancy_ngram([a, b, c]) == approx(0.5 / 3)
    q = score_context_quality(chunks(a, b, c), None)
    assert q.redundancy_ngram == approx(0.5 / 3)


def test_overlap_divides_by_the_smaller_set() -> None:
    # "cat sat on" has one trigram, contained in a's 4: 1 / min(4, 1) = 1
    assert redundancy_ngram(["the cat sat on the mat", "cat sat on"]) == 1.0


def test_overlap_of_a_chunk_without_trigrams_is_zero() -> None:
    # two tokens make no trigram: the pair counts 0
    assert redundancy_ngram(["vacation policy", "vacation policy"]) == 0.0
    assert ngram_overlap(set(), {("a", "b", "c")}) == 0.0


def test_fewer_than_two_chunks() -> None:
    for cs in ([], chunks("Employees receive fifteen days of paid vacation.")):
        q = score_context_quality(cs, None)
        assert q.redundancy_ngram == 0.0
        assert q.redundancy_tfidf == 0.0


def test_trigrams_use_all_tokens_lower_cased() -> None:
    # stop words and case: "The Cat sat" and "the cat SAT" are the same trigram
    assert redundancy_ngram(["The Cat sat", "the cat SAT"]) == 1.0


# --------------------------------------------------------------------------------- TF-IDF


def test_tfidf_two_tiny_chunks_by_hand() -> None:
    # content terms: [vacation, day, accrue] and [vacation, policy]; n = 2
    # idf(vacation) = ln(3 / 3) + 1 = 1; idf(day) = idf(accrue) = idf(policy)
    #   = ln(3 / 2) + 1 = 1.4054651081
    # a = (1, 1.4054651, 1.4054651, 0), b = (1, 0, 0, 1.4054651); a.b = 1
    # |a| = sqrt(1 + 2 * 1.9753322) = sqrt(4.9506643) = 2.2250088
    # |b| = sqrt(1 + 1.9753322) = sqrt(2.9753322) = 1.7249151
    # cos = 1 / (2.2250088 * 1.7249151) = 1 / 3.8379513 = 0.2605557
    assert redundancy_tfidf(["vacation days accrue", "vacation policy"]) == pytest.approx(
        0.2605557, abs=1e-7
    )


def test_tfidf_uses_raw_term_counts() -> None:
    # a = (vacation: 2 * 1, day: 1.4054651), b = (vacation: 1, policy: 1.4054651)
    # a.b = 2; |a| = sqrt(4 + 1.9753322) = sqrt(5.9753322) = 2.4444493, |b| = 1.7249151
    # cos = 2 / (2.4444493 * 1.7249151) = 2 / 4.2164675 = 0.4743307
    assert redundancy_tfidf(["vacation vacation days", "vacation policy"]) == pytest.approx(
        0.4743307, abs=1e-7
    )


def test_tfidf_three_chunks_each_pair_sharing_one_term() -> None:
    # alpha, beta, gamma each in 2 of 3 chunks: all weights ln(4 / 3) + 1 = w
    # every pair shares one term: w^2 / (sqrt(2) w * sqrt(2) w) = 0.5; mean 0.5
    assert redundancy_tfidf(["alpha beta", "alpha gamma", "beta gamma"]) == approx(0.5)


def test_tfidf_term_in_every_chunk() -> None:
    # n = 3; alpha in all 3: idf = ln(4 / 4) + 1 = 1; beta, gamma, delta in one each:
    # idf = ln(4 / 2) + 1 = 1.6931472. Each pair shares alpha only:
    # cos = 1 * 1 / (sqrt(1 + 1.6931472^2))^2 = 1 / 3.8667474 = 0.2586153; mean of 3 equal pairs
    assert redundancy_tfidf(["alpha beta", "alpha gamma", "alpha delta"]) == pytest.approx(
        0.2586153, abs=1e-7
    )


def test_tfidf_empty_vector_pairs_count_zero() -> None:
    # "the and of" has no content term. n = 3, vacation/policy in 2 chunks: the identical
    # pair has cosine 1, the two pairs with the empty vector 0: (1 + 0 + 0) / 3
    assert redundancy_tfidf(["vacation policy", "vacation policy", "the and of"]) == approx(1 / 3)
    assert redundancy_tfidf(["the and of", "to be or not"]) == 0.0


def naive_tfidf(texts: list[str]) -> float:
    """Mean pairwise cosine, straight from the module docstring's formula."""
    n = len(texts)
    if n < 2:
        return 0.0
    tfs = [Counter(content_terms(tokenize(t))) for t in texts]
    df: Counter[str] = Counter()
    for tf in tfs:
        df.update(set(tf))
    vecs = [{t: c * (math.log((1 + n) / (1 + df[t])) + 1) for t, c in tf.items()} for tf in tfs]
    total = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            a, b = vecs[i], vecs[j]
            na = math.sqrt(sum(w * w for w in a.values()))
            nb = math.sqrt(sum(w * w for w in b.values()))
            if na and nb:
                total += sum(w * b.get(t, 0.0) for t, w in a.items()) / (na * nb)
    return total / (n * (n - 1) / 2)


WORDS = ["vacation", "policy", "leave", "days", "laptop", "the", "of", "remote", "work", "15"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), max_size=12), min_size=0, max_size=8))
def test_tfidf_matches_the_naive_formula(docs: list[list[str]]) -> None:
    texts = [" ".join(words) for words in docs]
    assert redundancy_tfidf(texts) == pytest.approx(naive_tfidf(texts), abs=1e-9)


# -------------------------------------------------------------------------- unique tokens


def test_unique_token_ratio_by_hand() -> None:
    # tokens a b a | b c: 5 tokens, 3 distinct: 3 / 5
    assert unique_token_ratio(["a b a", "b c"]) == approx(0.6)
    # case-insensitive: "Vacation vacation" is 1 distinct of 2
    q = score_context_quality(chunks("Vacation vacation"), None)
    assert q.unique_token_ratio == 0.5


def test_unique_token_ratio_without_tokens_is_zero() -> None:
    assert score_context_quality([], None).unique_token_ratio == 0.0
    assert score_context_quality(chunks("", " ... "), None).unique_token_ratio == 0.0


# ------------------------------------------------------------------------ fact dispersion


def test_fact_dispersion_with_aliases() -> None:
    labels = Labels(
        gold_facts=[GoldFact(fact="15 days vacation", aliases=["fifteen days", "15 paid days off"])]
    )
    cs = chunks(
        "You get fifteen days a year.",  # alias "fifteen days" as a phrase
        "Employees get 15 days of vacation.",  # fact terms day, vacation and number 15
        "Vacation: 10 days for interns.",  # terms there, but 10 is not 15
        "Take 15 paid days off, Sir!",  # alias 2 as a phrase (punctuation/case ignored)
        "Laptops are replaced every three years.",
    )
    # chunks 1, 2 and 4 contain the fact: 3
    assert score_context_quality(cs, labels).fact_dispersion == 3.0


def test_fact_dispersion_is_the_mean_over_found_facts() -> None:
    labels = Labels(
        gold_facts=[
            GoldFact(fact="15 days vacation"),  # in chunks 1 and 2: 2
            GoldFact(fact="accrues monthly"),  # in chunk 2: 1
            GoldFact(fact="unlimited sick leave"),  # nowhere: not averaged
        ]
    )
    cs = chunks("15 days of vacation.", "Vacation (15 days) accrues monthly.", "Other text.")
    # (2 + 1) / 2
    assert fact_dispersion([c.content for c in cs], labels) == 1.5


def test_fact_dispersion_normalises_numbers() -> None:
    labels = Labels(gold_facts=[GoldFact(fact="budget of 1,000 dollars")])
    # terms budget, dollar and number 1000 ("1,000" = "1000")
    assert fact_dispersion(["The budget is 1000 dollars."], labels) == 1.0
    assert fact_dispersion(["The budget is 100 dollars."], labels) is None


def test_fact_dispersion_none_cases() -> None:
    cs = chunks("Employees get 15 days of vacation.")
    assert score_context_quality(cs, None).fact_dispersion is None
    assert score_context_quality(cs, Labels()).fact_dispersion is None
    nowhere = Labels(gold_facts=[GoldFact(fact="unlimited vacation", aliases=["no limit"])])
    assert score_context_quality(cs, nowhere).fact_dispersion is None
    empty = Labels(gold_facts=[GoldFact(fact="...", aliases=[""])])
    assert score_context_quality(cs, empty).fact_dispersion is None


def test_phrase_match_is_on_whole_words() -> None:
    labels = Labels(gold_facts=[GoldFact(fact="15 days")])
    # "115 days" does not contain the phrase "15 days", nor the number 15
    assert fact_dispersion(["Interns get 115 days."], labels) is None


# ---------------------------------------------------------------------------- the section


def test_only_the_first_chunks_are_compared() -> None:
    distinct = [f"alpha{i} beta{i} gamma{i} delta{i}" for i in range(MAX_COMPARED)]
    repeated = [distinct[0]] * 5  # chunks 21 to 25 repeat chunk 1, but are not compared
    q = score_context_quality(chunks(*distinct, *repeated), None)
    assert q.redundancy_ngram == 0.0
    assert q.redundancy_tfidf == 0.0
    # unique tokens count every chunk: 25 * 4 tokens, 20 * 4 distinct
    assert q.unique_token_ratio == approx(80 / 100)


def test_result_is_a_valid_model() -> None:
    labels = Labels(gold_facts=[GoldFact(fact="15 days vacation")])
    q = score_context_quality(chunks("Employees get 15 days of vacation.", "Other."), labels)
    assert isinstance(q, ContextQuality)
    assert ContextQuality.model_validate(q.model_dump()) == q


def test_inputs_are_not_mutated_and_results_are_deterministic() -> None:
    cs = chunks("Employees get 15 days of vacation.", "Employees get 15 days of vacation.")
    labels = Labels(gold_facts=[GoldFact(fact="15 days vacation", aliases=["fifteen days"])])
    before = ([c.model_dump() for c in cs], labels.model_dump())
    first = score_context_quality(cs, labels)
    grounding.clear_caches()
    second = score_context_quality(cs, labels)  # cold memo
    third = score_context_quality(cs, labels)  # warm memo
    assert first == second == third
    assert ([c.model_dump() for c in cs], labels.model_dump()) == before


# ------------------------------------------------------------------------------- big input


def test_two_hundred_chunks_of_five_kilobytes() -> None:
    cs = [
        Chunk(
            chunk_id=f"c{i}", content=" ".join(f"w{(i * 7 + j) % 997}" for j in range(1200))[:5000]
        )
        for i in range(200)
    ]
    labels = Labels(gold_facts=[GoldFact(fact="w1 w2", aliases=["w3 w4"])])
    grounding.clear_caches()
    start = time.perf_counter()
    q = score_context_quality(cs, labels)
    assert time.perf_counter() - start < 1.0
    assert 0.0 <= q.redundancy_ngram <= 1.0
    assert 0.0 <= q.redundancy_tfidf <= 1.0


def test_one_megabyte_chunk() -> None:
    big = " ".join(f"term{i % 50_000}" for i in range(120_000))[:1_000_000]
    start = time.perf_counter()
    q = score_context_quality(chunks(big, big[:500_000], "1,1," * 250_000), None)
    assert time.perf_counter() - start < 1.0
    assert q.redundancy_ngram > 0.0
