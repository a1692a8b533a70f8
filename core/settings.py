"""One typed settings object, read from the environment.

Every knob of the service is a field of :class:`Settings`; nothing else reads ``os.environ``.
Call :func:`get_settings` for the process-wide instance and :func:`configure` (tests, CLI) to
replace it.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Mapping


class SettingsError(ValueError):
    """Raised when an environment variable holds a value the service cannot use."""


def _int(env: Mapping[str, str], name: str, default: int, *, minimum: int = 0) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from exc
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, got {value}")
    return value


def _float(env: Mapping[str, str], name: str, default: float, *, minimum: float = 0.0) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from exc
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, got {value}")
    return value


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise SettingsError(f"{name} must be a boolean (true/false), got {raw!r}")


def _key(env: Mapping[str, str], name: str) -> bytes | None:
    raw = env.get(name)
    if not raw:
        return None
    try:
        key = base64.b64decode(raw, validate=True)
    except ValueError as exc:
        raise SettingsError(f"{name} must be base64") from exc
    if len(key) != 32:
        raise SettingsError(f"{name} must decode to 32 bytes, got {len(key)}")
    return key


def _signer_participant(env: Mapping[str, str]) -> int | None:
    """SIGNER_PARTICIPANT: 1 or 2 (threshold signing); unset means none."""
    raw = env.get("SIGNER_PARTICIPANT")
    if raw is None or raw == "":
        return None
    if raw not in {"1", "2"}:
        raise SettingsError(f"SIGNER_PARTICIPANT must be 1 or 2, got {raw!r}")
    return int(raw)


@dataclass(frozen=True)
class Settings:
    """Configuration of every process of the service.

    ``database_url`` and ``redis_url`` left as ``None`` mean "start the embedded servers"
    (only ``custody dev`` and the test suite do that; production processes require both).
    """

    database_url: str | None = None
    redis_url: str | None = None
    data_dir: Path = Path(".custody")
    base_url: str = "http://127.0.0.1:8000"
    environment: str = "development"

    #: Key (32 bytes) that encrypts service-held secrets at rest (webhook secrets, ...).
    secret_key: bytes | None = field(default=None, repr=False)

    token_ttl_seconds: int = 3600
    token_issuer: str = "custody-wallet-service"
    token_audience: str = "custody-wallet-api"
    auth_timestamp_tolerance_seconds: int = 300
    pairing_ttl_seconds: int = 300

    web_workers: int = 1
    worker_processes: int = 2
    worker_threads: int = 4
    #: Queues a ``custody worker`` consumes when none are named on the command line.
    worker_queues: tuple[str, ...] = ()

    actor_max_retries: int = 10
    actor_min_backoff_ms: int = 1_000
    actor_max_backoff_ms: int = 300_000
    actor_time_limit_ms: int = 600_000

    #: A command not picked up by a worker this many seconds after it was written is re-enqueued.
    outbox_relay_after_seconds: int = 30
    outbox_relay_interval_seconds: int = 10
    outbox_relay_batch: int = 500

    #: Key of the PostgreSQL advisory lock that elects the scheduler leader.
    scheduler_lock_key: int = 0x637573746F6479  # "custody"

    # --- webhooks ---------------------------------------------------------------------------
    #: Allow webhook URLs on loopback addresses (development and tests only).
    webhook_allow_loopback: bool = False
    webhook_timeout_seconds: float = 10.0
    #: Deliveries in flight to one webhook at once, so one slow receiver cannot hold up others.
    webhook_concurrency_per_endpoint: int = 4

    # --- threshold signing --------------------------------------------------------------------
    #: SecretBox keys (32 bytes, base64 in the environment) of the two service signers; each
    #: signer process reads only its own.
    signer_keys: dict[int, bytes] = field(default_factory=dict, repr=False)
    #: The participant (1 or 2) this process signs as, from SIGNER_PARTICIPANT. A signer process
    #: runs only that participant's actors; unset means "any" (development and tests), which a
    #: production process refuses for signer actors.
    signer_participant: int | None = None

    # --- wallets, networks and balances -------------------------------------------------------
    #: Network and currency registry (JSON) from CURRENCIES_FILE; None = config/currencies.json.
    currencies_file: Path | None = None
    #: USD price table (JSON) of the default price source from PRICES_FILE; None = config/prices.json.
    prices_file: Path | None = None
    #: Whether the scheduler runs the built-in devnet's block production (DEVNET_ENABLED).
    devnet_enabled: bool = True
    #: Seconds between devnet blocks: the scheduler's ``devnet.produce_blocks`` job.
    devnet_block_interval_seconds: int = 5
    #: Seconds between chain watcher runs (``deposits.watch``), and blocks read per network and run.
    chain_watch_interval_seconds: int = 5
    chain_watch_batch_blocks: int = 100
    #: The change log keeps changes of the last N days; older ones are compacted away and
    #: ``min_cursor`` moves past them (``transactions.compact_changelog``, every interval seconds).
    changelog_retention_days: int = 90
    changelog_compaction_interval_seconds: int = 3600

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "Settings":
        """Build settings from ``env`` (``os.environ`` by default)."""
        env = os.environ if env is None else env
        queues = tuple(q for q in env.get("WORKER_QUEUES", "").replace(",", " ").split() if q)
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            redis_url=env.get("REDIS_URL") or None,
            data_dir=Path(env.get("CUSTODY_DATA_DIR", ".custody")),
            base_url=env.get("CUSTODY_BASE_URL", cls.base_url).rstrip("/"),
            environment=env.get("CUSTODY_ENV", cls.environment),
            secret_key=_key(env, "CUSTODY_SECRET_KEY"),
            token_ttl_seconds=_int(env, "ACCESS_TOKEN_TTL_SECONDS", cls.token_ttl_seconds, minimum=60),
            token_issuer=env.get("TOKEN_ISSUER", cls.token_issuer),
            token_audience=env.get("TOKEN_AUDIENCE", cls.token_audience),
            auth_timestamp_tolerance_seconds=_int(
                env, "AUTH_TIMESTAMP_TOLERANCE_SECONDS", cls.auth_timestamp_tolerance_seconds
            ),
            pairing_ttl_seconds=_int(env, "PAIRING_TTL_SECONDS", cls.pairing_ttl_seconds, minimum=30),
            web_workers=_int(env, "WEB_CONCURRENCY", cls.web_workers, minimum=1),
            worker_processes=_int(env, "WORKER_PROCESSES", cls.worker_processes, minimum=1),
            worker_threads=_int(env, "WORKER_THREADS", cls.worker_threads, minimum=1),
            worker_queues=queues,
            actor_max_retries=_int(env, "ACTOR_MAX_RETRIES", cls.actor_max_retries),
            actor_min_backoff_ms=_int(env, "ACTOR_MIN_BACKOFF_MS", cls.actor_min_backoff_ms),
            actor_max_backoff_ms=_int(env, "ACTOR_MAX_BACKOFF_MS", cls.actor_max_backoff_ms),
            actor_time_limit_ms=_int(env, "ACTOR_TIME_LIMIT_MS", cls.actor_time_limit_ms, minimum=1000),
            outbox_relay_after_seconds=_int(
                env, "OUTBOX_RELAY_AFTER_SECONDS", cls.outbox_relay_after_seconds, minimum=1
            ),
            outbox_relay_interval_seconds=_int(
                env, "OUTBOX_RELAY_INTERVAL_SECONDS", cls.outbox_relay_interval_seconds, minimum=1
            ),
            webhook_allow_loopback=_bool(env, "WEBHOOK_ALLOW_LOOPBACK", cls.webhook_allow_loopback),
            webhook_timeout_seconds=_float(env, "WEBHOOK_TIMEOUT_SECONDS", cls.webhook_timeout_seconds, minimum=0.1),
            webhook_concurrency_per_endpoint=_int(
                env, "WEBHOOK_CONCURRENCY_PER_ENDPOINT", cls.webhook_concurrency_per_endpoint, minimum=1
            ),
            signer_keys={
                index: key
                for index in (1, 2)
                if (key := _key(env, f"SIGNER_{index}_SHARE_KEY")) is not None
            },
            # threshold signing
            signer_participant=_signer_participant(env),
            # wallets, networks and balances
            currencies_file=Path(env["CURRENCIES_FILE"]) if env.get("CURRENCIES_FILE") else None,
            prices_file=Path(env["PRICES_FILE"]) if env.get("PRICES_FILE") else None,
            devnet_enabled=_bool(env, "DEVNET_ENABLED", cls.devnet_enabled),
            devnet_block_interval_seconds=_int(
                env, "DEVNET_BLOCK_INTERVAL_SECONDS", cls.devnet_block_interval_seconds, minimum=1
            ),
            chain_watch_interval_seconds=_int(
                env, "CHAIN_WATCH_INTERVAL_SECONDS", cls.chain_watch_interval_seconds, minimum=1
            ),
            chain_watch_batch_blocks=_int(env, "CHAIN_WATCH_BATCH_BLOCKS", cls.chain_watch_batch_blocks, minimum=1),
            changelog_retention_days=_int(env, "CHANGELOG_RETENTION_DAYS", cls.changelog_retention_days, minimum=1),
            changelog_compaction_interval_seconds=_int(
                env, "CHANGELOG_COMPACTION_INTERVAL_SECONDS", cls.changelog_compaction_interval_seconds, minimum=60
            ),
        )

    def with_overrides(self, **changes: object) -> "Settings":
        """Return a copy with ``changes`` applied (used by the CLI and tests)."""
        return replace(self, **changes)  # type: ignore[arg-type]


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
