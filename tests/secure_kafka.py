"""Secured Kafka for the tests: throwaway certificates, and a TLS + SASL front for the
embedded broker.

Why a front: the embedded Tansu 0.6.0 cannot serve TLS or complete a SASL login itself.
Its ``--cert``/``--key`` flags are one clap group (mutually exclusive: both cannot be
given) and the broker never uses its ``TlsAcceptor`` (``let _acceptor`` in
tansu-broker/src/broker.rs); with ``--authentication`` it offers SCRAM-SHA-256/512 only,
and its storage engine in this build (dynostore, memory) stores no SCRAM credentials
(``upsert_user_scram_credential`` is a no-op, ``user_scram_credential`` returns None), so
every login fails. The tests therefore put this front on loopback: it terminates TLS
(server certificate, optionally a required client certificate) and runs the broker side of
SASL/SCRAM-SHA-256, SCRAM-SHA-512 (RFC 5802 / RFC 7677: salted PBKDF2 credentials, client
proof checked, server signature sent) and OAUTHBEARER (RFC 7628: the bearer token must be
one of the accepted ones) on the Kafka protocol (SaslHandshake v1, SaslAuthenticate v0/v1),
forwards ApiVersions before the login, and after a successful login relays the connection
to the broker byte for byte. The client side (aiokafka, faust) is the production code,
unchanged; the server side of SASL is this test code, not a Kafka broker.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime
import hashlib
import hmac
import ipaddress
import os
import ssl
import struct
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from monitor.stream.broker import EmbeddedBroker, free_port

__all__ = ["KafkaFront", "Pki", "SecuredKafka", "make_pki", "secured_kafka"]

SASL_AUTHENTICATION_FAILED = 58
UNSUPPORTED_SASL_MECHANISM = 33
ILLEGAL_SASL_STATE = 34


# --- certificates -----------------------------------------------------------------------


@dataclass(frozen=True)
class Pki:
    """A CA, a server certificate it signed, a client certificate it signed (its key
    encrypted with ``key_password``), and an unrelated CA (an untrusted issuer)."""

    ca_file: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    key_password: str
    other_ca_file: Path


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _ca(cn: str) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(cn))
        .issuer_name(_name(cn))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                crl_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    return cert, key


def _leaf(
    ca: x509.Certificate,
    ca_key: ec.EllipticCurvePrivateKey,
    cn: str,
    names: Sequence[str],
    usage: x509.ObjectIdentifier,
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    sans: list[x509.GeneralName] = []
    for n in names:
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(n)))
        except ValueError:
            sans.append(x509.DNSName(n))
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(cn))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False
        )
    )
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    return builder.sign(ca_key, hashes.SHA256()), key


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def _key_pem(key: ec.EllipticCurvePrivateKey, password: str | None = None) -> bytes:
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(password.encode())
        if password
        else serialization.NoEncryption()
    )
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
    )


def make_pki(directory: Path, server_names: Sequence[str] = ("localhost", "127.0.0.1")) -> Pki:
    """Write a throwaway PKI under ``directory``; the server certificate names
    ``server_names`` (DNS names or IP addresses)."""
    directory.mkdir(parents=True, exist_ok=True)
    ca, ca_key = _ca("ragmon test CA")
    other, _ = _ca("some other CA")
    server, server_key = _leaf(ca, ca_key, "kafka", server_names, ExtendedKeyUsageOID.SERVER_AUTH)
    client, client_key = _leaf(ca, ca_key, "ragmon", (), ExtendedKeyUsageOID.CLIENT_AUTH)
    password = base64.b32encode(os.urandom(10)).decode()
    files = {
        "ca.pem": _pem(ca),
        "other-ca.pem": _pem(other),
        "server.pem": _pem(server),
        "server.key": _key_pem(server_key),
        "client.pem": _pem(client),
        "client.key": _key_pem(client_key, password),
    }
    for name, data in files.items():
        (directory / name).write_bytes(data)
    return Pki(
        ca_file=directory / "ca.pem",
        server_cert=directory / "server.pem",
        server_key=directory / "server.key",
        client_cert=directory / "client.pem",
        client_key=directory / "client.key",
        key_password=password,
        other_ca_file=directory / "other-ca.pem",
    )


# --- the broker side of SASL ------------------------------------------------------------


class _Scram:
    """The server side of one SCRAM exchange (RFC 5802), credentials salted per user."""

    def __init__(self, mechanism: str, users: dict[str, str]) -> None:
        self.hash = "sha256" if mechanism == "SCRAM-SHA-256" else "sha512"
        self.users = users
        self.step = 0
        self.stored_key = self.server_key = b""
        self.nonce = self.first_bare = self.server_first = ""

    def _h(self, data: bytes) -> bytes:
        return hashlib.new(self.hash, data).digest()

    def _hmac(self, key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, self.hash).digest()

    def respond(self, message: bytes) -> tuple[bytes, bool] | None:
        """(answer, finished), or None when the login fails."""
        text = message.decode()
        if self.step == 0:
            if not text.startswith("n,"):
                return None
            self.first_bare = text.split(",", 2)[2]
            attrs = dict(a.split("=", 1) for a in self.first_bare.split(","))
            password = self.users.get(attrs.get("n", ""))
            if password is None:
                return None
            salt, iterations = os.urandom(16), 4096
            salted = hashlib.pbkdf2_hmac(self.hash, password.encode(), salt, iterations)
            self.stored_key = self._h(self._hmac(salted, b"Client Key"))
            self.server_key = self._hmac(salted, b"Server Key")
            self.nonce = attrs["r"] + base64.b64encode(os.urandom(18)).decode()
            self.server_first = f"r={self.nonce},s={base64.b64encode(salt).decode()},i={iterations}"
            self.step = 1
            return self.server_first.encode(), False
        without_proof, _, proof = text.rpartition(",p=")
        attrs = dict(a.split("=", 1) for a in without_proof.split(","))
        if attrs.get("r") != self.nonce:
            return None
        auth_message = f"{self.first_bare},{self.server_first},{without_proof}".encode()
        signature = self._hmac(self.stored_key, auth_message)
        client_key = bytes(a ^ b for a, b in zip(base64.b64decode(proof), signature, strict=True))
        if not hmac.compare_digest(self._h(client_key), self.stored_key):
            return None
        verifier = base64.b64encode(self._hmac(self.server_key, auth_message)).decode()
        return f"v={verifier}".encode(), True


def _oauth_token(message: bytes) -> str | None:
    """The bearer token of an OAUTHBEARER initial client response (RFC 7628)."""
    for part in message.split(b"\x01"):
        if part.startswith(b"auth=Bearer "):
            return part[len(b"auth=Bearer ") :].decode()
    return None


async def _read_frame(reader: asyncio.StreamReader) -> bytes | None:
    try:
        (size,) = struct.unpack(">i", await reader.readexactly(4))
        return await reader.readexactly(size)
    except (asyncio.IncompleteReadError, ConnectionError):
        return None


def _frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def _string(value: str | None) -> bytes:
    if value is None:
        return struct.pack(">h", -1)
    data = value.encode()
    return struct.pack(">h", len(data)) + data


class KafkaFront:
    """A TLS (and optionally SASL) front on ``127.0.0.1:port`` for a broker on
    ``127.0.0.1:upstream_port``, served from its own thread; use as a context manager.

    ``scram_users`` (name -> password) enables SCRAM-SHA-256 and -512, ``oauth_tokens``
    OAUTHBEARER; with neither, the connection is relayed as soon as TLS is up.
    ``client_ca`` set: a client certificate signed by it is required (mutual TLS).
    """

    def __init__(
        self,
        upstream_port: int,
        *,
        cert: Path,
        key: Path,
        port: int | None = None,
        client_ca: Path | None = None,
        scram_users: dict[str, str] | None = None,
        oauth_tokens: set[str] | None = None,
    ) -> None:
        self.upstream_port = upstream_port
        self.port = port or free_port()
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(str(cert), str(key))
        if client_ca is not None:
            self.context.verify_mode = ssl.CERT_REQUIRED
            self.context.load_verify_locations(str(client_ca))
        self.scram_users = scram_users or {}
        self.oauth_tokens = oauth_tokens or set()
        self.mechanisms = (["SCRAM-SHA-256", "SCRAM-SHA-512"] if self.scram_users else []) + (
            ["OAUTHBEARER"] if self.oauth_tokens else []
        )
        self.logins: list[tuple[str, bool]] = []  # (mechanism, succeeded), in order
        self.refused = 0  # connections that sent a request other than a login before one
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    def start(self) -> KafkaFront:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            loop.set_exception_handler(lambda _loop, _context: None)  # failed handshakes
            try:
                loop.run_until_complete(self._serve(ready))
            except BaseException as exc:  # pragma: no cover - reported by start()
                failure.append(exc)
                ready.set()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="kafka-front", daemon=True)
        self._thread.start()
        ready.wait(10)
        if failure:
            raise failure[0]
        return self

    async def _serve(self, ready: threading.Event) -> None:
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, ssl=self.context)
        ready.set()
        async with server:
            await self._stop.wait()
            server.close()
            for writer in list(self._writers):
                writer.close()
            await asyncio.sleep(0.05)

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(10)
        self._thread = None

    def __enter__(self) -> KafkaFront:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.close()
            self._writers.discard(writer)
            return
        self._writers.add(up_writer)
        try:
            if self.mechanisms and not await self._login(reader, writer, up_reader, up_writer):
                return
            await asyncio.gather(_relay(reader, up_writer), _relay(up_reader, writer))
        except (ConnectionError, ssl.SSLError):
            pass
        finally:
            for w in (writer, up_writer):
                w.close()
                self._writers.discard(w)

    async def _login(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        up_reader: asyncio.StreamReader,
        up_writer: asyncio.StreamWriter,
    ) -> bool:
        """Serve requests until a SASL login succeeds (True) or fails or breaks (False)."""
        mechanism: str | None = None
        scram: _Scram | None = None
        while True:
            frame = await _read_frame(reader)
            if frame is None:
                return False
            api_key, api_version, correlation_id = struct.unpack(">hhi", frame[:8])
            (client_id_len,) = struct.unpack(">h", frame[8:10])
            body = frame[10 + max(client_id_len, 0) :]
            head = struct.pack(">i", correlation_id)
            if api_key == 18:  # ApiVersions: allowed before a login, answered by the broker
                up_writer.write(_frame(frame))
                await up_writer.drain()
                answer = await _read_frame(up_reader)
                if answer is None:
                    return False
                writer.write(_frame(answer))
                await writer.drain()
            elif api_key == 17 and api_version == 1:  # SaslHandshake
                (n,) = struct.unpack(">h", body[:2])
                wanted = body[2 : 2 + n].decode()
                error = 0 if wanted in self.mechanisms else UNSUPPORTED_SASL_MECHANISM
                names = b"".join(_string(m) for m in self.mechanisms)
                answer = head + struct.pack(">hi", error, len(self.mechanisms)) + names
                writer.write(_frame(answer))
                await writer.drain()
                if error:
                    return False
                mechanism = wanted
                scram = _Scram(wanted, self.scram_users) if wanted.startswith("SCRAM") else None
            elif api_key == 36 and api_version in (0, 1) and mechanism is not None:
                (n,) = struct.unpack(">i", body[:4])
                message = body[4 : 4 + n]
                if scram is not None:
                    outcome = scram.respond(message)
                else:
                    token = _oauth_token(message)
                    outcome = (b"", True) if token in self.oauth_tokens else None
                if outcome is None:
                    reason = f"Authentication failed: invalid credentials with {mechanism}"
                    payload = struct.pack(">h", SASL_AUTHENTICATION_FAILED) + _string(reason)
                    payload += struct.pack(">i", 0)
                else:
                    payload = struct.pack(">h", 0) + _string(None)
                    payload += struct.pack(">i", len(outcome[0])) + outcome[0]
                if api_version == 1:
                    payload += struct.pack(">q", 0)
                writer.write(_frame(head + payload))
                await writer.drain()
                if outcome is None:
                    self.logins.append((mechanism, False))
                    return False
                if outcome[1]:
                    self.logins.append((mechanism, True))
                    return True
            else:  # anything else before a login: the connection is closed, as Kafka does
                self.refused += 1
                return False


async def _relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


# --- a secured broker: Tansu behind a front ---------------------------------------------


@dataclass
class SecuredKafka:
    broker: EmbeddedBroker
    front: KafkaFront
    pki: Pki

    @property
    def bootstrap_servers(self) -> str:
        return f"127.0.0.1:{self.front.port}"


@contextlib.contextmanager
def secured_kafka(
    directory: Path,
    *,
    server_names: Sequence[str] = ("localhost", "127.0.0.1"),
    require_client_cert: bool = False,
    scram_users: dict[str, str] | None = None,
    oauth_tokens: set[str] | None = None,
) -> Iterator[SecuredKafka]:
    """An embedded broker reachable only through a TLS (+ SASL) front, which it advertises
    to clients; both stopped on exit."""
    pki = make_pki(directory, server_names)
    front_port = free_port()
    with EmbeddedBroker(log_path=directory / "broker.log", advertised_port=front_port) as broker:
        front = KafkaFront(
            broker.port,
            cert=pki.server_cert,
            key=pki.server_key,
            port=front_port,
            client_ca=pki.ca_file if require_client_cert else None,
            scram_users=scram_users,
            oauth_tokens=oauth_tokens,
        )
        with front:
            yield SecuredKafka(broker, front, pki)
