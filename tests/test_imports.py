"""DESIGN section 2: pure packages never import faust, aiokafka, httpx, prometheus_client
or asyncio (nor, through the project's own I/O modules, anything that does)."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import monitor

FORBIDDEN = ("faust", "aiokafka", "httpx", "prometheus_client", "asyncio")
# The project's own modules that are allowed to use the above: a pure module must not
# import them either.
FORBIDDEN_INTERNAL = ("monitor.stream", "monitor.metrics", "monitor.demo", "monitor.cli")
PURE = (
    "monitor.events",
    "monitor.scoring",
    "monitor.pipeline",
    "monitor.decider",
    "monitor.backtest",
    "monitor.windows",
    "monitor.drift",
    "monitor.ab",
    "monitor.alerts.rules",
    "monitor.evaluation.datasets",
    "monitor.evaluation.metrics",
    "monitor.evaluation.results",
    "monitor.evaluation.gate",
    "monitor.retry",
)
ROOT = Path(monitor.__file__).resolve().parent


def _existing_pure() -> list[str]:
    found = []
    for name in PURE:
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:  # parent package absent (monitor.alerts)
            spec = None
        if spec is not None:
            found.append(name)
    return found


_PROBE = textwrap.dedent(
    """
    import importlib, json, pkgutil, sys
    forbidden = {forbidden!r}
    names = []
    for name in {pure!r}:
        module = importlib.import_module(name)
        names.append(name)
        if hasattr(module, "__path__"):
            for info in pkgutil.walk_packages(module.__path__, name + "."):
                importlib.import_module(info.name)
                names.append(info.name)
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in forbidden)
    print(json.dumps({{"modules": names, "loaded": loaded}}))
    """
)


def _probe(modules: list[str]) -> dict[str, list[str]]:
    """Import ``modules`` (and every module under them) in a fresh interpreter."""
    code = _PROBE.format(forbidden=FORBIDDEN, pure=modules)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_probe_detects_a_forbidden_import() -> None:
    # unittest.async_case is a plain module that imports asyncio
    assert "asyncio" in _probe(["json", "unittest.async_case"])["loaded"]


def test_pure_modules_do_not_load_io_libraries() -> None:
    result = _probe(_existing_pure())
    assert "monitor.scoring.composite" in result["modules"]
    assert "monitor.pipeline" in result["modules"]
    assert result["loaded"] == [], (
        f"importing {result['modules']} loaded {result['loaded']} (DESIGN section 2)"
    )


# --------------------------------------------------------------------- static check


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _under_type_checking(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If):
            test = node.test
            name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", "")
            if name == "TYPE_CHECKING":
                return True
    return False


def _bad(name: str) -> bool:
    if name.split(".")[0] in FORBIDDEN:
        return True
    return any(name == p or name.startswith(p + ".") for p in FORBIDDEN_INTERNAL)


def offending_imports(
    source: str, filename: str, module: str, is_package: bool = False
) -> list[str]:
    """Every import of a forbidden module in ``source``, as ``file:line: statement``.

    Imports anywhere count (module level, in functions, ``importlib.import_module("…")``
    and ``__import__("…")`` with a literal name), except under ``if TYPE_CHECKING:``.
    """
    tree = ast.parse(source, filename)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, module, is_package)
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if fname in ("import_module", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names = [first.value]
        if any(_bad(n) for n in names) and not _under_type_checking(node, parents):
            statement = ast.get_source_segment(source, node) or ast.dump(node)
            line = f"{filename}:{node.lineno}: {statement.splitlines()[0]}"
            found.append((node.lineno, node.col_offset, line))
    return [line for _, _, line in sorted(found)]


def _pure_files() -> list[tuple[Path, str, bool]]:
    files = []
    for name in PURE:
        rel = Path(*name.split(".")[1:])
        package, module_file = ROOT / rel, (ROOT / rel).with_suffix(".py")
        if package.is_dir():
            for path in sorted(package.rglob("*.py")):
                parts = path.relative_to(ROOT).with_suffix("").parts
                is_package = parts[-1] == "__init__"
                dotted = ".".join(["monitor", *(parts[:-1] if is_package else parts)])
                files.append((path, dotted, is_package))
        elif module_file.is_file():
            files.append((module_file, name, False))
    return files


def test_pure_sources_have_no_forbidden_import_statements() -> None:
    files = _pure_files()
    assert any(path.name == "composite.py" for path, _, _ in files)
    offenders = []
    for path, dotted, is_package in files:
        source = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(ROOT.parent))
        offenders += offending_imports(source, rel, dotted, is_package)
    assert not offenders, "forbidden imports in pure modules (DESIGN section 2):\n" + "\n".join(
        offenders
    )


# --------------------------------------------------------------------- the checker can fail


def test_checker_flags_synthetic_imports() -> None:
    snippet = textwrap.dedent(
        """\
        import asyncio
        import os, httpx.client
        from faust import App
        from . import jstext
        from ..stream import kafka
        from monitor.stream.kafka import ensure_topics
        import prometheus_client as prom

        def lazy():
            import aiokafka
            return importlib.import_module("asyncio")

        if TYPE_CHECKING:
            import asyncio
        if typing.TYPE_CHECKING:
            from httpx import Client
        """
    )
    found = offending_imports(snippet, "synthetic.py", "monitor.scoring.synthetic")
    assert found == [
        "synthetic.py:1: import asyncio",
        "synthetic.py:2: import os, httpx.client",
        "synthetic.py:3: from faust import App",
        "synthetic.py:5: from ..stream import kafka",
        "synthetic.py:6: from monitor.stream.kafka import ensure_topics",
        "synthetic.py:7: import prometheus_client as prom",
        "synthetic.py:10: import aiokafka",
        'synthetic.py:11: importlib.import_module("asyncio")',
    ]


def test_checker_flags_plain_import_asyncio() -> None:
    assert offending_imports("import asyncio\n", "x.py", "monitor.pipeline") == [
        "x.py:1: import asyncio"
    ]
    assert offending_imports("import asyncore_like\nimport json\n", "x.py", "m") == []


def test_scoring_a_file_does_not_import_scipy(tmp_path: Path) -> None:
    """``ragmon score`` starts without scipy (about half a second of its start-up): only
    the drift bounds and the A/B tests compute with it, and they import it on first use."""
    events = tmp_path / "events.jsonl"
    events.write_text(
        '{"schema_version": "1", "event_id": "e1", "timestamp_ms": 1700000000000, '
        '"query": {"text": "What is the refund policy?"}, '
        '"chunks": [{"chunk_id": "c1", "content": "Refunds take 5 days."}], '
        '"response": {"text": "Refunds take 5 days."}}\n'
    )
    code = (
        "import json, sys\n"
        "from monitor.cli import main\n"
        f"code = main(['score', {str(events)!r}])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'scipy')\n"
        "print(json.dumps([code, loaded]), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["event_id"] == "e1"  # the event was scored
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == [0, []]
