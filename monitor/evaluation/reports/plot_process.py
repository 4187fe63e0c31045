"""Draw the plots of a large report in a forked child while the parent writes the rest.

Drawing four figures (and importing matplotlib) takes one to two seconds; for a report of
:data:`BACKGROUND_MIN_CASES` cases or more, where the OS can fork, :func:`start_plots`
draws them in a child process (which inherits the report: nothing is pickled) and
returns a function that waits for the paths. Smaller reports are drawn in place.
A child that fails or dies raises ``RuntimeError`` from the wait.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from monitor.evaluation.results import EvalReport

__all__ = ["BACKGROUND_MIN_CASES", "start_plots"]

BACKGROUND_MIN_CASES = 2000


def _draw(report: EvalReport, out_dir: Path, stem: str, conn: Connection) -> None:
    from monitor.evaluation.reports.plots import write_plots

    try:
        conn.send([str(p) for p in write_plots(report, out_dir, stem)])
    except Exception as exc:  # reported to the parent, which raises it
        conn.send(f"plotting failed: {type(exc).__name__}: {exc}")
    finally:
        conn.close()


def start_plots(report: EvalReport, out_dir: Path, stem: str) -> Callable[[], list[Path]]:
    """Start drawing (see the module docstring); call the result for the paths."""
    forkable = "fork" in multiprocessing.get_all_start_methods()
    if len(report.cases) < BACKGROUND_MIN_CASES or not forkable:
        from monitor.evaluation.reports.plots import write_plots

        paths = write_plots(report, out_dir, stem)
        return lambda: paths
    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_draw, args=(report, out_dir, stem, sender), daemon=True)
    child.start()
    sender.close()

    def wait() -> list[Path]:
        try:
            answer = receiver.recv()
        except EOFError:
            answer = f"plotting failed: the drawing process exited with {child.exitcode}"
        finally:
            child.join()
            receiver.close()
        if isinstance(answer, str):
            raise RuntimeError(answer)
        return [Path(p) for p in answer]

    return wait
