"""One settings object, parsed once (in the CLI) from ``MONITOR_*`` environment variables.

>>> s = Settings(bootstrap_servers="127.0.0.1:9092", kafka_sasl_password="hunter2")
>>> masked(s)["kafka_sasl_password"], masked(s)["events_topic"]
('**********', 'rag.events.v1')
>>> hook = {"name": "oncall", "kind": "slack", "url": "https://hooks.slack.com/services/T/B/x"}
>>> masked(Settings(alert_endpoints=[hook]))["alert_endpoints"][0]["url"]
'https://hooks.slack.com/**********'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict, SettingsError

from monitor.alerts.endpoint import AlertEndpoint
from monitor.alerts.payloads import DEFAULT_DASHBOARD_URL, DEFAULT_RUNBOOK_BASE_URL
from monitor.alerts.signing import check_secret
from monitor.drift.config import DEFAULT_DEGRADATION_METRICS
from monitor.errors import ConfigError
from monitor.events.rag_event import ScoreScale
from monitor.scoring.chunk_cache import DEFAULT_BUDGET_BYTES
from monitor.scoring.score_scale import ScoreScales
from monitor.windows.metric_ids import LATENCY_STAGES, METRIC_IDS, RATE_METRICS

__all__ = [
    "MASK",
    "Settings",
    "kafka_security_problem",
    "load_settings",
    "masked",
    "unknown_ids",
]

MASK = "**********"
_URL_USERINFO = re.compile(r"(?<=://)[^/\s]*@")
_BARE_USERINFO = re.compile(r"(?<![^\s,])[^/\s,:@]+:[^/\s,]*@")


class Settings(BaseSettings):
    """Everything a worker needs. Every field can be set as ``MONITOR_<FIELD>``."""

    model_config = SettingsConfigDict(env_prefix="MONITOR_", extra="ignore", frozen=True)

    # Kafka
    bootstrap_servers: str = "127.0.0.1:9092"
    # `ragmon worker` and `ragmon replay` wait this long for the broker to answer before
    # they give up with one line (exit code 2)
    broker_wait_s: float = Field(default=30.0, ge=0)
    consumer_group: str = "ragmon"
    # Secured Kafka (README "Secured Kafka"): every client of the project (worker, replay,
    # ab, demo, topic creation) connects with these, built by monitor/stream/kafka_security.py
    kafka_security_protocol: Literal["PLAINTEXT", "SASL_PLAINTEXT", "SASL_SSL", "SSL"] = "PLAINTEXT"
    kafka_sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"] = (
        "PLAIN"
    )
    kafka_sasl_username: str | None = None
    kafka_sasl_password: SecretStr | None = None
    # OAUTHBEARER: the token is read from this file at every new connection (a file rotated
    # by a sidecar is picked up), or printed by this command (run without a shell, cached
    # kafka_sasl_oauth_token_refresh_s, or until 30 s before a JWT's exp); exactly one
    kafka_sasl_oauth_token_file: Path | None = None
    kafka_sasl_oauth_token_command: SecretStr | None = None  # may carry a client secret
    kafka_sasl_oauth_token_refresh_s: float = Field(default=300.0, gt=0)
    # TLS (SSL, SASL_SSL): CA bundle (default: the system's), client certificate and key
    # (mutual TLS; the key may be encrypted), and whether the broker's certificate must name
    # the host connected to (the chain is verified either way)
    kafka_ssl_cafile: Path | None = None
    kafka_ssl_certfile: Path | None = None
    kafka_ssl_keyfile: Path | None = None
    kafka_ssl_key_password: SecretStr | None = None
    kafka_ssl_check_hostname: bool = True
    # how long a command waits to connect to Kafka before it says why it cannot (one line)
    kafka_connect_timeout_s: float = Field(default=20.0, gt=0)
    session_timeout_s: float = Field(default=10.0, gt=0)
    heartbeat_interval_s: float = Field(default=2.0, gt=0)

    # Topics (DESIGN section 3)
    events_topic: str = "rag.events.v1"
    scores_topic: str = "rag.scores.v1"
    dlq_topic: str = "rag.events.dlq.v1"
    alerts_topic: str = "rag.alerts.v1"
    ab_results_topic: str = "rag.ab-results.v1"
    topic_partitions: int = Field(default=4, ge=1)
    topic_replication: int = Field(default=1, ge=1)
    # retention.ms of the topics ragmon creates (-1: keep forever), and per topic name
    # (e.g. {"rag.events.v1": 86400000}); a topic that exists already is left as it is
    topic_retention_ms: int = Field(default=604_800_000, ge=-1)
    topic_retention_overrides_ms: dict[str, int] = {}

    # Scoring loop
    max_event_bytes: int = Field(default=1_048_576, ge=1024)
    batch_max_events: int = Field(default=1000, ge=1)
    batch_timeout_ms: int = Field(default=200, ge=1)
    max_message_bytes: int = Field(default=16_777_216, ge=1_048_576)
    chunk_cache_bytes: int = Field(default=DEFAULT_BUDGET_BYTES, ge=0)
    """Budget of the per-chunk analysis cache (:mod:`monitor.scoring.chunk_cache`); 0
    turns it off."""

    # Poison messages (issue 11): event-time bounds, dead-letter size, readiness
    # an event time further than this behind or ahead of the consumer's clock is a dead
    # letter (timestamp_out_of_range); it never moves a window's watermark
    max_event_age_ms: int = Field(default=7 * 86_400_000, ge=0)
    max_event_ahead_ms: int = Field(default=3_600_000, ge=0)
    # a dead letter keeps at most this many bytes of the original message (truncated:
    # true beyond); the default keeps a dead letter under Apache Kafka's 1 MB default limit
    dlq_max_payload_bytes: int = Field(default=700_000, ge=1)
    # /healthz answers 503 after this many consecutive failed batches, or when events are
    # scored but the window watermark has not moved for health_window_stall_s
    health_max_failed_batches: int = Field(default=3, ge=1)
    health_window_stall_s: float = Field(default=300.0, gt=0)

    # OpenTelemetry traces in (issue 16): with otlp_enabled the worker also reads OTLP
    # traces from otlp_topic as the Collector's Kafka exporter writes them (encoding
    # otlp_proto or otlp_json), maps each trace to a RagEvent on events_topic and
    # dead-letters a trace it cannot map (monitor/stream/otlp_bridge.py). A trace is
    # complete otlp_trace_grace_ms after its last span once its root span has arrived,
    # or otlp_trace_max_wait_ms after its first span; at most otlp_max_pending_traces
    # traces of at most otlp_max_spans_per_trace spans wait in memory.
    otlp_enabled: bool = False
    otlp_topic: str = "otlp_spans"
    otlp_encoding: Literal["otlp_proto", "otlp_json"] = "otlp_proto"
    otlp_trace_grace_ms: int = Field(default=2_000, ge=0)
    otlp_trace_max_wait_ms: int = Field(default=30_000, ge=0)
    otlp_max_pending_traces: int = Field(default=10_000, ge=1)
    otlp_max_spans_per_trace: int = Field(default=1_000, ge=1)

    # The worker's own HTTP endpoint (liveness), loopback unless configured otherwise
    web_host: str = "127.0.0.1"
    web_port: int = Field(default=6066, ge=0, le=65535)
    data_dir: Path = Path(".ragmon")

    # Windows (DESIGN section 6): event time, integer milliseconds, half-open [start, end)
    windows_enabled: bool = True  # False: score only (the walking skeleton), for benchmarks
    partials_topic: str = "rag.window-partials.v1"
    windows_topic: str = "rag.windows.v1"
    tumbling_window_ms: int = Field(default=60_000, ge=10)
    hopping_window_ms: int = Field(default=300_000, ge=10)
    hopping_step_ms: int = Field(default=60_000, ge=10)
    allowed_lateness_ms: int = Field(default=10_000, ge=0)
    window_idle_close_s: float = Field(default=30.0, gt=0)
    # a source partition this far behind the newest one no longer holds the watermark
    idle_partition_ms: int = Field(default=60_000, ge=0)
    max_label_values: int = Field(default=20, ge=1)
    # how long event ids are remembered to count a duplicate once (redelivery after a crash
    # or a rebalance is handled by offsets; this catches producer retries)
    dedupe_horizon_ms: int = Field(default=120_000, ge=0)
    # closed windows (in event time) a worker that is not leader keeps ready to publish,
    # should it become leader before the previous leader published them
    handover_horizon_ms: int = Field(default=3_600_000, ge=0)

    # Baselines and detectors: every threshold configurable
    baseline_horizon_ms: int = Field(default=86_400_000, ge=1)
    baseline_min_events: int = Field(default=500, ge=1)
    baseline_min_windows: int = Field(default=3, ge=1)
    baselines: dict[str, float] = {}
    degradation_ratio: float = Field(default=0.85, gt=0, le=1)
    critical_quality: float = 0.4
    rate_thresholds: dict[str, float] = {
        "safety.injection.blocked": 0.05,
        "safety.leakage.detected": 0.01,
        "outcome.no_results": 0.2,
        "outcome.abstained": 0.3,
        "pipeline.dead_letter": 0.01,
    }
    latency_p95_budget_ms: dict[str, float] = {"total": 5000.0}
    rate_min_events: int = Field(default=20, ge=1)
    changepoint_metrics: list[str] = ["quality.overall"]
    adwin_delta: float = Field(default=0.002, gt=0, lt=1)
    page_hinkley_threshold: float = Field(default=50.0, gt=0)
    page_hinkley_delta: float = Field(default=0.005, ge=0)
    page_hinkley_min_instances: int = Field(default=200, ge=1)
    alert_cooldown_ms: int = Field(default=900_000, ge=0)
    # --- Which metrics page on a drop from their learned baseline, and how (issue 12) ---
    # The degradation rule's metrics: spec 000's composite and sub-scores, and the answer's
    # grounding (claim support, citation content validity, answers with an unsupported
    # claim) and abstention. Lower-is-better ones (monitor/drift/direction.py) page above
    # baseline / degradation_ratio and at least degradation_min_rise above the baseline.
    degradation_metrics: list[str] = list(DEFAULT_DEGRADATION_METRICS)
    degradation_min_rise: float = Field(default=0.05, ge=0)
    # True: the conditions of one closed window that share a cause (the roll-ups, the
    # sub-scores of the composite, several rules on one metric) are one notification
    # (monitor/alerts/rules/incidents.py); False: one notification per condition.
    alert_grouping: bool = True
    # Evidence before a page (issue 12): a rule is evaluated on at least this many events
    # (spec 000's rules / p95 budgets; rates: rate_min_events), gathered over the trailing
    # tumbling windows of a series, at most alert_max_span_windows of them; it fires only
    # when the one-sided alert_confidence bound of the value is past the threshold.
    min_window_events: int = Field(default=20, ge=2)
    latency_min_events: int = Field(default=20, ge=2)
    alert_confidence: float = Field(default=0.99, ge=0.5, lt=1)
    alert_max_span_windows: int = Field(default=30, ge=1)
    # Hysteresis: a firing alert resolves when the value is back past its threshold by this
    # fraction of it (means: > threshold * (1 + m); rates, p95: < threshold * (1 - m)) in
    # alert_resolve_windows consecutive windows that evaluate it; or, with reason "quiet",
    # when its series had no events of its metric for alert_quiet_resolve_windows windows
    # (or too few to evaluate it for max(that, 2 * alert_max_span_windows); 0: never).
    alert_resolve_margin: float = Field(default=0.1, ge=0, lt=1)
    alert_resolve_windows: int = Field(default=3, ge=1)
    alert_quiet_resolve_windows: int = Field(default=5, ge=0)

    # A/B statistics (DESIGN section 8)
    ab_alpha: float = Field(default=0.05, gt=0, lt=1)
    ab_control: str | None = None  # default: the variant named "control", else the first seen
    ab_split: dict[str, float] = {}  # expected traffic split per variant; default: equal
    ab_srm_threshold_p: float = Field(default=0.001, gt=0, lt=1)
    # guardrail metric -> how much worse (higher) the treatment may be, in the metric's unit;
    # overrides monitor.ab.analysis.DEFAULT_GUARDRAIL_MARGINS per metric
    ab_guardrail_margins: dict[str, float] = {}
    # level of the "effect changed" homogeneity test across windows, spent over all looks
    ab_change_alpha: float = Field(default=0.01, gt=0, lt=1)

    # Alert delivery
    alert_endpoints: list[AlertEndpoint] = []
    # Standard Webhooks secret (whsec_ + base64 of 24 to 64 bytes) for generic endpoints
    webhook_secret: SecretStr | None = None
    delivery_max_backoff_s: float = Field(default=60.0, gt=0)
    # Alertmanager's convention (as Prometheus does it): every firing alert is re-sent to an
    # alertmanager endpoint every alertmanager_resend_s with endsAt = send time +
    # alertmanager_firing_ttl_s, so the alerts of a stopped worker expire by themselves.
    alertmanager_resend_s: float = Field(default=60.0, gt=0)
    alertmanager_firing_ttl_s: float = Field(default=240.0, gt=0)
    # Alertmanager annotations: runbook_url = this + "/" + alertname (the default is a
    # placeholder that never resolves: point it at your runbooks); generatorURL = the
    # Grafana dashboard (deploy/grafana) on the alert's window, metric and variant
    alert_runbook_base_url: str = Field(default=DEFAULT_RUNBOOK_BASE_URL, pattern=r"^https?://\S+$")
    alert_dashboard_url: str = Field(default=DEFAULT_DASHBOARD_URL, pattern=r"^https?://\S+$")
    # offline evaluation (`ragmon eval`); the judge is any OpenAI-compatible server
    eval_reports_dir: str = "reports/evals"
    eval_traces_dir: str = "traces"
    judge_base_url: str = "http://127.0.0.1:11434/v1"
    judge_model: str = ""
    judge_api_key: SecretStr | None = None
    judge_second_model: str = ""
    judge_timeout_s: float = Field(default=120.0, gt=0)
    judge_max_retries: int = Field(default=4, ge=0)
    judge_concurrency: int = Field(default=4, ge=1)
    judge_rate_limit_per_s: float | None = Field(default=None, gt=0)
    judge_price_per_1k_input_usd: float = Field(default=0.0, ge=0)
    judge_price_per_1k_output_usd: float = Field(default=0.0, ge=0)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    # --- Label values and what the scores topic may copy (issue 11, findings 7 and 8) ---
    # A label value (variant, tenant, application, experiment) longer than this, or with a
    # character outside [A-Za-z0-9._:/@+-], becomes "invalid" (monitor/windows/labels.py).
    label_max_chars: int = Field(default=64, ge=1, le=1024)
    # Set: every label value leaving the worker (metrics, windows, partials, A/B results,
    # alerts, the scored event) is "hmac:" + 16 hex digits of HMAC-SHA256(key, value).
    label_hash_key: SecretStr | None = Field(default=None, min_length=16)
    # True: the scored event's CRAG action also carries the sub-queries and search query as
    # text (copied out of the query, secrets and PII included); default: offsets only.
    scores_include_query_text: bool = False
    # The chunk score scales of events that declare none (``score_scale`` /
    # ``rerank_score_scale`` of the event win): probability, cosine, bm25, logit, unknown.
    # Set: scores are normalised into [0, 1] before spec 000's composite
    # (monitor/scoring/score_scale.py); unset: read as given, with a warning when outside.
    score_scale: ScoreScale | None = None
    rerank_score_scale: ScoreScale | None = None

    @property
    def score_scales(self) -> ScoreScales:
        """``score_scale`` and ``rerank_score_scale`` as the scorers take them."""
        return ScoreScales(score=self.score_scale, rerank=self.rerank_score_scale)

    @field_validator("webhook_secret")
    @classmethod
    def _standard_webhooks_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            check_secret(value.get_secret_value())
        return value

    @model_validator(mode="after")
    def _firing_outlives_a_resend(self) -> Settings:
        if self.alertmanager_firing_ttl_s <= self.alertmanager_resend_s:
            raise ValueError("alertmanager_firing_ttl_s must be longer than alertmanager_resend_s")
        return self

    @model_validator(mode="after")
    def _guardrails_are_ab_metrics(self) -> Settings:
        if self.ab_guardrail_margins:
            from monitor.ab.analysis import AB_METRICS  # scipy: only when configured

            for metric, margin in self.ab_guardrail_margins.items():
                if metric not in AB_METRICS:
                    raise ValueError(f"ab_guardrail_margins: {metric!r} is not an A/B metric")
                if not margin >= 0.0:
                    raise ValueError(f"ab_guardrail_margins: {metric} needs a margin >= 0")
        return self

    @model_validator(mode="after")
    def _retention_keeps_what_a_restart_reads(self) -> Settings:
        for topic, ms in self.topic_retention_overrides_ms.items():
            if topic not in self.topics():
                raise ValueError(f"topic_retention_overrides_ms: {topic!r} is not a ragmon topic")
            if ms < -1:
                raise ValueError(f"topic_retention_overrides_ms: {topic!r} must be -1 or more")
        # a (re)started worker rebuilds windows and baselines from the partials topic
        needed_ms = max(self.baseline_horizon_ms, self.handover_horizon_ms)
        partials_ms = self.retention_ms(self.partials_topic)
        if partials_ms != -1 and partials_ms < needed_ms:
            raise ValueError(
                f"the retention of {self.partials_topic} ({partials_ms} ms) must be -1 or at "
                f"least baseline_horizon_ms and handover_horizon_ms ({needed_ms} ms)"
            )
        return self

    def retention_ms(self, topic: str) -> int:
        """``retention.ms`` for ``topic`` when ragmon creates it (-1: forever)."""
        return self.topic_retention_overrides_ms.get(topic, self.topic_retention_ms)

    @model_validator(mode="after")
    def _kafka_security_is_complete(self) -> Settings:
        problem = kafka_security_problem(self)
        if problem is not None:
            raise ValueError(problem)
        return self

    @model_validator(mode="after")
    def _known_metric_ids(self) -> Settings:
        # A misspelt id would be accepted and never read: refuse it, naming the valid ones.
        checks: tuple[tuple[str, Any, Any], ...] = (
            ("baselines", self.baselines, METRIC_IDS),
            ("rate_thresholds", self.rate_thresholds, sorted(RATE_METRICS)),
            ("degradation_metrics", self.degradation_metrics, METRIC_IDS),
            ("changepoint_metrics", self.changepoint_metrics, METRIC_IDS),
            ("latency_p95_budget_ms", self.latency_p95_budget_ms, LATENCY_STAGES),
        )
        for name, given, valid in checks:
            unknown = unknown_ids(given, valid)
            if unknown:
                what = "latency stage" if name == "latency_p95_budget_ms" else "metric id"
                raise ValueError(
                    f"MONITOR_{name.upper()}: unknown {what} {', '.join(map(repr, unknown))}; "
                    f"valid: {', '.join(valid)}"
                )
        return self

    def topics(self) -> list[str]:
        topics = [
            self.events_topic,
            self.scores_topic,
            self.dlq_topic,
            self.alerts_topic,
            self.ab_results_topic,
            self.partials_topic,
            self.windows_topic,
        ]
        return [*topics, self.otlp_topic] if self.otlp_enabled else topics

    def single_partition_topics(self) -> set[str]:
        """Internal topics read in one global order (partials, closed windows)."""
        return {self.partials_topic, self.windows_topic}


def kafka_security_problem(s: Settings) -> str | None:
    """What is missing or contradictory in the Kafka security settings, or None.

    >>> kafka_security_problem(Settings.model_construct(kafka_security_protocol="SASL_SSL",
    ...     kafka_sasl_mechanism="SCRAM-SHA-512", kafka_sasl_username="monitor"))
    'MONITOR_KAFKA_SASL_PASSWORD is required with SCRAM-SHA-512'
    """
    protocol, mechanism = s.kafka_security_protocol, s.kafka_sasl_mechanism
    tls = protocol in ("SSL", "SASL_SSL")
    if protocol.startswith("SASL"):
        if mechanism == "OAUTHBEARER":
            sources = [s.kafka_sasl_oauth_token_file, s.kafka_sasl_oauth_token_command]
            if sum(source is not None for source in sources) != 1:
                return (
                    "OAUTHBEARER needs exactly one of MONITOR_KAFKA_SASL_OAUTH_TOKEN_FILE "
                    "and MONITOR_KAFKA_SASL_OAUTH_TOKEN_COMMAND"
                )
        else:
            if not s.kafka_sasl_username:
                return f"MONITOR_KAFKA_SASL_USERNAME is required with {mechanism}"
            if s.kafka_sasl_password is None:
                return f"MONITOR_KAFKA_SASL_PASSWORD is required with {mechanism}"
    tls_files = {
        "MONITOR_KAFKA_SSL_CAFILE": s.kafka_ssl_cafile,
        "MONITOR_KAFKA_SSL_CERTFILE": s.kafka_ssl_certfile,
        "MONITOR_KAFKA_SSL_KEYFILE": s.kafka_ssl_keyfile,
    }
    if not tls:
        for name, value in tls_files.items():
            if value is not None:
                return f"{name} is set but MONITOR_KAFKA_SECURITY_PROTOCOL is {protocol}"
    if s.kafka_ssl_keyfile is not None and s.kafka_ssl_certfile is None:
        return "MONITOR_KAFKA_SSL_KEYFILE needs MONITOR_KAFKA_SSL_CERTFILE"
    if s.kafka_ssl_key_password is not None and s.kafka_ssl_certfile is None:
        return "MONITOR_KAFKA_SSL_KEY_PASSWORD needs MONITOR_KAFKA_SSL_CERTFILE"
    return None


def load_settings(**overrides: Any) -> Settings:
    """Read the environment (and ``overrides``); raise ``ConfigError`` in one line."""
    try:
        return Settings(**overrides)
    except SettingsError as exc:  # a complex setting whose value is not JSON
        field = _FIELD_IN_MESSAGE.search(str(exc))
        where = f"MONITOR_{field.group(1).upper()}" if field else "settings"
        raise ConfigError(f"{where}: not valid JSON (a JSON list or object is expected)") from None
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        name = ".".join(str(p) for p in first["loc"])
        message = " ".join(str(first["msg"]).removeprefix("Value error, ").split())
        if message.startswith("MONITOR_"):  # a model validator that names the variable
            raise ConfigError(message) from None
        where = f"MONITOR_{name.upper()}" if name else "settings"
        if not name:  # a check across settings names its variables itself
            raise ConfigError(message) from None
        raise ConfigError(f"{where}: {message}") from None


_FIELD_IN_MESSAGE = re.compile(r'field "([a-z0-9_]+)"')


def unknown_ids(given: Any, valid: Any) -> list[str]:
    """The ids (keys of a mapping, or items of a list) of ``given`` not in ``valid``.

    >>> unknown_ids({"quality.overal": 0.7, "quality.overall": 0.8}, METRIC_IDS)
    ['quality.overal']
    """
    known = set(valid)
    return [str(item) for item in given if item not in known]


def masked(settings: Settings) -> dict[str, Any]:
    """The settings as JSON-ready data with every secret (and URL credential) masked."""
    data = settings.model_dump(mode="json")
    for name, value in data.items():
        if value is None:
            continue
        if isinstance(getattr(settings, name), SecretStr):
            data[name] = MASK
        elif isinstance(value, str):
            data[name] = _BARE_USERINFO.sub(MASK + "@", _URL_USERINFO.sub(MASK + "@", value))
    for endpoint in data["alert_endpoints"]:
        endpoint["url"] = _mask_url(endpoint["url"])
    return data


def _mask_url(url: str) -> str:
    """Scheme and host only: webhook paths and queries carry tokens (Slack, for one).

    >>> _mask_url("https://hooks.slack.com/services/T0/B0/secret?x=1")
    'https://hooks.slack.com/**********'
    """
    match = re.match(r"^([a-zA-Z][\w+.-]*://)(?:[^/@]*@)?([^/?#]*)", url)
    return f"{match.group(1)}{match.group(2)}/{MASK}" if match else MASK
