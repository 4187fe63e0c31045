"""``ragmon``: the command line. Settings are parsed here, once, and passed down.

User errors (a bad argument, a missing file, a bad ``MONITOR_*`` value) print one line
and exit with code 2; no traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, NoReturn

from monitor.config import Settings, load_settings, masked
from monitor.errors import MonitorError
from monitor.gc_policy import scoring_gc
from monitor.scoring.chunk_cache import configure_chunk_cache

__all__ = ["main"]

EXIT_USAGE = 2


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{self.prog}: {message}")


def _positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
        return value

    parse.__name__ = kind.__name__
    return parse


def _parser() -> _Parser:
    from monitor import __version__

    p = _Parser(prog="ragmon", description="Kafka-native quality monitor for RAG services.")
    p.add_argument("--version", action="version", version=f"ragmon {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    d = sub.add_parser("demo", help="embedded broker + worker + traffic + live table")
    d.add_argument(
        "--duration",
        type=_positive(float),
        default=None,
        metavar="SECONDS",
        help="stop by itself after this many seconds (default: until Ctrl-C)",
    )
    d.add_argument(
        "--rate",
        type=_positive(float),
        default=300.0,
        help="events per second from the traffic generator (default 300)",
    )
    d.add_argument("--seed", type=int, default=7, help="traffic generator seed (default 7)")
    d.add_argument(
        "--refresh",
        type=_positive(float),
        default=3.0,
        metavar="SECONDS",
        help="seconds between table refreshes (default 3)",
    )
    d.add_argument(
        "--window",
        type=_positive(float),
        default=10.0,
        metavar="SECONDS",
        help="tumbling window length (default 10; hopping windows are 3 of them)",
    )
    d.add_argument(
        "--degrade-after",
        type=_positive(float),
        default=None,
        metavar="SECONDS",
        help="degrade the treatment variant after this long (default: half of --duration, or 60)",
    )

    sub.add_parser("worker", help="the production worker (MONITOR_* environment)")

    s = sub.add_parser("score", help="score RagEvent JSON lines from FILE or stdin")
    s.add_argument("file", nargs="?", type=Path, help="JSON-lines file ('-' or none: stdin)")
    s.add_argument(
        "--jobs",
        type=_positive(int),
        default=1,
        help="scoring processes (default 1; output in input order either way)",
    )

    r = sub.add_parser("replay", help="produce JSON-lines events to the events topic")
    r.add_argument("file", type=Path)
    r.add_argument(
        "--rate",
        type=_positive(float),
        default=None,
        help="events per second (default: as fast as possible)",
    )

    b = sub.add_parser(
        "backtest",
        help="replay recorded events through the worker's path (no broker); print the alerts",
        description="Replays RagEvent JSON lines (any order) through scoring, windows and "
        "the decider in event time, with no broker, and prints every alert notification "
        "(firing and resolved) as JSON lines; a summary goes to stderr. Settings come from "
        "MONITOR_* as for the worker.",
    )
    b.add_argument("file", type=Path, help="JSON-lines file of RagEvents ('-': stdin)")
    b.add_argument(
        "--jobs",
        type=_positive(int),
        default=1,
        metavar="N",
        help="score in N processes (default 1; windows and decisions stay in order)",
    )

    c = sub.add_parser("schema", help="write the JSON Schemas of every topic's messages")
    c.add_argument("--out", type=Path, default=Path("schemas"), help="directory (schemas/)")

    sub.add_parser("config", help="print the effective configuration, secrets masked")

    from monitor.evaluation.runner.arguments import add_eval_parser

    add_eval_parser(sub)

    a = sub.add_parser("ab", help="the latest A/B statistics of an experiment")
    a.add_argument("--experiment", required=True, metavar="ID", help="experiment id")
    a.add_argument(
        "--scope",
        choices=("cumulative", "hopping"),
        default="cumulative",
        help="since the experiment's first event (default) or the last hopping window",
    )
    a.add_argument("--json", action="store_true", help="print the AbResult JSON")
    a.add_argument(
        "--since",
        metavar="TIME",
        help="analyse only the events from TIME on (ISO 8601 UTC, e.g. 2026-11-25T10:00:00Z, "
        "or epoch milliseconds): a fresh sequential analysis, e.g. after an effect changed",
    )
    a.add_argument(
        "--windows",
        type=int,
        metavar="N",
        help="also list the last N hopping windows of --metric, control and treatment side by side",
    )
    a.add_argument(
        "--metric", default="quality.overall", help="the metric of --windows (quality.overall)"
    )
    return p


def _epoch_ms(text: str) -> int:
    """``--since``: epoch milliseconds, or an ISO 8601 time (UTC when no offset)."""
    from datetime import UTC, datetime

    if text.isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise _UsageError(
            f"ragmon ab: --since {text!r} is neither epoch milliseconds nor ISO 8601"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def _ab(args: argparse.Namespace, settings: Settings) -> int:
    import asyncio
    import dataclasses

    from monitor.ab.analysis import AB_METRICS
    from monitor.ab.since import analyse_since
    from monitor.ab.table import render, render_windows
    from monitor.decider import ab_config
    from monitor.stream.ab_reader import experiment_results

    since_ms = None if args.since is None else _epoch_ms(args.since)
    if args.windows is not None and args.windows < 1:
        raise _UsageError("ragmon ab: --windows needs N >= 1")
    if args.metric not in AB_METRICS:
        raise _UsageError(f"ragmon ab: --metric {args.metric!r} is not an A/B metric")
    if since_ms is not None and args.scope != "cumulative":
        raise _UsageError("ragmon ab: --since analyses cumulative results (no --scope hopping)")
    results = asyncio.run(experiment_results(settings, args.experiment))
    scoped = sorted((r for r in results if r.span.scope == args.scope), key=lambda r: r.span.end_ms)
    result = scoped[-1] if scoped else None
    if result is not None and since_ms is not None:
        config = dataclasses.replace(ab_config(settings), alpha=result.alpha)
        try:
            result = analyse_since(scoped, since_ms, config)
        except ValueError as exc:
            raise _UsageError(f"ragmon ab: {exc}") from None
    if result is None:
        after = "" if since_ms is None else f" ending after --since {args.since}"
        print(f"ragmon: no {args.scope} results{after} for experiment {args.experiment!r} in "
              f"{settings.ab_results_topic}", file=sys.stderr)  # fmt: skip
        return 1
    print(result.model_dump_json(indent=2) if args.json else render(result))
    if args.windows is not None and not args.json:
        hopping = sorted(
            (r for r in results if r.span.scope == "hopping"), key=lambda r: r.span.end_ms
        )
        print()
        print(render_windows(hopping[-args.windows :], args.metric))
    return 0


def _score(path: Path | None, settings: Settings, out: IO[bytes], jobs: int = 1) -> int:
    from monitor.pipeline import score_lines
    from monitor.score_jobs import score_lines_in_processes

    source = open(path, "rb") if path else sys.stdin.buffer  # noqa: SIM115
    failed = False
    chunk: list[bytes] = []
    limit, scales = settings.max_event_bytes, settings.score_scales
    try:
        scored = (
            score_lines(source, max_bytes=limit, score_scales=scales)
            if jobs == 1
            else score_lines_in_processes(source, jobs=jobs, max_bytes=limit, score_scales=scales)
        )
        for line, ok in scored:
            failed |= not ok
            chunk.append(line)
            if len(chunk) >= 512:
                out.write(b"\n".join(chunk) + b"\n")
                chunk.clear()
        if chunk:
            out.write(b"\n".join(chunk) + b"\n")
        out.flush()
    finally:
        if path:
            source.close()
    return 1 if failed else 0


def _input_file(command: str, path: Path) -> Path:
    """``path`` if it is a readable regular file, else a one-line usage error."""
    if path.is_dir():
        raise _UsageError(f"ragmon {command}: {path} is a directory, not a JSON-lines file")
    if not path.exists():
        raise _UsageError(f"ragmon {command}: no such file: {path}")
    if not path.is_file():
        raise _UsageError(f"ragmon {command}: not a regular file: {path}")
    return path


def _out_dir(command: str, path: Path) -> Path:
    """``path`` created as a directory (with its parents), else a one-line usage error."""
    if path.exists() and not path.is_dir():
        raise _UsageError(f"ragmon {command}: --out {path} exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _UsageError(f"ragmon {command}: cannot create {path}: {exc.strerror}") from None
    return path


def _run(args: argparse.Namespace) -> int:
    settings = load_settings()
    configure_chunk_cache(settings.chunk_cache_bytes)
    if args.command == "config":
        print(json.dumps(masked(settings), indent=2, sort_keys=True))
        return 0
    if args.command == "schema":
        from monitor.events.schema import write_schemas

        try:
            for path in write_schemas(_out_dir("schema", args.out)):
                print(path)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise _UsageError(f"ragmon schema: cannot write to {args.out}: {reason}") from None
        return 0
    if args.command == "score":
        stdin = args.file is None or str(args.file) == "-"
        score_path = None if stdin else _input_file("score", args.file)
        return _score(score_path, settings, sys.stdout.buffer, args.jobs)
    if args.command == "replay":
        _input_file("replay", args.file)
        from monitor.stream.broker_wait import check_broker
        from monitor.stream.replay import replay

        check_broker(settings)
        sent = replay(settings, args.file, rate=args.rate)
        print(f"produced {sent} events to {settings.events_topic}", file=sys.stderr)
        return 0
    if args.command == "backtest":
        source: Path | None = None if str(args.file) == "-" else args.file
        if source is not None:
            _input_file("backtest", source)
        from monitor.backtest.command import run_backtest

        return run_backtest(source, settings, sys.stdout.buffer, sys.stderr, jobs=int(args.jobs))
    if args.command == "worker":
        from monitor.stream.app import run_worker
        from monitor.stream.broker_wait import check_broker

        check_broker(settings)
        run_worker(settings)
        return 0
    if args.command == "demo":
        from monitor.demo.runner import run_demo

        return run_demo(
            settings,
            duration_s=args.duration,
            rate=args.rate,
            seed=args.seed,
            refresh_s=args.refresh,
            window_s=args.window,
            degrade_after_s=args.degrade_after,
        )
    if args.command == "eval":
        from monitor.evaluation.runner.command import run_eval

        return run_eval(args, settings)
    if args.command == "ab":
        return _ab(args, settings)
    raise _UsageError(f"ragmon: unknown command {args.command}")  # pragma: no cover


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        with scoring_gc():
            return _run(args)
    except _UsageError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE
    except MonitorError as exc:
        print(f"ragmon: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # a file or directory the user named that cannot be used
        where = f": {exc.filename}" if exc.filename else ""
        print(f"ragmon: {exc.strerror or exc}{where}", file=sys.stderr)
        return EXIT_USAGE
