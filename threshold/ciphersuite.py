"""What FROST needs of a prime-order group and of a ciphersuite (RFC 9591 sections 3.1, 4 and 6).

:class:`Group` is RFC 9591's "prime-order group" with its scalar field: arithmetic, the
canonical encodings (SerializeScalar/DeserializeScalar, SerializeElement/DeserializeElement) and
participant identifiers. :class:`Ciphersuite` adds the hash functions H1..H5 and the conventions
of the signature it produces (challenge, encoding, verification). :mod:`threshold.protocol`
implements FROST once over these two interfaces; :mod:`threshold.ed25519` (libsodium) and
:mod:`threshold.secp256k1` (libsecp256k1 through coincurve) implement them.

Representation
--------------
Scalars and elements are held as their canonical encodings (``bytes``), exactly as they travel
and are stored, so values never change shape between the wire, the database and the
arithmetic. Every value received from outside goes through :meth:`Group.deserialize_scalar` or
:meth:`Group.deserialize_element`; the arithmetic methods trust their inputs to be valid
encodings (the protocol only ever feeds them values that were validated or computed here).
The identity element has an internal encoding (:attr:`Group.identity`) that is never accepted
on the wire and that :meth:`Group.serialize_element` refuses, as RFC 9591 requires.
"""

from __future__ import annotations

import hmac
import os
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Literal

from threshold.errors import FrostError, InvalidElement, InvalidIdentifier, InvalidScalar

__all__ = ["Group", "Ciphersuite", "require_bytes"]


def require_bytes(value: object, size: int, what: str, exc: type[FrostError]) -> bytes:
    """``value`` as immutable ``bytes`` of exactly ``size`` bytes, or ``exc`` naming ``what``.

    bytearray/memoryview are accepted but copied, so a caller cannot mutate a value after it has
    been validated.
    """
    if type(value) is bytes and len(value) == size:
        return value
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise exc(f"{what} must be bytes, got {type(value).__name__}")
    value = bytes(value)
    if len(value) != size:
        raise exc(f"{what} must be {size} bytes, got {len(value)}")
    return value


class Group(ABC):
    """A prime-order group and its scalar field, with RFC 9591's canonical encodings.

    Subclasses set the class attributes and implement the element arithmetic; the scalar
    arithmetic defaults to Python integers modulo :attr:`order` and may be overridden by a
    library's constant-time implementation.
    """

    #: Human-readable name, e.g. ``"edwards25519"``.
    name: ClassVar[str]
    #: The prime order of the group (and modulus of the scalar field).
    order: ClassVar[int]
    #: How messages name the order (``"L"`` for Ed25519, ``"n"`` for secp256k1).
    order_name: ClassVar[str]
    #: Sizes of SerializeScalar and SerializeElement outputs.
    scalar_size: ClassVar[int]
    element_size: ClassVar[int]
    #: Byte order of SerializeScalar.
    byteorder: ClassVar[Literal["little", "big"]]
    #: How many uniformly random bytes :meth:`random_scalar` reduces (bias below 2**-128).
    wide_size: ClassVar[int]
    #: Internal encoding of the identity element; never valid on the wire.
    identity: ClassVar[bytes]
    #: Why :meth:`deserialize_element` refuses an encoding (completes "<what> is not ...").
    invalid_element_reason: ClassVar[str]

    def __repr__(self) -> str:
        return f"<group {self.name}>"

    # -- scalars -------------------------------------------------------------------------

    def scalar_from_int(self, n: int) -> bytes:
        """The encoding of ``n mod order`` (identifiers, small constants, hash outputs)."""
        return (n % self.order).to_bytes(self.scalar_size, self.byteorder)

    def scalar_to_int(self, s: bytes) -> int:
        """The integer a (canonical) scalar encoding denotes."""
        return int.from_bytes(s, self.byteorder)

    def scalar_is_zero(self, s: bytes) -> bool:
        """Whether ``s`` is the zero scalar (constant-time comparison of the encoding)."""
        return hmac.compare_digest(s, bytes(self.scalar_size))

    def deserialize_scalar(self, buf: object, *, what: str = "scalar", allow_zero: bool = True) -> bytes:
        """DeserializeScalar: validate a received scalar encoding.

        Raises :class:`~threshold.errors.InvalidScalar` if ``buf`` has the wrong length or
        encodes an integer ``>= order`` (some libraries silently reduce such input, which would
        let two encodings denote one scalar). With ``allow_zero=False`` zero is refused too
        (nonces, shares, keys).
        """
        buf = require_bytes(buf, self.scalar_size, what, InvalidScalar)
        n = int.from_bytes(buf, self.byteorder)
        if n >= self.order:
            raise InvalidScalar(f"{what} is not canonical (not less than the group order {self.order_name})")
        if not allow_zero and n == 0:
            raise InvalidScalar(f"{what} must not be zero")
        return buf

    @abstractmethod
    def reduce(self, wide: bytes) -> bytes:
        """A uniformly random byte string of :attr:`wide_size` bytes, reduced to a scalar."""

    def random_scalar(self, *, nonzero: bool = True) -> bytes:
        """A uniformly random scalar from the OS CSPRNG (non-zero unless told otherwise).

        Zero is rejected by default because secret coefficients, nonces and keys equal to zero
        are degenerate.
        """
        while True:
            s = self.reduce(os.urandom(self.wide_size))
            if not (nonzero and self.scalar_is_zero(s)):
                return s

    def scalar_add(self, a: bytes, b: bytes) -> bytes:
        """``a + b mod order``."""
        return self.scalar_from_int(self.scalar_to_int(a) + self.scalar_to_int(b))

    def scalar_sub(self, a: bytes, b: bytes) -> bytes:
        """``a - b mod order``."""
        return self.scalar_from_int(self.scalar_to_int(a) - self.scalar_to_int(b))

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        """``a * b mod order``."""
        return self.scalar_from_int(self.scalar_to_int(a) * self.scalar_to_int(b))

    def scalar_neg(self, a: bytes) -> bytes:
        """``-a mod order``."""
        return self.scalar_from_int(-self.scalar_to_int(a))

    def scalar_inv(self, a: bytes) -> bytes:
        """``a^-1 mod order``; raises :class:`~threshold.errors.InvalidScalar` for zero."""
        if self.scalar_is_zero(a):
            raise InvalidScalar("cannot invert the zero scalar")
        return self._invert(a)

    def _invert(self, a: bytes) -> bytes:
        return self.scalar_from_int(pow(self.scalar_to_int(a), -1, self.order))

    # -- participant identifiers (RFC 9591 section 3.1: identifiers are non-zero scalars) --

    def check_identifier(self, identifier: object, what: str = "identifier") -> int:
        """``identifier`` if it is an ``int`` in ``[1, order)``; :class:`InvalidIdentifier` otherwise."""
        # bool is an int subclass; True as an identifier is certainly a bug.
        if type(identifier) is int and 0 < identifier < self.order:
            return identifier
        if not isinstance(identifier, int) or isinstance(identifier, bool):
            raise InvalidIdentifier(f"{what} must be an int, got {type(identifier).__name__}")
        if not 0 < identifier < self.order:
            raise InvalidIdentifier(f"{what} must be in [1, {self.order_name}), got {identifier}")
        return identifier

    def serialize_identifier(self, identifier: int) -> bytes:
        """A participant identifier serialized as a scalar."""
        return self.check_identifier(identifier).to_bytes(self.scalar_size, self.byteorder)

    def deserialize_identifier(self, buf: object) -> int:
        """Parse a scalar-encoded identifier; rejects zero and non-canonical values."""
        try:
            s = self.deserialize_scalar(buf, what="identifier")
        except InvalidScalar as exc:
            raise InvalidIdentifier(str(exc)) from None
        n = self.scalar_to_int(s)
        if n == 0:
            raise InvalidIdentifier("identifier must not be zero")
        return n

    # -- elements ------------------------------------------------------------------------

    @abstractmethod
    def is_valid_element(self, buf: bytes) -> bool:
        """Whether ``buf`` (already :attr:`element_size` bytes) passes DeserializeElement."""

    def deserialize_element(self, buf: object, *, what: str = "element") -> bytes:
        """DeserializeElement: validate a received element encoding (never the identity)."""
        buf = require_bytes(buf, self.element_size, what, InvalidElement)
        if not self.is_valid_element(buf):
            raise InvalidElement(f"{what} is not {self.invalid_element_reason}")
        return buf

    def serialize_element(self, e: object) -> bytes:
        """SerializeElement: the canonical encoding; fails on the identity.

        Used on computed values (group commitment, public keys) before they are hashed or sent,
        exactly where RFC 9591 calls SerializeElement.
        """
        if isinstance(e, bytes) and e == self.identity:
            raise InvalidElement("cannot serialize the identity element")
        return require_bytes(e, self.element_size, "element", InvalidElement)

    def is_identity(self, e: bytes) -> bool:
        """Whether ``e`` is the internal encoding of the identity."""
        return e == self.identity

    def elements_equal(self, a: bytes, b: bytes) -> bool:
        """Group equality: encodings are canonical, so byte equality is group equality."""
        return hmac.compare_digest(a, b)

    @abstractmethod
    def element_add(self, a: bytes, b: bytes) -> bytes:
        """``a + b``; the identity is accepted on both sides (sums start there)."""

    @abstractmethod
    def element_neg(self, a: bytes) -> bytes:
        """``-a``."""

    def element_sub(self, a: bytes, b: bytes) -> bytes:
        """``a - b``."""
        return self.element_add(a, self.element_neg(b))

    @abstractmethod
    def scalar_mult(self, scalar: bytes, element: bytes) -> bytes:
        """``[scalar] element`` (RFC 9591 ``G.ScalarMult(element, scalar)``); may be the identity."""

    @abstractmethod
    def scalar_base_mult(self, scalar: bytes) -> bytes:
        """``[scalar] B`` for the group's fixed generator; ``[0]B`` is the identity."""


class Ciphersuite(ABC):
    """A FROST ciphersuite: a group, the hash functions H1..H5 and the signature it produces.

    The defaults are RFC 9591's: the challenge ``H2(SerializeElement(R) ||
    SerializeElement(PK) || msg)``, the signature ``SerializeElement(R) || SerializeScalar(z)``
    and the prime-order check ``[z]B == R + [c]PK``. A variant (e.g. BIP-340) overrides the
    hooks :meth:`challenge`, :meth:`normalize_commitment`, :meth:`serialize_signature`,
    :meth:`deserialize_signature` and :meth:`verify_equation`; the protocol calls nothing else.
    """

    #: RFC 9591's name of the suite, e.g. ``"FROST(Ed25519, SHA-512)"``.
    name: ClassVar[str]
    #: Domain separation prefix of H1, H3, H4 and H5 (and of this project's DKG proof hash).
    context_string: ClassVar[bytes]
    group: ClassVar[Group]
    #: The suite's hash function H, a ``hashlib`` constructor (e.g. ``hashlib.sha512``).
    hash_function: ClassVar[Callable[[bytes], Any]]

    def __repr__(self) -> str:
        return f"<ciphersuite {self.context_string.decode()}>"

    @property
    def signature_size(self) -> int:
        """Length of :meth:`serialize_signature` output."""
        return self.group.element_size + self.group.scalar_size

    # -- hash functions (RFC 9591 section 6) ---------------------------------------------

    def digest(self, data: bytes) -> bytes:
        """The suite's hash function H, unreduced."""
        # Through the class: a ClassVar callable is the hash constructor, never a bound method.
        return type(self).hash_function(data).digest()

    def hash_to_scalar(self, label: bytes, m: bytes) -> bytes:
        """Hash ``m`` to a scalar, domain-separated by ``contextString || label``.

        By default ``H(contextString || label || m)`` reduced modulo the order, which is uniform
        when H's output is 2 * 128 bits longer than the order (Ed25519's SHA-512); suites whose
        hash is not (secp256k1's SHA-256) use RFC 9380's hash_to_field instead.
        """
        return self.group.reduce(self.digest(self.context_string + label + m))

    def H1(self, m: bytes) -> bytes:
        """H1 ("rho"): binding factors."""
        return self.hash_to_scalar(b"rho", m)

    @abstractmethod
    def H2(self, m: bytes) -> bytes:
        """H2: the signature challenge (defined by the signature scheme the suite is compatible with)."""

    def H3(self, m: bytes) -> bytes:
        """H3 ("nonce"): nonce generation."""
        return self.hash_to_scalar(b"nonce", m)

    def H4(self, m: bytes) -> bytes:
        """H4 ("msg"): ``H(contextString || "msg" || m)``, not reduced."""
        return self.digest(self.context_string + b"msg" + m)

    def H5(self, m: bytes) -> bytes:
        """H5 ("com"): ``H(contextString || "com" || m)``, not reduced."""
        return self.digest(self.context_string + b"com" + m)

    # -- the signature -------------------------------------------------------------------

    def challenge(self, group_commitment: bytes, group_public_key: bytes, msg: bytes) -> bytes:
        """compute_challenge (RFC 9591 section 4.6): ``H2(R || PK || msg)``."""
        g = self.group
        return self.H2(g.serialize_element(group_commitment) + g.serialize_element(group_public_key) + msg)

    def normalize_commitment(self, group_commitment: bytes) -> tuple[bytes, bool]:
        """The commitment ``R`` the signature carries, and whether nonce contributions are negated.

        RFC 9591 uses ``R`` as it is. A scheme that only admits some ``R`` (BIP-340: even Y)
        answers ``(-R, True)`` where needed; every signer then negates its nonce contribution
        and the coordinator every commitment share, so the shares still sum to a signature.
        """
        return group_commitment, False

    def serialize_signature(self, group_commitment: bytes, z: bytes) -> bytes:
        """``SerializeElement(R) || SerializeScalar(z)``."""
        return self.group.serialize_element(group_commitment) + z

    def deserialize_signature(self, signature: object) -> tuple[bytes, bytes]:
        """``(R, z)`` of a received signature, both validated; raises :class:`FrostError`."""
        g = self.group
        signature = require_bytes(signature, self.signature_size, "signature", FrostError)
        r = g.deserialize_element(signature[: g.element_size], what="signature R")
        z = g.deserialize_scalar(signature[g.element_size :], what="signature z")
        return r, z

    def verify_equation(self, group_commitment: bytes, z: bytes, group_public_key: bytes, msg: bytes) -> bool:
        """``[z]B == R + [c]PK`` for *validated* ``R``, ``z`` and ``PK``.

        Suites override this with their library's signature verification when it computes the
        same equation faster (one double-scalar multiplication).
        """
        g = self.group
        c = self.challenge(group_commitment, group_public_key, msg)
        right = g.element_add(group_commitment, g.scalar_mult(c, group_public_key))
        return g.elements_equal(g.scalar_base_mult(z), right)

    def verify(self, group_public_key: object, msg: bytes, signature: object) -> bool:
        """Verify a signature made with this suite; ``False`` (never an error) on malformed input."""
        try:
            pk = self.group.deserialize_element(group_public_key, what="group public key")
            r, z = self.deserialize_signature(signature)
        except FrostError:
            return False
        return self.verify_equation(r, z, pk, bytes(msg))
