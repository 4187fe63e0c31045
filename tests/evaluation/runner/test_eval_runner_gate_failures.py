def bm25_events(path: Path) -> Path:
    """The recorded fixture with BM25-like scores (x 15), no declared scale."""
    with path.open("w") as out:
        for line in RECORDED.read_text().splitlines():
            event = json.loads(line)
            for chunk in event.get("chunks", []):
                chunk["score"] = round(chunk.get("score", 0.0) * 15.0, 3)
                chunk.pop("rerank_score", None)
            out.write(json.dumps(event) + "\n")
    return path


def test_undeclared_score_scales_are_a_line_of_the_report_and_a_setting_fixes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = bm25_events(tmp_path / "bm25.jsonl")
    code, raw = run_eval(tmp_path, "raw", str(data))
    out = capsys.readouterr().out
    assert code == 0
    warned = [c for c in raw.cases if "score_warning" in c.signals]
    assert warned, "BM25 scores with no declared scale must warn"
    line = next(line for line in out.splitlines() if line.startswith("score scale warning"))
    assert line.startswith(f"score scale warning on {len(warned)} of {len(raw.cases)} cases (")
    assert "no scale declared" in line
    assert "| Score scales | score scale warning on" in (tmp_path / "reports/raw.md").read_text()
    quality = raw.metrics["quality.overall"].value
    assert quality is not None and quality > 1.0  # spec 000 on raw BM25: out of its range

    monkeypatch.setenv("MONITOR_SCORE_SCALE", "bm25")
    code, fixed = run_eval(tmp_path, "fixed", str(data))
    out = capsys.readouterr().out
    assert code == 0 and "score scale warning" not in out
    assert fixed.config["score_scale"] == "bm25"
    assert not any("score_warning" in c.signals for c in fixed.cases)
    quality = fixed.metrics["quality.overall"].value
    assert quality is not None and 0.0 <= quality <= 1.0
