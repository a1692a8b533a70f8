"""Tests for threshold.taproot: FROST signatures that are BIP-340 signatures, with the BIP-341 tweak.

Every signature is checked by libsecp256k1's BIP-340 verifier (coincurve ``PublicKeyXOnly``),
for every signer subset of a 2-of-3 key, with and without a tweak, for group keys of both Y
parities. Each test reads Given / When / Then.
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import pytest
from coincurve import PrivateKey, PublicKey, PublicKeyXOnly

from tests.threshold.helpers import h, run_dkg, signing_session, threshold_sign, wire
from threshold import dkg_secp256k1, scheme
from threshold.errors import InvalidParameters, InvalidSignatureShare
from threshold.frost_secp256k1 import FROST, KeyPackage, PublicKeyPackage, SignatureShare
from threshold.secp256k1 import SECP256K1, N, taproot_tweak
from threshold.taproot import CONTEXT_STRING, SUITE, TAPROOT, internal_key, output_key, verify_bip340, x_only_key

#: No tweak (plain BIP-340 for the internal key), a key-path-only output, an output with scripts.
MERKLE_ROOTS = [None, b"", bytes(range(32))]
MERKLE_ROOT_IDS = ["untweaked", "key-path-only", "script-tree"]


def _dealer_key(*, odd: bool) -> tuple[dict[int, KeyPackage], PublicKeyPackage]:
    # A 2-of-3 key whose group key has the requested Y parity.
    while True:
        packages, public = FROST.trusted_dealer_key_packages(3, 2)
        if (public.group_public_key[0] == 0x03) == odd:
            return packages, public


@pytest.fixture(scope="module", params=[False, True], ids=["even-key", "odd-key"])
def key(request: pytest.FixtureRequest) -> tuple[dict[int, KeyPackage], PublicKeyPackage]:
    return _dealer_key(odd=request.param)


def test_scheme_name_is_the_context_string() -> None:
    # Given the Taproot engine / Then its scheme name is its context string, and ZF's
    assert scheme.TAPROOT_SCHEME == CONTEXT_STRING.decode() == "FROST-secp256k1-SHA256-TR-v1"
    assert scheme.SECP256K1_SCHEME == FROST.suite.context_string.decode()


@pytest.mark.parametrize("merkle_root", MERKLE_ROOTS, ids=MERKLE_ROOT_IDS)
def test_every_signer_subset_signs_a_valid_bip340_signature(key: Any, merkle_root: bytes | None) -> None:
    # Given a 2-of-3 key (either Y parity) and an optional Taproot tweak
    packages, public = key
    engine = TAPROOT.for_output(merkle_root)
    verifier = PublicKeyXOnly(x_only_key(public, merkle_root))
    signing_key = engine.effective_public_key_package(public).group_public_key
    r_prefixes = set()
    for signers in [[1, 2], [1, 3], [2, 3], [1, 2, 3]] * 5:
        msg = os.urandom(32)
        # When the subset runs both rounds and the coordinator aggregates (messages through JSON)
        nonces, commitments = signing_session(engine, packages, signers)
        shares = [wire(engine.sign(packages[i], nonces[i], msg, commitments)) for i in signers]
        sig = engine.aggregate(commitments, msg, shares, public)
        # Then libsecp256k1 accepts it as a BIP-340 signature for the (tweaked) x-only key
        assert len(sig) == 64
        assert verifier.verify(sig, msg)
        assert verify_bip340(verifier.format(), msg, sig)
        assert engine.verify_signature(public.group_public_key, msg, sig)
        assert not verifier.verify(sig, msg[:-1] + bytes([msg[-1] ^ 1]))
        binding_factors = engine.compute_binding_factors(signing_key, commitments, msg)
        r_prefixes.add(engine.compute_group_commitment(commitments, binding_factors)[0])
    # And group commitments of both Y parities occurred: the negated-nonce path ran too
    # (20 random sessions: one parity only with probability 2**-19)
    assert r_prefixes == {0x02, 0x03}


def test_untweaked_and_tweaked_signatures_are_bound_to_their_key(key: Any) -> None:
    # Given a key, and signatures for the internal key and for the key-path output key
    packages, public = key
    msg = os.urandom(32)
    untweaked = threshold_sign(TAPROOT, packages, public, [1, 3], msg)
    tweaked = threshold_sign(TAPROOT.for_output(b""), packages, public, [1, 3], msg)
    internal, (output, _) = PublicKeyXOnly(internal_key(public)), output_key(public)
    # Then each verifies only for its own key
    assert internal.verify(untweaked, msg) and not PublicKeyXOnly(output).verify(untweaked, msg)
    assert PublicKeyXOnly(output).verify(tweaked, msg) and not internal.verify(tweaked, msg)
    # And a signature for one script tree does not verify for another
    other = PublicKeyXOnly(output_key(public, bytes(32))[0])
    assert not other.verify(tweaked, msg)


@pytest.mark.parametrize("merkle_root", [b"", bytes(range(32))], ids=MERKLE_ROOT_IDS[1:])
def test_output_key_is_bip341_taproot_tweak_pubkey(key: Any, merkle_root: bytes) -> None:
    # Given a group key (internal key P) and a merkle root
    _, public = key
    # When the output key is derived
    x, parity = output_key(public, merkle_root)
    # Then it is lift_x(P) + [hash_TapTweak(x(P) || root)]G, computed independently with coincurve
    p_even = PublicKey(b"\x02" + internal_key(public))
    t = taproot_tweak(internal_key(public), merkle_root)
    q = PublicKey.combine_keys([p_even, PublicKey.from_secret(t)]).format()
    assert (x, parity) == (q[1:], q[0] - 2)
    # And it is the group key the effective (tweaked, even-Y) key package signs for
    effective = TAPROOT.for_output(merkle_root).effective_public_key_package(public)
    assert effective.group_public_key == b"\x02" + x


@pytest.mark.parametrize("merkle_root", MERKLE_ROOTS, ids=MERKLE_ROOT_IDS)
def test_effective_key_packages_are_consistent_and_interpolate(key: Any, merkle_root: bytes | None) -> None:
    # Given a key / When the key packages are transformed (even-Y, tweaked)
    packages, public = key
    engine = TAPROOT.for_output(merkle_root)
    effective = {i: engine.effective_key_package(kp) for i, kp in packages.items()}
    effective_public = engine.effective_public_key_package(public)
    # Then every share still matches its verifying share, the public package agrees, the key is even
    for i, kp in effective.items():
        assert SECP256K1.scalar_base_mult(kp.signing_share) == kp.verifying_share == effective_public.verifying_shares[i]
        assert kp.group_public_key == effective_public.group_public_key
        assert kp.group_public_key[0] == 0x02
    # And any two shares interpolate to the secret of the even-Y (tweaked) key
    for a, b in itertools.combinations(effective, 2):
        secret = FROST.secret_share_combine([(a, effective[a].signing_share), (b, effective[b].signing_share)])
        assert SECP256K1.scalar_base_mult(secret) == effective_public.group_public_key


@pytest.mark.parametrize("merkle_root", MERKLE_ROOTS, ids=MERKLE_ROOT_IDS)
@pytest.mark.parametrize("signers, cheater", [([1, 2], 1), ([1, 2], 2), ([2, 3], 3), ([1, 2, 3], 2), ([1, 2, 3], 3)])
def test_tampered_share_is_detected_and_named(key: Any, merkle_root: bytes | None, signers: list[int], cheater: int) -> None:
    # Given a session whose shares are honest but one, altered after signing
    packages, public = key
    engine, msg = TAPROOT.for_output(merkle_root), os.urandom(32)
    nonces, commitments = signing_session(engine, packages, signers)
    shares = [engine.sign(packages[i], nonces[i], msg, commitments) for i in signers]
    tampered = [
        SignatureShare(s.identifier, SECP256K1.scalar_add(s.share, SECP256K1.scalar_from_int(1)))
        if s.identifier == cheater else s
        for s in shares
    ]
    # When the coordinator aggregates / Then it names exactly that participant (also the last one,
    # whose share the aggregate signature check covers)
    with pytest.raises(InvalidSignatureShare) as exc_info:
        engine.aggregate(commitments, msg, tampered, public)
    assert exc_info.value.participant == cheater
    # And the shares verify one by one exactly when they are honest
    for share in tampered:
        ok = engine.verify_signature_share(share, public.verifying_shares[share.identifier], commitments,
                                           public.group_public_key, msg)
        assert ok == (share.identifier != cheater)


def test_share_for_another_tweak_is_named(key: Any) -> None:
    # Given signer 2 signing for another merkle root than signer 1 and the coordinator
    packages, public = key
    msg = os.urandom(32)
    nonces, commitments = signing_session(TAPROOT, packages, [1, 2])
    output = TAPROOT.for_output(b"")
    shares = [output.sign(packages[1], nonces[1], msg, commitments), TAPROOT.sign(packages[2], nonces[2], msg, commitments)]
    # When aggregated for the key-path output / Then participant 2 is named
    with pytest.raises(InvalidSignatureShare) as exc_info:
        output.aggregate(commitments, msg, shares, public)
    assert exc_info.value.participant == 2


def test_dkg_key_sets_get_taproot_keys_and_sign() -> None:
    # Given a 2-of-3 key made by the secp256k1 DKG (participants through JSON)
    key_packages, publics = run_dkg(dkg_secp256k1.DKG, 2, 3, context=b"vault:taproot")
    public = publics[1]
    assert all(p == public for p in publics.values())
    # When its Taproot output key is derived and any two participants sign a key-path spend
    output, parity = output_key(public)
    assert parity in (0, 1) and len(output) == 32
    for signers in ([1, 2], [1, 3], [2, 3]):
        msg = os.urandom(32)
        sig = threshold_sign(TAPROOT.for_output(b""), key_packages, public, signers, msg)
        # Then the signature is valid for the output key
        assert PublicKeyXOnly(output).verify(sig, msg)


# BIP-340 test vectors 0 and 1 (github.com/bitcoin/bips, bip-0340/test-vectors.csv):
# secret key, x-only public key, aux_rand, message, signature.
BIP340_VECTORS = [
    ("0000000000000000000000000000000000000000000000000000000000000003",
     "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "e907831f80848d1069a5371b402410364bdf1c5f8307b0084c55f1ce2dca8215"
     "25f66a4a85ea8b71e482a74f382d2ce5ebeee8fdb2172f477df4900d310536c0"),
    ("b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef",
     "dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659",
     "0000000000000000000000000000000000000000000000000000000000000001",
     "243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89",
     "6896bd60eeae296db48a229ff71dfe071bde413e6d43f917dc8dcf8c78de3341"
     "8906d11ac976abccb20b091292bff4ea897efcb639ea871cfa95f6de339e4b0a"),
]


@pytest.mark.parametrize("secret, public, aux, msg, sig", BIP340_VECTORS, ids=["vector-0", "vector-1"])
def test_verify_signature_accepts_bip340_vectors_and_nothing_else(secret: str, public: str, aux: str, msg: str, sig: str) -> None:
    # Given a BIP-340 test vector (reproduced by libsecp256k1, so the data is right)
    assert PrivateKey(h(secret)).sign_schnorr(h(msg), h(aux)) == h(sig)
    # When the Taproot engine verifies it, against the x-only key and against either SEC1 form
    key, message, signature = h(public), h(msg), h(sig)
    # Then it is accepted (a SEC1 key of either parity denotes the same x-only key)
    assert verify_bip340(key, message, signature)
    assert SUITE.verify(b"\x02" + key, message, signature) and SUITE.verify(b"\x03" + key, message, signature)
    assert TAPROOT.verify_signature(b"\x03" + key, message, signature)
    # And a changed message, R, s >= n, or a truncated signature are refused
    assert not verify_bip340(key, message + b"\x00", signature)
    assert not verify_bip340(key, message, bytes([signature[0] ^ 1]) + signature[1:])
    assert not verify_bip340(key, message, signature[:32] + N.to_bytes(32, "big"))
    assert not verify_bip340(key, message, signature[:63])


@pytest.mark.parametrize("merkle_root", [b"\x00" * 31, b"\x00" * 33, "root"], ids=["31 bytes", "33 bytes", "str"])
def test_malformed_merkle_roots_are_refused(merkle_root: Any) -> None:
    # Given a merkle root that is neither empty nor 32 bytes / Then every entry point refuses it
    _, public = FROST.trusted_dealer_key_packages(3, 2)
    with pytest.raises(InvalidParameters):
        TAPROOT.for_output(merkle_root)
    with pytest.raises(InvalidParameters):
        output_key(public, merkle_root)
    with pytest.raises(InvalidParameters):
        x_only_key(public, merkle_root)


def test_taproot_shares_and_commitments_use_the_secp256k1_wire_formats() -> None:
    # Given a Taproot session / Then its messages are the secp256k1 classes and round-trip through JSON
    packages, public = FROST.trusted_dealer_key_packages(3, 2)
    nonces, commitments = signing_session(TAPROOT, packages, [1, 2])
    share = TAPROOT.for_output(b"").sign(packages[1], nonces[1], b"m", commitments)
    assert type(share) is SignatureShare and wire(share) == share
    assert TAPROOT.KeyPackage is KeyPackage and TAPROOT.PublicKeyPackage is PublicKeyPackage
