"""FROST(secp256k1, SHA-256), RFC 9591 section 6.5: threshold Schnorr signatures on secp256k1.

The protocol is :mod:`threshold.protocol`'s, bound to :data:`~threshold.secp256k1.FROST_SECP256K1_SHA256`
(libsecp256k1 through coincurve). Use the methods of :data:`FROST` (the RFC's function names,
exactly as :mod:`threshold.frost` exposes them for Ed25519)::

    packages, public = FROST.trusted_dealer_key_packages(3, 2)   # or dkg_secp256k1.DKG
    nonces, commitments = FROST.commit(packages[1])
    share = FROST.sign(packages[1], nonces, msg, commitment_list)
    signature = FROST.aggregate(commitment_list, msg, shares, public)   # 65 bytes: R (SEC1) || z

Conventions: scalars are 32 bytes big-endian (``< n``), elements 33-byte SEC1 compressed points,
identifiers scalars. The wire formats (``to_dict``/``from_dict``, ``to_bytes``) have the same
fields as Ed25519's; only the sizes differ (key package 130 bytes, commitments 98, nonces and
shares 64). The key packages are also those of :mod:`threshold.taproot`, which signs with the
same shares for BIP-340.
"""

from __future__ import annotations

from threshold import protocol
from threshold.protocol import Frost
from threshold.secp256k1 import FROST_SECP256K1_SHA256, SECP256K1

__all__ = ["SUITE", "CONTEXT_STRING", "FROST"]
__all__ += ["KeyPackage", "PublicKeyPackage", "SigningNonces", "SigningCommitments", "SignatureShare"]

#: The ciphersuite, RFC 9591 section 6.5.
SUITE = FROST_SECP256K1_SHA256
#: "FROST-secp256k1-SHA256-v1": domain separation prefix of H1..H5 (H2 included, unlike Ed25519's).
CONTEXT_STRING: bytes = SUITE.context_string

# The data classes of threshold.protocol bound to secp256k1 (annotate with the generic ones).
KeyPackage = protocol.KeyPackage.bound_to(SECP256K1, module=__name__)
PublicKeyPackage = protocol.PublicKeyPackage.bound_to(SECP256K1, module=__name__)
SigningNonces = protocol.SigningNonces.bound_to(SECP256K1, module=__name__)
SigningCommitments = protocol.SigningCommitments.bound_to(SECP256K1, module=__name__)
SignatureShare = protocol.SignatureShare.bound_to(SECP256K1, module=__name__)

#: FROST(secp256k1, SHA-256): the protocol bound to the ciphersuite.
FROST = Frost(SUITE)
