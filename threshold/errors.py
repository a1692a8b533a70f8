"""The errors of the threshold signing protocols, shared by every ciphersuite.

One hierarchy for all groups, so a caller that handles :class:`FrostError` handles Ed25519 and
secp256k1 key sets alike (``threshold.frost`` re-exports these names, where they always lived).
"""

from __future__ import annotations

__all__ = [
    "FrostError",
    "InvalidScalar",
    "InvalidElement",
    "InvalidIdentifier",
    "InvalidParameters",
    "InvalidCommitmentList",
    "InvalidSignatureShare",
    "InvalidSignature",
]


class FrostError(Exception):
    """Base class of every error raised by the threshold protocols (signing and key generation).

    Messages describe *what* failed and, where relevant, *which participant*;
    they never contain secret values (shares, nonces, polynomial coefficients).
    """


class InvalidScalar(FrostError):
    """A scalar encoding is malformed, non-canonical (``>=`` the group order) or zero where zero is forbidden."""


class InvalidElement(FrostError):
    """An element encoding is malformed, off-curve, small-order, the identity,
    or outside the prime-order subgroup."""


class InvalidIdentifier(FrostError):
    """A participant identifier is not an integer in ``[1, order)`` or is unexpected."""


class InvalidParameters(FrostError):
    """Threshold parameters or argument combinations are inconsistent."""


class InvalidCommitmentList(FrostError):
    """A commitment list is empty, unsorted, has duplicates, lacks a required
    participant, or has fewer entries than the signing threshold."""


class InvalidSignatureShare(FrostError):
    """A signature share failed verification (or is missing/unexpected).

    :ivar participant: identifier of the participant whose share is at fault.
    """

    def __init__(self, participant: int, reason: str = "signature share failed verification") -> None:
        self.participant: int = participant
        self.reason: str = reason
        super().__init__(f"participant {participant}: {reason}")


class InvalidSignature(FrostError):
    """An aggregated signature does not verify under the group public key."""
