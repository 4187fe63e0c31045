"""SASL/OAUTHBEARER tokens for the Kafka clients: read from a file or printed by a command.

A file is read again at every new connection, so a token rotated on disk by a sidecar
(a Kubernetes projected service-account token, an agent refreshing an Azure or AWS token)
is picked up without a restart. A command (run without a shell, its standard output
stripped is the token) is cached ``refresh_s``, and never past 30 s before the ``exp`` of
a JWT, so a command that mints a token per call is not run at every reconnection.

The token is a secret: it appears in no error message and no log line.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import shlex
import time
from pathlib import Path

import orjson
from aiokafka.abc import AbstractTokenProvider

from monitor.errors import ConfigError

__all__ = ["OAuthTokenProvider", "jwt_expiry_s"]

EXPIRY_MARGIN_S = 30.0
COMMAND_TIMEOUT_S = 30.0


def jwt_expiry_s(token: str) -> float | None:
    """The ``exp`` claim (Unix seconds) of a JWT, or None for an opaque token.

    >>> payload = base64.urlsafe_b64encode(b'{"exp": 1700000000}').rstrip(b"=").decode()
    >>> jwt_expiry_s(f"e30.{payload}.sig"), jwt_expiry_s("opaque-token")
    (1700000000.0, None)
    """
    parts = token.split(".")
    if len(parts) != 3:
        return None
    try:
        claims = orjson.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, binascii.Error, orjson.JSONDecodeError):
        return None
    exp = claims.get("exp") if isinstance(claims, dict) else None
    return float(exp) if isinstance(exp, int | float) and not isinstance(exp, bool) else None


class OAuthTokenProvider(AbstractTokenProvider):  # type: ignore[misc]
    """aiokafka's token provider for ``sasl_mechanism="OAUTHBEARER"``."""

    def __init__(
        self, *, file: Path | None = None, command: str | None = None, refresh_s: float = 300.0
    ) -> None:
        if (file is None) == (command is None):
            raise ConfigError("an OAUTHBEARER token needs exactly one of a file and a command")
        self.file = file
        self.argv = shlex.split(command) if command is not None else []
        if command is not None and not self.argv:
            raise ConfigError("MONITOR_KAFKA_SASL_OAUTH_TOKEN_COMMAND is empty")
        self.refresh_s = refresh_s
        self._cached: tuple[str, float] | None = None  # token, monotonic time it expires

    async def token(self) -> str:
        if self.file is not None:
            return self._read_file(self.file)
        now = time.monotonic()
        if self._cached is not None and now < self._cached[1]:
            return self._cached[0]
        token = await self._run_command()
        expires = now + self.refresh_s
        exp = jwt_expiry_s(token)
        if exp is not None:
            expires = min(expires, now + (exp - time.time()) - EXPIRY_MARGIN_S)
        self._cached = (token, expires)
        return token

    @staticmethod
    def _read_file(path: Path) -> str:
        try:
            token = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "unreadable"
            raise ConfigError(f"OAUTHBEARER token file {path}: {reason}") from None
        if not token:
            raise ConfigError(f"OAUTHBEARER token file {path} is empty")
        return token

    async def _run_command(self) -> str:
        name = Path(self.argv[0]).name  # the program only: its arguments may hold secrets
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
            )
        except OSError as exc:
            raise ConfigError(f"OAUTHBEARER token command {name}: {exc.strerror}") from None
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), COMMAND_TIMEOUT_S)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise ConfigError(
                f"OAUTHBEARER token command {name} did not finish in {COMMAND_TIMEOUT_S:.0f} s"
            ) from None
        if proc.returncode != 0:
            raise ConfigError(f"OAUTHBEARER token command {name} exited with {proc.returncode}")
        token = out.decode("utf-8", "replace").strip()
        if not token:
            raise ConfigError(f"OAUTHBEARER token command {name} printed no token")
        return token
