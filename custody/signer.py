"""The service's two signer processes: FROST participants 1 and 2 of every key set.

A signer process is a Dramatiq worker that consumes only its own queue (``signer_1`` or
``signer_2``) and is started with ``SIGNER_PARTICIPANT`` naming it. Each signer seals its key
shares, DKG state and signing nonces with its own SecretBox key:

* ``SIGNER_1_SHARE_KEY`` / ``SIGNER_2_SHARE_KEY`` (32 bytes, base64): each signer process is
  given only its own; in production a signer refuses to start without it, or with the other
  signer's key in its environment, or with both keys equal.
* outside production, when the variable is unset, a per-signer key file
  ``<data_dir>/signer_<n>.key`` (mode 0600) is created on first use, like ``custody.crypto``
  does for the service secret; the two files are different keys.

Operators start them with (the integrator wires :func:`cmd_signer` as ``custody signer``)::

    SIGNER_PARTICIPANT=1 SIGNER_1_SHARE_KEY=... custody worker --queues signer_1
    SIGNER_PARTICIPANT=2 SIGNER_2_SHARE_KEY=... custody worker --queues signer_2
    # or, equivalently:  custody signer --participant 1
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path


from custody.crypto import load_or_create_key_file
from custody.settings import Settings, get_settings

#: Participant identifiers of the service signers; the client co-signer is participant 3.
SERVICE_PARTICIPANTS: tuple[int, ...] = (1, 2)

_lock = threading.Lock()
#: participant -> (settings it was resolved for, key); re-resolved when settings are replaced.
_cache: dict[int, tuple[Settings, bytes]] = {}


class SignerConfigurationError(RuntimeError):
    """The process is not allowed to act as this signer (wrong participant, missing key)."""


def queue_of(participant: int) -> str:
    """The Dramatiq queue only signer ``participant`` consumes."""
    _check(participant)
    return f"signer_{participant}"


def _check(participant: int) -> None:
    if participant not in SERVICE_PARTICIPANTS:
        raise SignerConfigurationError(f"service signers are participants 1 and 2, not {participant!r}")


def require_participant(participant: int, settings: Settings | None = None) -> None:
    """Refuse to act as ``participant`` in a process started for the other signer.

    In production a signer actor runs only in a process whose SIGNER_PARTICIPANT names it, so a
    general worker that received a signer message by mistake cannot touch any share.
    """
    _check(participant)
    settings = settings or get_settings()
    if settings.signer_participant is None:
        if settings.environment == "production":
            raise SignerConfigurationError(
                f"signer {participant} actors run only in a signer process (SIGNER_PARTICIPANT={participant})"
            )
        return
    if settings.signer_participant != participant:
        raise SignerConfigurationError(
            f"this process is signer {settings.signer_participant}; it never acts as signer {participant}"
        )


def signer_key(participant: int, settings: Settings | None = None) -> bytes:
    """The SecretBox key of signer ``participant`` (see the module docstring)."""
    _check(participant)
    settings = settings or get_settings()
    with _lock:
        cached = _cache.get(participant)
        if cached is not None and cached[0] is settings:
            return cached[1]
        if participant in settings.signer_keys:
            key = settings.signer_keys[participant]
        elif settings.environment == "production":
            raise SignerConfigurationError(f"SIGNER_{participant}_SHARE_KEY must be set in production")
        else:
            try:
                key = load_or_create_key_file(Path(settings.data_dir) / f"signer_{participant}.key")
            except RuntimeError as exc:
                raise SignerConfigurationError(str(exc)) from exc
        _cache[participant] = (settings, key)
        return key


def check_process(participant: int, settings: Settings | None = None) -> None:
    """Start-up checks of a signer process (called before the worker starts)."""
    settings = settings or get_settings()
    _check(participant)
    other = 2 if participant == 1 else 1
    if settings.environment == "production":
        if participant not in settings.signer_keys:
            raise SignerConfigurationError(f"SIGNER_{participant}_SHARE_KEY must be set in production")
        if other in settings.signer_keys:
            raise SignerConfigurationError(
                f"signer {participant} must not be given SIGNER_{other}_SHARE_KEY: a signer never holds "
                "the other's key"
            )
    keys = settings.signer_keys
    if 1 in keys and 2 in keys and keys[1] == keys[2]:
        raise SignerConfigurationError("SIGNER_1_SHARE_KEY and SIGNER_2_SHARE_KEY must differ")
    signer_key(participant, settings)


def general_queues() -> list[str]:
    """Every queue except the signers': what a general ``custody worker`` should consume.

    A general worker must never take signer messages (in production their actors refuse to run
    outside their signer process, and would only be retried).
    """
    import actors

    signer_queues = {queue_of(p) for p in SERVICE_PARTICIPANTS}
    return [queue for queue in actors.queue_names() if queue not in signer_queues]


def signer_worker_command(participant: int, *, processes: int = 1, threads: int | None = None) -> list[str]:
    """The worker command line of signer ``participant``: its own queue only."""
    from custody.cli import worker_command

    settings = get_settings()
    return worker_command(processes=processes, threads=threads or settings.worker_threads,
                          queues=[queue_of(participant)])


def cmd_signer(args: argparse.Namespace) -> int:
    """``custody signer --participant N``: check the key set-up, then exec the signer's worker."""
    settings = get_settings()
    try:
        check_process(args.participant, settings.with_overrides(signer_participant=args.participant))
    except SignerConfigurationError as exc:
        sys.exit(f"custody signer: {exc}")
    if not (settings.database_url and settings.redis_url):
        sys.exit("custody signer: DATABASE_URL and REDIS_URL must be set")
    # The worker processes read SIGNER_PARTICIPANT through the settings.
    os.environ["SIGNER_PARTICIPANT"] = str(args.participant)
    command = signer_worker_command(args.participant, processes=args.processes or 1, threads=args.threads)
    os.execv(command[0], command)
    return 0  # pragma: no cover - execv does not return


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # noqa: SLF001
    """Register ``custody signer`` on the CLI's subparsers (for the integrator)."""
    parser = subparsers.add_parser("signer", help="run threshold signer 1 or 2 (its own queue and key only)")
    parser.add_argument("--participant", type=int, choices=list(SERVICE_PARTICIPANTS), required=True)
    parser.add_argument("--processes", type=int, default=None, help="default 1")
    parser.add_argument("--threads", type=int, default=None, help="default: WORKER_THREADS")
    parser.set_defaults(func=cmd_signer)
    return parser
