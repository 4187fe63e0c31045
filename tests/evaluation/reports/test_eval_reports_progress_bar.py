"""``ProgressBar``: short logs off a terminal, one redrawn line on it."""

from __future__ import annotations

import io

from monitor.evaluation.reports import ProgressBar


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_non_tty_prints_at_most_every_ten_percent() -> None:
    out = io.StringIO()
    with ProgressBar(1000, stream=out, clock=Clock(0.01)) as bar:
        for _ in range(1000):
            bar.advance()
    lines = out.getvalue().splitlines()
    assert 1 <= len(lines) <= 11
    assert "\r" not in out.getvalue()
    assert lines[-1].startswith("eval  1000/1000  100%")


def test_non_tty_unfinished_run_ends_with_its_state() -> None:
    out = io.StringIO()
    bar = ProgressBar(10, stream=out, clock=Clock(1.0), label="judge")
    for _ in range(3):
        bar.advance()
    bar.close()
    bar.close()  # idempotent
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("judge   3/10   30%")
    assert len(lines) == 3  # 10 %, 20 %, 30 %: close() has nothing new to print


def test_tty_redraws_one_line() -> None:
    out = FakeTTY()
    clock = Clock(1.0)
    with ProgressBar(100, stream=out, clock=clock, min_interval_s=0.1, width=10) as bar:
        for _ in range(52):
            bar.advance()
        text = out.getvalue()
        last = text[text.rindex("\r") + 1 :]
        assert last.startswith("eval  [#####.....]   52/100   52%  ")
        assert "ETA" in last
        assert text.count("\r") == 52  # 1 s apart: every advance redraws
        clock.step = 0.01  # 10 ms apart: at most one redraw per 100 ms
        for _ in range(48):
            bar.advance()
    text = out.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n")
    assert 52 < text.count("\r") <= 52 + 6  # throttled, and the end is drawn
    assert text[text.rindex("\r") + 1 :].startswith("eval  [##########]  100/100  100%")


def test_total_zero() -> None:
    for stream in (io.StringIO(), FakeTTY()):
        with ProgressBar(0, stream=stream, clock=Clock(1.0)):
            pass
        assert "0/0  100%" in stream.getvalue()
        bar = ProgressBar(0, stream=stream, clock=Clock(1.0))
        bar.advance(3)  # more than the total: no error
        bar.close()
