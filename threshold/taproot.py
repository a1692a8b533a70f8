"""FROST for Taproot: BIP-340 signatures by a secp256k1 threshold key, with the BIP-341 tweak.

Scheme ``FROST-secp256k1-SHA256-TR-v1`` (:data:`threshold.scheme.TAPROOT_SCHEME`): the
protocol of :mod:`threshold.protocol` with the ciphersuite
:data:`~threshold.secp256k1.FROST_SECP256K1_SHA256_TR` (BIP-340 challenge, even-Y group
commitment, 64-byte ``x(R) || z`` signatures), on the key packages of
:mod:`threshold.frost_secp256k1` / :mod:`threshold.dkg_secp256k1`. It is the construction of
the Zcash Foundation's ``frost-secp256k1-tr`` crate (``sign_with_tweak`` /
``aggregate_with_tweak``) and produces the same bytes from the same inputs.

Keys
----
BIP-340 keys are x-only: a key and its negation are the same key, and signing uses the one of
even Y. BIP-341 outputs commit to an *internal* key ``P`` through the *output* key
``Q = lift_x(P) + [t]G`` with ``t = hash_TapTweak(x(P) || merkle_root)``. So before signing,
every key package is transformed (:meth:`TaprootFrost.effective_key_package`,
:meth:`TaprootFrost.effective_public_key_package`), for the group key ``PK`` and every share
``s_i`` / verifying share ``PK_i`` alike (the operations are linear, so Lagrange interpolation
still recovers the transformed key):

1. if ``PK`` has odd Y, negate ``s_i``, ``PK_i`` and ``PK`` (``lift_x`` of the internal key);
2. with a ``merkle_root``, add ``t`` to every ``s_i`` and ``[t]G`` to every ``PK_i`` and ``PK``;
3. if the result has odd Y, negate all again.

The result's group key is even-Y, ``Q`` (or ``lift_x(P)`` without a merkle root), and is what
the binding factors and the challenge hash. The map is a :class:`~threshold.protocol.KeyTweak`
that the engine applies itself, so callers pass the key set's own packages: :data:`TAPROOT`
signs for the internal key itself (plain BIP-340), ``TAPROOT.for_output(b"")`` for a
key-path-only output (BIP-341's recommendation), ``TAPROOT.for_output(root)`` for an output
with the script tree of 32-byte merkle root ``root``. Every engine has the methods of
:class:`~threshold.protocol.Frost`, with the same arguments.

Use the tweak for Taproot outputs: without it, the output key is the DKG's group key, and a
participant who chose its round-1 contribution last could have hidden a script path in it
("rogue tapscript"); with it, ``Q`` commits to the script tree this group chose.

Nonces
------
If the group commitment ``R`` has odd Y, the signature carries ``-R``: each signer negates its
nonce contribution ``d_i + e_i rho_i`` and the coordinator every commitment share when it
verifies shares (the suite's ``normalize_commitment``). Signers and coordinator need nothing
else: commitments and nonces are those of plain FROST.
"""

from __future__ import annotations

import functools

from coincurve import PublicKeyXOnly

from threshold import frost_secp256k1  # noqa: F401 - binds the secp256k1 data classes to their module first
from threshold.errors import InvalidParameters
from threshold.protocol import Frost, KeyTweak, PublicKeyPackage
from threshold.secp256k1 import FROST_SECP256K1_SHA256_TR, SECP256K1, Secp256k1Sha256Taproot, taproot_tweak

__all__ = [
    "SUITE",
    "CONTEXT_STRING",
    "TAPROOT",
    "TaprootFrost",
    "internal_key",
    "output_key",
    "x_only_key",
    "verify_bip340",
]

#: The BIP-340 ciphersuite.
SUITE = FROST_SECP256K1_SHA256_TR
#: "FROST-secp256k1-SHA256-TR-v1".
CONTEXT_STRING: bytes = SUITE.context_string


def _group_key(public: PublicKeyPackage | bytes) -> bytes:
    key = public.group_public_key if isinstance(public, PublicKeyPackage) else public
    return SECP256K1.deserialize_element(key, what="group public key")


def _check_merkle_root(merkle_root: bytes | None) -> bytes | None:
    if merkle_root is None:
        return None
    if not isinstance(merkle_root, (bytes, bytearray)) or len(merkle_root) not in (0, 32):
        raise InvalidParameters("merkle_root must be None, empty or 32 bytes")
    return bytes(merkle_root)


def internal_key(public: PublicKeyPackage | bytes) -> bytes:
    """The 32-byte x-only (BIP-340) internal key of a group key or public key package."""
    return _group_key(public)[1:]


def output_key(public: PublicKeyPackage | bytes, merkle_root: bytes = b"") -> tuple[bytes, int]:
    """BIP-341 ``taproot_tweak_pubkey``: the x-only output key ``Q`` and the parity of its Y.

    ``merkle_root`` is empty for a key-path-only output, else the 32-byte script tree root.
    The parity goes into the control block of a script-path spend. Computed by libsecp256k1
    (``secp256k1_xonly_pubkey_tweak_add``) from the x-only internal key.
    """
    key = PublicKeyXOnly(internal_key(public))
    key.tweak_add(taproot_tweak(key.format(), _check_merkle_root(merkle_root) or b""))
    return key.format(), int(key.parity)


def x_only_key(public: PublicKeyPackage | bytes, merkle_root: bytes | None = None) -> bytes:
    """The x-only key that signatures of ``TAPROOT.for_output(merkle_root)`` verify against."""
    return internal_key(public) if merkle_root is None else output_key(public, merkle_root)[0]


def verify_bip340(x_only: bytes, msg: bytes, signature: bytes) -> bool:
    """BIP-340 verification (libsecp256k1) against a 32-byte x-only key; ``False`` on malformed input."""
    return SUITE.verify(x_only, msg, signature)


class TaprootFrost(Frost):
    """FROST-secp256k1-SHA256-TR-v1 signing for one key: the internal key or one Taproot output.

    ``merkle_root`` ``None`` signs for the key set's internal key; empty or 32 bytes, for the
    BIP-341 output key committing to it. Key sets, packages and messages are those of
    :mod:`threshold.frost_secp256k1`; :meth:`~threshold.protocol.Frost.aggregate` returns the
    64-byte BIP-340 signature, valid for :func:`x_only_key` ``(public, merkle_root)``.
    """

    def __init__(self, suite: Secp256k1Sha256Taproot, merkle_root: bytes | None = None) -> None:
        super().__init__(suite)
        self.merkle_root = _check_merkle_root(merkle_root)
        # The map depends only on the group key (public): memoized per engine.
        self._tweaks = functools.lru_cache(maxsize=1024)(self._compute_key_tweak)

    def __repr__(self) -> str:
        root = "internal key" if self.merkle_root is None else f"output, merkle root {self.merkle_root.hex() or 'empty'}"
        return f"<TaprootFrost {root}>"

    def for_output(self, merkle_root: bytes | None) -> TaprootFrost:
        """The engine signing for the output key of ``merkle_root`` (``None``: the internal key)."""
        return _engine(_check_merkle_root(merkle_root))

    def key_tweak(self, group_public_key: bytes) -> KeyTweak:
        """BIP-340 even-Y normalization of the internal key, then BIP-341's tweak, then even-Y again."""
        return self._tweaks(group_public_key)

    def _compute_key_tweak(self, group_public_key: bytes) -> KeyTweak:
        g = SECP256K1
        key = g.with_even_y(group_public_key)
        negate_internal = key != group_public_key
        if self.merkle_root is None:
            return KeyTweak(g, negate_internal, None, None, False)
        tweak = taproot_tweak(key[1:], self.merkle_root)
        tweak_point = g.scalar_base_mult(tweak)
        output = g.element_add(key, tweak_point)
        if g.is_identity(output):  # pragma: no cover - would need the group secret to be -t
            raise InvalidParameters("the tweaked output key is the point at infinity")
        return KeyTweak(g, negate_internal, tweak, tweak_point, not g.has_even_y(output))


@functools.lru_cache(maxsize=256)
def _engine(merkle_root: bytes | None) -> TaprootFrost:
    return TaprootFrost(SUITE, merkle_root)


#: FROST-secp256k1-SHA256-TR-v1 for the internal key; ``TAPROOT.for_output(root)`` for an output.
TAPROOT = _engine(None)
