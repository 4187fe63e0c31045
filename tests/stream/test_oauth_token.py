"""OAUTHBEARER tokens from a file (read at every connection) or a command (cached)."""

from __future__ import annotations

import asyncio
import base64
import sys
import time
from pathlib import Path

import orjson
import pytest

from monitor.errors import ConfigError
from monitor.stream.oauth_token import OAuthTokenProvider, jwt_expiry_s


def _counting_command(tmp_path: Path, token_expr: str) -> tuple[str, Path]:
    """A command printing ``token_expr`` (a Python expression) and counting its runs."""
    counter = tmp_path / "runs"
    script = tmp_path / "mint.py"
    script.write_text(
        "import pathlib, sys\n"
        f"c = pathlib.Path({str(counter)!r})\n"
        "c.write_text(str(int(c.read_text() or 0) + 1) if c.exists() else '1')\n"
        f"print({token_expr})\n"
    )
    return f"{sys.executable} {script}", counter


def _jwt(exp_s: float) -> str:
    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(orjson.dumps(data)).rstrip(b"=").decode()

    return f"{part({'alg': 'none'})}.{part({'exp': exp_s, 'sub': 'ragmon'})}.sig"


def test_a_token_file_is_read_again_at_every_connection(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("first-token\n")
    provider = OAuthTokenProvider(file=path)
    assert asyncio.run(provider.token()) == "first-token"
    path.write_text("rotated-token")  # a sidecar rotates the token
    assert asyncio.run(provider.token()) == "rotated-token"


def test_a_missing_or_empty_token_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"token file .*missing: No such file or directory$"):
        asyncio.run(OAuthTokenProvider(file=tmp_path / "missing").token())
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ConfigError, match=r"token file .*empty is empty$"):
        asyncio.run(OAuthTokenProvider(file=tmp_path / "empty").token())


def test_a_command_token_is_cached_for_refresh_s(tmp_path: Path) -> None:
    command, runs = _counting_command(tmp_path, "'opaque-token'")

    async def twice(provider: OAuthTokenProvider) -> list[str]:
        return [await provider.token(), await provider.token()]

    assert asyncio.run(twice(OAuthTokenProvider(command=command))) == ["opaque-token"] * 2
    assert runs.read_text() == "1"
    # refresh_s elapsed (a tiny one here): the command runs again
    provider = OAuthTokenProvider(command=command, refresh_s=1e-6)
    asyncio.run(twice(provider))
    assert runs.read_text() == "3"


def test_a_jwt_from_a_command_is_refreshed_before_it_expires(tmp_path: Path) -> None:
    # expires in 10 s, inside the 30 s margin: never served from the cache
    soon = _jwt(time.time() + 10)
    command, runs = _counting_command(tmp_path, repr(soon))
    provider = OAuthTokenProvider(command=command, refresh_s=3600)

    async def twice() -> list[str]:
        return [await provider.token(), await provider.token()]

    assert asyncio.run(twice()) == [soon, soon]
    assert runs.read_text() == "2"
    assert jwt_expiry_s(soon) == pytest.approx(time.time() + 10, abs=2)


def test_a_failing_command_is_one_line_without_its_arguments(tmp_path: Path) -> None:
    secret_arg = "--client-secret=s3cr3t"
    command = f"{sys.executable} -c 'import sys; sys.exit(3)' {secret_arg}"
    with pytest.raises(ConfigError) as info:
        asyncio.run(OAuthTokenProvider(command=command).token())
    message = str(info.value)
    assert message == f"OAUTHBEARER token command {Path(sys.executable).name} exited with 3"
    assert "s3cr3t" not in message
    with pytest.raises(ConfigError, match="printed no token"):
        asyncio.run(OAuthTokenProvider(command=f"{sys.executable} -c pass").token())
    with pytest.raises(ConfigError, match="token command no-such-program-ragmon: No such file"):
        asyncio.run(OAuthTokenProvider(command="no-such-program-ragmon --x").token())


def test_exactly_one_source() -> None:
    with pytest.raises(ConfigError, match="exactly one"):
        OAuthTokenProvider()
    with pytest.raises(ConfigError, match="exactly one"):
        OAuthTokenProvider(file=Path("t"), command="echo t")
