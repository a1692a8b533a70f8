"""An API user's (or a paired device's) Ed25519 key, and the signed token requests it makes.

The service issues access tokens for a signed request (README "Authentication")::

    POST /api/v2/auth/access-token
    {"data": "<JSON string>", "signature": "<base64 Ed25519 signature of data's UTF-8 bytes>"}

where ``data`` is ``{"client_type": "user" | "device", "client_id", "timestamp", "nonce"}``: unix
seconds within 5 minutes of the server's time, and a nonce the service accepts once per client.

Credentials come from the file ``custody bootstrap --out FILE`` writes (``base_url``,
``workspace_id``, ``client_id``, ``client_type``, ``private_key``: the Ed25519 seed in base64) or
from a key the integrator holds (:meth:`Credentials.from_key`). The key never leaves this object:
it is not in ``repr``, logs or exceptions.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import secrets
import stat
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from nacl.signing import SigningKey

ClientType = Literal["user", "device"]
SEED_BYTES = 32


class CredentialsError(ValueError):
    """The credentials file or key cannot be used (the message says why, never the key)."""


def _signing_key(private_key: str | bytes | SigningKey) -> SigningKey:
    if isinstance(private_key, SigningKey):
        return private_key
    if isinstance(private_key, str):
        try:
            private_key = base64.b64decode(private_key, validate=True)
        except (binascii.Error, ValueError):
            raise CredentialsError("private_key is not valid base64") from None
    if len(private_key) != SEED_BYTES:
        raise CredentialsError(f"private_key must be a {SEED_BYTES}-byte Ed25519 seed, got {len(private_key)} bytes")
    return SigningKey(private_key)


@dataclass(frozen=True)
class Credentials:
    """Who signs token requests: ``client_id`` and its Ed25519 key.

    ``base_url`` and ``workspace_id`` are defaults that :class:`custody_sdk.Custody` uses when it
    is not given them (the bootstrap file carries both).
    """

    client_id: str
    signing_key: SigningKey = field(repr=False)
    client_type: ClientType = "user"
    base_url: str | None = None
    workspace_id: str | None = None

    @classmethod
    def from_key(cls, *, client_id: str, private_key: str | bytes | SigningKey, client_type: ClientType = "user",
                 base_url: str | None = None, workspace_id: str | None = None) -> "Credentials":
        """Credentials from a key: the base64 seed (as in the bootstrap file), 32 raw bytes, or a
        PyNaCl ``SigningKey``."""
        if client_type not in ("user", "device"):
            raise CredentialsError("client_type must be 'user' or 'device'")
        return cls(client_id=str(client_id), signing_key=_signing_key(private_key), client_type=client_type,
                   base_url=base_url, workspace_id=str(workspace_id) if workspace_id else None)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> "Credentials":
        """Credentials from the JSON file ``custody bootstrap --out FILE`` writes.

        Warns (``UserWarning``) when the file can be read by others than its owner: it holds a
        private key, and the bootstrap writes it with mode 0600.
        """
        location = Path(path)
        try:
            text = location.read_text()
        except OSError as exc:
            raise CredentialsError(f"cannot read {location}: {exc.strerror}") from None
        if os.name == "posix" and location.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            warnings.warn(f"{location} holds a private key but others can read it; chmod 600 it", stacklevel=2)
        try:
            values = json.loads(text)
        except ValueError:
            raise CredentialsError(f"{location} is not JSON") from None
        if not isinstance(values, dict):
            raise CredentialsError(f"{location} does not hold a JSON object")
        missing = [name for name in ("client_id", "private_key") if not values.get(name)]
        if missing:
            raise CredentialsError(f"{location} lacks {', '.join(missing)}")
        return cls.from_key(client_id=values["client_id"], private_key=values["private_key"],
                            client_type=values.get("client_type") or "user", base_url=values.get("base_url"),
                            workspace_id=values.get("workspace_id"))

    @property
    def public_key(self) -> str:
        """The base64 public key, as the service stores it (``POST /api/v1/users/api``)."""
        return base64.b64encode(bytes(self.signing_key.verify_key)).decode()

    def token_request(self, *, timestamp: int, nonce: str | None = None) -> dict[str, str]:
        """The body of ``POST /api/v2/auth/access-token`` signed for ``timestamp`` (unix seconds)."""
        data = json.dumps({"client_type": self.client_type, "client_id": self.client_id, "timestamp": int(timestamp),
                           "nonce": nonce or secrets.token_hex(16)}, separators=(",", ":"))
        signature = self.signing_key.sign(data.encode()).signature
        return {"data": data, "signature": base64.b64encode(signature).decode()}
