"""Offline recovery: rebuild each vault's signing key from a backup file and the backup private key.

This is the one place where shares are combined into a whole key, on purpose, on a machine the
key owner controls (no network, no database). Usage::

    python -m client.recovery --backup custody-backup-<id>.json --private-key backup.key \\
        [--cosigner-share share.json ... --cosigner-passphrase-file pass.txt] \\
        [--message "text to sign"] [--verification-out verify.json] [--keys-out keys.json]

* ``--private-key``: the Curve25519 private key whose public key was given to POST /backup:
  a file with the 32 raw bytes, or their base64 or hex text.
* Each key set in the backup (docs/signing.md, "Backup file") has the two service shares sealed
  to that key; with a 2-of-3 key they suffice. The co-signer's share is optional: pass its
  exported share (``python -m client.cosigner export-share``) with ``--cosigner-share`` or let
  the tool use the escrowed part inside the backup; either needs ``--cosigner-passphrase-file``.
  Every share found is checked against the key set's public verifying shares; any
  ``min_signers`` of them are interpolated, and the result must match the group public key.
* Proof: for every key the tool signs ``--message`` with the rebuilt key and verifies the
  signature with the chain's own rule, and prints one JSON line per key: FROST(Ed25519) keys
  (Solana, the devnets) with ``nacl.signing.VerifyKey(group public key)`` (RFC 8032); Taproot
  secp256k1 keys (Bitcoin) with BIP-340 verification by libsecp256k1 under the key-path-only
  Taproot output key, the key a P2TR address pays and a key-path spend is checked against.
* ``--verification-out`` writes the body of POST /api/v1/backup/{id}/verify (each group signs
  the backup's verification message). ``--keys-out`` writes the rebuilt secret scalars (mode
  0600) for moving funds; treat that file as the keys themselves.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from coincurve import PrivateKey as Secp256k1Key
from nacl.exceptions import BadSignatureError, CryptoError
from nacl.public import PrivateKey, SealedBox
from nacl.signing import VerifyKey

from common.files import write_private_file
from threshold import frost, protocol
from threshold.cosigner_part import (
    ConfigError,
    WrongPassphrase,
    decrypt_key_package,
    parse_config,
)
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME
from threshold.secp256k1 import SECP256K1, tagged_hash, taproot_tweak
from threshold.secp256k1 import N as SECP256K1_ORDER
from threshold.suites import SUITES, ecdsa_backup_digest, suite_of
from threshold.taproot import output_key, verify_bip340

FILE_FORMAT = "custody-backup"
#: The scheme of key sets whose entry names none (and the file's top-level ``scheme``).
SCHEME = ED25519_SCHEME
DEFAULT_MESSAGE = b"custody offline recovery check"
#: Taproot keys are proven for the key-path-only output (a P2TR address's output key).
KEY_PATH = b""


class RecoveryError(ValueError):
    """The backup cannot be recovered as given (wrong key, corrupt or inconsistent shares, ...)."""


@dataclass(frozen=True)
class RecoveredKey:
    """One rebuilt vault key: the secret scalar behind ``group_public_key`` (of ``scheme``)."""

    key_set_id: str
    vault_id: str
    group_public_key: bytes
    secret: bytes = field(repr=False)
    participants: tuple[int, ...]
    scheme: str = SCHEME

    def sign(self, message: bytes) -> bytes:
        """Ed25519 keys: an RFC 8032 signature; Taproot keys: a BIP-340 signature by the
        key-path output key (what spends from the vault's P2TR address carry); threshold ECDSA
        keys: an ECDSA signature ``r || s`` (low s) of SHA-256(message) by libsecp256k1."""
        if self.scheme == ED25519_SCHEME:
            return sign_with_secret(self.secret, self.group_public_key, message)
        if self.scheme == ECDSA_SCHEME:
            return Secp256k1Key(self.secret).sign_recoverable(ecdsa_backup_digest(message), hasher=None)[:64]
        return bip340_sign(taproot_output_secret(self.secret, self.group_public_key), message)

    def verifies(self, message: bytes, signature: bytes) -> bool:
        """The chain's own check of ``signature`` (see the module)."""
        if self.scheme == ECDSA_SCHEME:
            return suite_of(ECDSA_SCHEME).verify(self.group_public_key, ecdsa_backup_digest(message), signature)
        if self.scheme == ED25519_SCHEME:
            try:
                VerifyKey(self.group_public_key).verify(message, signature)
                return True
            except BadSignatureError:
                return False
        return verify_bip340(output_key(self.group_public_key, KEY_PATH)[0], message, signature)


def _scalar_int(value: bytes) -> int:
    return int.from_bytes(value, "big")


def bip340_sign(secret: bytes, message: bytes, aux_random: bytes | None = None) -> bytes:
    """BIP-340 ``Sign(sk, m)`` for a message of any length (libsecp256k1's one-call signer takes
    32 bytes only), with the group operations of libsecp256k1; verified by the caller."""
    n = SECP256K1_ORDER
    d = _scalar_int(secret)
    if not 0 < d < n:
        raise RecoveryError("the rebuilt secp256k1 secret is out of range")
    point = SECP256K1.scalar_base_mult(d.to_bytes(32, "big"))
    if not SECP256K1.has_even_y(point):
        d = n - d
    masked = d ^ _scalar_int(tagged_hash("BIP0340/aux", aux_random if aux_random is not None else os.urandom(32)))
    k = _scalar_int(tagged_hash("BIP0340/nonce", masked.to_bytes(32, "big") + point[1:] + message)) % n
    if k == 0:  # pragma: no cover - probability 2**-256
        raise RecoveryError("BIP-340 nonce is zero; sign again")
    nonce_point = SECP256K1.scalar_base_mult(k.to_bytes(32, "big"))
    if not SECP256K1.has_even_y(nonce_point):
        k = n - k
    e = _scalar_int(tagged_hash("BIP0340/challenge", nonce_point[1:] + point[1:] + message)) % n
    return nonce_point[1:] + ((k + e * d) % n).to_bytes(32, "big")


def taproot_output_secret(secret: bytes, group_public_key: bytes, merkle_root: bytes = KEY_PATH) -> bytes:
    """BIP-341 ``taproot_tweak_seckey``: the secret of the output key of ``group_public_key``
    (negated first when the internal key has odd Y, then plus the TapTweak), 32 bytes big-endian."""
    d = int.from_bytes(secret, "big")
    if not SECP256K1.has_even_y(group_public_key):
        d = SECP256K1_ORDER - d
    t = int.from_bytes(taproot_tweak(group_public_key[1:], merkle_root), "big")
    return ((d + t) % SECP256K1_ORDER).to_bytes(32, "big")


def load_private_key(data: bytes) -> PrivateKey:
    """A Curve25519 private key from 32 raw bytes, or base64 / hex text of them."""
    if len(data) == 32:
        return PrivateKey(data)
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError:
        raise RecoveryError("the private key must be 32 bytes (raw, base64 or hex)") from None
    candidates = []
    try:
        candidates.append(base64.b64decode(text, validate=True))
    except (binascii.Error, ValueError):
        pass
    try:
        candidates.append(bytes.fromhex(text))
    except ValueError:
        pass
    for raw in candidates:
        if len(raw) == 32:
            return PrivateKey(raw)
    raise RecoveryError("the private key must be 32 bytes (raw, base64 or hex)")


def sign_with_secret(secret: bytes, group_public_key: bytes, message: bytes) -> bytes:
    """An RFC 8032-verifiable Ed25519 signature made with a secret *scalar* (not a seed).

    ``R = [r]B``, ``c = SHA-512(R || PK || M) mod L``, ``z = r + c * s``; the nonce ``r`` is
    derived from the secret, the message and fresh randomness.
    """
    r = frost.H3(os.urandom(32) + hashlib.sha512(secret + message).digest())
    big_r = frost.scalar_base_mult(r)
    challenge = frost.compute_challenge(big_r, group_public_key, message)
    return big_r + frost.scalar_add(r, frost.scalar_mul(challenge, secret))


def _open_share(sealed_b64: str, box: SealedBox, what: str, scheme: str = SCHEME) -> protocol.KeyPackage:
    try:
        plaintext = box.decrypt(base64.b64decode(sealed_b64, validate=True))
    except (CryptoError, binascii.Error, ValueError):
        raise RecoveryError(f"{what}: cannot be opened with this private key") from None
    try:
        return suite_of(scheme).KeyPackage.from_dict(json.loads(plaintext))
    except (frost.FrostError, ValueError) as exc:
        raise RecoveryError(f"{what}: not a valid key package ({exc})") from None


def cosigner_shares_from_configs(configs: Iterable[str], passphrase: bytes) -> dict[str, protocol.KeyPackage]:
    """Co-signer key packages by key set id, from part configs (exported or escrowed)."""
    shares: dict[str, protocol.KeyPackage] = {}
    for config in configs:
        try:
            scheme = _config_scheme(config)
            parsed = parse_config(config, scheme=scheme)
            shares[str(parsed.key_set_id)] = decrypt_key_package(parsed.encrypted_key_package, passphrase,
                                                                 scheme=scheme)
        except WrongPassphrase as exc:
            raise RecoveryError(str(exc)) from None
        except (ConfigError, frost.FrostError) as exc:
            raise RecoveryError(f"co-signer share: {exc}") from None
    return shares


def _config_scheme(config: str) -> str:
    """The scheme a part config names (checked in full by ``parse_config`` afterwards)."""
    try:
        scheme = json.loads(config).get("scheme")
    except (ValueError, AttributeError):
        raise ConfigError("the config is not a JSON object") from None
    if scheme not in SUITES:
        raise ConfigError(f"unknown scheme {scheme!r}")
    return scheme


def recover(
    document: Mapping[str, Any], private_key: PrivateKey, *,
    cosigner_shares: Mapping[str, protocol.KeyPackage] | None = None,
) -> list[RecoveredKey]:
    """Rebuild every key of the backup ``document`` (the parsed backup file)."""
    if document.get("format") != FILE_FORMAT or document.get("version") != 1 or document.get("scheme") not in SUITES:
        raise RecoveryError(f"not a version 1 {FILE_FORMAT} file")
    box = SealedBox(private_key)
    recovered = []
    for entry in document.get("key_sets", []):
        key_set_id = entry["key_set_id"]
        scheme = entry.get("scheme", document["scheme"])
        if scheme not in SUITES:
            raise RecoveryError(f"key set {key_set_id}: unknown scheme {scheme!r}")
        suite = suite_of(scheme)
        group_public_key = bytes.fromhex(entry["master_xpub"])
        verifying = {int(i): bytes.fromhex(v) for i, v in entry["verifying_shares"].items()}
        shares: dict[int, protocol.KeyPackage] = {}
        for sealed in entry["shares"]:
            what = f"key set {key_set_id}, participant {sealed['participant']}"
            package = _open_share(sealed["sealed_key_package"], box, what, scheme)
            if package.identifier != sealed["participant"]:
                raise RecoveryError(f"{what}: the share belongs to participant {package.identifier}")
            shares[package.identifier] = package
        extra = (cosigner_shares or {}).get(key_set_id)
        if extra is not None and not isinstance(extra, suite.KeyPackage):
            raise RecoveryError(f"key set {key_set_id}: the co-signer share is not of scheme {scheme}")
        if extra is not None:
            shares[extra.identifier] = extra
        for identifier, package in shares.items():
            if package.group_public_key != group_public_key or package.verifying_share != verifying.get(identifier):
                raise RecoveryError(f"key set {key_set_id}: share of participant {identifier} does not match the key")
        if len(shares) < entry["min_signers"]:
            raise RecoveryError(f"key set {key_set_id}: {len(shares)} share(s), {entry['min_signers']} needed")
        used = tuple(sorted(shares)[: entry["min_signers"]])
        secret = suite.frost.secret_share_combine([(i, shares[i].signing_share) for i in used])
        if suite.frost.group.scalar_base_mult(secret) != group_public_key:
            raise RecoveryError(f"key set {key_set_id}: the shares do not rebuild the group key")
        recovered.append(RecoveredKey(key_set_id=key_set_id, vault_id=entry["vault_id"],
                                      group_public_key=group_public_key, secret=secret, participants=used,
                                      scheme=scheme))
    return recovered


def prove(key: RecoveredKey, message: bytes) -> bytes:
    """Sign ``message`` with the rebuilt key and check it by the chain's rule (RecoveredKey.verifies)."""
    signature = key.sign(message)
    if not key.verifies(message, signature):
        raise RecoveryError(f"key set {key.key_set_id}: the rebuilt key's signature does not verify")
    return signature


def verification_request(document: Mapping[str, Any], keys: Iterable[RecoveredKey]) -> dict[str, Any]:
    """The body of POST /api/v1/backup/{backup_id}/verify for these rebuilt keys."""
    message = base64.b64decode(document["verification_message"])
    return {"groups": [
        {"master_xpub": key.group_public_key.hex(), "schema": key.scheme,
         "signature": base64.b64encode(prove(key, message)).decode()} for key in keys
    ]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.recovery", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backup", required=True, help="the backup file (GET /api/v1/backup/file)")
    parser.add_argument("--private-key", required=True, help="Curve25519 private key file (raw, base64 or hex)")
    parser.add_argument("--cosigner-share", action="append", default=[],
                        help="co-signer share file (export-share); repeatable")
    parser.add_argument("--cosigner-passphrase-file", default=None,
                        help="passphrase of the co-signer share (also opens the parts escrowed in the backup)")
    parser.add_argument("--message", default=None, help="text each rebuilt key signs as proof")
    parser.add_argument("--verification-out", default=None, help="write the POST .../verify body here")
    parser.add_argument("--keys-out", default=None, help="write the rebuilt secret scalars here (mode 0600)")
    args = parser.parse_args(argv)
    try:
        document = json.loads(Path(args.backup).read_text())
        private_key = load_private_key(Path(args.private_key).read_bytes())
        cosigner_shares: dict[str, protocol.KeyPackage] = {}
        if args.cosigner_passphrase_file:
            passphrase = Path(args.cosigner_passphrase_file).read_text().rstrip("\n").encode()
            configs = [Path(p).read_text() for p in args.cosigner_share] or [
                entry["cosigner_part"]["config"] for entry in document.get("key_sets", []) if entry.get("cosigner_part")
            ]
            cosigner_shares = cosigner_shares_from_configs(configs, passphrase)
        elif args.cosigner_share:
            raise RecoveryError("--cosigner-share needs --cosigner-passphrase-file")
        keys = recover(document, private_key, cosigner_shares=cosigner_shares)
        message = args.message.encode() if args.message is not None else DEFAULT_MESSAGE
        for key in keys:
            signature = prove(key, message)
            print(json.dumps({"vault_id": key.vault_id, "key_set_id": key.key_set_id, "scheme": key.scheme,
                              "master_xpub": key.group_public_key.hex(), "participants_used": list(key.participants),
                              "message": message.decode(errors="replace"), "signature": signature.hex(),
                              "verifies": True}))
        if args.verification_out:
            Path(args.verification_out).write_text(json.dumps(verification_request(document, keys), indent=2))
        if args.keys_out:
            write_private_file(args.keys_out, json.dumps({"key_sets": [
                {"key_set_id": k.key_set_id, "vault_id": k.vault_id, "scheme": k.scheme,
                 "group_public_key": k.group_public_key.hex(), "secret_scalar": k.secret.hex(),
                 **({} if k.scheme == ED25519_SCHEME else
                    {"taproot_output_secret": taproot_output_secret(k.secret, k.group_public_key).hex()})}
                for k in keys]}, indent=2))
        print(f"recovered {len(keys)} key(s) from backup {document.get('backup_id')}", file=sys.stderr)
        return 0
    except (RecoveryError, OSError, ValueError, KeyError) as exc:
        print(f"recovery: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
