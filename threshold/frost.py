"""FROST(Ed25519, SHA-512) threshold Schnorr signatures, exactly as RFC 9591.

This module is pure computation: no I/O, no web, database or queue code.  The
group arithmetic is delegated to libsodium through PyNaCl's low-level bindings
(``nacl.bindings``); everything else (hashing, encodings, protocol logic) is
written here, following the pseudo-code of RFC 9591 section by section so that
it can be audited against the specification.

Representation conventions
--------------------------
* A *scalar* is ``bytes`` of length 32, little-endian, canonical (``< L``).
* An *element* is ``bytes`` of length 32, the RFC 8032 point encoding.
* A participant *identifier* is an ``int`` in ``[1, L)``; on the wire it is
  serialized as a scalar (RFC 9591 section 3.1).

Every value received from outside (``deserialize_scalar``,
``deserialize_element``, the dataclasses' ``__post_init__``) is validated.
libsodium silently reduces non-canonical scalars and ``crypto_core_ed25519_add``
accepts points outside the prime-order subgroup, so the checks here are not
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

import hashlib
import hmac
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from nacl import bindings as _sodium
from nacl import exceptions as _nacl_exc

from threshold.encoding import HexError, parse_hex

__all__ = [
    # constants
    "CONTEXT_STRING",
    "L",
    "SCALAR_SIZE",
    "ELEMENT_SIZE",
    "SIGNATURE_SIZE",
    "IDENTITY",
    # errors
    "FrostError",
    "InvalidScalar",
    "InvalidElement",
    "InvalidIdentifier",
    "InvalidParameters",
    "InvalidCommitmentList",
    "InvalidSignatureShare",
    "InvalidSignature",
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

# --------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------

#: RFC 9591 section 6.1: domain separation prefix for H1, H3, H4 and H5.
CONTEXT_STRING: bytes = b"FROST-ED25519-SHA512-v1"

#: Order of the prime-order subgroup of edwards25519 (RFC 8032 ``L``).
L: int = 2**252 + 27742317777372353535851937790883648493

SCALAR_SIZE: int = 32
ELEMENT_SIZE: int = 32
SIGNATURE_SIZE: int = ELEMENT_SIZE + SCALAR_SIZE

#: Encoding of the neutral element (x=0, y=1).  Never valid on the wire, but
#: sums of valid elements can legitimately be the identity internally.
IDENTITY: bytes = b"\x01" + b"\x00" * 31

_ZERO_SCALAR: bytes = b"\x00" * SCALAR_SIZE
_ONE_SCALAR: bytes = b"\x01" + b"\x00" * 31


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


class FrostError(Exception):
    """Base class of every error raised by this module (and by ``threshold.dkg``).

    Messages describe *what* failed and, where relevant, *which participant*;
    they never contain secret values (shares, nonces, polynomial coefficients).
    """


class InvalidScalar(FrostError):
    """A scalar encoding is malformed, non-canonical (``>= L``) or zero where zero is forbidden."""


class InvalidElement(FrostError):
    """An element encoding is malformed, off-curve, small-order, the identity,
    or outside the prime-order subgroup."""


class InvalidIdentifier(FrostError):
    """A participant identifier is not an integer in ``[1, L)`` or is unexpected."""


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


# --------------------------------------------------------------------------
# Serialization (RFC 9591 section 6.5: FROST(Ed25519, SHA-512) group)
# --------------------------------------------------------------------------


def _require_bytes(value: object, size: int, what: str, exc: type[FrostError]) -> bytes:
    # bytearray/memoryview are accepted but normalised to immutable bytes so a
    # caller cannot mutate a value after it has been validated.
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise exc(f"{what} must be bytes, got {type(value).__name__}")
    value = bytes(value)
    if len(value) != size:
        raise exc(f"{what} must be {size} bytes, got {len(value)}")
    return value


def serialize_scalar(s: bytes) -> bytes:
    """SerializeScalar: return the canonical 32-byte little-endian encoding.

    Scalars are already held in serialized form; this validates and copies.
    """
    return deserialize_scalar(s)


def deserialize_scalar(buf: bytes, *, what: str = "scalar", allow_zero: bool = True) -> bytes:
    """DeserializeScalar: validate a 32-byte little-endian scalar.

    Raises :class:`InvalidScalar` if ``buf`` is not 32 bytes or encodes an
    integer ``>= L`` (libsodium would silently reduce it, which would let two
    different encodings denote the same scalar).  With ``allow_zero=False``,
    zero is rejected too (for nonces, shares and keys).
    """
    buf = _require_bytes(buf, SCALAR_SIZE, what, InvalidScalar)
    n = int.from_bytes(buf, "little")
    if n >= L:
        raise InvalidScalar(f"{what} is not canonical (not less than the group order L)")
    if not allow_zero and n == 0:
        raise InvalidScalar(f"{what} must not be zero")
    return buf


def serialize_element(e: bytes) -> bytes:
    """SerializeElement: the RFC 8032 encoding; fails on the identity.

    Used on computed values (group commitment, public keys) before they are
    hashed or sent, exactly where the RFC calls SerializeElement.
    """
    e = _require_bytes(e, ELEMENT_SIZE, "element", InvalidElement)
    if e == IDENTITY:
        raise InvalidElement("cannot serialize the identity element")
    return e


def deserialize_element(buf: bytes, *, what: str = "element") -> bytes:
    """DeserializeElement: validate a received 32-byte point encoding.

    ``crypto_core_ed25519_is_valid_point`` rejects non-canonical encodings,
    points not on the curve, small-order points (including the identity) and
    points outside the prime-order subgroup -- exactly RFC 9591's
    requirements for Ed25519 (section 6.5).
    """
    buf = _require_bytes(buf, ELEMENT_SIZE, what, InvalidElement)
    if not _sodium.crypto_core_ed25519_is_valid_point(buf):
        raise InvalidElement(
            f"{what} is not a valid prime-order group element "
            "(malformed, off-curve, small-order or identity)"
        )
    return buf


def _check_identifier(identifier: object, what: str = "identifier") -> int:
    # bool is an int subclass; True as an identifier is certainly a bug.
    if not isinstance(identifier, int) or isinstance(identifier, bool):
        raise InvalidIdentifier(f"{what} must be an int, got {type(identifier).__name__}")
    if not 0 < identifier < L:
        raise InvalidIdentifier(f"{what} must be in [1, L), got {identifier}")
    return identifier


def serialize_identifier(identifier: int) -> bytes:
    """Serialize a participant identifier as a scalar (RFC 9591 section 3.1)."""
    return _check_identifier(identifier).to_bytes(SCALAR_SIZE, "little")


def deserialize_identifier(buf: bytes) -> int:
    """Parse a scalar-encoded identifier; rejects zero and non-canonical values."""
    try:
        s = deserialize_scalar(buf, what="identifier")
    except InvalidScalar as exc:
        raise InvalidIdentifier(str(exc)) from None
    n = int.from_bytes(s, "little")
    if n == 0:
        raise InvalidIdentifier("identifier must not be zero")
    return n


# --------------------------------------------------------------------------
# Scalar and element arithmetic (thin wrappers over libsodium)
# --------------------------------------------------------------------------


def scalar_from_int(n: int) -> bytes:
    """Encode ``n mod L`` as a scalar (for identifiers and small constants)."""
    return (n % L).to_bytes(SCALAR_SIZE, "little")


def _scalar_is_zero(s: bytes) -> bool:
    return hmac.compare_digest(s, _ZERO_SCALAR)


def random_scalar(*, nonzero: bool = True) -> bytes:
    """A uniformly random scalar from the OS CSPRNG.

    64 random bytes reduced mod L give a bias below 2**-250, the same approach
    as RFC 9591's nonce_generate.  Zero is rejected by default because secret
    coefficients, nonces and keys equal to zero are degenerate.
    """
    while True:
        s = _sodium.crypto_core_ed25519_scalar_reduce(os.urandom(64))
        if not (nonzero and _scalar_is_zero(s)):
            return s


def scalar_add(a: bytes, b: bytes) -> bytes:
    """``a + b mod L``."""
    return _sodium.crypto_core_ed25519_scalar_add(a, b)


def scalar_sub(a: bytes, b: bytes) -> bytes:
    """``a - b mod L``."""
    return _sodium.crypto_core_ed25519_scalar_sub(a, b)


def scalar_mul(a: bytes, b: bytes) -> bytes:
    """``a * b mod L``."""
    return _sodium.crypto_core_ed25519_scalar_mul(a, b)


def scalar_neg(a: bytes) -> bytes:
    """``-a mod L``."""
    return _sodium.crypto_core_ed25519_scalar_negate(a)


def scalar_inv(a: bytes) -> bytes:
    """``a^-1 mod L``; raises :class:`InvalidScalar` for zero."""
    if _scalar_is_zero(a):
        raise InvalidScalar("cannot invert the zero scalar")
    return _sodium.crypto_core_ed25519_scalar_invert(a)


def element_add(a: bytes, b: bytes) -> bytes:
    """Group addition.  The identity is accepted on both sides (sums start there)."""
    try:
        return _sodium.crypto_core_ed25519_add(a, b)
    except (_nacl_exc.RuntimeError, _nacl_exc.TypeError):
        # Only reachable with an encoding that is not on the curve at all.
        raise InvalidElement("element addition on an invalid point encoding") from None


def element_sub(a: bytes, b: bytes) -> bytes:
    """Group subtraction ``a - b``."""
    try:
        return _sodium.crypto_core_ed25519_sub(a, b)
    except (_nacl_exc.RuntimeError, _nacl_exc.TypeError):
        raise InvalidElement("element subtraction on an invalid point encoding") from None


def scalar_mult(scalar: bytes, element: bytes) -> bytes:
    """``[scalar] element`` (RFC 9591 ``G.ScalarMult(element, scalar)``).

    libsodium's ``crypto_scalarmult_ed25519_noclamp`` (scalar first!) raises a
    bare RuntimeError for a zero scalar, an identity/small-order input or an
    identity result.  For a prime-order element those results are exactly the
    identity, which we return explicitly so sums stay well-defined.  Any other
    failure means the element was never validated, which is a bug or an
    attack, so it surfaces as :class:`InvalidElement`.
    """
    if _scalar_is_zero(scalar) or element == IDENTITY:
        return IDENTITY
    try:
        return _sodium.crypto_scalarmult_ed25519_noclamp(scalar, element)
    except _nacl_exc.RuntimeError:
        raise InvalidElement(
            "scalar multiplication by an element outside the prime-order subgroup"
        ) from None


def scalar_base_mult(scalar: bytes) -> bytes:
    """``[scalar] B`` for the Ed25519 base point, no clamping.

    ``crypto_scalarmult_ed25519_base_noclamp`` fails on zero; ``[0]B`` is the
    identity, which is returned explicitly.
    """
    if _scalar_is_zero(scalar):
        return IDENTITY
    return _sodium.crypto_scalarmult_ed25519_base_noclamp(scalar)


def _elements_equal(a: bytes, b: bytes) -> bool:
    # libsodium always outputs canonical encodings and received elements are
    # checked canonical, so byte equality is group equality.
    return hmac.compare_digest(a, b)


# --------------------------------------------------------------------------
# Hash functions (RFC 9591 section 6.5)
# --------------------------------------------------------------------------


def _sha512(*parts: bytes) -> bytes:
    h = hashlib.sha512()
    for p in parts:
        h.update(p)
    return h.digest()


def _reduce64(digest: bytes) -> bytes:
    # crypto_core_ed25519_scalar_reduce takes exactly 64 bytes (a SHA-512
    # digest interpreted little-endian) and returns it mod L.
    return _sodium.crypto_core_ed25519_scalar_reduce(digest)


def H1(m: bytes) -> bytes:
    """H1 ("rho"): SHA-512(contextString || "rho" || m) mod L (binding factors)."""
    return _reduce64(_sha512(CONTEXT_STRING, b"rho", m))


def H2(m: bytes) -> bytes:
    """H2: SHA-512(m) mod L, with **no** context string.

    This is deliberately the RFC 8032 challenge so that FROST signatures are
    ordinary Ed25519 signatures.
    """
    return _reduce64(_sha512(m))


def H3(m: bytes) -> bytes:
    """H3 ("nonce"): SHA-512(contextString || "nonce" || m) mod L."""
    return _reduce64(_sha512(CONTEXT_STRING, b"nonce", m))


def H4(m: bytes) -> bytes:
    """H4 ("msg"): SHA-512(contextString || "msg" || m), 64 bytes, not reduced."""
    return _sha512(CONTEXT_STRING, b"msg", m)


def H5(m: bytes) -> bytes:
    """H5 ("com"): SHA-512(contextString || "com" || m), 64 bytes, not reduced."""
    return _sha512(CONTEXT_STRING, b"com", m)


# --------------------------------------------------------------------------
# Data classes
# --------------------------------------------------------------------------


def _hex_to_bytes(value: object, what: str, exc: type[FrostError]) -> bytes:
    try:
        return parse_hex(value, what=what)
    except HexError as error:
        raise exc(str(error)) from None


def _dict_get(data: Mapping[str, Any], key: str, exc: type[FrostError]) -> Any:
    if not isinstance(data, Mapping) or key not in data:
        raise exc(f"missing field {key!r}")
    return data[key]


@dataclass(frozen=True)
class KeyPackage:
    """A participant's long-lived signing material.

    :ivar identifier: the participant identifier ``i``.
    :ivar signing_share: secret scalar ``sk_i`` (kept out of ``repr``).
    :ivar verifying_share: ``PK_i = [sk_i] B``; checked to match on construction.
    :ivar group_public_key: the group's Ed25519 public key ``PK``.

    Serialized form (128 bytes): ``SerializeScalar(i) || sk_i || PK_i || PK``.
    The serialization contains the secret share: encrypt it at rest.
    """

    identifier: int
    signing_share: bytes = field(repr=False)
    verifying_share: bytes
    group_public_key: bytes

    SERIALIZED_SIZE = 4 * 32

    def __post_init__(self) -> None:
        _check_identifier(self.identifier)
        sk = deserialize_scalar(self.signing_share, what="signing share", allow_zero=False)
        pk_i = deserialize_element(self.verifying_share, what="verifying share")
        pk = deserialize_element(self.group_public_key, what="group public key")
        # A share that does not match its verifying share would only produce
        # shares the aggregator rejects; catch the corruption at load time.
        if not _elements_equal(scalar_base_mult(sk), pk_i):
            raise InvalidElement(
                f"verifying share of participant {self.identifier} does not match its signing share"
            )
        object.__setattr__(self, "signing_share", sk)
        object.__setattr__(self, "verifying_share", pk_i)
        object.__setattr__(self, "group_public_key", pk)

    @classmethod
    def from_signing_share(cls, identifier: int, signing_share: bytes, group_public_key: bytes) -> "KeyPackage":
        """Build a key package, deriving the verifying share from the signing share."""
        sk = deserialize_scalar(signing_share, what="signing share", allow_zero=False)
        return cls(identifier, sk, scalar_base_mult(sk), group_public_key)

    def to_bytes(self) -> bytes:
        return serialize_identifier(self.identifier) + self.signing_share + self.verifying_share + self.group_public_key

    @classmethod
    def from_bytes(cls, data: bytes) -> "KeyPackage":
        data = _require_bytes(data, cls.SERIALIZED_SIZE, "key package", FrostError)
        return cls(
            deserialize_identifier(data[0:32]),
            data[32:64],
            data[64:96],
            data[96:128],
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (contains the secret share: encrypt it at rest)."""
        return {
            "identifier": self.identifier,
            "signing_share": self.signing_share.hex(),
            "verifying_share": self.verifying_share.hex(),
            "group_public_key": self.group_public_key.hex(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "KeyPackage":
        return cls(
            _dict_get(data, "identifier", FrostError),
            _hex_to_bytes(_dict_get(data, "signing_share", FrostError), "signing_share", InvalidScalar),
            _hex_to_bytes(_dict_get(data, "verifying_share", FrostError), "verifying_share", InvalidElement),
            _hex_to_bytes(_dict_get(data, "group_public_key", FrostError), "group_public_key", InvalidElement),
        )


@dataclass(frozen=True)
class PublicKeyPackage:
    """Public outcome of key generation, shared by all participants and the coordinator.

    :ivar group_public_key: the group's Ed25519 public key.
    :ivar verifying_shares: ``PK_i`` for every participant, by identifier;
        needed to verify signature shares before aggregation.
    :ivar min_signers: threshold ``t``; :func:`aggregate` refuses fewer signers.
    """

    group_public_key: bytes
    verifying_shares: Mapping[int, bytes]
    min_signers: int

    def __post_init__(self) -> None:
        pk = deserialize_element(self.group_public_key, what="group public key")
        shares: dict[int, bytes] = {}
        for ident in sorted(self.verifying_shares):
            _check_identifier(ident)
            shares[ident] = deserialize_element(
                self.verifying_shares[ident], what=f"verifying share of participant {ident}"
            )
        if not isinstance(self.min_signers, int) or isinstance(self.min_signers, bool):
            raise InvalidParameters("min_signers must be an int")
        if not 2 <= self.min_signers <= len(shares):
            raise InvalidParameters(
                f"min_signers must be in [2, {len(shares)}] (number of verifying shares), got {self.min_signers}"
            )
        object.__setattr__(self, "group_public_key", pk)
        # Copy so later mutation of the caller's dict cannot change validated state.
        object.__setattr__(self, "verifying_shares", shares)

    @property
    def max_signers(self) -> int:
        return len(self.verifying_shares)

    def to_dict(self) -> dict[str, Any]:
        return {
            "group_public_key": self.group_public_key.hex(),
            # JSON object keys must be strings.
            "verifying_shares": {str(i): v.hex() for i, v in self.verifying_shares.items()},
            "min_signers": self.min_signers,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PublicKeyPackage":
        raw = _dict_get(data, "verifying_shares", FrostError)
        if not isinstance(raw, Mapping):
            raise FrostError("verifying_shares must be an object")
        shares: dict[int, bytes] = {}
        for k, v in raw.items():
            try:
                ident = int(k)
            except (TypeError, ValueError):
                raise InvalidIdentifier("verifying_shares keys must be integer identifiers") from None
            shares[ident] = _hex_to_bytes(v, f"verifying share of participant {ident}", InvalidElement)
        return cls(
            _hex_to_bytes(_dict_get(data, "group_public_key", FrostError), "group_public_key", InvalidElement),
            shares,
            _dict_get(data, "min_signers", FrostError),
        )


@dataclass(frozen=True)
class SigningNonces:
    """Round-one secret nonces ``(hiding_nonce, binding_nonce)``.

    Single use: destroy every copy once :func:`sign` has produced the share.
    Serialized form (64 bytes): ``hiding || binding``; store it only encrypted.
    """

    hiding: bytes = field(repr=False)
    binding: bytes = field(repr=False)

    SERIALIZED_SIZE = 64

    def __post_init__(self) -> None:
        object.__setattr__(self, "hiding", deserialize_scalar(self.hiding, what="hiding nonce", allow_zero=False))
        object.__setattr__(self, "binding", deserialize_scalar(self.binding, what="binding nonce", allow_zero=False))

    def commitments(self, identifier: int) -> "SigningCommitments":
        """Recompute the public commitments ``([hiding]B, [binding]B)``."""
        return SigningCommitments(identifier, scalar_base_mult(self.hiding), scalar_base_mult(self.binding))

    def to_bytes(self) -> bytes:
        return self.hiding + self.binding

    @classmethod
    def from_bytes(cls, data: bytes) -> "SigningNonces":
        data = _require_bytes(data, cls.SERIALIZED_SIZE, "signing nonces", InvalidScalar)
        return cls(data[:32], data[32:])

    def to_dict(self) -> dict[str, Any]:
        return {"hiding": self.hiding.hex(), "binding": self.binding.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SigningNonces":
        return cls(
            _hex_to_bytes(_dict_get(data, "hiding", InvalidScalar), "hiding", InvalidScalar),
            _hex_to_bytes(_dict_get(data, "binding", InvalidScalar), "binding", InvalidScalar),
        )


@dataclass(frozen=True)
class SigningCommitments:
    """Round-one public commitments of one participant.

    Serialized form (96 bytes): ``SerializeScalar(identifier) || hiding ||
    binding`` -- the same bytes that :func:`encode_group_commitment_list`
    concatenates, so a stored commitment is exactly its hashed encoding.
    """

    identifier: int
    hiding: bytes
    binding: bytes

    SERIALIZED_SIZE = 96

    def __post_init__(self) -> None:
        _check_identifier(self.identifier)
        object.__setattr__(
            self, "hiding",
            deserialize_element(self.hiding, what=f"hiding commitment of participant {self.identifier}"),
        )
        object.__setattr__(
            self, "binding",
            deserialize_element(self.binding, what=f"binding commitment of participant {self.identifier}"),
        )

    def to_bytes(self) -> bytes:
        return serialize_identifier(self.identifier) + self.hiding + self.binding

    @classmethod
    def from_bytes(cls, data: bytes) -> "SigningCommitments":
        data = _require_bytes(data, cls.SERIALIZED_SIZE, "signing commitments", InvalidElement)
        return cls(deserialize_identifier(data[:32]), data[32:64], data[64:96])

    def to_dict(self) -> dict[str, Any]:
        return {"identifier": self.identifier, "hiding": self.hiding.hex(), "binding": self.binding.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SigningCommitments":
        return cls(
            _dict_get(data, "identifier", InvalidElement),
            _hex_to_bytes(_dict_get(data, "hiding", InvalidElement), "hiding", InvalidElement),
            _hex_to_bytes(_dict_get(data, "binding", InvalidElement), "binding", InvalidElement),
        )


@dataclass(frozen=True)
class SignatureShare:
    """A round-two signature share ``z_i`` from participant ``identifier``.

    Serialized form (64 bytes): ``SerializeScalar(identifier) || z_i``.
    A share is not secret once sent, but it is meaningless without the
    commitment list and message it was produced for.
    """

    identifier: int
    share: bytes

    SERIALIZED_SIZE = 64

    def __post_init__(self) -> None:
        _check_identifier(self.identifier)
        try:
            s = deserialize_scalar(self.share, what="signature share")
        except InvalidScalar as exc:
            # Malformed shares are attributable to their sender, like bad ones.
            raise InvalidSignatureShare(self.identifier, str(exc)) from None
        object.__setattr__(self, "share", s)

    def to_bytes(self) -> bytes:
        return serialize_identifier(self.identifier) + self.share

    @classmethod
    def from_bytes(cls, data: bytes) -> "SignatureShare":
        data = _require_bytes(data, cls.SERIALIZED_SIZE, "signature share", InvalidScalar)
        return cls(deserialize_identifier(data[:32]), data[32:])

    def to_dict(self) -> dict[str, Any]:
        return {"identifier": self.identifier, "share": self.share.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SignatureShare":
        return cls(
            _dict_get(data, "identifier", InvalidScalar),
            _hex_to_bytes(_dict_get(data, "share", InvalidScalar), "share", InvalidScalar),
        )


# --------------------------------------------------------------------------
# Round one (RFC 9591 sections 4.1 and 5.1)
# --------------------------------------------------------------------------


def nonce_generate(secret: bytes, random_bytes: bytes | None = None) -> bytes:
    """nonce_generate (RFC 9591 section 4.1): ``H3(random_bytes || SerializeScalar(secret))``.

    Mixing the secret share into the hash keeps nonces unpredictable even if
    the RNG is weak.  ``random_bytes`` (32 bytes) should only be supplied to
    reproduce test vectors; by default it comes from ``os.urandom``.
    """
    if random_bytes is None:
        random_bytes = os.urandom(32)
    random_bytes = _require_bytes(random_bytes, 32, "nonce randomness", InvalidParameters)
    return H3(random_bytes + serialize_scalar(secret))


def commit(
    key_package: KeyPackage,
    *,
    hiding_randomness: bytes | None = None,
    binding_randomness: bytes | None = None,
) -> tuple[SigningNonces, SigningCommitments]:
    """Round one, commit (RFC 9591 section 5.1).

    Returns the secret nonces (keep, encrypted, until :func:`sign`; then
    destroy) and the public commitments (send to the coordinator).  The
    randomness arguments exist only to reproduce test vectors.
    """
    hiding_nonce = nonce_generate(key_package.signing_share, hiding_randomness)
    binding_nonce = nonce_generate(key_package.signing_share, binding_randomness)
    nonces = SigningNonces(hiding_nonce, binding_nonce)
    return nonces, nonces.commitments(key_package.identifier)


# --------------------------------------------------------------------------
# Helpers (RFC 9591 section 4)
# --------------------------------------------------------------------------


def validate_commitment_list(commitment_list: Sequence[SigningCommitments]) -> None:
    """Check the list is non-empty, of :class:`SigningCommitments`, and strictly
    ascending by identifier (which also rules out duplicates).

    RFC 9591 requires the coordinator to sort the list; checking it on every
    side guarantees all participants hash the same encoding and that no
    participant is counted twice.
    """
    if len(commitment_list) == 0:
        raise InvalidCommitmentList("commitment list is empty")
    previous = 0
    for c in commitment_list:
        if not isinstance(c, SigningCommitments):
            raise InvalidCommitmentList("commitment list entries must be SigningCommitments")
        if c.identifier == previous:
            raise InvalidCommitmentList(f"duplicate commitment for participant {c.identifier}")
        if c.identifier < previous:
            raise InvalidCommitmentList("commitment list is not sorted by identifier")
        previous = c.identifier


def encode_group_commitment_list(commitment_list: Sequence[SigningCommitments]) -> bytes:
    """encode_group_commitment_list (RFC 9591 section 4.3).

    Concatenation of ``SerializeScalar(i) || SerializeElement(D_i) ||
    SerializeElement(E_i)`` in list order (the list must be sorted).
    """
    return b"".join(
        serialize_identifier(c.identifier) + serialize_element(c.hiding) + serialize_element(c.binding)
        for c in commitment_list
    )


def participants_from_commitment_list(commitment_list: Sequence[SigningCommitments]) -> list[int]:
    """participants_from_commitment_list (RFC 9591 section 4.3)."""
    return [c.identifier for c in commitment_list]


def compute_binding_factor_inputs(
    group_public_key: bytes, commitment_list: Sequence[SigningCommitments], msg: bytes
) -> dict[int, bytes]:
    """The ``rho_input`` hashed into each binding factor (exposed for test vectors).

    ``rho_input = SerializeElement(PK) || H4(msg) || H5(encoded_commitments) || SerializeScalar(i)``
    """
    prefix = serialize_element(group_public_key) + H4(msg) + H5(encode_group_commitment_list(commitment_list))
    return {c.identifier: prefix + serialize_identifier(c.identifier) for c in commitment_list}


def compute_binding_factors(
    group_public_key: bytes, commitment_list: Sequence[SigningCommitments], msg: bytes
) -> dict[int, bytes]:
    """compute_binding_factors (RFC 9591 section 4.4): ``rho_i = H1(rho_input_i)``.

    Returns an insertion-ordered dict identifier -> binding factor, in
    commitment-list order (the RFC's binding_factor_list).
    """
    return {i: H1(rho_input) for i, rho_input in compute_binding_factor_inputs(group_public_key, commitment_list, msg).items()}


def compute_group_commitment(
    commitment_list: Sequence[SigningCommitments], binding_factor_list: Mapping[int, bytes]
) -> bytes:
    """compute_group_commitment (RFC 9591 section 4.5): ``R = sum(D_i + [rho_i] E_i)``.

    Raises :class:`InvalidCommitmentList` if a binding factor is missing or if
    the sum is the identity: the RFC serializes R next, and SerializeElement
    fails on the identity (only reachable with adversarial commitments).
    """
    group_commitment = IDENTITY
    for c in commitment_list:
        try:
            binding_factor = binding_factor_list[c.identifier]
        except KeyError:
            raise InvalidCommitmentList(f"no binding factor for participant {c.identifier}") from None
        binding_nonce = scalar_mult(binding_factor, c.binding)
        group_commitment = element_add(element_add(group_commitment, c.hiding), binding_nonce)
    if group_commitment == IDENTITY:
        raise InvalidCommitmentList("group commitment is the identity element")
    return group_commitment


def compute_challenge(group_commitment: bytes, group_public_key: bytes, msg: bytes) -> bytes:
    """compute_challenge (RFC 9591 section 4.6): ``H2(R || PK || msg)``, the RFC 8032 challenge."""
    return H2(serialize_element(group_commitment) + serialize_element(group_public_key) + msg)


def derive_interpolating_value(x_coords: Sequence[int], x_i: int) -> bytes:
    """derive_interpolating_value (RFC 9591 section 4.2): Lagrange coefficient at 0.

    ``lambda_i = prod_{j != i} x_j / (x_j - x_i)`` mod L.  Raises
    :class:`InvalidParameters` if ``x_i`` is not in ``x_coords`` or the
    coordinates contain duplicates (the denominator would be zero).
    """
    _check_identifier(x_i)
    for x in x_coords:
        _check_identifier(x)
    if x_i not in x_coords:
        raise InvalidParameters(f"participant {x_i} is not among the interpolation points")
    if len(set(x_coords)) != len(x_coords):
        raise InvalidParameters("interpolation points contain duplicates")
    xi = scalar_from_int(x_i)
    numerator = _ONE_SCALAR
    denominator = _ONE_SCALAR
    for x_j in x_coords:
        if x_j == x_i:
            continue
        xj = scalar_from_int(x_j)
        numerator = scalar_mul(numerator, xj)
        denominator = scalar_mul(denominator, scalar_sub(xj, xi))
    return scalar_mul(numerator, scalar_inv(denominator))


def _commitment_for(commitment_list: Sequence[SigningCommitments], identifier: int) -> SigningCommitments:
    for c in commitment_list:
        if c.identifier == identifier:
            return c
    raise InvalidCommitmentList(f"commitment list has no commitment from participant {identifier}")


def _check_min_signers(commitment_list: Sequence[SigningCommitments], min_signers: int | None) -> None:
    if min_signers is not None and len(commitment_list) < min_signers:
        raise InvalidCommitmentList(
            f"commitment list has {len(commitment_list)} participants, fewer than the threshold {min_signers}"
        )


# --------------------------------------------------------------------------
# Round two (RFC 9591 section 5.2)
# --------------------------------------------------------------------------


def sign(
    key_package: KeyPackage,
    nonces: SigningNonces,
    msg: bytes,
    commitment_list: Sequence[SigningCommitments],
    *,
    min_signers: int | None = None,
) -> SignatureShare:
    """Round two, sign (RFC 9591 section 5.2).

    ``z_i = d_i + e_i * rho_i + lambda_i * sk_i * c``.

    Before signing, checks (as the RFC requires of a participant) that the
    commitment list is sorted and duplicate-free, and that it contains this
    participant's commitment *equal to the one derived from ``nonces``* -- a
    coordinator substituting a different commitment could otherwise make the
    signer leak information about its share.  With ``min_signers`` the list
    must also have at least that many participants.

    The caller must destroy ``nonces`` (and any stored copy) before releasing
    the returned share.
    """
    if not isinstance(msg, (bytes, bytearray)):
        raise InvalidParameters("message must be bytes")
    msg = bytes(msg)
    validate_commitment_list(commitment_list)
    _check_min_signers(commitment_list, min_signers)
    identifier = key_package.identifier
    own = _commitment_for(commitment_list, identifier)
    expected = nonces.commitments(identifier)
    if not (_elements_equal(own.hiding, expected.hiding) and _elements_equal(own.binding, expected.binding)):
        raise InvalidCommitmentList(
            f"commitment of participant {identifier} in the list does not match its nonces"
        )

    group_public_key = key_package.group_public_key
    binding_factor_list = compute_binding_factors(group_public_key, commitment_list, msg)
    binding_factor = binding_factor_list[identifier]
    group_commitment = compute_group_commitment(commitment_list, binding_factor_list)
    participant_list = participants_from_commitment_list(commitment_list)
    lambda_i = derive_interpolating_value(participant_list, identifier)
    challenge = compute_challenge(group_commitment, group_public_key, msg)

    sig_share = scalar_add(
        scalar_add(nonces.hiding, scalar_mul(nonces.binding, binding_factor)),
        scalar_mul(scalar_mul(lambda_i, key_package.signing_share), challenge),
    )
    return SignatureShare(identifier, sig_share)


# --------------------------------------------------------------------------
# Verification and aggregation (RFC 9591 sections 5.3 and 5.4)
# --------------------------------------------------------------------------


def _verify_share_precomputed(
    signature_share: SignatureShare,
    verifying_share: bytes,
    commitment_list: Sequence[SigningCommitments],
    binding_factor_list: Mapping[int, bytes],
    challenge: bytes,
) -> bool:
    # Core of verify_signature_share, with the per-session values (binding
    # factors, challenge) computed once by the caller; aggregate() would
    # otherwise recompute them for every share.
    identifier = signature_share.identifier
    comm_i = _commitment_for(commitment_list, identifier)
    pk_i = deserialize_element(verifying_share, what=f"verifying share of participant {identifier}")
    comm_share = element_add(comm_i.hiding, scalar_mult(binding_factor_list[identifier], comm_i.binding))
    lambda_i = derive_interpolating_value(participants_from_commitment_list(commitment_list), identifier)
    left = scalar_base_mult(signature_share.share)
    right = element_add(comm_share, scalar_mult(scalar_mul(challenge, lambda_i), pk_i))
    return _elements_equal(left, right)


def verify_signature_share(
    signature_share: SignatureShare,
    verifying_share: bytes,
    commitment_list: Sequence[SigningCommitments],
    group_public_key: bytes,
    msg: bytes,
) -> bool:
    """verify_signature_share (RFC 9591 section 5.4).

    Checks ``[z_i]B == D_i + [rho_i]E_i + [c * lambda_i] PK_i``.  Returns
    ``False`` on mismatch; raises only for structurally invalid input (bad
    commitment list, participant without a commitment, invalid encodings).
    """
    validate_commitment_list(commitment_list)
    group_public_key = deserialize_element(group_public_key, what="group public key")
    binding_factor_list = compute_binding_factors(group_public_key, commitment_list, msg)
    group_commitment = compute_group_commitment(commitment_list, binding_factor_list)
    challenge = compute_challenge(group_commitment, group_public_key, msg)
    return _verify_share_precomputed(signature_share, verifying_share, commitment_list, binding_factor_list, challenge)


def aggregate_unverified(
    commitment_list: Sequence[SigningCommitments],
    msg: bytes,
    group_public_key: bytes,
    signature_shares: Iterable[SignatureShare],
) -> bytes:
    """aggregate (RFC 9591 section 5.3) *without* verifying anything.

    Returns ``SerializeElement(R) || SerializeScalar(sum z_i)``.  Exposed for
    test vectors and analysis; production code must call :func:`aggregate`,
    which identifies cheaters and refuses invalid results.
    """
    validate_commitment_list(commitment_list)
    group_public_key = deserialize_element(group_public_key, what="group public key")
    binding_factor_list = compute_binding_factors(group_public_key, commitment_list, msg)
    group_commitment = compute_group_commitment(commitment_list, binding_factor_list)
    z = _ZERO_SCALAR
    for share in signature_shares:
        z = scalar_add(z, share.share)
    return serialize_element(group_commitment) + serialize_scalar(z)


def aggregate(
    commitment_list: Sequence[SigningCommitments],
    msg: bytes,
    signature_shares: Iterable[SignatureShare],
    public_key_package: PublicKeyPackage,
) -> bytes:
    """Verify every signature share, then aggregate into an Ed25519 signature.

    Raises:
      * :class:`InvalidCommitmentList` -- list unsorted/duplicated, fewer than
        ``min_signers`` entries, or a participant without a verifying share;
      * :class:`InvalidSignatureShare` (``.participant``) -- a share is missing,
        duplicated, unexpected or fails verification; the first offender in
        identifier order is named;
      * :class:`InvalidSignature` -- the aggregate does not verify (cannot
        happen when all shares verify against a consistent key package; it is
        a last line of defence).
    """
    validate_commitment_list(commitment_list)
    _check_min_signers(commitment_list, public_key_package.min_signers)
    expected_ids = participants_from_commitment_list(commitment_list)
    for ident in expected_ids:
        if ident not in public_key_package.verifying_shares:
            raise InvalidCommitmentList(f"participant {ident} has no verifying share in the key package")

    by_id: dict[int, SignatureShare] = {}
    for share in signature_shares:
        if share.identifier in by_id:
            raise InvalidSignatureShare(share.identifier, "more than one signature share")
        by_id[share.identifier] = share
    for ident in sorted(by_id):
        if ident not in expected_ids:
            raise InvalidSignatureShare(ident, "signature share from a participant not in the commitment list")
    group_public_key = public_key_package.group_public_key
    binding_factor_list = compute_binding_factors(group_public_key, commitment_list, msg)
    challenge = compute_challenge(
        compute_group_commitment(commitment_list, binding_factor_list), group_public_key, msg
    )
    for ident in expected_ids:
        share = by_id.get(ident)
        if share is None:
            raise InvalidSignatureShare(ident, "signature share missing")
        if not _verify_share_precomputed(
            share, public_key_package.verifying_shares[ident], commitment_list, binding_factor_list, challenge
        ):
            raise InvalidSignatureShare(ident)

    signature = aggregate_unverified(
        commitment_list, msg, public_key_package.group_public_key, [by_id[i] for i in expected_ids]
    )
    if not verify_signature(public_key_package.group_public_key, msg, signature):
        raise InvalidSignature("aggregated signature does not verify under the group public key")
    return signature


def verify_signature(group_public_key: bytes, msg: bytes, signature: bytes) -> bool:
    """Verify a (FROST or ordinary) Ed25519 signature ``R || z`` over ``msg``.

    Strict prime-order-group check ``[z]B == R + [c]PK`` with ``c = H2(R || PK || msg)``,
    rejecting non-canonical ``z``, and ``R``/``PK`` that are not valid prime-order
    elements.  For such inputs this agrees with RFC 8032's cofactored
    equation, so anything accepted here is accepted by RFC 8032 verifiers.
    Returns ``False`` rather than raising on any malformed input.
    """
    try:
        signature = _require_bytes(signature, SIGNATURE_SIZE, "signature", InvalidSignature)
        pk = deserialize_element(group_public_key, what="group public key")
        r = deserialize_element(signature[:32], what="signature R")
        z = deserialize_scalar(signature[32:], what="signature z")
    except FrostError:
        return False
    challenge = compute_challenge(r, pk, bytes(msg))
    return _elements_equal(scalar_base_mult(z), element_add(r, scalar_mult(challenge, pk)))


# --------------------------------------------------------------------------
# Trusted dealer key generation (RFC 9591 appendix C)
# --------------------------------------------------------------------------


def _check_thresholds(max_participants: int, min_participants: int) -> None:
    for name, v in (("max_participants", max_participants), ("min_participants", min_participants)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise InvalidParameters(f"{name} must be an int")
    if min_participants < 2:
        raise InvalidParameters("min_participants must be at least 2")
    if min_participants > max_participants:
        raise InvalidParameters("min_participants must not exceed max_participants")
    if max_participants >= L:
        raise InvalidParameters("max_participants is too large")


def polynomial_evaluate(x: bytes, coeffs: Sequence[bytes]) -> bytes:
    """polynomial_evaluate (RFC 9591 section 4.2.1): Horner's rule, constant term first."""
    value = _ZERO_SCALAR
    for coeff in reversed(coeffs):
        value = scalar_add(scalar_mul(value, x), coeff)
    return value


def polynomial_interpolate_constant(points: Sequence[tuple[int, bytes]]) -> bytes:
    """polynomial_interpolate_constant (RFC 9591 appendix C.1): ``f(0)`` from ``(x, y)`` points."""
    x_coords = [x for x, _ in points]
    f_zero = _ZERO_SCALAR
    for x, y in points:
        f_zero = scalar_add(f_zero, scalar_mul(derive_interpolating_value(x_coords, x), y))
    return f_zero


def secret_share_shard(
    s: bytes, coefficients: Sequence[bytes], max_participants: int
) -> tuple[list[tuple[int, bytes]], list[bytes]]:
    """secret_share_shard (RFC 9591 appendix C.1).

    ``coefficients`` are the ``MIN_PARTICIPANTS - 1`` non-constant coefficients
    (the vectors' ``share_polynomial_coefficients``); the secret ``s`` becomes
    the constant term.  Returns ``([(i, f(i)) for i in 1..MAX], [s] + coefficients)``.
    """
    s = deserialize_scalar(s, what="secret", allow_zero=False)
    coeffs = [s] + [deserialize_scalar(c, what="polynomial coefficient") for c in coefficients]
    _check_thresholds(max_participants, len(coeffs))
    shares = [(x, polynomial_evaluate(scalar_from_int(x), coeffs)) for x in range(1, max_participants + 1)]
    return shares, coeffs


def secret_share_combine(shares: Sequence[tuple[int, bytes]]) -> bytes:
    """secret_share_combine (RFC 9591 appendix C.1): recover ``f(0)``.

    The caller must pass at least MIN_PARTICIPANTS distinct shares; with fewer
    the result is a meaningless scalar (the threshold is not encoded in shares).
    """
    if len(shares) < 2:
        raise InvalidParameters("at least two shares are required")
    return polynomial_interpolate_constant(shares)


def vss_commit(coeffs: Sequence[bytes]) -> list[bytes]:
    """vss_commit (RFC 9591 appendix C.2): ``[[a_j]B for a_j in coeffs]``.

    Zero coefficients are rejected because their commitment would be the
    identity, which cannot be serialized.
    """
    return [
        scalar_base_mult(deserialize_scalar(c, what="polynomial coefficient", allow_zero=False))
        for c in coeffs
    ]


def verifying_share_from_commitments(identifier: int, vss_commitment: Sequence[bytes]) -> bytes:
    """``sum_j [i^j] C_j``: the public image of ``f(i)`` from the coefficient commitments."""
    x = scalar_from_int(_check_identifier(identifier))
    power = _ONE_SCALAR
    acc = IDENTITY
    for c_j in vss_commitment:
        acc = element_add(acc, scalar_mult(power, c_j))
        power = scalar_mul(power, x)
    return acc


def vss_verify(share_i: tuple[int, bytes], vss_commitment: Sequence[bytes]) -> bool:
    """vss_verify (RFC 9591 appendix C.2): ``[sk_i]B == sum_j [i^j] C_j``."""
    identifier, sk_i = share_i
    sk_i = deserialize_scalar(sk_i, what="secret share")
    return _elements_equal(scalar_base_mult(sk_i), verifying_share_from_commitments(identifier, vss_commitment))


def derive_group_info(
    max_participants: int, min_participants: int, vss_commitment: Sequence[bytes]
) -> tuple[bytes, list[bytes]]:
    """derive_group_info (RFC 9591 appendix C.2): ``(PK, [PK_1, ..., PK_MAX])``."""
    _check_thresholds(max_participants, min_participants)
    if len(vss_commitment) != min_participants:
        raise InvalidParameters("vss commitment must have min_participants entries")
    pk = vss_commitment[0]
    return pk, [verifying_share_from_commitments(i, vss_commitment) for i in range(1, max_participants + 1)]


def trusted_dealer_keygen(
    secret_key: bytes,
    max_participants: int,
    min_participants: int,
    *,
    coefficients: Sequence[bytes] | None = None,
) -> tuple[list[tuple[int, bytes]], bytes, list[bytes]]:
    """trusted_dealer_keygen (RFC 9591 appendix C).

    Returns ``(participant_private_keys, group_public_key, vss_commitment)``.
    ``coefficients`` (``min_participants - 1`` scalars) may be supplied to
    reproduce test vectors; otherwise they are random.

    The dealer holds the whole secret; production vaults should use
    ``threshold.dkg`` instead so the key never exists in one place.
    """
    _check_thresholds(max_participants, min_participants)
    if coefficients is None:
        coefficients = [random_scalar() for _ in range(min_participants - 1)]
    if len(coefficients) != min_participants - 1:
        raise InvalidParameters("expected min_participants - 1 coefficients")
    shares, coeffs = secret_share_shard(secret_key, coefficients, max_participants)
    vss_commitment = vss_commit(coeffs)
    return shares, vss_commitment[0], vss_commitment


def trusted_dealer_key_packages(
    max_signers: int,
    min_signers: int,
    *,
    secret_key: bytes | None = None,
    coefficients: Sequence[bytes] | None = None,
) -> tuple[dict[int, KeyPackage], PublicKeyPackage]:
    """Convenience wrapper: dealer keygen straight to :class:`KeyPackage` objects.

    Every share is checked with :func:`vss_verify` (as each participant would)
    before being packaged.
    """
    if secret_key is None:
        secret_key = random_scalar()
    shares, pk, vss_commitment = trusted_dealer_keygen(
        secret_key, max_signers, min_signers, coefficients=coefficients
    )
    _, verifying = derive_group_info(max_signers, min_signers, vss_commitment)
    packages: dict[int, KeyPackage] = {}
    for (i, sk_i), pk_i in zip(shares, verifying):
        if not vss_verify((i, sk_i), vss_commitment):  # pragma: no cover - internal consistency
            raise FrostError(f"dealer produced an inconsistent share for participant {i}")
        packages[i] = KeyPackage(i, sk_i, pk_i, pk)
    public = PublicKeyPackage(pk, {i: packages[i].verifying_share for i in packages}, min_signers)
    return packages, public
