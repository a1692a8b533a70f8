"""Tests for threshold.frost: RFC 9591 FROST(Ed25519, SHA-512).

The first group reproduces every value of the official RFC 9591 test vectors
byte for byte; the rest exercise validation, cheater identification and
random threshold signing.  Each test reads Given / When / Then.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
from typing import Any

import pytest
from nacl.bindings import crypto_core_ed25519_add, crypto_core_ed25519_is_valid_point
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from tests.threshold.helpers import h, load_vectors
from threshold import frost
from threshold.frost import (
    IDENTITY,
    InvalidCommitmentList,
    InvalidElement,
    InvalidIdentifier,
    InvalidParameters,
    InvalidScalar,
    InvalidSignatureShare,
    KeyPackage,
    L,
    PublicKeyPackage,
    SignatureShare,
    SigningCommitments,
    SigningNonces,
)

# --------------------------------------------------------------------------
# Vector loading
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vec() -> dict[str, Any]:
    return load_vectors("frost-ed25519-sha512.json")


@pytest.fixture(scope="module")
def dealt(vec: dict[str, Any]) -> dict[str, Any]:
    """Trusted-dealer output recomputed from the vector's dealer inputs."""
    inputs = vec["inputs"]
    max_p = int(vec["config"]["MAX_PARTICIPANTS"])
    min_p = int(vec["config"]["MIN_PARTICIPANTS"])
    shares, group_pk, vss_commitment = frost.trusted_dealer_keygen(
        h(inputs["group_secret_key"]),
        max_p,
        min_p,
        coefficients=[h(c) for c in inputs["share_polynomial_coefficients"]],
    )
    _, verifying = frost.derive_group_info(max_p, min_p, vss_commitment)
    key_packages = {i: KeyPackage.from_signing_share(i, sk, group_pk) for i, sk in shares}
    public = PublicKeyPackage(group_pk, {i + 1: v for i, v in enumerate(verifying)}, min_p)
    return {
        "shares": shares,
        "group_pk": group_pk,
        "vss_commitment": vss_commitment,
        "key_packages": key_packages,
        "public": public,
        "message": h(inputs["message"]),
    }


@pytest.fixture(scope="module")
def round_one(vec: dict[str, Any], dealt: dict[str, Any]) -> dict[str, Any]:
    """Round one recomputed from the vector's hiding/binding randomness."""
    nonces: dict[int, SigningNonces] = {}
    commitments: list[SigningCommitments] = []
    for out in vec["round_one_outputs"]["outputs"]:
        n, c = frost.commit(
            dealt["key_packages"][out["identifier"]],
            hiding_randomness=h(out["hiding_nonce_randomness"]),
            binding_randomness=h(out["binding_nonce_randomness"]),
        )
        nonces[out["identifier"]] = n
        commitments.append(c)
    return {"nonces": nonces, "commitments": commitments}


# --------------------------------------------------------------------------
# RFC 9591 vectors, byte for byte
# --------------------------------------------------------------------------


def test_vector_file_is_the_ed25519_sha512_ciphersuite(vec: dict[str, Any]) -> None:
    # Given the vector file / Then it is the suite this module implements
    assert vec["config"]["name"] == "FROST(Ed25519, SHA-512)"
    assert vec["config"]["group"] == "ed25519"
    assert vec["config"]["hash"] == "SHA-512"
    assert frost.CONTEXT_STRING == b"FROST-ED25519-SHA512-v1"


def test_dealer_reproduces_group_public_key_and_participant_shares(vec: dict[str, Any], dealt: dict[str, Any]) -> None:
    # Given the dealer's secret and share polynomial coefficients (when: fixture `dealt`)
    inputs = vec["inputs"]
    # Then the group public key and every participant share match the vectors
    assert dealt["group_pk"].hex() == inputs["group_public_key"]
    assert frost.scalar_base_mult(h(inputs["group_secret_key"])).hex() == inputs["group_public_key"]
    got = {i: sk.hex() for i, sk in dealt["shares"]}
    want = {p["identifier"]: p["participant_share"] for p in inputs["participant_shares"]}
    assert got == want
    # And every share verifies against the VSS commitment, whose first entry is the group key
    assert dealt["vss_commitment"][0] == dealt["group_pk"]
    for share in dealt["shares"]:
        assert frost.vss_verify(share, dealt["vss_commitment"])
    # And the verifying shares derived from public data match the shares
    for i, kp in dealt["key_packages"].items():
        assert dealt["public"].verifying_shares[i] == kp.verifying_share


def test_participant_shares_recombine_to_the_group_secret(vec: dict[str, Any], dealt: dict[str, Any]) -> None:
    # Given any MIN_PARTICIPANTS of the vector's participant shares
    shares = [(p["identifier"], h(p["participant_share"])) for p in vec["inputs"]["participant_shares"]]
    for subset in itertools.combinations(shares, 2):
        # When they are recombined / Then the group secret comes back
        assert frost.secret_share_combine(list(subset)).hex() == vec["inputs"]["group_secret_key"]


def test_round_one_nonces_and_commitments(vec: dict[str, Any], round_one: dict[str, Any]) -> None:
    # Given the hiding/binding randomness of each participant (when: fixture `round_one`)
    by_id = {c.identifier: c for c in round_one["commitments"]}
    for out in vec["round_one_outputs"]["outputs"]:
        i = out["identifier"]
        # Then the nonces and their commitments match byte for byte
        assert round_one["nonces"][i].hiding.hex() == out["hiding_nonce"]
        assert round_one["nonces"][i].binding.hex() == out["binding_nonce"]
        assert by_id[i].hiding.hex() == out["hiding_nonce_commitment"]
        assert by_id[i].binding.hex() == out["binding_nonce_commitment"]


def test_nonce_generate_matches_vector(vec: dict[str, Any], dealt: dict[str, Any]) -> None:
    # Given participant 1's share and randomness / When nonce_generate runs / Then the hiding nonce matches
    out = vec["round_one_outputs"]["outputs"][0]
    sk = dealt["key_packages"][out["identifier"]].signing_share
    assert frost.nonce_generate(sk, h(out["hiding_nonce_randomness"])).hex() == out["hiding_nonce"]


def test_binding_factor_inputs_and_binding_factors(
    vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]
) -> None:
    # Given the round-one commitment list, the group key and the message
    commitments = round_one["commitments"]
    # When binding factor inputs and binding factors are computed
    inputs = frost.compute_binding_factor_inputs(dealt["group_pk"], commitments, dealt["message"])
    factors = frost.compute_binding_factors(dealt["group_pk"], commitments, dealt["message"])
    # Then both match the vectors for every participant, in list order
    assert list(factors) == vec["inputs"]["participant_list"]
    for out in vec["round_one_outputs"]["outputs"]:
        assert inputs[out["identifier"]].hex() == out["binding_factor_input"]
        assert factors[out["identifier"]].hex() == out["binding_factor"]


def test_round_two_signature_shares(vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]) -> None:
    # Given the key packages, nonces and commitment list
    for out in vec["round_two_outputs"]["outputs"]:
        i = out["identifier"]
        # When participant i signs
        share = frost.sign(dealt["key_packages"][i], round_one["nonces"][i], dealt["message"], round_one["commitments"])
        # Then its share matches the vector and verifies
        assert share.identifier == i
        assert share.share.hex() == out["sig_share"]
        assert frost.verify_signature_share(
            share, dealt["public"].verifying_shares[i], round_one["commitments"], dealt["group_pk"], dealt["message"]
        )


def test_final_signature_matches_and_is_plain_ed25519(
    vec: dict[str, Any], dealt: dict[str, Any], round_one: dict[str, Any]
) -> None:
    # Given the vector's signature shares
    shares = [SignatureShare(o["identifier"], h(o["sig_share"])) for o in vec["round_two_outputs"]["outputs"]]
    # When they are aggregated (verified and unverified paths)
    sig = frost.aggregate(round_one["commitments"], dealt["message"], shares, dealt["public"])
    raw = frost.aggregate_unverified(round_one["commitments"], dealt["message"], dealt["group_pk"], shares)
    # Then the signature matches byte for byte
    assert sig.hex() == vec["final_output"]["sig"]
    assert raw == sig
    # And it verifies as an RFC 8032 Ed25519 signature, with PyNaCl and with our helper
    VerifyKey(dealt["group_pk"]).verify(dealt["message"], sig)
    assert frost.verify_signature(dealt["group_pk"], dealt["message"], sig)


# --------------------------------------------------------------------------
# Hash functions and helpers
# --------------------------------------------------------------------------


def test_h2_is_the_plain_rfc8032_challenge_hash() -> None:
    # Given a message / When H2 is applied / Then it is SHA-512 mod L with no context string
    m = b"some message"
    assert int.from_bytes(frost.H2(m), "little") == int.from_bytes(hashlib.sha512(m).digest(), "little") % L


def test_h4_h5_are_unreduced_and_context_separated() -> None:
    # Given a message / Then H4/H5 are full 64-byte digests with their own labels
    m = b"x"
    assert frost.H4(m) == hashlib.sha512(b"FROST-ED25519-SHA512-v1msg" + m).digest()
    assert frost.H5(m) == hashlib.sha512(b"FROST-ED25519-SHA512-v1com" + m).digest()
    assert int.from_bytes(frost.H1(m), "little") == (
        int.from_bytes(hashlib.sha512(b"FROST-ED25519-SHA512-v1rho" + m).digest(), "little") % L
    )
    assert int.from_bytes(frost.H3(m), "little") == (
        int.from_bytes(hashlib.sha512(b"FROST-ED25519-SHA512-v1nonce" + m).digest(), "little") % L
    )


def test_interpolating_value_is_the_lagrange_coefficient() -> None:
    # Given participants {1, 3} / When lambda_1 is derived / Then lambda_1 = 3 / (3 - 1)
    lam = frost.derive_interpolating_value([1, 3], 1)
    assert frost.scalar_mul(lam, frost.scalar_from_int(2)) == frost.scalar_from_int(3)
    # And a participant outside the set, or duplicated points, are refused
    with pytest.raises(InvalidParameters):
        frost.derive_interpolating_value([1, 3], 2)
    with pytest.raises(InvalidParameters):
        frost.derive_interpolating_value([1, 1, 3], 1)


def test_scalar_mult_handles_identity_and_zero_without_runtime_error() -> None:
    # Given a zero scalar or the identity element (libsodium raises a bare RuntimeError for these)
    b = frost.scalar_base_mult(frost.scalar_from_int(7))
    # Then the results are the identity, as group arithmetic dictates
    assert frost.scalar_mult(frost.scalar_from_int(0), b) == IDENTITY
    assert frost.scalar_mult(frost.scalar_from_int(5), IDENTITY) == IDENTITY
    assert frost.scalar_base_mult(frost.scalar_from_int(0)) == IDENTITY
    assert frost.element_add(b, IDENTITY) == b
    assert frost.element_sub(b, b) == IDENTITY


# --------------------------------------------------------------------------
# Strict validation of received values
# --------------------------------------------------------------------------

_P = 2**255 - 19
_D = (-121665 * pow(121666, -1, _P)) % _P


def _off_curve_encoding() -> bytes:
    # A y for which (y^2 - 1) / (d y^2 + 1) is not a square has no x: off-curve.
    for y in range(2, 1000):
        u = (y * y - 1) % _P
        v = (_D * y * y + 1) % _P
        if pow(u * pow(v, -1, _P) % _P, (_P - 1) // 2, _P) == _P - 1:
            return y.to_bytes(32, "little")
    raise AssertionError("no off-curve y found")  # pragma: no cover


_ORDER_2 = (_P - 1).to_bytes(32, "little")  # (0, -1)
_SMALL_ORDER = [
    _ORDER_2,
    bytes(32),  # (sqrt(-1), 0), order 4
    bytes(31) + b"\x80",  # (-sqrt(-1), 0), order 4
    h("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
    h("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),  # order 8
]


def _times_eight(p: bytes) -> bytes:
    # crypto_core_ed25519_add accepts any on-curve point, so it can check the test data itself.
    acc = p
    for _ in range(3):
        acc = crypto_core_ed25519_add(acc, acc)
    return acc


def _valid_element() -> bytes:
    return frost.scalar_base_mult(frost.random_scalar())


def test_test_data_small_order_points_really_are_small_order() -> None:
    # Given the small-order encodings used below / Then [8]P is the identity for each
    for p in _SMALL_ORDER:
        assert _times_eight(p) == IDENTITY


@pytest.mark.parametrize(
    "encoding, label",
    [
        (IDENTITY, "identity"),
        (_off_curve_encoding(), "off-curve"),
        *[(p, f"small-order-{k}") for k, p in enumerate(_SMALL_ORDER)],
        ((_P + 1).to_bytes(32, "little"), "non-canonical y >= p"),
        (b"\x01" * 31, "too short"),
    ],
)
def test_invalid_elements_are_rejected(encoding: bytes, label: str) -> None:
    # Given an invalid element encoding (identity, off-curve, small order, non-canonical, short)
    good = _valid_element()
    # When it is received as an element / as a commitment / in serialized commitments
    # Then InvalidElement is raised every time
    with pytest.raises(InvalidElement):
        frost.deserialize_element(encoding)
    with pytest.raises(InvalidElement):
        SigningCommitments(1, encoding, good)
    with pytest.raises(InvalidElement):
        SigningCommitments(1, good, encoding)
    if len(encoding) == 32:
        with pytest.raises(InvalidElement):
            SigningCommitments.from_bytes(frost.serialize_identifier(1) + good + encoding)
    with pytest.raises(InvalidElement):
        PublicKeyPackage(encoding, {1: good, 2: good}, 2)


def test_mixed_order_point_is_rejected() -> None:
    # Given a point on the curve but outside the prime-order subgroup (valid point + order-2 point)
    mixed = crypto_core_ed25519_add(_valid_element(), _ORDER_2)
    assert not crypto_core_ed25519_is_valid_point(mixed)
    # When it is received as a commitment / Then it is rejected
    with pytest.raises(InvalidElement):
        SigningCommitments(2, mixed, _valid_element())


@pytest.mark.parametrize("value", [L, L + 1, 2**253, 2**256 - 1])
def test_scalars_not_below_L_are_rejected(value: int) -> None:
    # Given a scalar encoding >= L (libsodium would silently reduce it)
    enc = value.to_bytes(32, "little")
    # When it is received anywhere a scalar is expected / Then it is rejected with our errors
    with pytest.raises(InvalidScalar):
        frost.deserialize_scalar(enc)
    with pytest.raises(InvalidScalar):
        SigningNonces.from_bytes(enc + frost.scalar_from_int(1))
    with pytest.raises(InvalidSignatureShare) as exc_info:
        SignatureShare(2, enc)
    assert exc_info.value.participant == 2
    with pytest.raises(InvalidIdentifier):
        frost.deserialize_identifier(enc)
    assert not frost.verify_signature(_valid_element(), b"m", _valid_element() + enc)


def test_wrong_lengths_and_zero_are_rejected() -> None:
    # Given short scalars, zero secrets and zero/negative identifiers / Then they are rejected
    with pytest.raises(InvalidScalar):
        frost.deserialize_scalar(b"\x01" * 31)
    with pytest.raises(InvalidScalar):
        SigningNonces(bytes(32), frost.scalar_from_int(1))
    with pytest.raises(InvalidIdentifier):
        frost.deserialize_identifier(bytes(32))
    with pytest.raises(InvalidIdentifier):
        SigningCommitments(0, _valid_element(), _valid_element())


def test_error_messages_do_not_contain_secret_values() -> None:
    # Given a key package whose verifying share does not match its secret share
    sk = frost.random_scalar()
    # When it is constructed / Then the error names the participant but not the secret
    with pytest.raises(InvalidElement) as exc_info:
        KeyPackage(4, sk, _valid_element(), _valid_element())
    assert sk.hex() not in str(exc_info.value)
    assert "participant 4" in str(exc_info.value)
    # And secrets never appear in reprs either
    kp = KeyPackage.from_signing_share(4, sk, _valid_element())
    nonces = SigningNonces(frost.random_scalar(), frost.random_scalar())
    assert sk.hex() not in repr(kp) and repr(sk) not in repr(kp)
    assert nonces.hiding.hex() not in repr(nonces) and repr(nonces.hiding) not in repr(nonces)


# --------------------------------------------------------------------------
# Commitment list checks and cheater identification
# --------------------------------------------------------------------------


def _signing_session(
    packages: dict[int, KeyPackage], signers: list[int]
) -> tuple[dict[int, SigningNonces], list[SigningCommitments]]:
    nonces: dict[int, SigningNonces] = {}
    commitments: list[SigningCommitments] = []
    for i in sorted(signers):
        n, c = frost.commit(packages[i])
        nonces[i] = n
        commitments.append(c)
    return nonces, commitments


@pytest.fixture()
def two_of_three() -> tuple[dict[int, KeyPackage], PublicKeyPackage]:
    return frost.trusted_dealer_key_packages(3, 2)


def test_commitment_list_missing_own_commitment_is_refused(two_of_three: Any) -> None:
    # Given signer 1 whose commitment is not in the list sent by the coordinator
    packages, _ = two_of_three
    nonces, commitments = _signing_session(packages, [1, 2, 3])
    without_1 = [c for c in commitments if c.identifier != 1]
    # When signer 1 is asked to sign / Then it refuses
    with pytest.raises(InvalidCommitmentList, match="participant 1"):
        frost.sign(packages[1], nonces[1], b"msg", without_1)


def test_commitment_list_with_substituted_own_commitment_is_refused(two_of_three: Any) -> None:
    # Given a list whose entry for signer 1 is not the commitment to signer 1's nonces
    packages, _ = two_of_three
    nonces, commitments = _signing_session(packages, [1, 2])
    other_nonces, _ = _signing_session(packages, [1])
    # When signer 1 signs with different nonces / Then it refuses
    with pytest.raises(InvalidCommitmentList, match="does not match"):
        frost.sign(packages[1], other_nonces[1], b"msg", commitments)


def test_unsorted_duplicate_or_empty_commitment_list_is_refused(two_of_three: Any) -> None:
    # Given unsorted, duplicated and empty commitment lists
    packages, public = two_of_three
    nonces, commitments = _signing_session(packages, [1, 2])
    unsorted = list(reversed(commitments))
    duplicated = [commitments[0], commitments[0], commitments[1]]
    # When a signer signs or a coordinator aggregates / Then each is refused
    for bad in (unsorted, duplicated, []):
        with pytest.raises(InvalidCommitmentList):
            frost.sign(packages[1], nonces[1], b"msg", bad)
        with pytest.raises(InvalidCommitmentList):
            frost.aggregate(bad, b"msg", [], public)


@pytest.mark.parametrize("cheater", [1, 3])
def test_tampered_signature_share_is_rejected_naming_the_participant(cheater: int) -> None:
    # Given a 2-of-3 signing session between participants 1 and 3
    packages, public = frost.trusted_dealer_key_packages(3, 2)
    msg = b"withdraw 1 BTC"
    nonces, commitments = _signing_session(packages, [1, 3])
    shares = [frost.sign(packages[i], nonces[i], msg, commitments) for i in (1, 3)]
    # When one participant's share is altered
    tampered = [
        SignatureShare(s.identifier, frost.scalar_add(s.share, frost.scalar_from_int(1))) if s.identifier == cheater else s
        for s in shares
    ]
    # Then aggregation fails and names exactly that participant
    with pytest.raises(InvalidSignatureShare) as exc_info:
        frost.aggregate(commitments, msg, tampered, public)
    assert exc_info.value.participant == cheater
    assert f"participant {cheater}" in str(exc_info.value)
    # And the honest share still verifies on its own
    honest = next(s for s in shares if s.identifier != cheater)
    assert frost.verify_signature_share(honest, public.verifying_shares[honest.identifier], commitments, public.group_public_key, msg)


def test_share_for_another_message_is_rejected(two_of_three: Any) -> None:
    # Given participant 2 signs a different message than participant 1
    packages, public = two_of_three
    nonces, commitments = _signing_session(packages, [1, 2])
    shares = [frost.sign(packages[1], nonces[1], b"pay alice", commitments),
              frost.sign(packages[2], nonces[2], b"pay mallory", commitments)]
    # When the coordinator aggregates for "pay alice" / Then participant 2 is named
    with pytest.raises(InvalidSignatureShare) as exc_info:
        frost.aggregate(commitments, b"pay alice", shares, public)
    assert exc_info.value.participant == 2


def test_missing_duplicate_or_unexpected_shares_are_rejected(two_of_three: Any) -> None:
    # Given a valid 2-of-3 session between 1 and 2
    packages, public = two_of_three
    msg = b"m"
    nonces, commitments = _signing_session(packages, [1, 2])
    s1 = frost.sign(packages[1], nonces[1], msg, commitments)
    s2 = frost.sign(packages[2], nonces[2], msg, commitments)
    # Then a missing share, a duplicate and a share from a non-signer are each attributed
    with pytest.raises(InvalidSignatureShare) as e_missing:
        frost.aggregate(commitments, msg, [s1], public)
    assert e_missing.value.participant == 2
    with pytest.raises(InvalidSignatureShare) as e_dup:
        frost.aggregate(commitments, msg, [s1, s1, s2], public)
    assert e_dup.value.participant == 1
    with pytest.raises(InvalidSignatureShare) as e_extra:
        frost.aggregate(commitments, msg, [s1, s2, SignatureShare(3, s2.share)], public)
    assert e_extra.value.participant == 3


def test_fewer_than_threshold_signers_are_refused(two_of_three: Any) -> None:
    # Given a single signer in a 2-of-3 group
    packages, public = two_of_three
    nonces, commitments = _signing_session(packages, [1])
    # When it signs with the threshold enforced, or the coordinator aggregates / Then both refuse
    with pytest.raises(InvalidCommitmentList, match="threshold"):
        frost.sign(packages[1], nonces[1], b"m", commitments, min_signers=public.min_signers)
    share = frost.sign(packages[1], nonces[1], b"m", commitments)
    with pytest.raises(InvalidCommitmentList, match="threshold"):
        frost.aggregate(commitments, b"m", [share], public)
    # And even bypassing the checks, one share does not yield a valid signature
    forged = frost.aggregate_unverified(commitments, b"m", public.group_public_key, [share])
    assert not frost.verify_signature(public.group_public_key, b"m", forged)
    with pytest.raises(BadSignatureError):
        VerifyKey(public.group_public_key).verify(b"m", forged)


# --------------------------------------------------------------------------
# Serialization round trips
# --------------------------------------------------------------------------


def test_dataclasses_round_trip_through_bytes_and_json(two_of_three: Any) -> None:
    # Given key material, nonces, commitments and a share
    packages, public = two_of_three
    nonces, commitments = _signing_session(packages, [1, 2])
    share = frost.sign(packages[1], nonces[1], b"m", commitments)
    # When serialized to bytes and to JSON and back / Then the values are equal
    kp = packages[1]
    assert KeyPackage.from_bytes(kp.to_bytes()) == kp
    assert KeyPackage.from_dict(json.loads(json.dumps(kp.to_dict()))) == kp
    assert PublicKeyPackage.from_dict(json.loads(json.dumps(public.to_dict()))) == public
    assert SigningNonces.from_bytes(nonces[1].to_bytes()) == nonces[1]
    assert SigningNonces.from_dict(json.loads(json.dumps(nonces[1].to_dict()))) == nonces[1]
    for c in commitments:
        assert SigningCommitments.from_bytes(c.to_bytes()) == c
        assert SigningCommitments.from_dict(json.loads(json.dumps(c.to_dict()))) == c
    assert SignatureShare.from_bytes(share.to_bytes()) == share
    assert SignatureShare.from_dict(json.loads(json.dumps(share.to_dict()))) == share
    # And the serialized commitment list is exactly the hashed encoding
    assert b"".join(c.to_bytes() for c in commitments) == frost.encode_group_commitment_list(commitments)


# --------------------------------------------------------------------------
# Random threshold signing
# --------------------------------------------------------------------------


@pytest.mark.parametrize("min_signers, max_signers", [(2, 3), (3, 5)])
def test_random_threshold_signing_verifies_with_pynacl(min_signers: int, max_signers: int) -> None:
    # Given a random t-of-n dealer key
    packages, public = frost.trusted_dealer_key_packages(max_signers, min_signers)
    rng = random.Random(os.urandom(8))
    subsets = [
        list(s)
        for k in range(min_signers, max_signers + 1)
        for s in itertools.combinations(range(1, max_signers + 1), k)
    ]
    for signers in subsets:
        msg = os.urandom(rng.randint(0, 200))
        # When any subset of at least t participants runs both rounds, passing
        # nonces/commitments/shares through their serialized forms as separate processes would
        nonces, commitments = _signing_session(packages, signers)
        commitments = [SigningCommitments.from_bytes(c.to_bytes()) for c in commitments]
        shares = [
            SignatureShare.from_bytes(
                frost.sign(packages[i], SigningNonces.from_bytes(nonces[i].to_bytes()), msg, commitments,
                           min_signers=min_signers).to_bytes()
            )
            for i in signers
        ]
        sig = frost.aggregate(commitments, msg, shares, public)
        # Then the signature verifies as a plain Ed25519 signature
        VerifyKey(public.group_public_key).verify(msg, sig)
        assert frost.verify_signature(public.group_public_key, msg, sig)
        # And does not verify for another message
        assert not frost.verify_signature(public.group_public_key, msg + b"!", sig)


# --------------------------------------------------------------------------
# Unchanged behaviour: names, wire formats and messages the service relies on
# --------------------------------------------------------------------------

#: Every module-level name of threshold.frost before it became a binding of threshold.protocol.
_PUBLIC_NAMES = (
    "CONTEXT_STRING L SCALAR_SIZE ELEMENT_SIZE SIGNATURE_SIZE IDENTITY FrostError InvalidScalar InvalidElement "
    "InvalidIdentifier InvalidParameters InvalidCommitmentList InvalidSignatureShare InvalidSignature KeyPackage "
    "PublicKeyPackage SigningNonces SigningCommitments SignatureShare serialize_scalar deserialize_scalar "
    "serialize_element deserialize_element serialize_identifier deserialize_identifier scalar_from_int random_scalar "
    "scalar_add scalar_sub scalar_mul scalar_neg scalar_inv element_add element_sub scalar_mult scalar_base_mult H1 H2 "
    "H3 H4 H5 nonce_generate commit validate_commitment_list encode_group_commitment_list "
    "participants_from_commitment_list compute_binding_factor_inputs compute_binding_factors compute_group_commitment "
    "compute_challenge derive_interpolating_value sign verify_signature_share aggregate_unverified aggregate "
    "verify_signature polynomial_evaluate polynomial_interpolate_constant secret_share_shard secret_share_combine "
    "trusted_dealer_keygen trusted_dealer_key_packages vss_commit vss_verify derive_group_info "
    "verifying_share_from_commitments"
).split()


def test_every_public_name_is_still_exported() -> None:
    # Given the module's former public names / Then each is exported and listed in __all__
    for name in _PUBLIC_NAMES:
        assert hasattr(frost, name), name
        assert name in frost.__all__, name
    assert (frost.L, frost.SCALAR_SIZE, frost.ELEMENT_SIZE, frost.SIGNATURE_SIZE) == (L, 32, 32, 64)
    assert (KeyPackage.SERIALIZED_SIZE, SigningCommitments.SERIALIZED_SIZE) == (128, 96)
    assert (SigningNonces.SERIALIZED_SIZE, SignatureShare.SERIALIZED_SIZE) == (64, 64)


def test_stored_forms_are_byte_for_byte_the_documented_ones(vec: dict[str, Any], dealt: dict[str, Any],
                                                            round_one: dict[str, Any]) -> None:
    # Given participant 1's key package and round-one output of the vectors
    kp, out = dealt["key_packages"][1], vec["round_one_outputs"]["outputs"][0]
    share_hex = vec["inputs"]["participant_shares"][0]["participant_share"]
    verifying_hex = frost.scalar_base_mult(h(share_hex)).hex()
    # Then the JSON stored in PostgreSQL and on the co-signer's disk is exactly this
    assert kp.to_dict() == {"identifier": 1, "signing_share": share_hex, "verifying_share": verifying_hex,
                            "group_public_key": vec["inputs"]["group_public_key"]}
    assert kp.to_bytes().hex() == "01" + "00" * 31 + share_hex + verifying_hex + vec["inputs"]["group_public_key"]
    assert dealt["public"].to_dict()["verifying_shares"]["1"] == verifying_hex
    assert round_one["nonces"][1].to_dict() == {"hiding": out["hiding_nonce"], "binding": out["binding_nonce"]}
    assert round_one["commitments"][0].to_bytes().hex() == (
        "01" + "00" * 31 + out["hiding_nonce_commitment"] + out["binding_nonce_commitment"]
    )
    sig_share = vec["round_two_outputs"]["outputs"][0]["sig_share"]
    assert SignatureShare(1, h(sig_share)).to_dict() == {"identifier": 1, "share": sig_share}


def test_error_messages_are_unchanged(two_of_three: Any) -> None:
    # Given the messages the API surfaces (details.reason) / Then their wording is as before
    with pytest.raises(InvalidScalar, match=r"^scalar is not canonical \(not less than the group order L\)$"):
        frost.deserialize_scalar(L.to_bytes(32, "little"))
    with pytest.raises(InvalidIdentifier, match=r"^identifier must be in \[1, L\), got 0$"):
        frost.serialize_identifier(0)
    with pytest.raises(InvalidElement, match="is not a valid prime-order group element"):
        frost.deserialize_element(IDENTITY, what="hiding")
    packages, public = two_of_three
    nonces, commitments = _signing_session(packages, [1, 2])
    shares = [frost.sign(packages[i], nonces[i], b"m", commitments) for i in (1, 2)]
    with pytest.raises(InvalidSignatureShare, match=r"^participant 2: signature share failed verification$"):
        frost.aggregate(commitments, b"m", [shares[0], SignatureShare(2, shares[0].share)], public)
