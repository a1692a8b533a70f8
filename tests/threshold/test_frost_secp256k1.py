"""Tests for FROST on secp256k1: RFC 9591 section 6.5 and its BIP-340 (Taproot) variant.

The first group reproduces every value of two vector files byte for byte, one test per kind of
value: RFC 9591's FROST(secp256k1, SHA-256) vectors (threshold.frost_secp256k1) and the Zcash
Foundation's frost-secp256k1-tr vectors (threshold.taproot, untweaked: its group key is even).
The rest covers the hash functions (RFC 9380 known answers) and the rejection of malformed
scalars and points. Each test reads Given / When / Then.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from coincurve import PublicKey, PublicKeyXOnly

from tests.threshold.helpers import h, load_vectors
from threshold import frost, frost_secp256k1, taproot
from threshold.errors import (
    InvalidCommitmentList,
    InvalidElement,
    InvalidIdentifier,
    InvalidScalar,
    InvalidSignatureShare,
)
from threshold.frost_secp256k1 import (
    FROST,
    KeyPackage,
    PublicKeyPackage,
    SignatureShare,
    SigningCommitments,
    SigningNonces,
)
from threshold.protocol import Frost
from threshold.secp256k1 import SECP256K1, N, expand_message_xmd, hash_to_field, tagged_hash

# --------------------------------------------------------------------------
# The two vector files, run through the same tests
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class VectorCase:
    path: Callable[[], dict[str, Any]]
    frost: Frost
    context_string: bytes
    #: The file's encoding of the signature the protocol returns.
    signature_in_file: Callable[[bytes], bytes]


RFC9591 = VectorCase(
    lambda: load_vectors("frost-secp256k1-sha256.json"), FROST, b"FROST-secp256k1-SHA256-v1", lambda sig: sig
)
ZF_TAPROOT = VectorCase(
    lambda: json.loads((Path(__file__).parent / "data" / "frost-secp256k1-sha256-tr.json").read_text()),
    taproot.TAPROOT,
    b"FROST-secp256k1-SHA256-TR-v1",
    lambda sig: b"\x02" + sig,  # the crate writes the even R as a SEC1 point
)


@pytest.fixture(scope="module", params=[RFC9591, ZF_TAPROOT], ids=["rfc9591", "zf-taproot"])
def case(request: pytest.FixtureRequest) -> VectorCase:
    return request.param


@pytest.fixture(scope="module")
def vec(case: VectorCase) -> dict[str, Any]:
    return case.path()


@pytest.fixture(scope="module")
def dealt(case: VectorCase, vec: dict[str, Any]) -> dict[str, Any]:
    """Trusted-dealer output recomputed from the vector's dealer inputs."""
    inputs = vec["inputs"]
    max_p, min_p = int(vec["config"]["MAX_PARTICIPANTS"]), int(vec["config"]["MIN_PARTICIPANTS"])
    shares, group_pk, vss_commitment = case.frost.trusted_dealer_keygen(
        h(inputs["group_secret_key"]), max_p, min_p,
        coefficients=[h(c) for c in inputs["share_polynomial_coefficients"]],
    )
    _, verifying = case.frost.derive_group_info(max_p, min_p, vss_commitment)
    return {
        "shares": shares,
        "group_pk": group_pk,
        "vss_commitment": vss_commitment,
        "key_packages": {i: KeyPackage.from_signing_share(i, sk, group_pk) for i, sk in shares},
        "public": PublicKeyPackage(group_pk, {i + 1: v for i, v in enumerate(verifying)}, min_p),
        "message": h(inputs["message"]),
    }


@pytest.fixture(scope="module")
def round_one(case: VectorCase, vec: dict[str, Any], dealt: dict[str, Any]) -> dict[str, Any]:
    """Round one recomputed from the vector's hiding/binding randomness."""
    nonces: dict[int, SigningNonces] = {}
    commitments: list[SigningCommitments] = []
    for out in vec["round_one_outputs"]["outputs"]:
        nonces[out["identifier"]], commitment = case.frost.commit(
            dealt["key_packages"][out["identifier"]],
            hiding_randomness=h(out["hiding_nonce_randomness"]),
            binding_randomness=h(out["binding_nonce_randomness"]),
        )
        commitments.append(commitment)
    return {"nonces": nonces, "commitments": commitments}


def test_vector_file_is_a_secp256k1_sha256_suite(case: VectorCase, vec: dict[str, Any]) -> None:
    # Given the vector file / Then it is FROST(secp256k1, SHA-256) and the engine has its context string
    assert (vec["config"]["group"], vec["config"]["hash"]) == ("secp256k1", "SHA-256")
    assert case.frost.suite.context_string == case.context_string


def test_dealer_reproduces_the_group_public_key(vec: dict[str, Any], dealt: dict[str, Any]) -> None:
    # Given the dealer's secret (when: fixture `dealt`) / Then the group key is the vector's, as SEC1
    inputs = vec["inputs"]
    expected = inputs.get("group_public_key") or inputs["verifying_key_key"]
    assert dealt["group_pk"].hex() == expected
    assert PublicKey.from_secret(h(inputs["group_secret_key"])).format().hex() == expected


def test_dealer_reproduces_every_participant_share(
    case: VectorCase, vec: dict[str, Any], dealt: dict[str, Any]
) -> None:
    # Given the share polynomial coefficients / Then every participant share matches the vector
    assert {i: sk.hex() for i, sk in dealt["shares"]} == {
        p["identifier"]: p["participant_share"] for p in vec["inputs"]["participant_shares"]
    }
    # And each verifies against the VSS commitment, and any two recombine to the group secret
    for share in dealt["shares"]:
        assert case.frost.vss_verify(share, dealt["vss_commitment"])
    for pair in itertools.combinations(dealt["shares"], 2):
        assert case.frost.secret_share_combine(list(pair)).hex() == vec["inputs"]["group_secret_key"]


def test_round_one_nonces(case: VectorCase, vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]) -> None:
    # Given each signer's randomness (when: fixture `round_one`) / Then both nonces match
    for out in vec["round_one_outputs"]["outputs"]:
        nonces = round_one["nonces"][out["identifier"]]
        assert (nonces.hiding.hex(), nonces.binding.hex()) == (out["hiding_nonce"], out["binding_nonce"])
        # And nonce_generate alone gives the same hiding nonce
        secret = dealt["key_packages"][out["identifier"]].signing_share
        assert case.frost.nonce_generate(secret, h(out["hiding_nonce_randomness"])).hex() == out["hiding_nonce"]


def test_round_one_commitments(vec: dict[str, Any], round_one: dict[str, Any]) -> None:
    # Given the nonces / Then the commitments are the vector's SEC1 points
    by_id = {c.identifier: c for c in round_one["commitments"]}
    for out in vec["round_one_outputs"]["outputs"]:
        commitment = by_id[out["identifier"]]
        assert commitment.hiding.hex() == out["hiding_nonce_commitment"]
        assert commitment.binding.hex() == out["binding_nonce_commitment"]


def test_binding_factor_inputs(case: VectorCase, vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]) -> None:
    # When the binding factor inputs are computed / Then they match, in participant list order
    inputs = case.frost.compute_binding_factor_inputs(dealt["group_pk"], round_one["commitments"], dealt["message"])
    assert list(inputs) == vec["inputs"]["participant_list"]
    for out in vec["round_one_outputs"]["outputs"]:
        assert inputs[out["identifier"]].hex() == out["binding_factor_input"]


def test_binding_factors(case: VectorCase, vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]) -> None:
    # When the binding factors are computed (H1: hash_to_field with DST contextString || "rho") / Then they match
    factors = case.frost.compute_binding_factors(dealt["group_pk"], round_one["commitments"], dealt["message"])
    for out in vec["round_one_outputs"]["outputs"]:
        assert factors[out["identifier"]].hex() == out["binding_factor"]


def test_round_two_signature_shares(case: VectorCase, vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]) -> None:
    # Given the key packages, nonces and commitment list
    for out in vec["round_two_outputs"]["outputs"]:
        i = out["identifier"]
        # When participant i signs / Then its share matches and verifies
        share = case.frost.sign(dealt["key_packages"][i], round_one["nonces"][i], dealt["message"], round_one["commitments"])
        assert share.share.hex() == out["sig_share"]
        assert case.frost.verify_signature_share(
            share, dealt["public"].verifying_shares[i], round_one["commitments"], dealt["group_pk"], dealt["message"]
        )


def test_final_signature(case: VectorCase, vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]) -> None:
    # Given the vector's signature shares
    shares = [SignatureShare(o["identifier"], h(o["sig_share"])) for o in vec["round_two_outputs"]["outputs"]]
    # When they are aggregated, verified and unverified
    sig = case.frost.aggregate(round_one["commitments"], dealt["message"], shares, dealt["public"])
    raw = case.frost.aggregate_unverified(round_one["commitments"], dealt["message"], dealt["group_pk"], shares)
    # Then the signature matches byte for byte and verifies
    assert case.signature_in_file(sig).hex() == vec["final_output"]["sig"]
    assert raw == sig
    assert case.frost.verify_signature(dealt["group_pk"], dealt["message"], sig)
    assert not case.frost.verify_signature(dealt["group_pk"], dealt["message"] + b"!", sig)


def test_zf_taproot_signature_is_a_bip340_signature() -> None:
    # Given the ZF vector's shares aggregated by the Taproot engine (its group key has even Y)
    vec = ZF_TAPROOT.path()
    shares = [SignatureShare(o["identifier"], h(o["sig_share"])) for o in vec["round_two_outputs"]["outputs"]]
    packages = {i: KeyPackage.from_signing_share(i, h(p["participant_share"]), h(vec["inputs"]["verifying_key_key"]))
                for i, p in enumerate(vec["inputs"]["participant_shares"], start=1)}
    public = PublicKeyPackage(h(vec["inputs"]["verifying_key_key"]), {i: kp.verifying_share for i, kp in packages.items()}, 2)
    nonces_and_commitments = [
        taproot.TAPROOT.commit(packages[o["identifier"]], hiding_randomness=h(o["hiding_nonce_randomness"]),
                               binding_randomness=h(o["binding_nonce_randomness"]))
        for o in vec["round_one_outputs"]["outputs"]
    ]
    sig = taproot.TAPROOT.aggregate([c for _, c in nonces_and_commitments], h(vec["inputs"]["message"]), shares, public)
    # Then libsecp256k1's BIP-340 verifier accepts it for the x-only group key
    assert PublicKeyXOnly(taproot.internal_key(public)).verify(sig, h(vec["inputs"]["message"]))


# --------------------------------------------------------------------------
# Hash functions
# --------------------------------------------------------------------------

_XMD_DST = b"QUUX-V01-CS02-with-expander-SHA256-128"


@pytest.mark.parametrize(
    "msg, length, expected",
    [
        (b"", 0x20, "68a985b87eb6b46952128911f2a4412bbc302a9d759667f87f7a21d803f07235"),
        (b"abc", 0x20, "d8ccab23b5985ccea865c6c97b6e5b8350e794e603b4b97902f53a8a0d605615"),
        (b"abcdef0123456789", 0x20, "eff31487c770a893cfb36f912fbfcbff40d5661771ca4b2cb4eafe524333f5c1"),
        (b"q128_" + b"q" * 128, 0x20, "b23a1d2b4d97b2ef7785562a7e8bac7eed54ed6e97e29aa51bfe3f12ddad1ff9"),
        (b"a512_" + b"a" * 512, 0x20, "4623227bcc01293b8c130bf771da8c298dede7383243dc0993d2d94823958c4c"),
        (b"", 0x80, "af84c27ccfd45d41914fdff5df25293e221afc53d8ad2ac06d5e3e29485dadbee0d121587713a3e0dd4d5e69e93eb7cd"
                    "4f5df4cd103e188cf60cb02edc3edf18eda8576c412b18ffb658e3dd6ec849469b979d444cf7b26911a08e63cf31f9dc"
                    "c541708d3491184472c2c29bb749d4286b004ceb5ee6b9a7fa5b646c993f0ced"),
        (b"abc", 0x80, "abba86a6129e366fc877aab32fc4ffc70120d8996c88aee2fe4b32d6c7b6437a647e6c3163d40b76a73cf6a5674ef1d8"
                       "90f95b664ee0afa5359a5c4e07985635bbecbac65d747d3d2da7ec2b8221b17b0ca9dc8a1ac1c07ea6a1e60583e2cb"
                       "00058e77b7b72a298425cd1b941ad4ec65e8afc50303a22c0f99b0509b4c895f40"),
    ],
    ids=["empty", "abc", "abcdef", "q128", "a512", "empty-long", "abc-long"],
)
def test_expand_message_xmd_matches_rfc9380_appendix_k1(msg: bytes, length: int, expected: str) -> None:
    # Given RFC 9380's expand_message_xmd(SHA-256) inputs / Then the output is the RFC's
    assert expand_message_xmd(msg, _XMD_DST, length).hex() == expected


def test_h1_h2_h3_are_hash_to_field_with_their_dst_and_h4_h5_plain_sha256() -> None:
    # Given an input / Then H1..H3 use hash_to_field with contextString || label, H4/H5 SHA-256
    suite, m = frost_secp256k1.SUITE, b"input"
    ctx = b"FROST-secp256k1-SHA256-v1"
    for hash_fn, label in ((suite.H1, b"rho"), (suite.H2, b"chal"), (suite.H3, b"nonce")):
        assert int.from_bytes(hash_fn(m), "big") == hash_to_field(m, ctx + label)
    assert suite.H4(m) == hashlib.sha256(ctx + b"msg" + m).digest()
    assert suite.H5(m) == hashlib.sha256(ctx + b"com" + m).digest()
    # And the Taproot suite's H2 is BIP-340's tagged challenge hash, reduced mod n
    tr = taproot.SUITE
    assert int.from_bytes(tr.H2(m), "big") == int.from_bytes(tagged_hash("BIP0340/challenge", m), "big") % N
    assert tr.H4(m) == hashlib.sha256(b"FROST-secp256k1-SHA256-TR-v1msg" + m).digest()


def test_hash_to_field_output_is_uniform_below_n() -> None:
    # Given many inputs / When hashed to the field / Then every output is a canonical scalar
    for k in range(200):
        value = hash_to_field(k.to_bytes(2, "big"), b"DST")
        assert 0 <= value < N
        SECP256K1.deserialize_scalar(SECP256K1.scalar_from_int(value))


# --------------------------------------------------------------------------
# Rejection of malformed scalars and points
# --------------------------------------------------------------------------

_P = 2**256 - 2**32 - 977


def _x_not_on_curve() -> int:
    # secp256k1 is y^2 = x^3 + 7; an x whose right side is a non-residue has no point.
    return next(x for x in range(1, 100) if pow((x**3 + 7) % _P, (_P - 1) // 2, _P) == _P - 1)


def _valid_element() -> bytes:
    return SECP256K1.scalar_base_mult(SECP256K1.random_scalar())


_INVALID_ELEMENTS = {
    "identity, SEC1's single zero byte": b"\x00",
    "identity padded to 33 bytes": bytes(33),
    "x not on the curve": b"\x02" + _x_not_on_curve().to_bytes(32, "big"),
    "x equal to the field prime": b"\x03" + _P.to_bytes(32, "big"),
    "x above the field prime": b"\x02" + (2**256 - 1).to_bytes(32, "big"),
    "uncompressed prefix 04 on 33 bytes": b"\x04" + _valid_element()[1:],
    "hybrid prefix 06": b"\x06" + _valid_element()[1:],
    "uncompressed 65-byte point": PublicKey(_valid_element()).format(compressed=False),
    "x-only 32-byte key": _valid_element()[1:],
    "too short": _valid_element()[:-1],
}


def _receivers(good: bytes) -> dict[str, Callable[[bytes], object]]:
    # Every way an element arrives from outside: alone, in commitments, in key packages.
    return {
        "DeserializeElement": SECP256K1.deserialize_element,
        "hiding commitment": lambda e: SigningCommitments(1, e, good),
        "binding commitment": lambda e: SigningCommitments(1, good, e),
        "group key": lambda e: PublicKeyPackage(e, {1: good, 2: good}, 2),
        "verifying share": lambda e: PublicKeyPackage(good, {1: good, 2: e}, 2),
        "key package group key": lambda e: KeyPackage.from_signing_share(1, SECP256K1.random_scalar(), e),
    }


@pytest.mark.parametrize("encoding", list(_INVALID_ELEMENTS.values()), ids=list(_INVALID_ELEMENTS))
def test_invalid_sec1_points_and_the_identity_are_rejected_everywhere(encoding: bytes) -> None:
    # Given an encoding that is not a compressed secp256k1 point
    good = _valid_element()
    # When it is received in any role / Then InvalidElement every time
    for role, receive in _receivers(good).items():
        with pytest.raises(InvalidElement):
            receive(encoding)
            pytest.fail(f"accepted as {role}")
    # And a signature carrying it as R does not verify
    assert not FROST.verify_signature(good, b"m", encoding + SECP256K1.scalar_from_int(1))


def test_identity_is_never_serialized_but_is_a_group_value() -> None:
    # Given P and -P / When added / Then the identity comes out, and SerializeElement refuses it
    g = SECP256K1
    p = _valid_element()
    identity = g.element_add(p, g.element_neg(p))
    assert identity == g.identity == g.scalar_mult(g.scalar_from_int(0), p) == g.scalar_base_mult(bytes(32))
    assert g.element_add(identity, p) == p == g.element_add(p, identity)
    assert g.scalar_mult(g.scalar_from_int(N - 1), p) == g.element_neg(p)
    with pytest.raises(InvalidElement, match="identity"):
        g.serialize_element(identity)


@pytest.mark.parametrize("value", [N, N + 1, 2**256 - 1], ids=["n", "n+1", "2^256-1"])
def test_scalars_not_below_n_are_rejected(value: int) -> None:
    # Given a 32-byte big-endian scalar >= n
    enc = value.to_bytes(32, "big")
    one = SECP256K1.scalar_from_int(1)
    # When it is received anywhere a scalar is expected / Then it is rejected, attributed for shares
    with pytest.raises(InvalidScalar, match="group order n"):
        SECP256K1.deserialize_scalar(enc)
    with pytest.raises(InvalidScalar):
        SigningNonces.from_bytes(enc + one)
    with pytest.raises(InvalidScalar):
        KeyPackage.from_signing_share(1, enc, _valid_element())
    with pytest.raises(InvalidSignatureShare) as exc_info:
        SignatureShare(2, enc)
    assert exc_info.value.participant == 2
    with pytest.raises(InvalidIdentifier):
        SECP256K1.deserialize_identifier(enc)
    with pytest.raises(InvalidScalar):
        FROST.secret_share_shard(enc, [one], 3)
    assert not FROST.verify_signature(_valid_element(), b"m", _valid_element() + enc)


def test_zero_where_forbidden_and_wrong_lengths_are_rejected() -> None:
    # Given zero nonces, a zero share, identifier zero and 31-byte scalars / Then each is refused
    zero, one = bytes(32), SECP256K1.scalar_from_int(1)
    with pytest.raises(InvalidScalar):
        SigningNonces(zero, one)
    with pytest.raises(InvalidScalar):
        KeyPackage.from_signing_share(1, zero, _valid_element())
    with pytest.raises(InvalidIdentifier):
        SECP256K1.deserialize_identifier(zero)
    with pytest.raises(InvalidIdentifier):
        SigningCommitments(0, _valid_element(), _valid_element())
    with pytest.raises(InvalidScalar):
        SECP256K1.deserialize_scalar(one[1:])
    with pytest.raises(InvalidScalar):
        SECP256K1.scalar_inv(zero)


def test_values_of_the_other_group_are_refused() -> None:
    # Given Ed25519 commitments and a secp256k1 session / When mixed / Then the list is refused
    ed_packages, _ = frost.trusted_dealer_key_packages(3, 2)
    _, ed_commitment = frost.commit(ed_packages[1])
    k1_packages, _ = FROST.trusted_dealer_key_packages(3, 2)
    nonces, k1_commitment = FROST.commit(k1_packages[1])
    with pytest.raises(InvalidCommitmentList, match="SigningCommitments"):
        FROST.sign(k1_packages[1], nonces, b"m", [k1_commitment, ed_commitment])
    # And the same bytes do not make the same value in the other group
    assert frost.SigningCommitments is not SigningCommitments
    with pytest.raises(InvalidElement):
        SigningCommitments(1, ed_commitment.hiding, ed_commitment.binding)


# --------------------------------------------------------------------------
# Wire formats
# --------------------------------------------------------------------------


def test_wire_formats_have_the_ed25519_fields_and_secp256k1_sizes() -> None:
    # Given secp256k1 key material, nonces, commitments and a share
    packages, public = FROST.trusted_dealer_key_packages(3, 2)
    nonces, commitment = FROST.commit(packages[1])
    share = FROST.sign(packages[1], nonces, b"m", [commitment])
    ed_packages, ed_public = frost.trusted_dealer_key_packages(3, 2)
    # Then the JSON forms have exactly Ed25519's fields, with 32-byte scalars and 33-byte points
    assert packages[1].to_dict().keys() == ed_packages[1].to_dict().keys()
    assert public.to_dict().keys() == ed_public.to_dict().keys()
    assert len(bytes.fromhex(packages[1].to_dict()["verifying_share"])) == 33
    assert len(bytes.fromhex(packages[1].to_dict()["signing_share"])) == 32
    # And the byte forms are SerializeScalar(i) || ... with the group's sizes
    assert (KeyPackage.SERIALIZED_SIZE, SigningCommitments.SERIALIZED_SIZE) == (130, 98)
    assert (SigningNonces.SERIALIZED_SIZE, SignatureShare.SERIALIZED_SIZE) == (64, 64)
    assert commitment.to_bytes() == (1).to_bytes(32, "big") + commitment.hiding + commitment.binding
    # And every value round-trips through bytes and JSON
    assert KeyPackage.from_bytes(packages[1].to_bytes()) == packages[1]
    assert KeyPackage.from_dict(json.loads(json.dumps(packages[1].to_dict()))) == packages[1]
    assert PublicKeyPackage.from_dict(json.loads(json.dumps(public.to_dict()))) == public
    assert SigningNonces.from_bytes(nonces.to_bytes()) == nonces
    assert SigningCommitments.from_dict(json.loads(json.dumps(commitment.to_dict()))) == commitment
    assert SignatureShare.from_bytes(share.to_bytes()) == share
