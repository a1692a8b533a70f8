"""Pedersen distributed key generation with proofs of knowledge, for FROST(Ed25519, SHA-512).

The protocol (rounds, proof of knowledge, cheater detection, the exact hash input of the proof)
is :mod:`threshold.pedersen`, shared by every ciphersuite; this module binds it to
:mod:`threshold.frost` and keeps the module-level API the service and the co-signer use. It
produces the same :class:`~threshold.frost.KeyPackage` / :class:`~threshold.frost.PublicKeyPackage`
as trusted-dealer key generation, but the group secret never exists anywhere.

``round1(i, t, n, context)`` -> broadcast :class:`Round1Package`, keep :class:`Round1SecretPackage`;
``round2(secret, round1_packages)`` -> private :class:`Round2Package` per recipient, keep
:class:`Round2SecretPackage`; ``finalize(secret, round2_packages)`` -> ``(KeyPackage,
PublicKeyPackage)``. A bad proof of knowledge raises :class:`InvalidProofOfKnowledge`, a share
inconsistent with its sender's commitments :class:`InvalidSecretShare`, both naming the
participant (``.participant``).

Proof of knowledge (hash input, exactly)::

    c_i  = SHA-512( "FROST-ED25519-SHA512-v1" || "dkg-pok"
                    || uint64_be(len(context)) || context
                    || SerializeScalar(i)
                    || SerializeElement(C_i[0])
                    || SerializeElement(R_i) )  mod L
"""

from __future__ import annotations

from threshold import frost, pedersen
from threshold.ed25519 import ED25519

# POK_LABEL, the errors and PedersenDkg, as always part of this module's API; the generic message
# classes it also brings are replaced below by their Ed25519 bindings.
from threshold.pedersen import *  # noqa: F403
from threshold.pedersen import PedersenDkg

__all__ = [
    # POK_LABEL, the errors, the message classes (bound below) and PedersenDkg
    *pedersen.__all__,
    "DKG",
    "proof_of_knowledge_challenge",
    "prove_knowledge",
    "verify_proof_of_knowledge",
    "public_key_package_from_commitments",
    "round1",
    "round2",
    "finalize",
]


class Round1Package(pedersen.Round1Package, group=ED25519):  # type: ignore[no-redef]  # the star import's generic class
    """Round-1 broadcast of participant ``sender``: commitments and proof of knowledge.

    :ivar sender: identifier of the participant that produced it.
    :ivar commitments: ``([a_0]B, ..., [a_(t-1)]B)``; length is the threshold.
    :ivar proof_r: ``R`` of the proof of knowledge of ``a_0``.
    :ivar proof_mu: ``mu`` of the proof of knowledge of ``a_0``.

    Malformed content raises :class:`DkgCheatingParticipant` naming ``sender``.
    """


class Round1SecretPackage(pedersen.Round1SecretPackage, group=ED25519):  # type: ignore[no-redef]  # the star import's generic class
    """State participant ``identifier`` keeps between round 1 and round 2.

    Holds the secret polynomial coefficients (excluded from ``repr``);
    ``to_dict`` output must be stored encrypted and destroyed after round 2.
    """


class Round2Package(pedersen.Round2Package, group=ED25519):  # type: ignore[no-redef]  # the star import's generic class
    """Private round-2 message: ``signing_share = f_sender(recipient)``.

    Secret: send it only over a confidential, authenticated channel.
    Malformed content raises :class:`DkgCheatingParticipant` naming ``sender``.
    """


class Round2SecretPackage(pedersen.Round2SecretPackage, group=ED25519):  # type: ignore[no-redef]  # the star import's generic class
    """State participant ``identifier`` keeps between round 2 and finalize.

    :ivar own_share: ``f_i(i)`` (secret, excluded from ``repr``).
    :ivar commitments: every participant's verified round-1 commitments,
        including this participant's own, by identifier.

    ``to_dict`` output must be stored encrypted and destroyed after finalize.
    """


#: The DKG bound to FROST(Ed25519, SHA-512); the functions below are its methods.
DKG = PedersenDkg(frost.FROST)

round1, round2, finalize = DKG.round1, DKG.round2, DKG.finalize
proof_of_knowledge_challenge, prove_knowledge, verify_proof_of_knowledge = (
    DKG.proof_of_knowledge_challenge, DKG.prove_knowledge, DKG.verify_proof_of_knowledge
)
public_key_package_from_commitments = DKG.public_key_package_from_commitments
