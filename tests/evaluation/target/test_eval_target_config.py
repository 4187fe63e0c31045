"""load_target_config and TargetConfig's checks: every error names the file, line and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monitor.evaluation.datasets.case import EvalCase
from monitor.evaluation.target.config_file import load_target_config
from monitor.evaluation.target.errors import TargetConfigError
from monitor.evaluation.target.request_template import DEFAULT_REQUEST_TEMPLATE, render_request
from monitor.evaluation.target.target_config import TargetConfig

URL = "http://127.0.0.1:8000/query"
SECRET = "sk-live-0123456789abcdef"


def write(tmp_path: Path, content: Any) -> Path:
    path = tmp_path / "target.json"
    text = content if isinstance(content, str) else json.dumps(content, indent=1)
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, content: Any, url: str = URL) -> str:
    path = write(tmp_path, content)
    with pytest.raises(TargetConfigError) as caught:
        load_target_config(path, url)
    message = str(caught.value)
    assert "\n" not in message and SECRET not in message
    return message.replace(str(path), "target.json")


def test_a_good_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {
            "request_template": {"input": {"q": "{{query}}", "roles": "{{user_roles}}"}},
            "response_map": {"response.text": "data.0.answer", "chunks": "data.0.passages"},
            "headers": {"Authorization": f"Bearer {SECRET}"},
            "concurrency": 3,
            "timeout_s": 12,
            "max_retries": 0,
        },
    )
    config = load_target_config(path, URL)
    assert config.url == URL
    assert config.request_template == {"input": {"q": "{{query}}", "roles": "{{user_roles}}"}}
    assert config.response_map["response.text"] == "data.0.answer"
    assert config.headers == {"Authorization": f"Bearer {SECRET}"}
    assert (config.concurrency, config.timeout_s, config.max_retries) == (3, 12, 0)
    assert (config.backoff_base_s, config.backoff_max_s) == (0.2, 5.0)
    assert SECRET not in repr(config) and SECRET not in str(config)


def test_every_key_is_optional(tmp_path: Path) -> None:
    config = load_target_config(write(tmp_path, {}), URL)
    assert config == TargetConfig(URL)
    assert config.request_template == dict(DEFAULT_REQUEST_TEMPLATE)
    assert (config.response_map, config.headers) == ({}, {})
    assert (config.concurrency, config.timeout_s, config.max_retries) == (8, 30.0, 2)


def test_an_unknown_key(tmp_path: Path) -> None:
    message = load_error(tmp_path, '{\n "concurrency": 2,\n "timeout": 5\n}')
    assert message.startswith("target.json:3: field timeout: unknown field (known: ")


def test_bad_json_gives_the_line(tmp_path: Path) -> None:
    message = load_error(tmp_path, '{\n "concurrency": 2,\n "timeout_s": 5,,\n}')
    assert message.startswith("target.json:3: invalid JSON: ")


def test_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(TargetConfigError, match=r"nope\.json: cannot read: "):
        load_target_config(path, URL)


def test_not_an_object(tmp_path: Path) -> None:
    assert load_error(tmp_path, "[1]") == "target.json:1: expected a JSON object, got an array"


def test_an_unknown_placeholder(tmp_path: Path) -> None:
    content = {"request_template": {"question": "{{query}}", "meta": ["x", "id {{caseid}}"]}}
    message = load_error(tmp_path, content)
    assert message.startswith(
        "target.json:6: field request_template.meta.1: unknown placeholder {{caseid}} (known:"
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            {"concurrency": "8"},
            "target.json:2: field concurrency: must be an integer, got a string",
        ),
        ({"concurrency": True}, "target.json:2: field concurrency: must be an integer"),
        ({"concurrency": 0}, "target.json:2: field concurrency: must be an integer >= 1"),
        ({"timeout_s": 0}, "target.json:2: field timeout_s: must be a number > 0"),
        ({"max_retries": -1}, "target.json:2: field max_retries: must be an integer >= 0"),
        ({"headers": {"Authorization": 5}}, "field headers.Authorization: must be a string"),
        ({"headers": {"Bad Name": SECRET}}, "field headers.Bad Name: not a valid header name"),
        ({"headers": {"X-Key": SECRET + "\n"}}, "field headers.X-Key: the value holds a line"),
        ({"headers": []}, "field headers: must be a JSON object, got an array"),
        ({"response_map": {"response.txt": "a"}}, "did you mean response.text?"),
        ({"response_map": {"event_id": "id"}}, "event_id is filled by ragmon"),
        ({"response_map": {"response.text": 1}}, "field response_map.response.text: must be a"),
        ({"response_map": {"response.text": "data..a"}}, "not a dotted path"),
        ({"request_template": "{{query}}"}, "field request_template: must be a JSON object"),
    ],
)
def test_wrong_values(tmp_path: Path, content: dict[str, Any], expected: str) -> None:
    assert expected in load_error(tmp_path, content)


@pytest.mark.parametrize(
    "url",
    ["ftp://example.com/q", "http:///query", "127.0.0.1:8000/query", "http://h:99999/q", ""],
)
def test_a_bad_url(tmp_path: Path, url: str) -> None:
    message = load_error(tmp_path, {}, url)
    assert message.startswith("--target: must be an http(s) URL")
    with pytest.raises(ValueError, match=r"^url: must be an http\(s\) URL"):
        TargetConfig(url)


def test_placeholders_keep_their_json_type() -> None:
    case = EvalCase(case_id="q7", query="Quota?", origin="cases.jsonl:7", user_roles=["a", "b"])
    template = {
        "q": "{{query}}",
        "roles": "{{user_roles}}",
        "type": "{{query_type}}",
        "text": "{{case_id}}: {{query}} ({{query_type}}) by {{user_roles}}",
        "nested": [{"id": "{{case_id}}"}, 3, None, True],
    }
    assert render_request(template, case) == {
        "q": "Quota?",
        "roles": ["a", "b"],
        "type": None,
        "text": "q7: Quota? () by a,b",
        "nested": [{"id": "q7"}, 3, None, True],
    }
    assert template["roles"] == "{{user_roles}}"  # the template is not changed


def test_the_config_checks_its_numbers() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"concurrency": 0}, "concurrency: must be an integer >= 1"),
        ({"timeout_s": 0.0}, "timeout_s: must be a number > 0 (seconds)"),
        ({"timeout_s": float("nan")}, "timeout_s: must be a number > 0 (seconds)"),
        ({"max_retries": -1}, "max_retries: must be an integer >= 0"),
        ({"backoff_base_s": -0.1}, "backoff_base_s: must be a number >= 0 (seconds)"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError) as caught:
            TargetConfig(URL, **kwargs)
        assert str(caught.value) == message
