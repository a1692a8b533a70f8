"""secp256k1 on libsecp256k1 (coincurve), and its two FROST ciphersuites.

* :data:`FROST_SECP256K1_SHA256` is RFC 9591 section 6.5, FROST(secp256k1, SHA-256): SEC1
  compressed elements (33 bytes), 32-byte big-endian scalars, H1/H2/H3 by ``hash_to_field``
  of RFC 9380 (``expand_message_xmd`` with SHA-256, L = 48) and H4/H5 by plain SHA-256.
* :data:`FROST_SECP256K1_SHA256_TR` is the BIP-340 variant ("FROST-secp256k1-SHA256-TR-v1",
  as the Zcash Foundation's ``frost-secp256k1-tr`` crate): the challenge is BIP-340's tagged
  ``BIP0340/challenge`` hash of the x-coordinates, the group commitment is made even-Y and the
  signature is BIP-340's ``x(R) || z``, so it verifies as a Taproot key-path signature. The
  even-Y group key and the BIP-341 tweak are applied to the key packages by
  :mod:`threshold.taproot`.

The point arithmetic, parsing and BIP-340 verification are libsecp256k1's. coincurve has no
general scalar arithmetic (its key tweaks refuse zero), so scalars are Python integers modulo
``n``: this is not constant time, which :mod:`threshold.protocol` documents for every group.
"""

from __future__ import annotations

import functools
import hashlib

from coincurve import PublicKey, PublicKeyXOnly

from threshold.ciphersuite import Ciphersuite, Group, require_bytes
from threshold.errors import FrostError, InvalidElement, InvalidParameters

__all__ = [
    "N",
    "IDENTITY",
    "expand_message_xmd",
    "hash_to_field",
    "tagged_hash",
    "taproot_tweak",
    "Secp256k1Group",
    "Secp256k1Sha256",
    "Secp256k1Sha256Taproot",
    "SECP256K1",
    "FROST_SECP256K1_SHA256",
    "FROST_SECP256K1_SHA256_TR",
]

#: Order of the secp256k1 group.
N: int = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141

#: Internal encoding of the point at infinity: SEC1's single zero octet. It is never accepted
#: on the wire (elements are exactly 33 bytes there) and SerializeElement refuses it.
IDENTITY: bytes = b"\x00"

_EVEN, _ODD = 0x02, 0x03


# ------------------------------------------------------------------------------------------
# Hashing: RFC 9380 hash_to_field and BIP-340 tagged hashes
# ------------------------------------------------------------------------------------------


def expand_message_xmd(msg: bytes, dst: bytes, len_in_bytes: int) -> bytes:
    """RFC 9380 section 5.3.1, with H = SHA-256 (b_in_bytes = 32, s_in_bytes = 64)."""
    ell = -(-len_in_bytes // 32)
    if ell > 255 or len_in_bytes > 65535 or len(dst) > 255:
        raise ValueError("expand_message_xmd: requested length or DST too long")
    dst_prime = dst + bytes([len(dst)])
    b_0 = hashlib.sha256(bytes(64) + msg + len_in_bytes.to_bytes(2, "big") + b"\x00" + dst_prime).digest()
    b_i = hashlib.sha256(b_0 + b"\x01" + dst_prime).digest()
    uniform = [b_i]
    b_0_int = int.from_bytes(b_0, "big")
    for i in range(2, ell + 1):
        strxor = (b_0_int ^ int.from_bytes(b_i, "big")).to_bytes(32, "big")
        b_i = hashlib.sha256(strxor + bytes([i]) + dst_prime).digest()
        uniform.append(b_i)
    return b"".join(uniform)[:len_in_bytes]


def hash_to_field(msg: bytes, dst: bytes) -> int:
    """RFC 9380 section 5.2 hash_to_field into GF(n), count = 1.

    L = ceil((ceil(log2(n)) + k) / 8) = 48 bytes for k = 128 bits of security, so the
    reduction modulo ``n`` is uniform to within 2**-128 (RFC 9591 section 6.5).
    """
    return int.from_bytes(expand_message_xmd(msg, dst, 48), "big") % N


def tagged_hash(tag: str, msg: bytes) -> bytes:
    """BIP-340's ``hash_tag(x) = SHA256(SHA256(tag) || SHA256(tag) || x)``."""
    tag_digest = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(tag_digest + tag_digest + msg).digest()


def taproot_tweak(internal_key: bytes, merkle_root: bytes) -> bytes:
    """BIP-341's tweak ``t = int(hash_TapTweak(P_x || merkle_root))`` as a 32-byte scalar.

    ``internal_key`` is the 32-byte x-only internal key; ``merkle_root`` is empty for an output
    without script path (BIP-341's recommendation for key-path-only outputs) or the 32-byte root
    of the script tree. Raises :class:`InvalidParameters` if the hash is not below ``n``, as
    BIP-341's ``taproot_tweak_pubkey`` does (probability about 2**-128).
    """
    internal_key = require_bytes(internal_key, 32, "internal key", InvalidParameters)
    if not isinstance(merkle_root, (bytes, bytearray)) or len(merkle_root) not in (0, 32):
        raise InvalidParameters("merkle_root must be empty or 32 bytes")
    t = tagged_hash("TapTweak", internal_key + bytes(merkle_root))
    if int.from_bytes(t, "big") >= N:
        raise InvalidParameters("the TapTweak hash is not a valid scalar")
    return t


# ------------------------------------------------------------------------------------------
# The group
# ------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _decode(encoding: bytes) -> PublicKey | None:
    # Decompression costs a square root, and a signing session uses each commitment and key in
    # several operations: decoded points are memoized. coincurve's operations return new
    # objects (none here passes update=True), so a cached PublicKey is never modified.
    try:
        return PublicKey(encoding)
    except ValueError:
        return None


def _parse(encoding: bytes) -> PublicKey:
    point = _decode(encoding)
    if point is None:
        # Internal values are validated or computed; anything else is a bug or an attack.
        raise InvalidElement("arithmetic on an invalid secp256k1 point encoding")
    return point


class Secp256k1Group(Group):
    """The secp256k1 group (cofactor 1), on libsecp256k1.

    Elements are SEC1 compressed points: ``0x02`` (even Y) or ``0x03`` (odd Y) followed by the
    32-byte big-endian x-coordinate. Parsing (``secp256k1_ec_pubkey_parse``) rejects an x that
    is not below the field prime or not on the curve; with cofactor 1, every point of the curve
    except infinity is a valid element, and infinity has no 33-byte encoding at all.
    """

    name = "secp256k1"
    order = N
    order_name = "n"
    scalar_size = 32
    element_size = 33
    byteorder = "big"
    wide_size = 48
    identity = IDENTITY
    invalid_element_reason = "a valid compressed secp256k1 point (malformed, off-curve or identity)"

    def reduce(self, wide: bytes) -> bytes:
        return self.scalar_from_int(int.from_bytes(wide, "big"))

    def is_valid_element(self, buf: bytes) -> bool:
        # coincurve also parses 65-byte uncompressed and hybrid keys; RFC 9591 admits only the
        # compressed form: 33 bytes, prefix 0x02 or 0x03.
        return len(buf) == 33 and buf[0] in (_EVEN, _ODD) and _decode(bytes(buf)) is not None

    def element_add(self, a: bytes, b: bytes) -> bytes:
        if a == IDENTITY:
            return b
        if b == IDENTITY:
            return a
        try:
            return PublicKey.combine_keys([_parse(a), _parse(b)]).format()
        except ValueError:
            # secp256k1_ec_pubkey_combine fails exactly when the sum is the point at infinity.
            return IDENTITY

    def element_neg(self, a: bytes) -> bytes:
        # -(x, y) = (x, p - y): same x, opposite parity of y, i.e. the other SEC1 prefix.
        if a == IDENTITY:
            return IDENTITY
        return bytes([a[0] ^ 1]) + a[1:]

    def scalar_mult(self, scalar: bytes, element: bytes) -> bytes:
        if self.scalar_is_zero(scalar) or element == IDENTITY:
            return IDENTITY
        return _parse(element).multiply(scalar).format()

    def scalar_base_mult(self, scalar: bytes) -> bytes:
        if self.scalar_is_zero(scalar):
            return IDENTITY
        return PublicKey.from_valid_secret(scalar).format()

    @staticmethod
    def has_even_y(element: bytes) -> bool:
        """Whether a (non-identity) element has an even Y coordinate."""
        return element[0] == _EVEN

    def with_even_y(self, element: bytes) -> bytes:
        """BIP-340's ``lift_x(x(P))``: the one of ``P`` and ``-P`` whose Y is even."""
        return element if self.has_even_y(element) else self.element_neg(element)

    def lift_x(self, x_only: bytes, *, what: str = "x-only key") -> bytes:
        """The even-Y element of a received 32-byte x-coordinate (BIP-340 ``lift_x``)."""
        x_only = require_bytes(x_only, 32, what, InvalidElement)
        return self.deserialize_element(bytes([_EVEN]) + x_only, what=what)


# ------------------------------------------------------------------------------------------
# The ciphersuites
# ------------------------------------------------------------------------------------------


class Secp256k1Sha256(Ciphersuite):
    """FROST(secp256k1, SHA-256), RFC 9591 section 6.5.

    H1, H2 and H3 are ``hash_to_field`` with DST ``contextString || "rho"``, ``"chal"`` and
    ``"nonce"``; H4 and H5 are SHA-256 of ``contextString || "msg"`` / ``"com"`` and the input.
    Signatures are ``SerializeElement(R) || SerializeScalar(z)`` (65 bytes).
    """

    name = "FROST(secp256k1, SHA-256)"
    context_string = b"FROST-secp256k1-SHA256-v1"
    group = Secp256k1Group()
    hash_function = hashlib.sha256

    def hash_to_scalar(self, label: bytes, m: bytes) -> bytes:
        return self.group.scalar_from_int(hash_to_field(m, self.context_string + label))

    def H2(self, m: bytes) -> bytes:
        return self.hash_to_scalar(b"chal", m)


class Secp256k1Sha256Taproot(Secp256k1Sha256):
    """FROST(secp256k1, SHA-256) producing BIP-340 signatures: "FROST-secp256k1-SHA256-TR-v1".

    Differs from RFC 9591's suite exactly where BIP-340 requires it, and as the ZF
    ``frost-secp256k1-tr`` crate does, so both produce the same bytes from the same inputs:

    * the context string (domain separation of H1, H3, H4, H5 from the RFC suite);
    * H2 is ``int(hash_BIP0340/challenge(m)) mod n`` and the challenge hashes ``x(R) || x(PK) ||
      msg``;
    * the group commitment is made even-Y: when ``R`` has odd Y, the signature carries ``-R``
      and every nonce contribution is negated (:meth:`normalize_commitment`);
    * the signature is ``x(R) || z`` (64 bytes), verified with libsecp256k1's BIP-340 verifier.

    The group key must be even-Y as well; :mod:`threshold.taproot` negates (and tweaks) the key
    packages before they reach the protocol.
    """

    name = "FROST(secp256k1, SHA-256) with BIP-340 signatures"
    context_string = b"FROST-secp256k1-SHA256-TR-v1"

    @property
    def signature_size(self) -> int:
        return 64

    def H2(self, m: bytes) -> bytes:
        return self.group.scalar_from_int(int.from_bytes(tagged_hash("BIP0340/challenge", m), "big"))

    def challenge(self, group_commitment: bytes, group_public_key: bytes, msg: bytes) -> bytes:
        g = self.group
        return self.H2(g.serialize_element(group_commitment)[1:] + g.serialize_element(group_public_key)[1:] + msg)

    def normalize_commitment(self, group_commitment: bytes) -> tuple[bytes, bool]:
        if self.group.has_even_y(group_commitment):
            return group_commitment, False
        return self.group.element_neg(group_commitment), True

    def serialize_signature(self, group_commitment: bytes, z: bytes) -> bytes:
        if not self.group.has_even_y(group_commitment):
            raise InvalidElement("a BIP-340 signature needs an even-Y group commitment")
        return self.group.serialize_element(group_commitment)[1:] + z

    def deserialize_signature(self, signature: object) -> tuple[bytes, bytes]:
        signature = require_bytes(signature, 64, "signature", FrostError)
        r = self.group.lift_x(signature[:32], what="signature R")
        return r, self.group.deserialize_scalar(signature[32:], what="signature z")

    def verify_equation(self, group_commitment: bytes, z: bytes, group_public_key: bytes, msg: bytes) -> bool:
        """BIP-340 verification by libsecp256k1 (one double-scalar multiplication).

        With ``R`` and ``PK`` even-Y (the callers' precondition), BIP-340's check
        ``x([z]G - [e]lift_x(x(PK))) == x(R)`` with an even result is ``[z]G == R + [e]PK``.
        """
        x_only = PublicKeyXOnly(group_public_key[1:])
        return x_only.verify(group_commitment[1:] + z, msg)

    def verify(self, group_public_key: object, msg: bytes, signature: object) -> bool:
        """BIP-340 verification against an x-only key (32 bytes) or a SEC1 key (its x only).

        A 33-byte key of odd Y denotes the same x-only key as its negation, as BIP-340 defines;
        :func:`threshold.taproot.output_key` gives the key a Taproot output commits to.
        """
        g = self.group
        try:
            if isinstance(group_public_key, (bytes, bytearray)) and len(group_public_key) == 32:
                pk = g.lift_x(bytes(group_public_key), what="x-only public key")
            else:
                pk = g.with_even_y(g.deserialize_element(group_public_key, what="group public key"))
            r, z = self.deserialize_signature(signature)
        except FrostError:
            return False
        return self.verify_equation(r, z, pk, bytes(msg))


#: The group and the two ciphersuites, one instance each.
FROST_SECP256K1_SHA256 = Secp256k1Sha256()
FROST_SECP256K1_SHA256_TR = Secp256k1Sha256Taproot()
SECP256K1: Secp256k1Group = FROST_SECP256K1_SHA256.group
