"""FROST(Ed25519, SHA-512) threshold Schnorr signatures, exactly as RFC 9591.

This module is pure computation: no I/O, no web, database or queue code. It binds the one
implementation of the protocol (:mod:`threshold.protocol`) to the Ed25519 ciphersuite
(:mod:`threshold.ed25519`, libsodium through PyNaCl's low-level bindings) and keeps the
module-level API the service and the client tools use: every function below is a method of
:data:`FROST`, the same protocol other ciphersuites get.

Representation conventions
--------------------------
* A *scalar* is ``bytes`` of length 32, little-endian, canonical (``< L``).
* An *element* is ``bytes`` of length 32, the RFC 8032 point encoding.
* A participant *identifier* is an ``int`` in ``[1, L)``; on the wire it is
  serialized as a scalar (RFC 9591 section 3.1).

Every value received from outside (``deserialize_scalar``,
``deserialize_element``, the dataclasses' ``__post_init__``) is validated.
libsodium silently reduces non-canonical scalars and ``crypto_core_ed25519_add``
accepts points outside the prime-order subgroup, so the checks are not
redundant with libsodium's.

The aggregated signature is a standard RFC 8032 Ed25519 signature and verifies
with any Ed25519 verifier (e.g. ``nacl.signing.VerifyKey``).

Operational notes
-----------------
* A :class:`SigningNonces` pair must be used for exactly one :func:`sign` call
  and destroyed (including any persisted, encrypted copy) before the signature
  share leaves the signer.  Reusing nonces across two messages reveals the
  signing share.
* Python cannot guarantee that secret ``bytes`` are wiped from memory, and the
  pure-Python parts (range checks, comparisons of secret-derived values) are
  not constant time.  The scalar and point arithmetic itself runs in libsodium.
"""

from __future__ import annotations

from threshold import errors, protocol
from threshold.ed25519 import ED25519, FROST_ED25519_SHA512, IDENTITY, L
from threshold.errors import *  # noqa: F403 - the errors have always been part of this module's API
from threshold.protocol import Frost

__all__ = [
    # constants
    "CONTEXT_STRING",
    "L",
    "SCALAR_SIZE",
    "ELEMENT_SIZE",
    "SIGNATURE_SIZE",
    "IDENTITY",
    "SUITE",
    "FROST",
    # errors (threshold.errors)
    *errors.__all__,
    # data
    "KeyPackage",
    "PublicKeyPackage",
    "SigningNonces",
    "SigningCommitments",
    "SignatureShare",
    # serialization
    "serialize_scalar",
    "deserialize_scalar",
    "serialize_element",
    "deserialize_element",
    "serialize_identifier",
    "deserialize_identifier",
    # group helpers
    "scalar_from_int",
    "random_scalar",
    "scalar_add",
    "scalar_sub",
    "scalar_mul",
    "scalar_neg",
    "scalar_inv",
    "element_add",
    "element_sub",
    "scalar_mult",
    "scalar_base_mult",
    # hashes
    "H1",
    "H2",
    "H3",
    "H4",
    "H5",
    # protocol
    "nonce_generate",
    "commit",
    "validate_commitment_list",
    "encode_group_commitment_list",
    "participants_from_commitment_list",
    "compute_binding_factor_inputs",
    "compute_binding_factors",
    "compute_group_commitment",
    "compute_challenge",
    "derive_interpolating_value",
    "sign",
    "verify_signature_share",
    "aggregate_unverified",
    "aggregate",
    "verify_signature",
    # trusted dealer (RFC 9591 appendix C)
    "polynomial_evaluate",
    "polynomial_interpolate_constant",
    "secret_share_shard",
    "secret_share_combine",
    "trusted_dealer_keygen",
    "trusted_dealer_key_packages",
    "vss_commit",
    "vss_verify",
    "derive_group_info",
    "verifying_share_from_commitments",
]

#: The ciphersuite, RFC 9591 section 6.1.
SUITE = FROST_ED25519_SHA512
#: RFC 9591 section 6.1: domain separation prefix for H1, H3, H4 and H5.
CONTEXT_STRING: bytes = SUITE.context_string
SCALAR_SIZE: int = ED25519.scalar_size
ELEMENT_SIZE: int = ED25519.element_size
SIGNATURE_SIZE: int = SUITE.signature_size


# --------------------------------------------------------------------------
# Data classes: the generic ones of threshold.protocol, bound to edwards25519
# --------------------------------------------------------------------------


class KeyPackage(protocol.KeyPackage, group=ED25519):
    """A participant's long-lived signing material.

    :ivar identifier: the participant identifier ``i``.
    :ivar signing_share: secret scalar ``sk_i`` (kept out of ``repr``).
    :ivar verifying_share: ``PK_i = [sk_i] B``; checked to match on construction.
    :ivar group_public_key: the group's Ed25519 public key ``PK``.

    Serialized form (128 bytes): ``SerializeScalar(i) || sk_i || PK_i || PK``.
    The serialization contains the secret share: encrypt it at rest.
    """


class PublicKeyPackage(protocol.PublicKeyPackage, group=ED25519):
    """Public outcome of key generation, shared by all participants and the coordinator.

    :ivar group_public_key: the group's Ed25519 public key.
    :ivar verifying_shares: ``PK_i`` for every participant, by identifier;
        needed to verify signature shares before aggregation.
    :ivar min_signers: threshold ``t``; :func:`aggregate` refuses fewer signers.
    """


class SigningNonces(protocol.SigningNonces, group=ED25519):
    """Round-one secret nonces ``(hiding_nonce, binding_nonce)``.

    Single use: destroy every copy once :func:`sign` has produced the share.
    Serialized form (64 bytes): ``hiding || binding``; store it only encrypted.
    """


class SigningCommitments(protocol.SigningCommitments, group=ED25519):
    """Round-one public commitments of one participant.

    Serialized form (96 bytes): ``SerializeScalar(identifier) || hiding ||
    binding`` -- the same bytes that :func:`encode_group_commitment_list`
    concatenates, so a stored commitment is exactly its hashed encoding.
    """


class SignatureShare(protocol.SignatureShare, group=ED25519):
    """A round-two signature share ``z_i`` from participant ``identifier``.

    Serialized form (64 bytes): ``SerializeScalar(identifier) || z_i``.
    A share is not secret once sent, but it is meaningless without the
    commitment list and message it was produced for.
    """


#: FROST(Ed25519, SHA-512): the protocol bound to the ciphersuite.
FROST = Frost(SUITE)


# --------------------------------------------------------------------------
# Module-level API (RFC 9591 names): the group's, the suite's and FROST's methods
# --------------------------------------------------------------------------


def serialize_scalar(s: bytes) -> bytes:
    """SerializeScalar: return the canonical 32-byte little-endian encoding.

    Scalars are already held in serialized form; this validates and copies.
    """
    return ED25519.deserialize_scalar(s)


deserialize_scalar = ED25519.deserialize_scalar
serialize_element = ED25519.serialize_element
deserialize_element = ED25519.deserialize_element
serialize_identifier = ED25519.serialize_identifier
deserialize_identifier = ED25519.deserialize_identifier
scalar_from_int = ED25519.scalar_from_int
random_scalar = ED25519.random_scalar
scalar_add = ED25519.scalar_add
scalar_sub = ED25519.scalar_sub
scalar_mul = ED25519.scalar_mul
scalar_neg = ED25519.scalar_neg
scalar_inv = ED25519.scalar_inv
element_add = ED25519.element_add
element_sub = ED25519.element_sub
scalar_mult = ED25519.scalar_mult
scalar_base_mult = ED25519.scalar_base_mult
H1 = SUITE.H1
H2 = SUITE.H2
H3 = SUITE.H3
H4 = SUITE.H4
H5 = SUITE.H5
nonce_generate = FROST.nonce_generate
commit = FROST.commit
validate_commitment_list = FROST.validate_commitment_list
encode_group_commitment_list = FROST.encode_group_commitment_list
participants_from_commitment_list = FROST.participants_from_commitment_list
compute_binding_factor_inputs = FROST.compute_binding_factor_inputs
compute_binding_factors = FROST.compute_binding_factors
compute_group_commitment = FROST.compute_group_commitment
compute_challenge = FROST.compute_challenge
derive_interpolating_value = FROST.derive_interpolating_value
sign = FROST.sign
verify_signature_share = FROST.verify_signature_share
aggregate_unverified = FROST.aggregate_unverified
aggregate = FROST.aggregate
verify_signature = FROST.verify_signature
polynomial_evaluate = FROST.polynomial_evaluate
polynomial_interpolate_constant = FROST.polynomial_interpolate_constant
secret_share_shard = FROST.secret_share_shard
secret_share_combine = FROST.secret_share_combine
trusted_dealer_keygen = FROST.trusted_dealer_keygen
trusted_dealer_key_packages = FROST.trusted_dealer_key_packages
vss_commit = FROST.vss_commit
vss_verify = FROST.vss_verify
derive_group_info = FROST.derive_group_info
verifying_share_from_commitments = FROST.verifying_share_from_commitments
