"""The co-signer part ``config``: its format, and the passphrase encryption of the co-signer's share.

Pure functions (no database, no HTTP): the service parses and checks the public half, the
co-signer program (client/cosigner.py) builds it and the offline recovery tool
(client/recovery.py) opens it with the passphrase.

``config`` is a JSON object serialized as a string (documented in docs/signing.md)::

    {
      "version": 1,
      "scheme": "FROST-ED25519-SHA512-v1",
      "key_set_id": "<uuid: the intent the part answers>",
      "participant": 3,
      "min_signers": 2,
      "max_signers": 3,
      "group_public_key": "<hex, 32 bytes>",
      "verifying_share": "<hex, 32 bytes: [share]B of the co-signer>",
      "encrypted_key_package": {
        "kdf": "argon2id13", "opslimit": <int>, "memlimit": <int>, "salt": "<base64, 16 bytes>",
        "cipher": "xsalsa20poly1305", "ciphertext": "<base64: SecretBox(KeyPackage JSON)>"
      }
    }

The key of ``encrypted_key_package`` is ``argon2id(passphrase, salt, opslimit, memlimit)``
(libsodium's crypto_pwhash, 32 bytes); only the client knows the passphrase, so the service
keeps the part as an escrow copy it cannot read.

Key sets of the secp256k1 schemes (``threshold.scheme``) have parts of the same format: their
``scheme``, 33-byte SEC1 keys, and their own key packages inside. The functions take the scheme
as a keyword argument, FROST(Ed25519)'s by default.
"""

from __future__ import annotations

import base64
import binascii
import json
import uuid
from dataclasses import dataclass
from typing import Any, Mapping

import nacl.pwhash
import nacl.secret
import nacl.utils
from nacl.exceptions import CryptoError

from threshold import frost, frost_secp256k1
from threshold.encoding import HexError, parse_hex
from threshold.protocol import KeyPackage
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME, SECP256K1_SCHEME, TAPROOT_SCHEME

CONFIG_VERSION = 1
SCHEME = ED25519_SCHEME
#: The key package class of each scheme (the two secp256k1 schemes share key packages).
KEY_PACKAGE_TYPES: Mapping[str, type[KeyPackage]] = {
    ED25519_SCHEME: frost.KeyPackage,
    SECP256K1_SCHEME: frost_secp256k1.KeyPackage,
    TAPROOT_SCHEME: frost_secp256k1.KeyPackage,
    # Threshold ECDSA key sets come from the same secp256k1 DKG (threshold.ecdsa.KeyShare.from_key_package).
    ECDSA_SCHEME: frost_secp256k1.KeyPackage,
}
KDF = "argon2id13"
CIPHER = "xsalsa20poly1305"
MAX_CONFIG_LENGTH = 16384
#: Bounds on the KDF cost a file may ask for (a hostile file must not exhaust memory).
MAX_MEMLIMIT = 1 << 30
MAX_OPSLIMIT = 64


class ConfigError(ValueError):
    """The config (or an encrypted key package) is malformed; the message names the field."""


class WrongPassphrase(ValueError):
    """The passphrase does not open the encrypted key package."""


@dataclass(frozen=True)
class KdfParams:
    opslimit: int = nacl.pwhash.argon2id.OPSLIMIT_INTERACTIVE
    memlimit: int = nacl.pwhash.argon2id.MEMLIMIT_INTERACTIVE


def derive_key(passphrase: bytes, salt: bytes, params: KdfParams) -> bytes:
    """The 32-byte SecretBox key for ``passphrase`` (argon2id)."""
    if not (nacl.pwhash.argon2id.OPSLIMIT_MIN <= params.opslimit <= MAX_OPSLIMIT
            and nacl.pwhash.argon2id.MEMLIMIT_MIN <= params.memlimit <= MAX_MEMLIMIT):
        raise ConfigError("KDF parameters out of the accepted range")
    if len(salt) != nacl.pwhash.argon2id.SALTBYTES:
        raise ConfigError(f"salt must be {nacl.pwhash.argon2id.SALTBYTES} bytes")
    return nacl.pwhash.argon2id.kdf(nacl.secret.SecretBox.KEY_SIZE, passphrase, salt,
                                    opslimit=params.opslimit, memlimit=params.memlimit)


def _key_package_type(scheme: str) -> type[KeyPackage]:
    try:
        return KEY_PACKAGE_TYPES[scheme]
    except KeyError:
        raise ConfigError(f"unknown scheme {scheme!r}") from None


def encrypt_key_package(key_package: KeyPackage, *, key: bytes, salt: bytes, params: KdfParams) -> dict[str, Any]:
    """``encrypted_key_package`` for a key already derived with :func:`derive_key` from ``salt``."""
    ciphertext = nacl.secret.SecretBox(key).encrypt(json.dumps(key_package.to_dict()).encode())
    return {
        "kdf": KDF, "opslimit": params.opslimit, "memlimit": params.memlimit,
        "salt": base64.b64encode(salt).decode(), "cipher": CIPHER,
        "ciphertext": base64.b64encode(bytes(ciphertext)).decode(),
    }


def _b64(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise ConfigError(f"{what} must be a base64 string")
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise ConfigError(f"{what} must be base64") from None


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{name} must be an integer")
    return value


def decrypt_key_package(encrypted: Mapping[str, Any], passphrase: bytes, *, scheme: str = SCHEME) -> KeyPackage:
    """Open an ``encrypted_key_package`` with the passphrase (a key package of ``scheme``)."""
    key_package_type = _key_package_type(scheme)
    if not isinstance(encrypted, Mapping) or encrypted.get("kdf") != KDF or encrypted.get("cipher") != CIPHER:
        raise ConfigError(f"encrypted_key_package must use kdf {KDF} and cipher {CIPHER}")
    params = KdfParams(_int(encrypted, "opslimit"), _int(encrypted, "memlimit"))
    key = derive_key(passphrase, _b64(encrypted.get("salt"), "salt"), params)
    try:
        plaintext = nacl.secret.SecretBox(key).decrypt(_b64(encrypted.get("ciphertext"), "ciphertext"))
    except CryptoError:
        raise WrongPassphrase("the passphrase does not decrypt this key package") from None
    return key_package_type.from_dict(json.loads(plaintext))


@dataclass(frozen=True)
class CosignerConfig:
    """The parsed public half of a co-signer part config (plus the encrypted package, opaque)."""

    key_set_id: uuid.UUID
    participant: int
    min_signers: int
    max_signers: int
    group_public_key: bytes
    verifying_share: bytes
    encrypted_key_package: Mapping[str, Any]


def build_config(
    *, key_set_id: uuid.UUID | str, key_package: KeyPackage, min_signers: int, max_signers: int,
    encrypted_key_package: Mapping[str, Any], scheme: str = SCHEME,
) -> str:
    """The config string the co-signer sends with POST /co-signer/part."""
    if not isinstance(key_package, _key_package_type(scheme)):
        raise ConfigError(f"the key package is not one of scheme {scheme}")
    return json.dumps({
        "version": CONFIG_VERSION,
        "scheme": scheme,
        "key_set_id": str(key_set_id),
        "participant": key_package.identifier,
        "min_signers": min_signers,
        "max_signers": max_signers,
        "group_public_key": key_package.group_public_key.hex(),
        "verifying_share": key_package.verifying_share.hex(),
        "encrypted_key_package": dict(encrypted_key_package),
    }, separators=(",", ":"))


def _element(data: Mapping[str, Any], name: str, key_package_type: type[KeyPackage]) -> bytes:
    try:
        raw = parse_hex(data.get(name), what=name)
    except HexError as error:
        raise ConfigError(str(error)) from None
    try:
        return key_package_type.group.deserialize_element(raw, what=name)
    except frost.FrostError as exc:
        raise ConfigError(str(exc)) from None


def parse_config(config: Any, *, scheme: str = SCHEME) -> CosignerConfig:
    """Parse and check a config string of ``scheme``; raises :class:`ConfigError` naming what is wrong."""
    key_package_type = _key_package_type(scheme)
    if not isinstance(config, str) or not config or len(config) > MAX_CONFIG_LENGTH:
        raise ConfigError(f"config must be a JSON document of at most {MAX_CONFIG_LENGTH} characters")
    try:
        data = json.loads(config)
    except ValueError:
        raise ConfigError("config is not valid JSON") from None
    if not isinstance(data, dict):
        raise ConfigError("config must be a JSON object")
    if data.get("version") != CONFIG_VERSION:
        raise ConfigError(f"config version must be {CONFIG_VERSION}")
    if data.get("scheme") != scheme:
        raise ConfigError(f"config scheme must be {scheme}")
    try:
        key_set_id = uuid.UUID(str(data.get("key_set_id")))
    except ValueError:
        raise ConfigError("key_set_id must be a UUID") from None
    encrypted = data.get("encrypted_key_package")
    if not isinstance(encrypted, dict) or encrypted.get("kdf") != KDF or encrypted.get("cipher") != CIPHER:
        raise ConfigError(f"encrypted_key_package must use kdf {KDF} and cipher {CIPHER}")
    for name in ("opslimit", "memlimit"):
        _int(encrypted, name)
    _b64(encrypted.get("salt"), "encrypted_key_package.salt")
    _b64(encrypted.get("ciphertext"), "encrypted_key_package.ciphertext")
    return CosignerConfig(
        key_set_id=key_set_id,
        participant=_int(data, "participant"),
        min_signers=_int(data, "min_signers"),
        max_signers=_int(data, "max_signers"),
        group_public_key=_element(data, "group_public_key", key_package_type),
        verifying_share=_element(data, "verifying_share", key_package_type),
        encrypted_key_package=encrypted,
    )


def new_salt() -> bytes:
    return nacl.utils.random(nacl.pwhash.argon2id.SALTBYTES)
