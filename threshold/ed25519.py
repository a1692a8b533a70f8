"""edwards25519 on libsodium, and the ciphersuite FROST(Ed25519, SHA-512) (RFC 9591 section 6.1).

The group arithmetic is libsodium's, through PyNaCl's low-level bindings (``nacl.bindings``).
What libsodium does *not* do is done here, because it matters for received values:

* libsodium's scalar functions silently reduce non-canonical input, so every received scalar is
  range-checked (``< L``) by :meth:`~threshold.ciphersuite.Group.deserialize_scalar`;
* ``crypto_core_ed25519_add`` accepts points outside the prime-order subgroup, so every received
  element goes through ``crypto_core_ed25519_is_valid_point`` (canonical, on the curve, not of
  small order, in the prime-order subgroup);
* ``crypto_scalarmult_ed25519_noclamp`` raises a bare RuntimeError for a zero scalar or an
  identity result, which are ordinary values of the group here (``[0]P`` is the identity).

Conventions: scalars are 32 bytes little-endian, elements the 32-byte RFC 8032 encoding.
"""

from __future__ import annotations

import functools
import hashlib

from nacl import exceptions as _nacl_exc

# libsodium through PyNaCl's cffi module rather than its ``nacl.bindings`` wrappers: those check
# arguments with eagerly formatted messages and cost 2-4 us per call, about 15% of a signature
# (some 45 calls). The checks that matter (32-byte arguments, since C reads exactly that many
# bytes) are made here; received values are validated before they reach any of this.
from nacl._sodium import ffi as _ffi
from nacl._sodium import lib as _lib

from threshold.ciphersuite import Ciphersuite, Group
from threshold.errors import InvalidElement

__all__ = ["L", "IDENTITY", "Ed25519Group", "Ed25519Sha512", "ED25519", "FROST_ED25519_SHA512"]

#: Order of the prime-order subgroup of edwards25519 (RFC 8032 ``L``).
L: int = 2**252 + 27742317777372353535851937790883648493

#: Encoding of the neutral element (x=0, y=1). Never valid on the wire, but sums of valid
#: elements can legitimately be the identity internally.
IDENTITY: bytes = b"\x01" + b"\x00" * 31


def _is_32_bytes(a: object, b: object = b"\0" * 32) -> bool:
    return type(a) is bytes and len(a) == 32 and type(b) is bytes and len(b) == 32


def _scalar_op(function: object, *args: bytes) -> bytes:
    # libsodium's crypto_core_ed25519_scalar_* (constant time; void, cannot fail).
    if not _is_32_bytes(*args):
        raise _nacl_exc.TypeError("scalars must be 32-byte bytes sequences")
    out = _ffi.new("unsigned char[32]")
    function(out, *args)  # type: ignore[operator]  # a libsodium function
    return _ffi.buffer(out)[:]


def _point_op(function: object, *args: bytes) -> bytes | None:
    # A libsodium point function: the 32-byte result, or None when it reports failure.
    out = _ffi.new("unsigned char[32]")
    if function(out, *args) != 0:  # type: ignore[operator]  # a libsodium function
        return None
    return _ffi.buffer(out)[:]


@functools.lru_cache(maxsize=4096)
def _is_valid_point(encoding: bytes) -> bool:
    # The subgroup check costs a full scalar multiplication (by L). Validity is a pure function of
    # the 32 bytes, so the answer is memoized: a key set's group key and verifying shares are
    # parsed again for every signature, and a commitment list once per participant and round.
    return _lib.crypto_core_ed25519_is_valid_point(encoding) == 1


class Ed25519Group(Group):
    """The prime-order subgroup of edwards25519, on libsodium."""

    name = "edwards25519"
    order = L
    order_name = "L"
    scalar_size = 32
    element_size = 32
    byteorder = "little"
    wide_size = 64
    identity = IDENTITY
    invalid_element_reason = (
        "a valid prime-order group element (malformed, off-curve, small-order or identity)"
    )

    def reduce(self, wide: bytes) -> bytes:
        # crypto_core_ed25519_scalar_reduce reads exactly 64 bytes (little-endian), returns them mod L.
        if not (isinstance(wide, bytes) and len(wide) == 64):
            raise _nacl_exc.TypeError("a reduced integer must be a 64-byte bytes sequence")
        out = _ffi.new("unsigned char[32]")
        _lib.crypto_core_ed25519_scalar_reduce(out, wide)
        return _ffi.buffer(out)[:]

    # libsodium's scalar arithmetic is constant time, unlike Python integers: signing shares and
    # nonces go through it.
    def scalar_add(self, a: bytes, b: bytes) -> bytes:
        return _scalar_op(_lib.crypto_core_ed25519_scalar_add, a, b)

    def scalar_sub(self, a: bytes, b: bytes) -> bytes:
        return _scalar_op(_lib.crypto_core_ed25519_scalar_sub, a, b)

    def scalar_mul(self, a: bytes, b: bytes) -> bytes:
        return _scalar_op(_lib.crypto_core_ed25519_scalar_mul, a, b)

    def scalar_neg(self, a: bytes) -> bytes:
        return _scalar_op(_lib.crypto_core_ed25519_scalar_negate, a)

    def _invert(self, a: bytes) -> bytes:
        return _scalar_op(_lib.crypto_core_ed25519_scalar_invert, a)

    def is_valid_element(self, buf: bytes) -> bool:
        # Rejects non-canonical encodings, points off the curve, small-order points (the identity
        # among them) and points outside the prime-order subgroup: RFC 9591 section 6.1 exactly.
        return _is_32_bytes(buf) and _is_valid_point(buf)

    def element_add(self, a: bytes, b: bytes) -> bytes:
        # crypto_core_ed25519_add fails only on an encoding that is not on the curve at all.
        result = _point_op(_lib.crypto_core_ed25519_add, a, b) if _is_32_bytes(a, b) else None
        if result is None:
            raise InvalidElement("element addition on an invalid point encoding")
        return result

    def element_sub(self, a: bytes, b: bytes) -> bytes:
        result = _point_op(_lib.crypto_core_ed25519_sub, a, b) if _is_32_bytes(a, b) else None
        if result is None:
            raise InvalidElement("element subtraction on an invalid point encoding")
        return result

    def element_neg(self, a: bytes) -> bytes:
        return self.element_sub(IDENTITY, a)

    def scalar_mult(self, scalar: bytes, element: bytes) -> bytes:
        # crypto_scalarmult_ed25519_noclamp (scalar first!) fails for a zero scalar, an
        # identity/small-order input or an identity result. For a prime-order element those
        # results are exactly the identity, returned explicitly so sums stay well-defined. Any
        # other failure means the element was never validated: a bug or an attack.
        if not _is_32_bytes(scalar, element):
            raise _nacl_exc.TypeError("scalar and element must be 32-byte bytes sequences")
        if self.scalar_is_zero(scalar) or element == IDENTITY:
            return IDENTITY
        result = _point_op(_lib.crypto_scalarmult_ed25519_noclamp, scalar, element)
        if result is None:
            raise InvalidElement("scalar multiplication by an element outside the prime-order subgroup")
        return result

    def scalar_base_mult(self, scalar: bytes) -> bytes:
        # crypto_scalarmult_ed25519_base_noclamp fails on zero; [0]B is the identity.
        if not _is_32_bytes(scalar):
            raise _nacl_exc.TypeError("a scalar must be a 32-byte bytes sequence")
        if self.scalar_is_zero(scalar):
            return IDENTITY
        result = _point_op(_lib.crypto_scalarmult_ed25519_base_noclamp, scalar)
        if result is None:
            # A non-zero encoding of a multiple of L (never canonical): PyNaCl's error, as before.
            raise _nacl_exc.RuntimeError("scalar multiplication result is the identity")
        return result


class Ed25519Sha512(Ciphersuite):
    """FROST(Ed25519, SHA-512), RFC 9591 section 6.1: signatures are plain RFC 8032 Ed25519 ones.

    H1 (rho) and H3 (nonce) reduce a 64-byte SHA-512 digest of contextString, label and input
    modulo L; H2 is plain SHA-512 reduced (no context string, so the result is the RFC 8032
    challenge); H4 (msg) and H5 (com) are unreduced SHA-512 digests.
    """

    name = "FROST(Ed25519, SHA-512)"
    context_string = b"FROST-ED25519-SHA512-v1"
    group = Ed25519Group()
    hash_function = hashlib.sha512

    def H2(self, m: bytes) -> bytes:
        """H2: SHA-512(m) mod L, with **no** context string.

        This is deliberately the RFC 8032 challenge so that FROST signatures are ordinary
        Ed25519 signatures.
        """
        return self.group.reduce(hashlib.sha512(m).digest())

    def verify_equation(self, group_commitment: bytes, z: bytes, group_public_key: bytes, msg: bytes) -> bool:
        """``[z]B == R + [c]PK`` through libsodium's Ed25519 verification.

        For a canonical ``z`` and prime-order, non-identity ``R`` and ``PK`` (the callers'
        precondition), libsodium's check ``encode([z]B - [c]PK) == R`` with
        ``c = SHA-512(R || PK || msg) mod L`` is this very equation, computed with one
        variable-time double-scalar multiplication instead of two scalar multiplications and a
        point addition.
        """
        if not (_is_32_bytes(group_commitment, group_public_key) and _is_32_bytes(z)):
            return False
        signed = group_commitment + z + msg
        message = _ffi.new("unsigned char[]", len(signed))
        message_len = _ffi.new("unsigned long long *")
        return _lib.crypto_sign_open(message, message_len, signed, len(signed), group_public_key) == 0


#: The group and the ciphersuite, one instance each.
FROST_ED25519_SHA512 = Ed25519Sha512()
ED25519: Ed25519Group = FROST_ED25519_SHA512.group
