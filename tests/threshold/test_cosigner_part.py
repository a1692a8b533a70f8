"""Tests for threshold.cosigner_part with the key packages of every scheme.

The Ed25519 format is the default and unchanged; secp256k1 and Taproot key sets use the same
format with their scheme name and 33-byte keys. Each test reads Given / When / Then.
"""

from __future__ import annotations

import json
import uuid

import nacl.pwhash
import pytest

from threshold import frost, frost_secp256k1, scheme
from threshold.cosigner_part import (
    ConfigError,
    KdfParams,
    WrongPassphrase,
    build_config,
    decrypt_key_package,
    derive_key,
    encrypt_key_package,
    new_salt,
    parse_config,
)

#: The cheapest argon2id the module accepts: these tests are about the format, not the KDF.
FAST_KDF = KdfParams(nacl.pwhash.argon2id.OPSLIMIT_MIN, nacl.pwhash.argon2id.MEMLIMIT_MIN)

SCHEMES = [
    (scheme.ED25519_SCHEME, frost.FROST),
    (scheme.SECP256K1_SCHEME, frost_secp256k1.FROST),
    (scheme.TAPROOT_SCHEME, frost_secp256k1.FROST),
]


def _config(scheme_name: str | None, engine: object, passphrase: bytes = b"pass") -> tuple[str, object]:
    packages, _ = engine.trusted_dealer_key_packages(3, 2)  # type: ignore[attr-defined]
    salt = new_salt()
    encrypted = encrypt_key_package(packages[3], key=derive_key(passphrase, salt, FAST_KDF), salt=salt, params=FAST_KDF)
    extra = {} if scheme_name is None else {"scheme": scheme_name}
    config = build_config(key_set_id=uuid.uuid4(), key_package=packages[3], min_signers=2, max_signers=3,
                          encrypted_key_package=encrypted, **extra)
    return config, packages[3]


@pytest.mark.parametrize("scheme_name, engine", SCHEMES, ids=["ed25519", "secp256k1", "taproot"])
def test_a_part_round_trips_for_its_scheme(scheme_name: str, engine: object) -> None:
    # Given a co-signer part built for the scheme
    config, key_package = _config(scheme_name, engine)
    # When the service parses it and the co-signer's passphrase opens it
    parsed = parse_config(config, scheme=scheme_name)
    opened = decrypt_key_package(parsed.encrypted_key_package, b"pass", scheme=scheme_name)
    # Then it names the scheme and carries the co-signer's public values and key package
    assert json.loads(config)["scheme"] == scheme_name
    assert (parsed.group_public_key, parsed.verifying_share) == (key_package.group_public_key, key_package.verifying_share)
    assert opened == key_package
    with pytest.raises(WrongPassphrase):
        decrypt_key_package(parsed.encrypted_key_package, b"wrong", scheme=scheme_name)


def test_ed25519_is_the_default_and_unchanged() -> None:
    # Given a part built without naming a scheme / Then it is an Ed25519 part, parsed by default
    config, key_package = _config(None, frost.FROST)
    assert json.loads(config)["scheme"] == "FROST-ED25519-SHA512-v1"
    parsed = parse_config(config)
    assert decrypt_key_package(parsed.encrypted_key_package, b"pass") == key_package


def test_a_part_of_another_scheme_is_refused() -> None:
    # Given a secp256k1 part / When parsed as Ed25519 or Taproot / Then the scheme is refused
    config, key_package = _config(scheme.SECP256K1_SCHEME, frost_secp256k1.FROST)
    for other in (scheme.ED25519_SCHEME, scheme.TAPROOT_SCHEME):
        with pytest.raises(ConfigError, match=f"scheme must be {other}"):
            parse_config(config, scheme=other)
    # And a key package is not built into a part of another scheme, nor an unknown one
    with pytest.raises(ConfigError):
        build_config(key_set_id=uuid.uuid4(), key_package=key_package, min_signers=2, max_signers=3,
                     encrypted_key_package={}, scheme=scheme.ED25519_SCHEME)
    with pytest.raises(ConfigError, match="unknown scheme"):
        parse_config(config, scheme="FROST-P256-SHA256-v1")


def test_invalid_points_in_a_secp256k1_part_are_named() -> None:
    # Given a secp256k1 part whose verifying share is not a point / Then the field is named
    config, _ = _config(scheme.SECP256K1_SCHEME, frost_secp256k1.FROST)
    data = json.loads(config)
    data["verifying_share"] = "02" + "ff" * 32
    with pytest.raises(ConfigError, match="verifying_share"):
        parse_config(json.dumps(data), scheme=scheme.SECP256K1_SCHEME)
