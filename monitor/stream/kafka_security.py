"""How every Kafka client of ragmon authenticates and encrypts: one function,
:func:`security_options`, builds the TLS context and the SASL options from the settings;
the aiokafka clients (:func:`monitor.stream.kafka.client_options`) and the faust app
(:func:`faust_credentials`) both take theirs from it.

>>> security_options(Settings())
{'security_protocol': 'PLAINTEXT'}
>>> options = security_options(Settings(kafka_security_protocol="SASL_SSL",
...     kafka_sasl_mechanism="SCRAM-SHA-512", kafka_sasl_username="monitor",
...     kafka_sasl_password="hunter2"))
>>> options["sasl_mechanism"], options["ssl_context"].check_hostname
('SCRAM-SHA-512', True)
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any

from monitor.config import Settings
from monitor.errors import ConfigError
from monitor.stream.oauth_token import OAuthTokenProvider

__all__ = ["faust_credentials", "security_options", "ssl_context"]


def ssl_context(settings: Settings) -> ssl.SSLContext:
    """The client TLS context: the configured CA bundle (else the system's), the client
    certificate and key when set, hostname verification as configured (the certificate
    chain is always verified). A file that cannot be loaded is a one-line ``ConfigError``."""
    cafile = settings.kafka_ssl_cafile
    try:
        context = ssl.create_default_context(
            ssl.Purpose.SERVER_AUTH, cafile=str(cafile) if cafile else None
        )
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(f"MONITOR_KAFKA_SSL_CAFILE {cafile}: {_reason(exc)}") from None
    context.check_hostname = settings.kafka_ssl_check_hostname
    certfile = settings.kafka_ssl_certfile
    if certfile is not None:
        keyfile = settings.kafka_ssl_keyfile
        password = settings.kafka_ssl_key_password
        secret = password.get_secret_value() if password else ""
        try:
            # a callable, never None: OpenSSL would otherwise ask for the passphrase of an
            # encrypted key on the terminal
            context.load_cert_chain(
                str(certfile), str(keyfile) if keyfile else None, lambda: secret
            )
        except (OSError, ssl.SSLError) as exc:
            files = f"{certfile}" + (f" / {keyfile}" if keyfile else "")
            reason = _reason(exc)
            if isinstance(exc, ssl.SSLError) and _encrypted(keyfile or certfile):
                reason = (
                    "cannot decrypt the key (wrong MONITOR_KAFKA_SSL_KEY_PASSWORD?)"
                    if password
                    else "the key is encrypted: set MONITOR_KAFKA_SSL_KEY_PASSWORD"
                )
            raise ConfigError(f"MONITOR_KAFKA_SSL_CERTFILE/KEYFILE {files}: {reason}") from None
    return context


def _encrypted(path: Path) -> bool:
    """Whether a PEM file holds an encrypted private key."""
    try:
        text = path.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    return "ENCRYPTED PRIVATE KEY" in text or "Proc-Type: 4,ENCRYPTED" in text


def _reason(exc: OSError | ssl.SSLError) -> str:
    """A short reason for a file that cannot be loaded (never the key password)."""
    if isinstance(exc, ssl.SSLError):
        return f"not a usable PEM certificate and key ({exc.reason or exc})"
    return exc.strerror or type(exc).__name__


def token_provider(settings: Settings) -> OAuthTokenProvider:
    command = settings.kafka_sasl_oauth_token_command
    return OAuthTokenProvider(
        file=Path(settings.kafka_sasl_oauth_token_file)
        if settings.kafka_sasl_oauth_token_file
        else None,
        command=command.get_secret_value() if command else None,
        refresh_s=settings.kafka_sasl_oauth_token_refresh_s,
    )


def security_options(settings: Settings) -> dict[str, Any]:
    """aiokafka keyword arguments for the security protocol, TLS and SASL of ``settings``."""
    protocol = settings.kafka_security_protocol
    options: dict[str, Any] = {"security_protocol": protocol}
    if protocol in ("SSL", "SASL_SSL"):
        options["ssl_context"] = ssl_context(settings)
    if protocol.startswith("SASL"):
        mechanism = settings.kafka_sasl_mechanism
        options["sasl_mechanism"] = mechanism
        if mechanism == "OAUTHBEARER":
            options["sasl_oauth_token_provider"] = token_provider(settings)
        else:
            password = settings.kafka_sasl_password
            options["sasl_plain_username"] = settings.kafka_sasl_username
            options["sasl_plain_password"] = password.get_secret_value() if password else None
    return options


def faust_credentials(settings: Settings) -> dict[str, Any]:
    """``faust.App`` keyword arguments (``broker_credentials``) for the same connection.

    >>> faust_credentials(Settings())
    {}
    """
    import faust

    options = security_options(settings)
    protocol = settings.kafka_security_protocol
    context = options.get("ssl_context")
    if protocol == "SSL":
        return {"broker_credentials": faust.SSLCredentials(context)}
    if protocol.startswith("SASL"):
        if settings.kafka_sasl_mechanism == "OAUTHBEARER":
            oauth = faust.OAuthCredentials(
                oauth_cb=options["sasl_oauth_token_provider"], ssl_context=context
            )
            return {"broker_credentials": oauth}
        sasl = faust.SASLCredentials(
            username=options["sasl_plain_username"],
            password=options["sasl_plain_password"],
            ssl_context=context,
            mechanism=options["sasl_mechanism"],
        )
        return {"broker_credentials": sasl}
    return {}
