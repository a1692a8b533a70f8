"""Threshold keys made and used in process, as the service's participants would (tests, benchmarks).

A :class:`ThresholdKey` is a 2-of-3 key made by the distributed key generation, every message
between participants through JSON: the group secret never exists, not even at creation. It signs
with any two (or three) participants, each holding only its own key package.

* :func:`ed25519_key`: FROST(Ed25519, SHA-512), the vaults' key sets (a Solana address);
* :func:`taproot_key`: FROST(secp256k1, SHA-256) keys signing BIP-340 signatures for the
  key-path-only Taproot output of the group key (``TAPROOT.for_output(b"")``, a P2TR address).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from tests.threshold.helpers import run_dkg, threshold_sign
from threshold import dkg, dkg_secp256k1
from threshold.frost import FROST as FROST_ED25519
from threshold.protocol import Frost, KeyPackage, PublicKeyPackage
from threshold.taproot import TAPROOT

#: Every signer subset of a 2-of-3 key.
SIGNER_SUBSETS: tuple[tuple[int, ...], ...] = ((1, 2), (1, 3), (2, 3), (1, 2, 3))


@dataclass
class ThresholdKey:
    engine: Frost
    key_packages: dict[int, KeyPackage]
    public: PublicKeyPackage

    @property
    def group_public_key(self) -> bytes:
        return self.public.group_public_key

    def sign(self, message: bytes, signers: Sequence[int] = (1, 2)) -> bytes:
        """Both FROST rounds by ``signers`` and the coordinator's aggregation."""
        return threshold_sign(self.engine, self.key_packages, self.public, list(signers), message)


def ed25519_key(context: str = "vault:test") -> ThresholdKey:
    packages, publics = run_dkg(dkg.DKG, 2, 3, context)
    return ThresholdKey(FROST_ED25519, packages, publics[1])


def taproot_key(context: str = "vault:taproot") -> ThresholdKey:
    packages, publics = run_dkg(dkg_secp256k1.DKG, 2, 3, context.encode())
    return ThresholdKey(TAPROOT.for_output(b""), packages, publics[1])
