"""One typed settings object, read from the environment (pydantic-settings).

Every knob of the service is a field of :class:`Settings`, named once: the field's alias is its
environment variable. Nothing else in the service reads ``os.environ``. Call
:func:`get_settings` for the process-wide instance and :func:`configure` (tests, CLI) to replace
it; a value the service cannot use stops the process at start-up with the variable's name.
"""

from __future__ import annotations

import base64
import binascii
import re
from pathlib import Path
from typing import Annotated, Any, Literal, Mapping

from pydantic import AliasChoices, BeforeValidator, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from pydantic_settings import SettingsError as PydanticSettingsError

#: Key of the PostgreSQL advisory lock that elects the scheduler leader ("custody").
DEFAULT_SCHEDULER_LOCK_KEY = 0x637573746F6479
#: ``REDIS_NAMESPACE`` unset: the prefix of the service's keys in Redis (core.queues describes them).
DEFAULT_REDIS_NAMESPACE = "custody"
#: Key of the PostgreSQL advisory lock that serializes migrations ("migrate").
DEFAULT_MIGRATION_LOCK_KEY = 0x6D696772617465


class SettingsError(ValueError):
    """Raised when environment variables hold values the service cannot use.

    ``problems`` pairs each variable with what is wrong with it; the message is one line that
    names them all, and never the values (some are secrets).
    """

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("invalid setting " + "; ".join(f"{variable}: {reason}" for variable, reason in problems))


def _reason(message: str) -> str:
    """pydantic's message, without the "Value error, " its validators' messages start with."""
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    return message[:1].lower() + message[1:]


def _key_32(value: Any) -> bytes | None:
    """A 32-byte key given as base64 (environment) or raw bytes (tests)."""
    if value is None or value == "":
        return None
    if isinstance(value, bytes):
        raw = value
    else:
        try:
            raw = base64.b64decode(str(value), validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("must be base64") from None
    if len(raw) != 32:
        raise ValueError(f"must decode to 32 bytes, got {len(raw)}")
    return raw


def _word_list(value: Any) -> Any:
    """``WORKER_QUEUES``: names separated by commas or spaces."""
    if isinstance(value, str):
        return tuple(part for part in value.replace(",", " ").split() if part)
    return value


Key32 = Annotated[bytes | None, BeforeValidator(_key_32)]


class Settings(BaseSettings):
    """Configuration of every process of the service.

    ``database_url`` and ``redis_url`` left unset mean "start the embedded servers" (only
    ``custody dev`` and the test suite do that; production processes require both).
    """

    model_config = SettingsConfigDict(frozen=True, populate_by_name=True, extra="ignore", case_sensitive=True,
                                      validate_default=True)

    database_url: str | None = Field(None, validation_alias=AliasChoices("DATABASE_URL", "database_url"))
    redis_url: str | None = Field(None, validation_alias=AliasChoices("REDIS_URL", "redis_url"))
    #: The prefix of every key the service writes in Redis (the queues: ``<namespace>:<queue>``;
    #: wake-ups, slots, channels), so that deployments, or a test suite, share one Redis apart.
    #: Every process of one deployment must use the same one.
    redis_namespace: str = Field(DEFAULT_REDIS_NAMESPACE, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$",
                                 validation_alias=AliasChoices("REDIS_NAMESPACE", "redis_namespace"))
    data_dir: Path = Field(Path(".custody"), validation_alias=AliasChoices("CUSTODY_DATA_DIR", "data_dir"))
    base_url: str = Field("http://127.0.0.1:8000", validation_alias=AliasChoices("CUSTODY_BASE_URL", "base_url"))
    environment: str = Field("development", validation_alias=AliasChoices("CUSTODY_ENV", "environment"))
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = Field(
        "INFO", validation_alias=AliasChoices("LOG_LEVEL", "log_level"))
    #: ``json`` (one JSON object per line, with request id, actor and message id) or ``text``.
    log_format: Literal["json", "text"] = Field("text", validation_alias=AliasChoices("LOG_FORMAT", "log_format"))
    #: prometheus-client's multiprocess directory (several web workers share one exposition).
    prometheus_multiproc_dir: Path | None = Field(None, validation_alias=AliasChoices(
        "PROMETHEUS_MULTIPROC_DIR", "prometheus_multiproc_dir"))

    #: A worker pool's metrics (dramatiq's Prometheus middleware reads the same variables): the
    #: address and port its main process serves them on, and the folder its processes write them
    #: to. One folder per pool (``custody.pool``): unset, each pool gets a private temporary one.
    pool_metrics_host: str = Field("0.0.0.0", validation_alias=AliasChoices("dramatiq_prom_host",
                                                                          "pool_metrics_host"))
    pool_metrics_port: int = Field(9191, ge=1, le=65535, validation_alias=AliasChoices("dramatiq_prom_port",
                                                                                      "pool_metrics_port"))
    pool_metrics_dir: Path | None = Field(None, validation_alias=AliasChoices("dramatiq_prom_db", "pool_metrics_dir"))

    #: Key (32 bytes) that encrypts service-held secrets at rest (webhook secrets, ...).
    secret_key: Key32 = Field(None, repr=False,
                              validation_alias=AliasChoices("CUSTODY_SECRET_KEY", "secret_key"))

    token_ttl_seconds: int = Field(3600, ge=60, validation_alias=AliasChoices("ACCESS_TOKEN_TTL_SECONDS",
                                                                               "token_ttl_seconds"))
    token_issuer: str = Field("custody-wallet-service", validation_alias=AliasChoices("TOKEN_ISSUER", "token_issuer"))
    token_audience: str = Field("custody-wallet-api",
                                validation_alias=AliasChoices("TOKEN_AUDIENCE", "token_audience"))
    auth_timestamp_tolerance_seconds: int = Field(300, ge=0, validation_alias=AliasChoices(
        "AUTH_TIMESTAMP_TOLERANCE_SECONDS", "auth_timestamp_tolerance_seconds"))
    pairing_ttl_seconds: int = Field(300, ge=30, validation_alias=AliasChoices("PAIRING_TTL_SECONDS",
                                                                               "pairing_ttl_seconds"))

    #: Port of ``custody web`` when ``--port`` is not given (platforms like Heroku set PORT).
    port: int = Field(8000, ge=1, le=65535, validation_alias=AliasChoices("PORT", "port"))
    #: Largest request body the API reads (bytes); a larger one is a 413 PAYLOAD_TOO_LARGE.
    request_max_bytes: int = Field(1024 * 1024, ge=1024, validation_alias=AliasChoices("REQUEST_MAX_BYTES",
                                                                                       "request_max_bytes"))
    web_workers: int = Field(1, ge=1, validation_alias=AliasChoices("WEB_CONCURRENCY", "web_workers"))
    worker_processes: int = Field(2, ge=1, validation_alias=AliasChoices("WORKER_PROCESSES", "worker_processes"))
    worker_threads: int = Field(4, ge=1, validation_alias=AliasChoices("WORKER_THREADS", "worker_threads"))
    #: Threads of a ``custody signer`` worker process. A signer computes on its process's one event
    #: loop; a thread only holds a wake-up message while the batch before it is signed, and the
    #: messages held then are signed together in the next batch (core.coalescing). So more threads
    #: make larger batches: through the real processes on 2 cores (bench/signing_pools.py, seven
    #: runs each), 4 made a median of 596 signatures/s, 8 made 670/s (docs/signing.md).
    signer_threads: int = Field(8, ge=1, le=256, validation_alias=AliasChoices("SIGNER_THREADS", "signer_threads"))
    #: Queues a ``custody worker`` consumes when none are named on the command line.
    worker_queues: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_word_list)] = Field(
        (), validation_alias=AliasChoices("WORKER_QUEUES", "worker_queues"))

    actor_max_retries: int = Field(10, ge=0, validation_alias=AliasChoices("ACTOR_MAX_RETRIES", "actor_max_retries"))
    actor_min_backoff_ms: int = Field(1_000, ge=0, validation_alias=AliasChoices("ACTOR_MIN_BACKOFF_MS",
                                                                                 "actor_min_backoff_ms"))
    actor_max_backoff_ms: int = Field(300_000, ge=0, validation_alias=AliasChoices("ACTOR_MAX_BACKOFF_MS",
                                                                                   "actor_max_backoff_ms"))
    actor_time_limit_ms: int = Field(600_000, ge=1000, validation_alias=AliasChoices("ACTOR_TIME_LIMIT_MS",
                                                                                     "actor_time_limit_ms"))

    #: A command not picked up by a worker this many seconds after it was written is re-enqueued.
    outbox_relay_after_seconds: int = Field(30, ge=1, validation_alias=AliasChoices(
        "OUTBOX_RELAY_AFTER_SECONDS", "outbox_relay_after_seconds"))
    outbox_relay_interval_seconds: int = Field(10, ge=1, validation_alias=AliasChoices(
        "OUTBOX_RELAY_INTERVAL_SECONDS", "outbox_relay_interval_seconds"))
    outbox_relay_batch: int = Field(500, ge=1, validation_alias=AliasChoices("OUTBOX_RELAY_BATCH",
                                                                             "outbox_relay_batch"))
    #: Commands done longer ago than this are deleted (hourly, by the scheduler: core.outbox.
    #: purge_done_commands); failed ones stay until an operator deals with them.
    outbox_retention_hours: int = Field(168, ge=1, validation_alias=AliasChoices(
        "OUTBOX_RETENTION_HOURS", "outbox_retention_hours"))
    #: Threshold ECDSA presignatures both signers make per top-up of a key set's stock
    #: (domain.signing.presignatures, rule 1): more is fewer runs under steady signing, fewer is
    #: less work wasted for key sets that sign rarely.
    ecdsa_presignature_batch: int = Field(4, ge=1, le=64, validation_alias=AliasChoices(
        "ECDSA_PRESIGNATURE_BATCH", "ecdsa_presignature_batch"))

    #: Key of the PostgreSQL advisory lock that elects the scheduler leader.
    scheduler_lock_key: int = Field(DEFAULT_SCHEDULER_LOCK_KEY, validation_alias=AliasChoices(
        "SCHEDULER_LOCK_KEY", "scheduler_lock_key"))

    #: Key of the PostgreSQL advisory lock that serializes migrations (every process waits for it).
    migration_lock_key: int = Field(DEFAULT_MIGRATION_LOCK_KEY, validation_alias=AliasChoices(
        "MIGRATION_LOCK_KEY", "migration_lock_key"))

    # --- users, invitations, notifications ------------------------------------------------------
    #: An invitation by email can be accepted for this long.
    invitation_ttl_seconds: int = Field(7 * 24 * 3600, ge=300, validation_alias=AliasChoices(
        "INVITATION_TTL_SECONDS", "invitation_ttl_seconds"))
    #: A pending ownership transfer can be accepted for this long.
    ownership_transfer_ttl_seconds: int = Field(72 * 3600, ge=300, validation_alias=AliasChoices(
        "OWNERSHIP_TRANSFER_TTL_SECONDS", "ownership_transfer_ttl_seconds"))
    #: How long an owner enrollment secret (``custody bootstrap``, ``custody owner enroll``, an owner
    #: invitation's acceptance) can register the owner's device (docs/users.md).
    owner_enrollment_ttl_seconds: int = Field(72 * 3600, ge=300, validation_alias=AliasChoices(
        "OWNER_ENROLLMENT_TTL_SECONDS", "owner_enrollment_ttl_seconds"))
    #: A recovery enrollment (the owner still has an active device) can be confirmed only this long
    #: after it was announced, so that an owner who did not ask for it can cancel it.
    owner_recovery_delay_seconds: int = Field(48 * 3600, ge=0, validation_alias=AliasChoices(
        "OWNER_RECOVERY_DELAY_SECONDS", "owner_recovery_delay_seconds"))
    #: How email leaves: ``file`` (one .eml file per message under ``<data dir>/mail``, for
    #: development) or ``smtp`` (``SMTP_URL``).
    mail_backend: Literal["file", "smtp"] = Field("file", validation_alias=AliasChoices("MAIL_BACKEND",
                                                                                       "mail_backend"))
    #: ``smtp://[user:password@]host[:port]`` (STARTTLS when offered) or ``smtps://...`` (TLS).
    smtp_url: str | None = Field(None, repr=False, validation_alias=AliasChoices("SMTP_URL", "smtp_url"))
    mail_from: str = Field("custody@localhost", validation_alias=AliasChoices("MAIL_FROM", "mail_from"))

    # --- limits ---------------------------------------------------------------------------------
    #: Vaults a workspace may hold (409 VAULT_LIMIT_REACHED beyond).
    max_vaults_per_workspace: int = Field(1000, ge=1, validation_alias=AliasChoices(
        "MAX_VAULTS_PER_WORKSPACE", "max_vaults_per_workspace"))
    #: Key generations a workspace may have in progress at once (409 KEY_GENERATION_LIMIT_REACHED).
    max_key_generations_in_progress: int = Field(10, ge=1, validation_alias=AliasChoices(
        "MAX_KEY_GENERATIONS_IN_PROGRESS", "max_key_generations_in_progress"))
    #: A key generation not ready within this fails, naming the participants it waited for.
    key_generation_timeout_seconds: int = Field(3600, ge=60, validation_alias=AliasChoices(
        "KEY_GENERATION_TIMEOUT_SECONDS", "key_generation_timeout_seconds"))

    # --- webhooks ---------------------------------------------------------------------------
    #: Allow webhook URLs on loopback addresses (development and tests only).
    webhook_allow_loopback: bool = Field(False, validation_alias=AliasChoices("WEBHOOK_ALLOW_LOOPBACK",
                                                                              "webhook_allow_loopback"))
    webhook_timeout_seconds: float = Field(10.0, ge=0.1, validation_alias=AliasChoices("WEBHOOK_TIMEOUT_SECONDS",
                                                                                       "webhook_timeout_seconds"))
    #: Deliveries in flight to one webhook at once, so one slow receiver cannot hold up others.
    webhook_concurrency_per_endpoint: int = Field(4, ge=1, validation_alias=AliasChoices(
        "WEBHOOK_CONCURRENCY_PER_ENDPOINT", "webhook_concurrency_per_endpoint"))

    # --- threshold signing --------------------------------------------------------------------
    #: SecretBox keys (32 bytes, base64 in the environment) of the two service signers; each
    #: signer process is given only its own (see :attr:`signer_keys`).
    signer_1_share_key: Key32 = Field(None, repr=False, validation_alias=AliasChoices("SIGNER_1_SHARE_KEY",
                                                                                     "signer_1_share_key"))
    signer_2_share_key: Key32 = Field(None, repr=False, validation_alias=AliasChoices("SIGNER_2_SHARE_KEY",
                                                                                     "signer_2_share_key"))
    #: The participant (1 or 2) this process signs as, from SIGNER_PARTICIPANT. A signer process
    #: runs only that participant's actors; unset means "any" (development and tests), which a
    #: production process refuses for signer actors.
    signer_participant: int | None = Field(None, ge=1, le=2, validation_alias=AliasChoices("SIGNER_PARTICIPANT",
                                                                                         "signer_participant"))

    # --- wallets, networks and balances -------------------------------------------------------
    #: Network and currency registry (JSON); unset = config/currencies.json.
    currencies_file: Path | None = Field(None, validation_alias=AliasChoices("CURRENCIES_FILE", "currencies_file"))
    #: USD price table (JSON) of the default price source; unset = config/prices.json.
    prices_file: Path | None = Field(None, validation_alias=AliasChoices("PRICES_FILE", "prices_file"))
    #: Whether the scheduler runs the built-in devnet's block production.
    devnet_enabled: bool = Field(True, validation_alias=AliasChoices("DEVNET_ENABLED", "devnet_enabled"))
    #: Seconds between devnet blocks: the scheduler's ``devnet.produce_blocks`` job.
    devnet_block_interval_seconds: int = Field(5, ge=1, validation_alias=AliasChoices(
        "DEVNET_BLOCK_INTERVAL_SECONDS", "devnet_block_interval_seconds"))
    #: Seconds between chain watcher runs (``deposits.watch``), and blocks read per network and run.
    chain_watch_interval_seconds: int = Field(5, ge=1, validation_alias=AliasChoices(
        "CHAIN_WATCH_INTERVAL_SECONDS", "chain_watch_interval_seconds"))
    chain_watch_batch_blocks: int = Field(100, ge=1, validation_alias=AliasChoices("CHAIN_WATCH_BATCH_BLOCKS",
                                                                                   "chain_watch_batch_blocks"))
    #: Registry networks to enable beyond those the registry file enables (comma or space
    #: separated ids), e.g. ``solana-testnet`` (docs/networks.md).
    networks_enabled: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_word_list)] = Field(
        (), validation_alias=AliasChoices("NETWORKS_ENABLED", "networks_enabled"))
    #: Node endpoints by network id (a JSON object), overriding the registry's ``params.rpc_url``:
    #: ``{"bitcoin-mainnet": "http://user:password@node:8332"}``. May hold credentials: never logged.
    network_rpc_urls: dict[str, str] = Field(default_factory=dict, repr=False, validation_alias=AliasChoices(
        "NETWORK_RPC_URLS", "network_rpc_urls"))
    #: Serve the Solana networks from an in-process LiteSVM chain instead of JSON-RPC (tests and
    #: single-process development; each process has its own chain).
    solana_local_chain: bool = Field(False, validation_alias=AliasChoices("SOLANA_LOCAL_CHAIN", "solana_local_chain"))
    #: The owner process of the local Solana chain (``custody solana-local``, started by ``custody
    #: dev``, which sets this for its children): local Solana networks use that one chain.
    solana_local_url: str | None = Field(None, validation_alias=AliasChoices("SOLANA_LOCAL_URL", "solana_local_url"))
    #: The JSON-RPC endpoint of the local EVM (``custody evm-local``, started by ``custody dev``,
    #: which sets this for its children): ``evm-local`` uses that one chain.
    evm_local_url: str | None = Field(None, validation_alias=AliasChoices("EVM_LOCAL_URL", "evm_local_url"))
    #: The change log keeps changes of the last N days; older ones are compacted away and
    #: ``min_cursor`` moves past them (``transactions.compact_changelog``, every interval seconds).
    changelog_retention_days: int = Field(90, ge=1, validation_alias=AliasChoices("CHANGELOG_RETENTION_DAYS",
                                                                                  "changelog_retention_days"))
    changelog_compaction_interval_seconds: int = Field(3600, ge=60, validation_alias=AliasChoices(
        "CHANGELOG_COMPACTION_INTERVAL_SECONDS", "changelog_compaction_interval_seconds"))

    # --- withdrawals ------------------------------------------------------------------------
    #: A withdrawal that has not started signing this long after creation expires (its hold is
    #: released); time spent frozen does not count.
    withdrawal_expiry_seconds: int = Field(86_400, ge=60, validation_alias=AliasChoices(
        "WITHDRAWAL_EXPIRY_SECONDS", "withdrawal_expiry_seconds"))
    #: UTXO networks: a second payment with the same source, destination and amount within this
    #: window is refused as a probable duplicate unless it carries a new X-Utxo-Intent-Key.
    withdrawal_duplicate_window_seconds: int = Field(86_400, ge=0, validation_alias=AliasChoices(
        "WITHDRAWAL_DUPLICATE_WINDOW_SECONDS", "withdrawal_duplicate_window_seconds"))
    #: Seconds between runs of the withdrawal tracker (``withdrawals.track``: confirmations,
    #: finality, stalled steps) and of the expiry sweep (``withdrawals.expire``).
    withdrawal_track_interval_seconds: int = Field(5, ge=1, validation_alias=AliasChoices(
        "WITHDRAWAL_TRACK_INTERVAL_SECONDS", "withdrawal_track_interval_seconds"))
    withdrawal_expire_interval_seconds: int = Field(60, ge=1, validation_alias=AliasChoices(
        "WITHDRAWAL_EXPIRE_INTERVAL_SECONDS", "withdrawal_expire_interval_seconds"))

    # --- the gas station -----------------------------------------------------------------
    #: Defaults per network type and base asset (JSON); unset = config/gas_station.json.
    gas_station_file: Path | None = Field(None, validation_alias=AliasChoices("GAS_STATION_FILE",
                                                                              "gas_station_file"))
    #: Seconds between runs of ``gas_station.retry``: refuels held back by max_gas_price are tried
    #: again, finished refuels are closed and token withdrawals waiting for gas are resumed.
    gas_station_retry_interval_seconds: int = Field(30, ge=1, validation_alias=AliasChoices(
        "GAS_STATION_RETRY_INTERVAL_SECONDS", "gas_station_retry_interval_seconds"))
    # --- change approvals -------------------------------------------------------------------
    #: A change approval request not decided within this long expires (spec: 72 hours).
    change_approval_ttl_seconds: int = Field(72 * 3600, ge=60, validation_alias=AliasChoices(
        "CHANGE_APPROVAL_TTL_SECONDS", "change_approval_ttl_seconds"))
    #: Off: the engine registers no request; gated changes answer 503 CHANGE_APPROVAL_UNAVAILABLE
    #: (maintenance switch; the tests use it to make the engine unavailable).
    change_approvals_available: bool = Field(True, validation_alias=AliasChoices(
        "CHANGE_APPROVALS_AVAILABLE", "change_approvals_available"))
    #: Seconds between runs of the expiry sweep (``change_approvals.expire``).
    change_approval_expire_interval_seconds: int = Field(60, ge=1, validation_alias=AliasChoices(
        "CHANGE_APPROVAL_EXPIRE_INTERVAL_SECONDS", "change_approval_expire_interval_seconds"))
    #: Push provider of the paired devices: ``database`` records each notification in the
    #: ``push_notifications`` table (development and tests).
    push_provider: str = Field("database", validation_alias=AliasChoices("PUSH_PROVIDER", "push_provider"))
    #: How often a WebSocket stream looks for new change approval events.
    change_approval_ws_poll_seconds: float = Field(0.5, gt=0, validation_alias=AliasChoices(
        "CHANGE_APPROVAL_WS_POLL_SECONDS", "change_approval_ws_poll_seconds"))
    # --- transaction approvals (domain/transaction_approvals.py) ----------------------------
    #: A withdrawal awaiting approvals this long without a decision expires (APPROVAL_EXPIRED).
    transaction_approval_expiry_seconds: int = Field(43_200, ge=60, validation_alias=AliasChoices(
        "TRANSACTION_APPROVAL_EXPIRY_SECONDS", "transaction_approval_expiry_seconds"))
    #: Seconds between runs of the approval expiry sweep (``transaction_approvals.expire``).
    transaction_approval_expire_interval_seconds: int = Field(60, ge=1, validation_alias=AliasChoices(
        "TRANSACTION_APPROVAL_EXPIRE_INTERVAL_SECONDS", "transaction_approval_expire_interval_seconds"))

    #: Fault injection (tests and chaos drills, never production): names of core.faults crash
    #: points at which this process kills itself with SIGKILL.
    crash_points: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_word_list)] = Field(
        (), validation_alias=AliasChoices("CUSTODY_CRASH_POINTS", "crash_points"))

    @field_validator("crash_points")
    @classmethod
    def _no_crash_points_in_production(cls, value: tuple[str, ...], info: Any) -> tuple[str, ...]:
        if value and info.data.get("environment") == "production":
            raise ValueError("crash points are for tests and drills; unset CUSTODY_CRASH_POINTS in production")
        return value

    @field_validator("base_url")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @property
    def signer_keys(self) -> dict[int, bytes]:
        """The signer share keys this process was given, by participant."""
        return {participant: key for participant, key in ((1, self.signer_1_share_key), (2, self.signer_2_share_key))
                if key is not None}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        """Settings from ``env`` (the process environment by default).

        Raises :class:`SettingsError` naming each variable that holds an unusable value.
        """
        try:
            return cls() if env is None else cls.model_validate(dict(env))
        except ValidationError as exc:
            raise SettingsError([(str(error["loc"][0]) if error["loc"] else "?", _reason(error["msg"]))
                                 for error in exc.errors(include_url=False)]) from None
        except PydanticSettingsError as exc:  # a JSON value that does not parse, before validation
            field = re.search(r'field "(\w+)"', str(exc))
            variable = cls.variable_of(field.group(1)) if field else "?"
            raise SettingsError([(variable, "is not valid JSON")]) from None

    @classmethod
    def variable_of(cls, field: str) -> str:
        """The environment variable of a field (its first alias)."""
        info = cls.model_fields.get(field)
        alias = info.validation_alias if info is not None else None
        if isinstance(alias, AliasChoices) and alias.choices:
            return str(alias.choices[0])
        return field.upper()

    def with_overrides(self, **changes: Any) -> "Settings":
        """A copy with ``changes`` applied and validated (used by the CLI and tests)."""
        return type(self).model_validate({**self.model_dump(), **changes})


_settings: Settings | None = None


def get_settings() -> Settings:
    """The process-wide settings, read from the environment on first use."""
    global _settings
    if _settings is None:
        _settings = Settings.from_env()
    return _settings


def configure(settings: Settings) -> Settings:
    """Replace the process-wide settings (the CLI after resolving embedded servers; tests)."""
    global _settings
    _settings = settings
    return settings
