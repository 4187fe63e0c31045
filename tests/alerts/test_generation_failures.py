"""Generation failures page (issue 12, part 5): scored events of a generator that starts
answering off-context (fluent sentences the retrieved chunks do not support, citing chunks
that do not support them) while retrieval stays healthy. Spec 000's composite reads only the
query and the chunks, so only the grounding metrics move; their degradation rules page
within 3 windows of the fault, diagnosed as groundedness, and resolve after it."""

from __future__ import annotations

import random
from typing import Any

from monitor.alerts.alert import Alert
from monitor.config import Settings
from monitor.decider import Decider
from monitor.events.rag_event import RagEvent
from monitor.events.scored_event import ScoredEvent
from monitor.pipeline import score_event
from monitor.windows.dedupe import SeenEvents
from monitor.windows.labels import LabelCap
from monitor.windows.metric_ids import metric_values
from monitor.windows.partial import PartialBuilder, SourceRange

WINDOW_MS = 60_000
PER_WINDOW = 40

# (question, passage): short encyclopaedic passages written for this test
PASSAGES = [
    (
        "When was the Eiffel Tower completed?",
        "The Eiffel Tower was completed in 1889 for the World Fair in Paris. Gustave Eiffel's "
        "company designed and built the wrought iron lattice tower on the Champ de Mars.",
    ),
    (
        "How long is the Nile river?",
        "The Nile flows north through eleven countries of eastern Africa into the "
        "Mediterranean Sea. Its length of about 6650 kilometres makes it one of the longest "
        "rivers on Earth.",
    ),
    (
        "What do honey bees use to communicate?",
        "Honey bees communicate the location of flowers with a waggle dance. Forager bees "
        "returning to the hive repeat the dance, whose angle points towards the food source.",
    ),
    (
        "Who painted the ceiling of the Sistine Chapel?",
        "Michelangelo painted the ceiling of the Sistine Chapel between 1508 and 1512. The "
        "frescoes depict scenes from the Book of Genesis, including the Creation of Adam.",
    ),
    (
        "Why do leaves change colour in autumn?",
        "Leaves change colour in autumn because trees stop producing chlorophyll. As the "
        "green pigment fades, yellow carotenoids and red anthocyanins in the leaf show through.",
    ),
    (
        "What is the boiling point of water at sea level?",
        "At sea level pure water boils at 100 degrees Celsius. At higher altitudes the air "
        "pressure is lower, so water boils at a lower temperature in mountain villages.",
    ),
    (
        "How many moons does Mars have?",
        "Mars has two small moons named Phobos and Deimos. Astronomer Asaph Hall discovered "
        "both irregular moons in 1877 at the United States Naval Observatory.",
    ),
    (
        "What does the mitochondrion do in a cell?",
        "The mitochondrion produces most of the chemical energy a cell needs. Through "
        "cellular respiration it turns glucose and oxygen into adenosine triphosphate.",
    ),
]
# fluent, confident and unrelated to every passage above
INVENTED = [
    "Medieval merchants shipped saffron across the Baltic aboard heavy cogs.",
    "Professional violinists usually restring their instruments before winter concerts.",
    "Volcanic soil around coffee farms gives espresso beans a distinctive bitterness.",
    "Railway engineers standardised track gauges after lengthy parliamentary debates.",
    "Chess grandmasters memorise thousands of opening variations during tournaments.",
    "Submarine cables carry most intercontinental internet traffic beneath oceans.",
]


def _event(rng: random.Random, index: int, ts: int, off_context: bool) -> RagEvent:
    gold = rng.randrange(len(PASSAGES))
    others = rng.sample([i for i in range(len(PASSAGES)) if i != gold], 2)
    question, passage = PASSAGES[gold]
    chunks = [
        {
            "chunk_id": f"c{gold}",
            "document_id": f"d{gold}",
            "content": passage,
            "score": round(rng.uniform(0.8, 0.9), 3),
        }
    ] + [
        {
            "chunk_id": f"c{i}",
            "document_id": f"d{i}",
            "content": PASSAGES[i][1],
            "score": round(rng.uniform(0.55, 0.7), 3),
        }
        for i in others
    ]
    if off_context:
        text = " ".join(rng.sample(INVENTED, 2))
        cited = [rng.choice(chunks)["chunk_id"] for _ in range(2)]
    else:
        text = passage.split(". ")[0] + "."
        cited = [f"c{gold}"]
    response = {
        "text": text,
        "citations": [{"chunk_id": c, "document_id": "d" + str(c)[1:]} for c in cited],
    }
    raw: dict[str, Any] = {
        "schema_version": "1",
        "event_id": f"e{index}",
        "timestamp_ms": ts,
        "query": {"text": question},
        "chunks": chunks,
        "response": response,
        "latency_ms": {"total": rng.uniform(400, 900)},
    }
    return RagEvent.model_validate(raw)


def _scored(windows: list[bool], seed: int = 7) -> list[list[ScoredEvent]]:
    rng = random.Random(seed)
    out = []
    for w, off in enumerate(windows):
        out.append(
            [
                score_event(_event(rng, w * PER_WINDOW + i, w * WINDOW_MS + i * 1000, off))
                for i in range(PER_WINDOW)
            ]
        )
    return out


def _mean(events: list[ScoredEvent], metric: str) -> float:
    values = [metric_values(e)[metric] for e in events if metric in metric_values(e)]
    return sum(values) / len(values)


def test_only_the_grounding_metrics_move_when_the_generator_leaves_its_context() -> None:
    healthy, off = _scored([False, True])
    moved = {m: (_mean(healthy, m), _mean(off, m)) for m in metric_values(healthy[0])}
    assert moved["grounding.claim_support_rate"][0] > 0.9
    assert moved["grounding.claim_support_rate"][1] < 0.2
    assert moved["grounding.citation_validity_content"][0] > 0.9
    assert moved["grounding.citation_validity_content"][1] < 0.2
    assert moved["grounding.unsupported_answer"] == (0.0, 1.0)
    for metric in ("quality.overall", "quality.retrieval_confidence", "crag.incorrect"):
        before, after = moved[metric]
        assert abs(after - before) < 0.1, metric  # retrieval is as healthy as before


def _decide(windows: list[list[ScoredEvent]]) -> list[list[Alert]]:
    decider = Decider(Settings(changepoint_metrics=[]))
    builder = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
    out = []
    for w, events in enumerate(windows):
        for e in events:
            series = builder.series(e.variant, e.tenant, e.application, e.experiment)
            builder.add_event(e.event_id, e.timestamp_ms, series, metric_values(e))
        decider.merge(builder.build([SourceRange("events", 0, w * 100, w * 100 + 99)]))
        builder = PartialBuilder(WINDOW_MS, LabelCap(20), SeenEvents())
        decider.advance((w + 1) * WINDOW_MS + 10_000)
        out += [d.alerts for d in decider.decide() if d.window.kind == "tumbling"]
    return out


def test_an_off_context_generator_pages_within_3_windows_as_groundedness() -> None:
    learn = 14  # 560 events: the default baseline needs 500 events in 3 windows
    timeline = [False] * learn + [True] * 5 + [False] * 4
    per_window = _decide(_scored(timeline))
    assert not any(per_window[:learn])  # healthy traffic: no page
    fault = per_window[learn : learn + 3]
    first = next(a for alerts in fault for a in alerts)
    assert first.status == "firing"
    assert first.metric.startswith("grounding.")
    assert first.diagnosis.perspective == "groundedness"
    assert "retrieval" in first.diagnosis.healthy
    sent = [a for alerts in per_window for a in alerts]
    assert [a.status for a in sent] == ["firing", "resolved"]  # one incident, one page
    related = {r.metric for r in sent[0].related} | {sent[0].metric}
    assert {
        "grounding.claim_support_rate",
        "grounding.citation_validity_content",
        "grounding.unsupported_answer",
    } <= related
    assert sent[1].fingerprint == sent[0].fingerprint
    assert per_window.index([sent[1]]) <= learn + 5 + 2
