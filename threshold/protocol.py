"""FROST threshold Schnorr signatures (RFC 9591), implemented once for every ciphersuite.

:class:`Frost` is the protocol of RFC 9591 sections 4 and 5 (and the trusted dealer and VSS of
appendix C) bound to a :class:`~threshold.ciphersuite.Ciphersuite`; the data classes below carry
its messages and keys and are bound to the suite's :class:`~threshold.ciphersuite.Group`. The
ciphersuite modules instantiate them: :mod:`threshold.frost` (Ed25519),
:mod:`threshold.frost_secp256k1` (secp256k1) and :mod:`threshold.taproot` (secp256k1 with
BIP-340 signatures and BIP-341 tweaks).

Pure computation: no I/O, nothing of the service.

Representation conventions
--------------------------
* A *scalar* is its canonical encoding (``bytes``, ``< order``), an *element* its canonical
  encoding (never the identity on the wire), a participant *identifier* an ``int`` in
  ``[1, order)``, serialized as a scalar (RFC 9591 section 3.1).
* Every value received from outside (the data classes' constructors, ``from_bytes``,
  ``from_dict``, ``deserialize_*``) is validated. Values this module computes itself (the
  commitments of fresh nonces, the group commitment) are not validated again.

Batching (what a signature costs)
---------------------------------
Per signing session the binding factors, the commitment shares ``R_i = D_i + [rho_i]E_i``, the
group commitment and the challenge are computed once and shared by share verification and
aggregation. A signer computes its own ``R_i`` as ``[d_i + rho_i e_i]B`` (one fixed-base
multiplication instead of a variable-base one). Lagrange coefficients depend only on the signer
set and are memoized.

:meth:`Frost.aggregate` verifies every signature share. The shares of all signers but the last
are checked one by one (``[z_i]B == R_i + [c lambda_i]PK_i``); the last one is checked through
the aggregate signature: when the verifying shares of the signer set interpolate to the group
key (``sum lambda_i PK_i == PK``, checked once per key and signer set and memoized), the
signature equation ``[z]B == R + [c]PK`` minus the equations of the other shares *is* the last
share's equation, exactly, so one signature verification (a double-scalar multiplication in
libsodium or libsecp256k1) replaces a share check and the final check RFC 9591 section 5.3
asks for anyway. If the signature does not verify, the last share is checked on its own to
name the culprit. An inconsistent key package falls back to checking every share alone.

Keys
----
A protocol instance may sign for a key derived from the key set's by a :class:`KeyTweak`
(``x -> s_out * (s_in * x + t)`` on the group key, the verifying shares and the signing shares
alike), returned by its :meth:`Frost.key_tweak` hook: :mod:`threshold.taproot` uses it for
BIP-340's even-Y keys and BIP-341's output keys. Callers always pass the key set's own
packages; :class:`Frost` itself signs for the key set's key.

Operational notes
-----------------
* A :class:`SigningNonces` pair must be used for exactly one :meth:`Frost.sign` call and
  destroyed (including any persisted, encrypted copy) before the signature share leaves the
  signer. Reusing nonces across two messages reveals the signing share.
* Python cannot guarantee that secret ``bytes`` are wiped from memory, and the pure-Python parts
  (range checks, comparisons of secret-derived values, secp256k1 scalar arithmetic on Python
  integers) are not constant time. The point arithmetic runs in libsodium or libsecp256k1.
"""

from __future__ import annotations

import functools
import os
import threading
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Iterable, Mapping, NamedTuple, Self, Sequence, TypeAlias, TypeVar

from threshold.ciphersuite import Ciphersuite, Group, require_bytes
from threshold.encoding import HexError, parse_hex
from threshold.errors import (
    FrostError,
    InvalidCommitmentList,
    InvalidElement,
    InvalidIdentifier,
    InvalidParameters,
    InvalidScalar,
    InvalidSignature,
    InvalidSignatureShare,
)

__all__ = [
    "GroupBound",
    "BoundClass",
    "KeyPackage",
    "PublicKeyPackage",
    "SigningNonces",
    "SigningCommitments",
    "SignatureShare",
    "KeyTweak",
    "Frost",
]


# --------------------------------------------------------------------------
# Binding data classes to a group
# --------------------------------------------------------------------------

#: The concrete class of each generic data class for each group: one, however it was made.
_BOUND: dict[tuple[type, Group], type] = {}
#: Serializes making classes on demand (two threads asking first must get the same class).
_BINDING = threading.Lock()


class GroupBound:
    """Mixin of data classes whose scalars and elements belong to one group.

    The generic class (``_generic = True``) defines fields, validation and encodings in terms of
    :attr:`group`; a concrete class fixes the group, either declared
    (``class KeyPackage(protocol.KeyPackage, group=ED25519)``) or made on demand by
    :meth:`bound_to`. There is one concrete class per generic class and group, so values of
    different groups never compare equal and every module agrees on the type.
    """

    group: ClassVar[Group]
    _generic: ClassVar[bool] = False

    def __init_subclass__(cls, *, group: Group | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if group is None:
            return
        generic = next(base for base in cls.__mro__[1:] if base.__dict__.get("_generic"))
        if (generic, group) in _BOUND:
            raise TypeError(f"{generic.__name__} is already bound to {group.name}")
        cls.group = group
        cls._bind(group)
        _BOUND[(generic, group)] = cls

    @classmethod
    def _bind(cls, group: Group) -> None:
        """Set the group-dependent class attributes (serialized sizes)."""

    @classmethod
    def bound_to(cls, group: Group, *, module: str | None = None) -> type[Self]:
        """The concrete class of this generic class for ``group`` (made on first use).

        ``module`` names the module that exports it (for ``repr`` of the class and pickling).
        """
        if not cls.__dict__.get("_generic"):
            raise TypeError(f"{cls.__name__} is already bound to a group")
        bound = _BOUND.get((cls, group))
        if bound is not None:
            return bound
        with _BINDING:
            if (cls, group) not in _BOUND:
                namespace = {"__module__": module or cls.__module__, "__qualname__": cls.__name__, "__doc__": cls.__doc__}
                type(cls.__name__, (cls,), namespace, group=group)
            return _BOUND[(cls, group)]

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        if getattr(cls, "group", None) is None:
            raise TypeError(f"{cls.__name__} is generic: use {cls.__name__}.bound_to(group)")
        return super().__new__(cls)

    @classmethod
    def _trusted(cls, **values: Any) -> Self:
        # Construction without validation, for values this process has just computed from
        # validated ones (e.g. the commitments of fresh nonces): re-validating them would only
        # spend a subgroup check per element.
        obj = object.__new__(cls)
        for name, value in values.items():
            object.__setattr__(obj, name, value)
        return obj


_T = TypeVar("_T", bound=GroupBound)


class BoundClass(Generic[_T]):
    """An engine's attribute naming a generic data class: the concrete class of the engine's group.

    ``class Frost: KeyPackage = BoundClass(KeyPackage)`` makes ``engine.KeyPackage`` the key
    package class of ``engine.group`` (looked up once per engine, then cached on it).
    """

    def __init__(self, generic: type[_T]) -> None:
        self.generic = generic

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, engine: object | None, owner: type) -> type[_T]:
        if engine is None:
            return self.generic
        bound = self.generic.bound_to(engine.group)  # type: ignore[attr-defined]  # a GroupBound class
        engine.__dict__[self.name] = bound  # later lookups find the instance attribute first
        return bound


def _hex_field(data: Mapping[str, Any], key: str, exc: type[FrostError], missing: type[FrostError] | None = None) -> bytes:
    # A hex field of a received dict: a missing field raises ``missing`` (default ``exc``), bad hex ``exc``.
    if not isinstance(data, Mapping) or key not in data:
        raise (missing or exc)(f"missing field {key!r}")
    try:
        return parse_hex(data[key], what=key)
    except HexError as error:
        raise exc(str(error)) from None


def _hex_to_bytes(value: object, what: str, exc: type[FrostError]) -> bytes:
    try:
        return parse_hex(value, what=what)
    except HexError as error:
        raise exc(str(error)) from None


def _dict_get(data: Mapping[str, Any], key: str, exc: type[FrostError]) -> Any:
    if not isinstance(data, Mapping) or key not in data:
        raise exc(f"missing field {key!r}")
    return data[key]


# --------------------------------------------------------------------------
# Data classes (generic; see GroupBound)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyPackage(GroupBound):
    """A participant's long-lived signing material.

    :ivar identifier: the participant identifier ``i``.
    :ivar signing_share: secret scalar ``sk_i`` (kept out of ``repr``).
    :ivar verifying_share: ``PK_i = [sk_i] B``; checked to match on construction.
    :ivar group_public_key: the group's public key ``PK``.

    Serialized form (:attr:`SERIALIZED_SIZE` bytes): ``SerializeScalar(i) || sk_i || PK_i || PK``.
    The serialization contains the secret share: encrypt it at rest.
    """

    _generic: ClassVar[bool] = True
    SERIALIZED_SIZE: ClassVar[int]

    identifier: int
    signing_share: bytes = field(repr=False)
    verifying_share: bytes
    group_public_key: bytes

    @classmethod
    def _bind(cls, group: Group) -> None:
        cls.SERIALIZED_SIZE = 2 * group.scalar_size + 2 * group.element_size

    def __post_init__(self) -> None:
        g = self.group
        g.check_identifier(self.identifier)
        sk = g.deserialize_scalar(self.signing_share, what="signing share", allow_zero=False)
        pk_i = g.deserialize_element(self.verifying_share, what="verifying share")
        pk = g.deserialize_element(self.group_public_key, what="group public key")
        # A share that does not match its verifying share would only produce shares the
        # aggregator rejects; catch the corruption at load time.
        if not g.elements_equal(g.scalar_base_mult(sk), pk_i):
            raise InvalidElement(
                f"verifying share of participant {self.identifier} does not match its signing share"
            )
        object.__setattr__(self, "signing_share", sk)
        object.__setattr__(self, "verifying_share", pk_i)
        object.__setattr__(self, "group_public_key", pk)

    @classmethod
    def from_signing_share(cls, identifier: int, signing_share: bytes, group_public_key: bytes) -> Self:
        """Build a key package, deriving the verifying share from the signing share."""
        sk = cls.group.deserialize_scalar(signing_share, what="signing share", allow_zero=False)
        return cls(identifier, sk, cls.group.scalar_base_mult(sk), group_public_key)

    def to_bytes(self) -> bytes:
        return (
            self.group.serialize_identifier(self.identifier)
            + self.signing_share
            + self.verifying_share
            + self.group_public_key
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        s, e = cls.group.scalar_size, cls.group.element_size
        data = require_bytes(data, cls.SERIALIZED_SIZE, "key package", FrostError)
        return cls(
            cls.group.deserialize_identifier(data[:s]),
            data[s : 2 * s],
            data[2 * s : 2 * s + e],
            data[2 * s + e :],
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
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        signing_share = _hex_field(data, "signing_share", InvalidScalar, FrostError)
        elements = [_hex_field(data, key, InvalidElement, FrostError) for key in ("verifying_share", "group_public_key")]
        return cls(_dict_get(data, "identifier", FrostError), signing_share, *elements)


@dataclass(frozen=True)
class PublicKeyPackage(GroupBound):
    """Public outcome of key generation, shared by all participants and the coordinator.

    :ivar group_public_key: the group's public key.
    :ivar verifying_shares: ``PK_i`` for every participant, by identifier;
        needed to verify signature shares before aggregation.
    :ivar min_signers: threshold ``t``; :meth:`Frost.aggregate` refuses fewer signers.
    """

    _generic: ClassVar[bool] = True

    group_public_key: bytes
    verifying_shares: Mapping[int, bytes]
    min_signers: int

    def __post_init__(self) -> None:
        g = self.group
        pk = g.deserialize_element(self.group_public_key, what="group public key")
        shares: dict[int, bytes] = {}
        for ident in sorted(self.verifying_shares):
            g.check_identifier(ident)
            shares[ident] = g.deserialize_element(
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
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
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
        group_public_key = _hex_field(data, "group_public_key", InvalidElement, FrostError)
        return cls(group_public_key, shares, _dict_get(data, "min_signers", FrostError))


@dataclass(frozen=True)
class SigningCommitments(GroupBound):
    """Round-one public commitments ``(D_i, E_i)`` of one participant.

    Serialized form (:attr:`SERIALIZED_SIZE` bytes): ``SerializeScalar(identifier) || hiding ||
    binding`` -- the same bytes that :meth:`Frost.encode_group_commitment_list` concatenates,
    so a stored commitment is exactly its hashed encoding.
    """

    _generic: ClassVar[bool] = True
    SERIALIZED_SIZE: ClassVar[int]

    identifier: int
    hiding: bytes
    binding: bytes

    @classmethod
    def _bind(cls, group: Group) -> None:
        cls.SERIALIZED_SIZE = group.scalar_size + 2 * group.element_size

    def __post_init__(self) -> None:
        g = self.group
        g.check_identifier(self.identifier)
        object.__setattr__(
            self, "hiding",
            g.deserialize_element(self.hiding, what=f"hiding commitment of participant {self.identifier}"),
        )
        object.__setattr__(
            self, "binding",
            g.deserialize_element(self.binding, what=f"binding commitment of participant {self.identifier}"),
        )

    def to_bytes(self) -> bytes:
        return self.group.serialize_identifier(self.identifier) + self.hiding + self.binding

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        s, e = cls.group.scalar_size, cls.group.element_size
        data = require_bytes(data, cls.SERIALIZED_SIZE, "signing commitments", InvalidElement)
        return cls(cls.group.deserialize_identifier(data[:s]), data[s : s + e], data[s + e :])

    def to_dict(self) -> dict[str, Any]:
        return {"identifier": self.identifier, "hiding": self.hiding.hex(), "binding": self.binding.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        hiding, binding = (_hex_field(data, key, InvalidElement) for key in ("hiding", "binding"))
        return cls(_dict_get(data, "identifier", InvalidElement), hiding, binding)


@dataclass(frozen=True)
class SigningNonces(GroupBound):
    """Round-one secret nonces ``(hiding_nonce, binding_nonce)``.

    Single use: destroy every copy once :meth:`Frost.sign` has produced the share.
    Serialized form (:attr:`SERIALIZED_SIZE` bytes): ``hiding || binding``; store it only encrypted.
    """

    _generic: ClassVar[bool] = True
    SERIALIZED_SIZE: ClassVar[int]

    hiding: bytes = field(repr=False)
    binding: bytes = field(repr=False)

    @classmethod
    def _bind(cls, group: Group) -> None:
        cls.SERIALIZED_SIZE = 2 * group.scalar_size

    def __post_init__(self) -> None:
        g = self.group
        object.__setattr__(self, "hiding", g.deserialize_scalar(self.hiding, what="hiding nonce", allow_zero=False))
        object.__setattr__(self, "binding", g.deserialize_scalar(self.binding, what="binding nonce", allow_zero=False))

    def commitments(self, identifier: int) -> SigningCommitments:
        """The public commitments ``([hiding]B, [binding]B)`` of participant ``identifier``.

        Derived from non-zero nonces, hence valid non-identity elements: not validated again.
        """
        hiding, binding = self.commitment_elements()
        commitments_type = SigningCommitments.bound_to(self.group)
        return commitments_type._trusted(identifier=self.group.check_identifier(identifier), hiding=hiding, binding=binding)

    def commitment_elements(self) -> tuple[bytes, bytes]:
        """``([hiding]B, [binding]B)``, computed once per nonce pair (commit, then sign, need them)."""
        points = self.__dict__.get("_commitment_elements")
        if points is None:
            points = (self.group.scalar_base_mult(self.hiding), self.group.scalar_base_mult(self.binding))
            object.__setattr__(self, "_commitment_elements", points)
        return points

    def to_bytes(self) -> bytes:
        return self.hiding + self.binding

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        s = cls.group.scalar_size
        data = require_bytes(data, cls.SERIALIZED_SIZE, "signing nonces", InvalidScalar)
        return cls(data[:s], data[s:])

    def to_dict(self) -> dict[str, Any]:
        return {"hiding": self.hiding.hex(), "binding": self.binding.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(*(_hex_field(data, key, InvalidScalar) for key in ("hiding", "binding")))


@dataclass(frozen=True)
class SignatureShare(GroupBound):
    """A round-two signature share ``z_i`` from participant ``identifier``.

    Serialized form (:attr:`SERIALIZED_SIZE` bytes): ``SerializeScalar(identifier) || z_i``.
    A share is not secret once sent, but it is meaningless without the commitment list and
    message it was produced for.
    """

    _generic: ClassVar[bool] = True
    SERIALIZED_SIZE: ClassVar[int]

    identifier: int
    share: bytes

    @classmethod
    def _bind(cls, group: Group) -> None:
        cls.SERIALIZED_SIZE = 2 * group.scalar_size

    def __post_init__(self) -> None:
        self.group.check_identifier(self.identifier)
        try:
            s = self.group.deserialize_scalar(self.share, what="signature share")
        except InvalidScalar as exc:
            # Malformed shares are attributable to their sender, like bad ones.
            raise InvalidSignatureShare(self.identifier, str(exc)) from None
        object.__setattr__(self, "share", s)

    def to_bytes(self) -> bytes:
        return self.group.serialize_identifier(self.identifier) + self.share

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        s = cls.group.scalar_size
        data = require_bytes(data, cls.SERIALIZED_SIZE, "signature share", InvalidScalar)
        return cls(cls.group.deserialize_identifier(data[:s]), data[s:])

    def to_dict(self) -> dict[str, Any]:
        return {"identifier": self.identifier, "share": self.share.hex()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(_dict_get(data, "identifier", InvalidScalar), _hex_field(data, "share", InvalidScalar))


# --------------------------------------------------------------------------
# The protocol
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class KeyTweak:
    """An affine map of a key set, ``x -> s_out * (s_in * x + t)`` with ``s_in, s_out`` in ``{1, -1}``.

    Applied alike to the group key and every verifying share (elements, ``t`` as ``[t]B``) and to
    every signing share (scalars). It is linear, so Lagrange interpolation of mapped shares gives
    the mapped key: a quorum signs for the mapped key without anyone's share leaving its holder.
    BIP-340's even-Y normalization (``s = -1``) and BIP-341's tweak (``t``) are such maps
    (:mod:`threshold.taproot`); so is BIP-32 non-hardened derivation (``t`` only).
    """

    group: Group
    negate_before: bool
    #: ``t`` and ``[t]B``; ``None`` for no offset.
    offset: bytes | None
    offset_element: bytes | None
    negate_after: bool

    def _apply(self, x: bytes, neg: Any, add: Any, offset: bytes | None) -> bytes:
        if self.negate_before:
            x = neg(x)
        if offset is not None:
            x = add(x, offset)
        return neg(x) if self.negate_after else x

    def scalar(self, s: bytes) -> bytes:
        """A mapped signing share."""
        return self._apply(s, self.group.scalar_neg, self.group.scalar_add, self.offset)

    def element(self, e: bytes) -> bytes:
        """A mapped group key or verifying share."""
        return self._apply(e, self.group.element_neg, self.group.element_add, self.offset_element)


class _Session(NamedTuple):
    """What one signing session computes once: inputs of share verification and aggregation."""

    binding_factors: dict[int, bytes]
    #: ``R_i = D_i + [rho_i]E_i`` by participant, in commitment-list order.
    commitment_shares: dict[int, bytes]
    #: The group commitment the signature carries (after the suite's normalization).
    group_commitment: bytes
    #: Whether nonce contributions are negated (BIP-340 odd-Y ``R``).
    negated: bool
    challenge: bytes


# In the engine's class body its attributes (``X = BoundClass(X)``) shadow the data classes'
# names: its annotations name the data classes through these aliases.
_KeyPackage: TypeAlias = KeyPackage
_PublicKeyPackage: TypeAlias = PublicKeyPackage
_SigningNonces: TypeAlias = SigningNonces
_SigningCommitments: TypeAlias = SigningCommitments
_SignatureShare: TypeAlias = SignatureShare


class Frost:
    """FROST (RFC 9591) over one ciphersuite.

    The methods are the functions of RFC 9591 (same names), plus :meth:`aggregate`, which
    identifies cheaters, and the trusted dealer of appendix C. The data classes of the suite's
    group are attributes (``KeyPackage``, ``PublicKeyPackage``, ``SigningNonces``,
    ``SigningCommitments``, ``SignatureShare``).
    """

    KeyPackage = BoundClass(KeyPackage)
    PublicKeyPackage = BoundClass(PublicKeyPackage)
    SigningNonces = BoundClass(SigningNonces)
    SigningCommitments = BoundClass(SigningCommitments)
    SignatureShare = BoundClass(SignatureShare)

    def __init__(self, suite: Ciphersuite) -> None:
        self.suite = suite
        self.group = suite.group
        # Memos of values that depend only on public, long-lived inputs (signer sets, key sets).
        self._lagrange = functools.lru_cache(maxsize=1024)(self._compute_lagrange)
        self._interpolates = functools.lru_cache(maxsize=1024)(self._compute_interpolates)
        self._mapped_public = functools.lru_cache(maxsize=1024)(self._map_public_key_package)

    def __repr__(self) -> str:
        return f"<Frost {self.suite.context_string.decode()}>"

    # -- helpers (RFC 9591 section 4) ------------------------------------------------------

    def nonce_generate(self, secret: bytes, random_bytes: bytes | None = None) -> bytes:
        """nonce_generate (RFC 9591 section 4.1): ``H3(random_bytes || SerializeScalar(secret))``.

        Mixing the secret share into the hash keeps nonces unpredictable even if the RNG is
        weak. ``random_bytes`` (32 bytes) should only be supplied to reproduce test vectors; by
        default it comes from ``os.urandom``.
        """
        if random_bytes is None:
            random_bytes = os.urandom(32)
        random_bytes = require_bytes(random_bytes, 32, "nonce randomness", InvalidParameters)
        return self.suite.H3(random_bytes + self.group.deserialize_scalar(secret))

    def derive_interpolating_value(self, x_coords: Sequence[int], x_i: int) -> bytes:
        """derive_interpolating_value (RFC 9591 section 4.2): Lagrange coefficient at 0.

        ``lambda_i = prod_{j != i} x_j / (x_j - x_i)`` mod order. Raises
        :class:`InvalidParameters` if ``x_i`` is not in ``x_coords`` or the coordinates contain
        duplicates (the denominator would be zero).
        """
        g = self.group
        g.check_identifier(x_i)
        for x in x_coords:
            g.check_identifier(x)
        if x_i not in x_coords:
            raise InvalidParameters(f"participant {x_i} is not among the interpolation points")
        if len(set(x_coords)) != len(x_coords):
            raise InvalidParameters("interpolation points contain duplicates")
        return self._lagrange(tuple(x_coords), x_i)

    def _compute_lagrange(self, x_coords: tuple[int, ...], x_i: int) -> bytes:
        g = self.group
        xi = g.scalar_from_int(x_i)
        numerator = denominator = g.scalar_from_int(1)
        for x_j in x_coords:
            if x_j == x_i:
                continue
            xj = g.scalar_from_int(x_j)
            numerator = g.scalar_mul(numerator, xj)
            denominator = g.scalar_mul(denominator, g.scalar_sub(xj, xi))
        return g.scalar_mul(numerator, g.scalar_inv(denominator))

    def validate_commitment_list(self, commitment_list: Sequence[_SigningCommitments]) -> None:
        """Check the list is non-empty, of this group's commitments, and strictly ascending by
        identifier (which also rules out duplicates).

        RFC 9591 requires the coordinator to sort the list; checking it on every side guarantees
        all participants hash the same encoding and that no participant is counted twice.
        """
        if len(commitment_list) == 0:
            raise InvalidCommitmentList("commitment list is empty")
        previous = 0
        for c in commitment_list:
            if not isinstance(c, self.SigningCommitments):
                raise InvalidCommitmentList("commitment list entries must be SigningCommitments")
            if c.identifier == previous:
                raise InvalidCommitmentList(f"duplicate commitment for participant {c.identifier}")
            if c.identifier < previous:
                raise InvalidCommitmentList("commitment list is not sorted by identifier")
            previous = c.identifier

    def encode_group_commitment_list(self, commitment_list: Sequence[_SigningCommitments]) -> bytes:
        """encode_group_commitment_list (RFC 9591 section 4.3).

        Concatenation of ``SerializeScalar(i) || SerializeElement(D_i) || SerializeElement(E_i)``
        in list order (the list must be sorted).
        """
        # A SigningCommitments holds validated, non-identity elements and serializes to exactly
        # SerializeScalar(i) || SerializeElement(D_i) || SerializeElement(E_i).
        return b"".join(c.to_bytes() for c in commitment_list)

    @staticmethod
    def participants_from_commitment_list(commitment_list: Sequence[_SigningCommitments]) -> list[int]:
        """participants_from_commitment_list (RFC 9591 section 4.3)."""
        return [c.identifier for c in commitment_list]

    def compute_binding_factor_inputs(
        self, group_public_key: bytes, commitment_list: Sequence[_SigningCommitments], msg: bytes
    ) -> dict[int, bytes]:
        """The ``rho_input`` hashed into each binding factor (exposed for test vectors).

        ``rho_input = SerializeElement(PK) || H4(msg) || H5(encoded_commitments) || SerializeScalar(i)``
        """
        g, suite = self.group, self.suite
        prefix = (
            g.serialize_element(group_public_key)
            + suite.H4(msg)
            + suite.H5(self.encode_group_commitment_list(commitment_list))
        )
        return {c.identifier: prefix + g.serialize_identifier(c.identifier) for c in commitment_list}

    def compute_binding_factors(
        self, group_public_key: bytes, commitment_list: Sequence[_SigningCommitments], msg: bytes
    ) -> dict[int, bytes]:
        """compute_binding_factors (RFC 9591 section 4.4): ``rho_i = H1(rho_input_i)``.

        Returns an insertion-ordered dict identifier -> binding factor, in commitment-list order
        (the RFC's binding_factor_list).
        """
        inputs = self.compute_binding_factor_inputs(group_public_key, commitment_list, msg)
        return {i: self.suite.H1(rho_input) for i, rho_input in inputs.items()}

    def _commitment_shares(
        self, commitment_list: Sequence[_SigningCommitments], binding_factor_list: Mapping[int, bytes]
    ) -> dict[int, bytes]:
        # R_i = D_i + [rho_i]E_i: the terms of compute_group_commitment, which share
        # verification needs one by one.
        g = self.group
        shares: dict[int, bytes] = {}
        for c in commitment_list:
            try:
                binding_factor = binding_factor_list[c.identifier]
            except KeyError:
                raise InvalidCommitmentList(f"no binding factor for participant {c.identifier}") from None
            shares[c.identifier] = g.element_add(c.hiding, g.scalar_mult(binding_factor, c.binding))
        return shares

    def _sum(self, elements: Iterable[bytes]) -> bytes:
        total = self.group.identity
        for e in elements:
            total = e if self.group.is_identity(total) else self.group.element_add(total, e)
        return total

    def _checked_group_commitment(self, group_commitment: bytes) -> bytes:
        # The RFC serializes R next, and SerializeElement fails on the identity (reachable only
        # with adversarial commitments).
        if self.group.is_identity(group_commitment):
            raise InvalidCommitmentList("group commitment is the identity element")
        return group_commitment

    def compute_group_commitment(
        self, commitment_list: Sequence[_SigningCommitments], binding_factor_list: Mapping[int, bytes]
    ) -> bytes:
        """compute_group_commitment (RFC 9591 section 4.5): ``R = sum(D_i + [rho_i] E_i)``.

        Raises :class:`InvalidCommitmentList` if a binding factor is missing or if the sum is
        the identity.
        """
        shares = self._commitment_shares(commitment_list, binding_factor_list)
        return self._checked_group_commitment(self._sum(shares.values()))

    def compute_challenge(self, group_commitment: bytes, group_public_key: bytes, msg: bytes) -> bytes:
        """compute_challenge (RFC 9591 section 4.6): the suite's ``H2(R || PK || msg)``."""
        return self.suite.challenge(group_commitment, group_public_key, msg)

    def _session(
        self, group_public_key: bytes, commitment_list: Sequence[_SigningCommitments], msg: bytes
    ) -> _Session:
        binding_factors = self.compute_binding_factors(group_public_key, commitment_list, msg)
        shares = self._commitment_shares(commitment_list, binding_factors)
        group_commitment = self._checked_group_commitment(self._sum(shares.values()))
        group_commitment, negated = self.suite.normalize_commitment(group_commitment)
        challenge = self.suite.challenge(group_commitment, group_public_key, msg)
        return _Session(binding_factors, shares, group_commitment, negated, challenge)

    @staticmethod
    def _commitment_for(commitment_list: Sequence[_SigningCommitments], identifier: int) -> _SigningCommitments:
        for c in commitment_list:
            if c.identifier == identifier:
                return c
        raise InvalidCommitmentList(f"commitment list has no commitment from participant {identifier}")

    @staticmethod
    def _check_min_signers(commitment_list: Sequence[_SigningCommitments], min_signers: int | None) -> None:
        if min_signers is not None and len(commitment_list) < min_signers:
            raise InvalidCommitmentList(
                f"commitment list has {len(commitment_list)} participants, fewer than the threshold {min_signers}"
            )

    # -- the key a signature is for ------------------------------------------------------

    def key_tweak(self, group_public_key: bytes) -> KeyTweak | None:
        """The map from a key set to the key this engine signs for (``None``: the key set's own).

        A hook: :mod:`threshold.taproot` returns BIP-340's even-Y normalization and BIP-341's
        tweak. :meth:`sign`, :meth:`verify_signature_share`, :meth:`aggregate_unverified`,
        :meth:`aggregate` and :meth:`verify_signature` take the key set's own packages and keys
        and apply it first; the other methods take the keys as given.
        """
        return None

    def effective_key_package(self, key_package: _KeyPackage) -> _KeyPackage:
        """``key_package`` as it signs."""
        tweak = self.key_tweak(key_package.group_public_key)
        if tweak is None:
            return key_package
        g = self.group
        signing_share = tweak.scalar(key_package.signing_share)
        verifying_share = tweak.element(key_package.verifying_share)
        group_public_key = tweak.element(key_package.group_public_key)
        # [sk']B == PK_i' holds by linearity, the package having been validated: only the
        # degenerate outcomes (about 2**-256 likely) are left to refuse.
        if g.scalar_is_zero(signing_share) or g.is_identity(verifying_share) or g.is_identity(group_public_key):
            raise InvalidParameters(f"the key tweak maps participant {key_package.identifier}'s key to a degenerate one")
        return self.KeyPackage._trusted(
            identifier=key_package.identifier,
            signing_share=signing_share,
            verifying_share=verifying_share,
            group_public_key=group_public_key,
        )

    def effective_public_key_package(self, public_key_package: _PublicKeyPackage) -> _PublicKeyPackage:
        """``public_key_package`` as the coordinator verifies shares with it (memoized)."""
        if self.key_tweak(public_key_package.group_public_key) is None:
            return public_key_package
        shares = tuple(sorted(public_key_package.verifying_shares.items()))
        return self._mapped_public(public_key_package.group_public_key, shares, public_key_package.min_signers)

    def _map_public_key_package(
        self, group_public_key: bytes, shares: tuple[tuple[int, bytes], ...], min_signers: int
    ) -> _PublicKeyPackage:
        tweak = self.key_tweak(group_public_key)
        assert tweak is not None
        verifying = {i: tweak.element(self.group.deserialize_element(pk_i)) for i, pk_i in shares}
        return self.PublicKeyPackage(tweak.element(group_public_key), verifying, min_signers)

    def _effective_element(self, group_public_key: bytes, element: bytes) -> bytes:
        # A (validated) group key or verifying share of the key set, mapped like the group key.
        tweak = self.key_tweak(group_public_key)
        return element if tweak is None else tweak.element(element)

    # -- round one (RFC 9591 section 5.1) ------------------------------------------------

    def commit(
        self,
        key_package: _KeyPackage,
        *,
        hiding_randomness: bytes | None = None,
        binding_randomness: bytes | None = None,
    ) -> tuple[_SigningNonces, _SigningCommitments]:
        """Round one, commit (RFC 9591 section 5.1).

        Returns the secret nonces (keep, encrypted, until :meth:`sign`; then destroy) and the
        public commitments (send to the coordinator). The randomness arguments exist only to
        reproduce test vectors.
        """
        hiding_nonce = self.nonce_generate(key_package.signing_share, hiding_randomness)
        binding_nonce = self.nonce_generate(key_package.signing_share, binding_randomness)
        nonces = self.SigningNonces(hiding_nonce, binding_nonce)
        return nonces, nonces.commitments(key_package.identifier)

    # -- round two (RFC 9591 section 5.2) ------------------------------------------------

    def sign(
        self,
        key_package: _KeyPackage,
        nonces: _SigningNonces,
        msg: bytes,
        commitment_list: Sequence[_SigningCommitments],
        *,
        min_signers: int | None = None,
    ) -> _SignatureShare:
        """Round two, sign (RFC 9591 section 5.2): ``z_i = d_i + e_i * rho_i + lambda_i * sk_i * c``.

        Before signing, checks (as the RFC requires of a participant) that the commitment list
        is sorted and duplicate-free, and that it contains this participant's commitment *equal
        to the one derived from ``nonces``* -- a coordinator substituting a different commitment
        could otherwise make the signer leak information about its share. With ``min_signers``
        the list must also have at least that many participants.

        The caller must destroy ``nonces`` (and any stored copy) before releasing the returned
        share.
        """
        if not isinstance(msg, (bytes, bytearray)):
            raise InvalidParameters("message must be bytes")
        msg = bytes(msg)
        g = self.group
        self.validate_commitment_list(commitment_list)
        self._check_min_signers(commitment_list, min_signers)
        key_package = self.effective_key_package(key_package)
        identifier = key_package.identifier
        own = self._commitment_for(commitment_list, identifier)
        hiding, binding = nonces.commitment_elements()
        if not (g.elements_equal(own.hiding, hiding) and g.elements_equal(own.binding, binding)):
            raise InvalidCommitmentList(
                f"commitment of participant {identifier} in the list does not match its nonces"
            )

        group_public_key = key_package.group_public_key
        binding_factors = self.compute_binding_factors(group_public_key, commitment_list, msg)
        # Own term of the group commitment: D_i + [rho_i]E_i = [d_i + rho_i e_i]B, a fixed-base
        # multiplication (the own commitment was just checked against the nonces).
        nonce_term = g.scalar_add(nonces.hiding, g.scalar_mul(nonces.binding, binding_factors[identifier]))
        others = self._commitment_shares([c for c in commitment_list if c.identifier != identifier], binding_factors)
        group_commitment = self._checked_group_commitment(
            self._sum([g.scalar_base_mult(nonce_term), *others.values()])
        )
        group_commitment, negated = self.suite.normalize_commitment(group_commitment)
        if negated:
            nonce_term = g.scalar_neg(nonce_term)
        # The list's identifiers are validated, distinct and include ours.
        lambda_i = self._lagrange(tuple(self.participants_from_commitment_list(commitment_list)), identifier)
        challenge = self.suite.challenge(group_commitment, group_public_key, msg)
        sig_share = g.scalar_add(nonce_term, g.scalar_mul(g.scalar_mul(lambda_i, key_package.signing_share), challenge))
        return self.SignatureShare(identifier, sig_share)

    # -- verification and aggregation (RFC 9591 sections 5.3 and 5.4) ---------------------

    def _share_is_valid(
        self, share: bytes, verifying_share: bytes, commitment_share: bytes, session: _Session, lambda_i: bytes
    ) -> bool:
        # [z_i]B == R_i + [c * lambda_i] PK_i, with R_i negated when the suite negated R.
        g = self.group
        if session.negated:
            commitment_share = g.element_neg(commitment_share)
        right = g.element_add(commitment_share, g.scalar_mult(g.scalar_mul(session.challenge, lambda_i), verifying_share))
        return g.elements_equal(g.scalar_base_mult(share), right)

    def verify_signature_share(
        self,
        signature_share: _SignatureShare,
        verifying_share: bytes,
        commitment_list: Sequence[_SigningCommitments],
        group_public_key: bytes,
        msg: bytes,
    ) -> bool:
        """verify_signature_share (RFC 9591 section 5.4).

        Checks ``[z_i]B == D_i + [rho_i]E_i + [c * lambda_i] PK_i``. Returns ``False`` on
        mismatch; raises only for structurally invalid input (bad commitment list, participant
        without a commitment, invalid encodings).
        """
        g = self.group
        self.validate_commitment_list(commitment_list)
        key_set_key = g.deserialize_element(group_public_key, what="group public key")
        group_public_key = self._effective_element(key_set_key, key_set_key)
        session = self._session(group_public_key, commitment_list, msg)
        identifier = signature_share.identifier
        self._commitment_for(commitment_list, identifier)
        pk_i = self._effective_element(
            key_set_key, g.deserialize_element(verifying_share, what=f"verifying share of participant {identifier}")
        )
        lambda_i = self.derive_interpolating_value(self.participants_from_commitment_list(commitment_list), identifier)
        return self._share_is_valid(signature_share.share, pk_i, session.commitment_shares[identifier], session, lambda_i)

    def aggregate_unverified(
        self,
        commitment_list: Sequence[_SigningCommitments],
        msg: bytes,
        group_public_key: bytes,
        signature_shares: Iterable[_SignatureShare],
    ) -> bytes:
        """aggregate (RFC 9591 section 5.3) *without* verifying anything.

        Returns the suite's signature of ``R`` and ``sum z_i``. Exposed for test vectors and
        analysis; production code must call :meth:`aggregate`, which identifies cheaters and
        refuses invalid results.
        """
        g = self.group
        self.validate_commitment_list(commitment_list)
        group_public_key = g.deserialize_element(group_public_key, what="group public key")
        session = self._session(self._effective_element(group_public_key, group_public_key), commitment_list, msg)
        z = g.scalar_from_int(0)
        for share in signature_shares:
            z = g.scalar_add(z, share.share)
        return self.suite.serialize_signature(session.group_commitment, g.deserialize_scalar(z))

    def _compute_interpolates(self, group_public_key: bytes, verifying_shares: tuple[tuple[int, bytes], ...]) -> bool:
        # Whether sum(lambda_i PK_i) == PK over this signer set: the condition under which the
        # aggregate signature's equation implies the last share's (see the module docstring).
        g = self.group
        ids = tuple(i for i, _ in verifying_shares)
        terms = [g.scalar_mult(self._lagrange(ids, i), pk_i) for i, pk_i in verifying_shares]
        return g.elements_equal(self._sum(terms), group_public_key)

    def aggregate(
        self,
        commitment_list: Sequence[_SigningCommitments],
        msg: bytes,
        signature_shares: Iterable[_SignatureShare],
        public_key_package: _PublicKeyPackage,
    ) -> bytes:
        """Verify every signature share, then aggregate into the suite's signature.

        Raises:
          * :class:`InvalidCommitmentList` -- list unsorted/duplicated, fewer than
            ``min_signers`` entries, or a participant without a verifying share;
          * :class:`InvalidSignatureShare` (``.participant``) -- a share is missing, duplicated,
            unexpected or fails verification; the first offender in identifier order is named;
          * :class:`InvalidSignature` -- the aggregate does not verify although every share does
            (only possible with an inconsistent key package).

        See the module docstring for how the shares are verified with one signature check.
        """
        g = self.group
        self.validate_commitment_list(commitment_list)
        self._check_min_signers(commitment_list, public_key_package.min_signers)
        expected_ids = self.participants_from_commitment_list(commitment_list)
        for ident in expected_ids:
            if ident not in public_key_package.verifying_shares:
                raise InvalidCommitmentList(f"participant {ident} has no verifying share in the key package")

        by_id: dict[int, _SignatureShare] = {}
        for share in signature_shares:
            if share.identifier in by_id:
                raise InvalidSignatureShare(share.identifier, "more than one signature share")
            by_id[share.identifier] = share
        for ident in sorted(by_id):
            if ident not in expected_ids:
                raise InvalidSignatureShare(ident, "signature share from a participant not in the commitment list")

        # The package's fields were validated when it was built; validating again (memoized)
        # guards against its verifying_shares dict having been mutated since.
        g.deserialize_element(public_key_package.group_public_key, what="group public key")
        public_key_package = self.effective_public_key_package(public_key_package)
        group_public_key = public_key_package.group_public_key
        verifying = {
            i: g.deserialize_element(public_key_package.verifying_shares[i], what=f"verifying share of participant {i}")
            for i in expected_ids
        }
        session = self._session(group_public_key, commitment_list, msg)
        ids = tuple(expected_ids)
        # The last share is checked by the signature itself when the key package allows it.
        implied = ids[-1] if self._interpolates(group_public_key, tuple(verifying.items())) else None
        z = g.scalar_from_int(0)
        for ident in ids:
            received = by_id.get(ident)
            if received is None:
                raise InvalidSignatureShare(ident, "signature share missing")
            if ident != implied and not self._share_is_valid(
                received.share, verifying[ident], session.commitment_shares[ident], session, self._lagrange(ids, ident)
            ):
                raise InvalidSignatureShare(ident)
            z = g.scalar_add(z, received.share)

        if self.suite.verify_equation(session.group_commitment, z, group_public_key, msg):
            return self.suite.serialize_signature(session.group_commitment, z)
        if implied is not None and not self._share_is_valid(
            by_id[implied].share, verifying[implied], session.commitment_shares[implied], session,
            self._lagrange(ids, implied),
        ):
            raise InvalidSignatureShare(implied)
        raise InvalidSignature("aggregated signature does not verify under the group public key")

    def verify_signature(self, group_public_key: bytes, msg: bytes, signature: bytes) -> bool:
        """Verify a (FROST or single-signer) signature of the suite over ``msg``.

        Strict: the group key and ``R`` must be valid non-identity elements and ``z``
        canonical; for the Ed25519 suite this agrees with RFC 8032's cofactored equation, so
        anything accepted here is accepted by RFC 8032 verifiers. Returns ``False`` rather than
        raising on any malformed input. ``group_public_key`` is the key set's (the engine's
        :meth:`key_tweak` is applied to it).
        """
        try:
            key = self.group.deserialize_element(group_public_key, what="group public key")
        except FrostError:
            return False
        return self.suite.verify(self._effective_element(key, key), msg, signature)

    # -- trusted dealer key generation (RFC 9591 appendix C) ----------------------------

    def _check_thresholds(self, max_participants: int, min_participants: int) -> None:
        for name, v in (("max_participants", max_participants), ("min_participants", min_participants)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise InvalidParameters(f"{name} must be an int")
        if min_participants < 2:
            raise InvalidParameters("min_participants must be at least 2")
        if min_participants > max_participants:
            raise InvalidParameters("min_participants must not exceed max_participants")
        if max_participants >= self.group.order:
            raise InvalidParameters("max_participants is too large")

    def polynomial_evaluate(self, x: bytes, coeffs: Sequence[bytes]) -> bytes:
        """polynomial_evaluate (RFC 9591 section 4.2.1): Horner's rule, constant term first."""
        g = self.group
        value = g.scalar_from_int(0)
        for coeff in reversed(coeffs):
            value = g.scalar_add(g.scalar_mul(value, x), coeff)
        return value

    def polynomial_interpolate_constant(self, points: Sequence[tuple[int, bytes]]) -> bytes:
        """polynomial_interpolate_constant (RFC 9591 appendix C.1): ``f(0)`` from ``(x, y)`` points."""
        g = self.group
        x_coords = [x for x, _ in points]
        f_zero = g.scalar_from_int(0)
        for x, y in points:
            f_zero = g.scalar_add(f_zero, g.scalar_mul(self.derive_interpolating_value(x_coords, x), y))
        return f_zero

    def secret_share_shard(
        self, s: bytes, coefficients: Sequence[bytes], max_participants: int
    ) -> tuple[list[tuple[int, bytes]], list[bytes]]:
        """secret_share_shard (RFC 9591 appendix C.1).

        ``coefficients`` are the ``MIN_PARTICIPANTS - 1`` non-constant coefficients (the
        vectors' ``share_polynomial_coefficients``); the secret ``s`` becomes the constant term.
        Returns ``([(i, f(i)) for i in 1..MAX], [s] + coefficients)``.
        """
        g = self.group
        s = g.deserialize_scalar(s, what="secret", allow_zero=False)
        coeffs = [s] + [g.deserialize_scalar(c, what="polynomial coefficient") for c in coefficients]
        self._check_thresholds(max_participants, len(coeffs))
        shares = [(x, self.polynomial_evaluate(g.scalar_from_int(x), coeffs)) for x in range(1, max_participants + 1)]
        return shares, coeffs

    def secret_share_combine(self, shares: Sequence[tuple[int, bytes]]) -> bytes:
        """secret_share_combine (RFC 9591 appendix C.1): recover ``f(0)``.

        The caller must pass at least MIN_PARTICIPANTS distinct shares; with fewer the result is
        a meaningless scalar (the threshold is not encoded in shares).
        """
        if len(shares) < 2:
            raise InvalidParameters("at least two shares are required")
        return self.polynomial_interpolate_constant(shares)

    def vss_commit(self, coeffs: Sequence[bytes]) -> list[bytes]:
        """vss_commit (RFC 9591 appendix C.2): ``[[a_j]B for a_j in coeffs]``.

        Zero coefficients are rejected because their commitment would be the identity, which
        cannot be serialized.
        """
        g = self.group
        return [g.scalar_base_mult(g.deserialize_scalar(c, what="polynomial coefficient", allow_zero=False)) for c in coeffs]

    def verifying_share_from_commitments(self, identifier: int, vss_commitment: Sequence[bytes]) -> bytes:
        """``sum_j [i^j] C_j``: the public image of ``f(i)`` from the coefficient commitments."""
        g = self.group
        x = g.scalar_from_int(g.check_identifier(identifier))
        power = g.scalar_from_int(1)
        acc = g.identity
        for c_j in vss_commitment:
            acc = g.element_add(acc, g.scalar_mult(power, c_j))
            power = g.scalar_mul(power, x)
        return acc

    def vss_verify(self, share_i: tuple[int, bytes], vss_commitment: Sequence[bytes]) -> bool:
        """vss_verify (RFC 9591 appendix C.2): ``[sk_i]B == sum_j [i^j] C_j``."""
        g = self.group
        identifier, sk_i = share_i
        sk_i = g.deserialize_scalar(sk_i, what="secret share")
        expected = self.verifying_share_from_commitments(identifier, vss_commitment)
        return g.elements_equal(g.scalar_base_mult(sk_i), expected)

    def derive_group_info(
        self, max_participants: int, min_participants: int, vss_commitment: Sequence[bytes]
    ) -> tuple[bytes, list[bytes]]:
        """derive_group_info (RFC 9591 appendix C.2): ``(PK, [PK_1, ..., PK_MAX])``."""
        self._check_thresholds(max_participants, min_participants)
        if len(vss_commitment) != min_participants:
            raise InvalidParameters("vss commitment must have min_participants entries")
        pk = vss_commitment[0]
        return pk, [self.verifying_share_from_commitments(i, vss_commitment) for i in range(1, max_participants + 1)]

    def trusted_dealer_keygen(
        self,
        secret_key: bytes,
        max_participants: int,
        min_participants: int,
        *,
        coefficients: Sequence[bytes] | None = None,
    ) -> tuple[list[tuple[int, bytes]], bytes, list[bytes]]:
        """trusted_dealer_keygen (RFC 9591 appendix C).

        Returns ``(participant_private_keys, group_public_key, vss_commitment)``.
        ``coefficients`` (``min_participants - 1`` scalars) may be supplied to reproduce test
        vectors; otherwise they are random.

        The dealer holds the whole secret; production vaults should use the distributed key
        generation (:mod:`threshold.pedersen`) so the key never exists in one place.
        """
        self._check_thresholds(max_participants, min_participants)
        if coefficients is None:
            coefficients = [self.group.random_scalar() for _ in range(min_participants - 1)]
        if len(coefficients) != min_participants - 1:
            raise InvalidParameters("expected min_participants - 1 coefficients")
        shares, coeffs = self.secret_share_shard(secret_key, coefficients, max_participants)
        vss_commitment = self.vss_commit(coeffs)
        return shares, vss_commitment[0], vss_commitment

    def trusted_dealer_key_packages(
        self,
        max_signers: int,
        min_signers: int,
        *,
        secret_key: bytes | None = None,
        coefficients: Sequence[bytes] | None = None,
    ) -> tuple[dict[int, _KeyPackage], _PublicKeyPackage]:
        """Convenience wrapper: dealer keygen straight to key packages.

        Every share is checked with :meth:`vss_verify` (as each participant would) before being
        packaged.
        """
        if secret_key is None:
            secret_key = self.group.random_scalar()
        shares, pk, vss_commitment = self.trusted_dealer_keygen(
            secret_key, max_signers, min_signers, coefficients=coefficients
        )
        _, verifying = self.derive_group_info(max_signers, min_signers, vss_commitment)
        packages: dict[int, _KeyPackage] = {}
        for (i, sk_i), pk_i in zip(shares, verifying):
            if not self.vss_verify((i, sk_i), vss_commitment):  # pragma: no cover - internal consistency
                raise FrostError(f"dealer produced an inconsistent share for participant {i}")
            packages[i] = self.KeyPackage(i, sk_i, pk_i, pk)
        public = self.PublicKeyPackage(pk, {i: packages[i].verifying_share for i in packages}, min_signers)
        return packages, public
