"""``render_html`` and the ``.html`` report: self-contained (plots as data URIs, nothing
to fetch), escaped, with the gate and the failed cases' queries and answers; opened in
headless Chromium, it renders its tables and images."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_eval_reports_writer import make_report

from monitor.evaluation.gate import GateResult, GateRow
from monitor.evaluation.reports import render_html, write_reports
from monitor.evaluation.reports.html import CSP
from monitor.evaluation.results import EvalReport

_HOSTILE_QUERY = 'What is <script>alert("x")</script> & co?'
_HOSTILE_ANSWER = "It is <b>bold</b> [1].\nSecond line."


def _report() -> EvalReport:
    report = make_report()
    cases = list(report.cases)
    cases[1] = cases[1].model_copy(update={"query": _HOSTILE_QUERY, "answer": _HOSTILE_ANSWER})
    return report.model_copy(update={"cases": cases})


def _gate() -> GateResult:
    row = GateRow("retrieval.ndcg@5", "retrieval", 0.9, 0.55, -0.35, 0.02, "wilcoxon", 2,
                  0.004, "> 0.6", "regressed", True, False)  # fmt: skip
    return GateResult([row], failed=True, baseline_run_id="base1234", alpha=0.05)


def test_the_page_is_escaped_and_holds_the_failed_cases() -> None:
    page = render_html(_report(), gate=_gate())
    assert "<script" not in page  # the query's markup is text
    assert "What is &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co?" in page
    assert "It is &lt;b&gt;bold&lt;/b&gt; [1].\nSecond line." in page
    failed = page.split("<h2>Failed cases</h2>", 1)[1]
    assert "3 of 4 cases failed" in failed
    assert "retrieval: no relevant item in the top 5" in failed
    assert "connection refused | reset" in failed and "(no answer)" in failed


def test_the_gate_verdict_and_rows_as_the_gate_exposes_them() -> None:
    page = render_html(_report(), gate=_gate())
    gate = page.split("<h2>Regression gate</h2>", 1)[1].split("<h2>", 1)[0]
    assert '<p class="verdict failed">GATE FAILED: 1 metric regressed, 1 missed its target' in gate
    assert "<th>metric</th><th>perspective</th><th>baseline</th>" in gate
    assert '<tr class="failed"><td>retrieval.ndcg@5</td>' in gate
    assert ">regressed<" in gate and ">wilcoxon<" in gate
    assert "did not run" in render_html(_report())


def test_the_written_page_is_self_contained(tmp_path: Path) -> None:
    paths = write_reports(_report(), tmp_path, name="r", gate=_gate())
    assert paths.html is not None
    page = paths.html.read_text(encoding="utf-8")
    images = re.findall(r'<img alt="[^"]*" src="([^"]*)"', page)
    assert len(images) == len(paths.plots) == 4
    assert all(src.startswith("data:image/png;base64,iVBORw0KGgo") for src in images)
    assert f'content="{CSP.replace(chr(39), "&#x27;")}"' in page
    # nothing to fetch: no external URL in any src/href, no script, no stylesheet link
    assert not re.search(r'(src|href)="(?!data:)', page)
    assert "<script" not in page and "<link" not in page
    headline = page.split("<h2>Headline metrics</h2>", 1)[1].split("<h2>", 1)[0]
    assert "<th>95% CI</th>" in headline
    assert '<td>operational.error_rate</td><td class="num">0.250</td><td>[0.0456, 0.699]</td>' in (
        headline
    )


_CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium(profile: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [
            str(_CHROMIUM),
            "--headless",
            "--no-sandbox",  # runs as root in CI
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND",  # no network, should the page ask
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )


@pytest.mark.skipif(_CHROMIUM is None, reason="chromium is installed by `make test`")
def test_chromium_renders_the_tables_and_the_images(tmp_path: Path) -> None:
    from matplotlib.image import imread

    paths = write_reports(_report(), tmp_path / "out", name="r", gate=_gate())
    assert paths.html is not None
    url = paths.html.resolve().as_uri()
    dom = _chromium(tmp_path / "profile-dom", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr.decode(errors="replace")[-2000:]
    text = dom.stdout.decode()
    assert text.count("<table>") >= 6  # run, gate, headline, perspectives, metrics, failed
    assert "GATE FAILED" in text and "What is &lt;script&gt;" in text
    assert len(re.findall(r'<img alt="[^"]*" src="data:image/png;base64,', text)) == 4
    shot = tmp_path / "page.png"
    done = _chromium(
        tmp_path / "profile-shot", "--window-size=1300,3000", f"--screenshot={shot}", url
    )
    assert done.returncode == 0 and shot.exists(), done.stderr.decode(errors="replace")[-2000:]
    pixels = imread(shot)[:, :, :3]
    assert pixels.shape[:2] == (3000, 1300)
    white = (pixels > 0.97).all(axis=2).mean()
    assert white < 0.97  # not blank: text, table rules and plots

    # the gate verdict's red background (#ffebee) and the plots' bar colours show that
    # the styles applied and the embedded images were decoded and drawn
    def share(rgb: tuple[int, int, int]) -> float:
        target = [c / 255 for c in rgb]
        return float((abs(pixels - target) < 0.02).all(axis=2).mean())

    assert share((0xFF, 0xEB, 0xEE)) > 0.001  # failed rows / verdict
    assert share((0x78, 0x90, 0x9C)) > 0.001  # grey "no target" bars of the metrics plot
    assert share((0xC6, 0x28, 0x28)) > 0.0001  # a red "target missed" bar
