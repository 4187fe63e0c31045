"""warm_up() builds the lazily built tables once, so forked scorers inherit them."""

from __future__ import annotations

import multiprocessing

from monitor.scoring.injection.anchor_scan import scanner
from monitor.scoring.injection.model import load
from monitor.scoring.warm_up import warm_up


def _built_in_child(queue: multiprocessing.Queue[tuple[int, int]]) -> None:
    queue.put((load.cache_info().currsize, scanner.cache_info().currsize))


def test_warm_up_builds_the_tables_a_forked_child_inherits() -> None:
    warm_up()
    assert load.cache_info().currsize == 1
    assert scanner.cache_info().currsize == 1
    context = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[tuple[int, int]] = context.Queue()
    child = context.Process(target=_built_in_child, args=(queue,))
    child.start()
    assert queue.get(timeout=30) == (1, 1)  # nothing left to build in the child
    child.join(timeout=30)
    assert child.exitcode == 0
