"""The split-first tokenizer gives exactly the regex's tokens on any text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from monitor.scoring.tokens import _TOKEN, tokenize

ALPHABET = "ab Z9_.,'’-\t\n\x1c\u00a0\u2028İéß½²٣😀"
texts = st.text(alphabet=ALPHABET, max_size=60) | st.text(max_size=40)


@given(texts)
@settings(max_examples=3000, deadline=None)
@example("The 1,000 employees' e-mail policies, v2.")
@example("İstanbul ẞtraße __init__ 3.5-4 ½ x²")
def test_tokenize_matches_the_regex(text: str) -> None:
    assert tokenize(text) == _TOKEN.findall(text.lower())
