"""Which SecretBox key seals a service signer's secrets, and which process may act as which signer.

Each signer (participant 1 or 2) seals its key shares, DKG state and signing nonces with its own
key:

* ``SIGNER_1_SHARE_KEY`` / ``SIGNER_2_SHARE_KEY`` (32 bytes, base64): each signer process is
  given only its own; in production a signer refuses to start without it, or with the other
  signer's key in its environment, or with both keys equal;
* outside production, when the variable is unset, a per-signer key file
  ``<data_dir>/signer_<n>.key`` (mode 0600) is created on first use, like the service secret
  (:mod:`core.sealing`); the two files are different keys.

``custody signer --participant N`` (custody/signer.py) runs :func:`check_process` before its
worker starts; the signer actors call :func:`require_participant` and :func:`signer_key`.
"""

from __future__ import annotations

import threading
from pathlib import Path

from core.sealing import load_or_create_key_file
from core.settings import Settings, get_settings
from threshold.scheme import SERVICE_PARTICIPANTS

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
