"""Pedersen distributed key generation for secp256k1 key sets (FROST(secp256k1, SHA-256) and Taproot).

The protocol, its messages, its proof of knowledge and its cheater detection are
:mod:`threshold.pedersen`'s, exactly as :mod:`threshold.dkg` has them for Ed25519: the same
rounds, the same fields on the wire (hex of 33-byte SEC1 points and 32-byte big-endian scalars),
the same errors naming the participant at fault (:class:`~threshold.pedersen.InvalidProofOfKnowledge`,
:class:`~threshold.pedersen.InvalidSecretShare`, :class:`~threshold.pedersen.DkgCheatingParticipant`).
The proof-of-knowledge challenge is RFC 9380 hash_to_field of the same input, with the DST
``"FROST-secp256k1-SHA256-v1" || "dkg-pok"``.

It outputs :mod:`threshold.frost_secp256k1` key packages; :mod:`threshold.taproot` signs BIP-340
signatures with the same ones (its :func:`~threshold.taproot.internal_key` and
:func:`~threshold.taproot.output_key` give the key a Taproot output commits to)::

    secret, package = round1(i, 2, 3, context)          # broadcast package
    state, outgoing = round2(secret, received_round1)   # send outgoing[j] to j, privately
    key_package, public = finalize(state, received_round2)

Round-2 packages travel like Ed25519's (:mod:`threshold.transport`, with
``package_type=Round2Package``).
"""

from __future__ import annotations

from threshold import frost_secp256k1, pedersen
from threshold.pedersen import PedersenDkg
from threshold.secp256k1 import SECP256K1

__all__ = [
    "DKG",
    "Round1Package",
    "Round1SecretPackage",
    "Round2Package",
    "Round2SecretPackage",
    "round1",
    "round2",
    "finalize",
]

# The messages of threshold.pedersen bound to secp256k1 (annotate with the generic ones).
Round1Package = pedersen.Round1Package.bound_to(SECP256K1, module=__name__)
Round1SecretPackage = pedersen.Round1SecretPackage.bound_to(SECP256K1, module=__name__)
Round2Package = pedersen.Round2Package.bound_to(SECP256K1, module=__name__)
Round2SecretPackage = pedersen.Round2SecretPackage.bound_to(SECP256K1, module=__name__)

#: The DKG bound to FROST(secp256k1, SHA-256); also has the proof-of-knowledge methods.
DKG = PedersenDkg(frost_secp256k1.FROST)

round1, round2, finalize = DKG.round1, DKG.round2, DKG.finalize
