"""Everything a key set of one scheme needs, by scheme name: the one lookup the service uses.

A key set names its scheme (:mod:`threshold.scheme`); the service's signers, coordinator,
co-signer endpoints, backups and the client tools look up its :class:`Suite` here instead of
importing :mod:`threshold.frost` / :mod:`threshold.dkg` directly, so the same pipeline makes and
uses FROST(Ed25519) and secp256k1 (Taproot) keys:

==================================  =================  ===================================
scheme                              DKG                signs with (``suite.engine(root)``)
==================================  =================  ===================================
``FROST-ED25519-SHA512-v1``         ``dkg``            ``frost.FROST`` (RFC 8032 signatures)
``FROST-secp256k1-SHA256-v1``       ``dkg_secp256k1``  ``frost_secp256k1.FROST`` (65 bytes)
``FROST-secp256k1-SHA256-TR-v1``    ``dkg_secp256k1``  ``taproot.TAPROOT.for_output(root)``
``ECDSA-secp256k1-cait-sith-v1``    ``dkg_secp256k1``  none: ``threshold.ecdsa`` (presignatures)
==================================  =================  ===================================

The ECDSA scheme's key sets are made by the same DKG (a secp256k1 key package is a valid
cait-sith key share: :meth:`threshold.ecdsa.KeyShare.from_key_package`), so its suite carries the
secp256k1 DKG and key package classes; it has no FROST engine (``ecdsa`` is True, and
:meth:`Suite.engine` refuses): its signing sessions run :mod:`threshold.ecdsa` with presignatures
from the single-use stock, and :meth:`Suite.verify` checks an ``r || s`` ECDSA signature of a
32-byte digest.

The Taproot scheme's engine depends on what is signed for: ``merkle_root`` ``None`` signs for
the internal key (plain BIP-340), ``b""`` for the key-path-only output (Bitcoin P2TR spends),
32 bytes for an output with that script tree. Other schemes take no merkle root.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from threshold import dkg, dkg_secp256k1, frost, frost_secp256k1, taproot
from threshold.errors import InvalidParameters
from threshold.pedersen import PedersenDkg
from threshold.protocol import Frost
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME, SECP256K1_SCHEME, TAPROOT_SCHEME

__all__ = ["Suite", "suite_of", "SUITES", "ecdsa_backup_digest"]


@dataclass(frozen=True)
class Suite:
    """One scheme: its DKG, its data classes and its signing engines."""

    scheme: str
    #: The protocol signing for the key set's own group key (Taproot: the internal key).
    frost: Frost
    dkg: PedersenDkg
    #: Bytes of a serialized group element (group keys, verifying shares, commitments).
    element_size: int
    #: Whether signatures can be made for a Taproot output (``merkle_root`` not None).
    taproot: bool = False
    #: Threshold ECDSA (:mod:`threshold.ecdsa`): DKG and key packages of ``dkg``, no FROST engine.
    ecdsa: bool = False

    # The data classes bound to the scheme's group (``from_dict`` / ``from_bytes`` validate).
    @property
    def KeyPackage(self) -> Any:  # noqa: N802 - a class
        return self.frost.KeyPackage

    @property
    def PublicKeyPackage(self) -> Any:  # noqa: N802
        return self.frost.PublicKeyPackage

    @property
    def SigningNonces(self) -> Any:  # noqa: N802
        return self.frost.SigningNonces

    @property
    def SigningCommitments(self) -> Any:  # noqa: N802
        return self.frost.SigningCommitments

    @property
    def SignatureShare(self) -> Any:  # noqa: N802
        return self.frost.SignatureShare

    @property
    def Round1Package(self) -> Any:  # noqa: N802
        return self.dkg.Round1Package

    @property
    def Round1SecretPackage(self) -> Any:  # noqa: N802
        return self.dkg.Round1SecretPackage

    @property
    def Round2SecretPackage(self) -> Any:  # noqa: N802
        return self.dkg.Round2SecretPackage

    def engine(self, merkle_root: bytes | None = None) -> Frost:
        """The engine that signs for ``merkle_root``'s key (see the module); refuses a merkle
        root for a scheme without Taproot outputs, and an ECDSA scheme (no FROST engine)."""
        if self.ecdsa:
            raise InvalidParameters(f"{self.scheme} signs with threshold.ecdsa, not a FROST engine")
        if not self.taproot:
            if merkle_root is not None:
                raise InvalidParameters(f"{self.scheme} signs no Taproot output (merkle_root must be None)")
            return self.frost
        return taproot.TAPROOT.for_output(merkle_root)

    def verify(self, group_public_key: bytes, message: bytes, signature: bytes,
               merkle_root: bytes | None = None) -> bool:
        """Whether ``signature`` is valid for the key set's key (tweaked for ``merkle_root``),
        checked by the chain's own primitive: RFC 8032 (libsodium), BIP-340 or ECDSA (libsecp256k1:
        an ECDSA ``message`` is the 32-byte digest, the signature ``r || s`` with low s)."""
        if self.ecdsa:
            from threshold import ecdsa  # the Rust library loads only where ECDSA is used

            return merkle_root is None and ecdsa.verify(group_public_key, message, signature)
        try:
            return self.engine(merkle_root).verify_signature(group_public_key, message, signature)
        except InvalidParameters:
            return False


SUITES: dict[str, Suite] = {
    ED25519_SCHEME: Suite(ED25519_SCHEME, frost.FROST, dkg.DKG, 32),
    SECP256K1_SCHEME: Suite(SECP256K1_SCHEME, frost_secp256k1.FROST, dkg_secp256k1.DKG, 33),
    TAPROOT_SCHEME: Suite(TAPROOT_SCHEME, taproot.TAPROOT, dkg_secp256k1.DKG, 33, taproot=True),
    ECDSA_SCHEME: Suite(ECDSA_SCHEME, frost_secp256k1.FROST, dkg_secp256k1.DKG, 33, ecdsa=True),
}


def ecdsa_backup_digest(message: bytes) -> bytes:
    """What a threshold ECDSA key signs to prove a message (backup verification, ``custody
    recover``): SHA-256 of it (ECDSA signs a 32-byte digest; a transaction's is its own hash)."""
    return hashlib.sha256(bytes(message)).digest()


def suite_of(scheme: str) -> Suite:
    """The suite of a scheme name; :class:`~threshold.errors.InvalidParameters` for an unknown one."""
    try:
        return SUITES[scheme]
    except KeyError:
        raise InvalidParameters(f"unknown threshold scheme {scheme!r}") from None
