"""Encryption of service-held secrets at rest (webhook secrets and the like).

Secrets are sealed with NaCl's SecretBox (XSalsa20-Poly1305) under ``CUSTODY_SECRET_KEY``.
Outside production, when the variable is unset, a key is generated once into
``<data_dir>/secret.key`` (mode 0600) so development and tests work with no set-up; a
production process without the variable refuses to start encrypting.
"""

from __future__ import annotations

import threading
from pathlib import Path

import nacl.secret
import nacl.utils

from common.files import write_private_file
from core.settings import Settings, get_settings

_lock = threading.Lock()
_cached: tuple[Settings, bytes] | None = None


def load_or_create_key_file(path: Path) -> bytes:
    """Read a 32-byte key file, or create it (mode 0600) with a random key.

    Creation is atomic: the key is written to a temporary file and linked into place, so when
    several processes start at once they all end up reading the same key.
    """
    if not path.exists():
        # When several processes race here, the first file linked into place wins for all.
        write_private_file(path, nacl.utils.random(nacl.secret.SecretBox.KEY_SIZE), replace=False)
    key = path.read_bytes()
    if len(key) != nacl.secret.SecretBox.KEY_SIZE:
        raise RuntimeError(f"{path} does not hold a {nacl.secret.SecretBox.KEY_SIZE}-byte key")
    return key


def secret_key(settings: Settings | None = None) -> bytes:
    """The key that seals service secrets (see module docstring)."""
    global _cached
    settings = settings or get_settings()
    with _lock:
        if _cached is not None and _cached[0] is settings:
            return _cached[1]
        if settings.secret_key is not None:
            key = settings.secret_key
        elif settings.environment == "production":
            raise RuntimeError("CUSTODY_SECRET_KEY must be set in production")
        else:
            key = load_or_create_key_file(settings.data_dir / "secret.key")
        _cached = (settings, key)
        return key


def seal(plaintext: bytes, *, key: bytes | None = None) -> bytes:
    """Encrypt and authenticate ``plaintext`` (nonce included in the result)."""
    return bytes(nacl.secret.SecretBox(key or secret_key()).encrypt(plaintext))


def unseal(ciphertext: bytes, *, key: bytes | None = None) -> bytes:
    """Decrypt what :func:`seal` produced; raises ``nacl.exceptions.CryptoError`` if tampered."""
    return nacl.secret.SecretBox(key or secret_key()).decrypt(ciphertext)
