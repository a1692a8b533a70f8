"""Tests for threshold.dkg: Pedersen DKG with proofs of knowledge (FROST paper, Figure 1).

Every test runs the participants as if they were separate processes: all
messages and the secret state kept between rounds go through JSON.
Each test reads Given / When / Then.
"""

from __future__ import annotations

import itertools
import json
import os
from typing import Any

import pytest
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from tests.threshold import helpers
from tests.threshold.helpers import wire
from threshold import dkg, frost
from threshold.dkg import (
    DkgError,
)
from threshold.frost import KeyPackage, PublicKeyPackage, SignatureShare


def run_dkg(min_signers: int, max_signers: int, context: str | bytes = "vault:test", **tamper: Any) -> Any:
    """The Ed25519 DKG run by independent participants (tests.threshold.helpers.run_dkg)."""
    return helpers.run_dkg(dkg.DKG, min_signers, max_signers, context, **tamper)


def threshold_sign(
    key_packages: dict[int, KeyPackage], public: PublicKeyPackage, signers: list[int], msg: bytes
) -> bytes:
    return helpers.threshold_sign(frost.FROST, key_packages, public, signers, msg)


# --------------------------------------------------------------------------
# Happy paths
# --------------------------------------------------------------------------


def test_2_of_3_dkg_then_any_two_sign_and_all_three_sign() -> None:
    # Given a 2-of-3 DKG run by three independent participants
    key_packages, publics = run_dkg(2, 3)
    # Then all participants derived the same public key package
    public = publics[1]
    assert publics[2] == public and publics[3] == public
    assert public.min_signers == 2 and sorted(public.verifying_shares) == [1, 2, 3]
    for i, kp in key_packages.items():
        assert kp.group_public_key == public.group_public_key
        assert kp.verifying_share == public.verifying_shares[i]
    # When any two participants, or all three, sign a message
    for signers in [[1, 2], [1, 3], [2, 3], [1, 2, 3]]:
        msg = os.urandom(48)
        sig = threshold_sign(key_packages, public, signers, msg)
        # Then the signature verifies as a plain Ed25519 signature under the group key
        VerifyKey(public.group_public_key).verify(msg, sig)


def test_3_of_5_dkg_signs_with_every_quorum() -> None:
    # Given a 3-of-5 DKG
    key_packages, publics = run_dkg(3, 5, context=b"vault:3of5")
    public = publics[1]
    assert all(p == public for p in publics.values())
    # When every subset of 3, some of 4 and all 5 sign
    quorums = [list(s) for s in itertools.combinations(range(1, 6), 3)] + [[1, 2, 4, 5], [1, 2, 3, 4, 5]]
    for signers in quorums:
        msg = os.urandom(32)
        # Then each signature verifies with PyNaCl
        VerifyKey(public.group_public_key).verify(msg, threshold_sign(key_packages, public, signers, msg))
    # And two participants are refused
    with pytest.raises(frost.InvalidCommitmentList):
        threshold_sign(key_packages, public, [1, 2], b"m")


def test_shares_interpolate_to_the_group_key_though_no_one_held_it() -> None:
    # Given a 2-of-3 DKG (no process ever computed the group secret)
    key_packages, publics = run_dkg(2, 3)
    # When (in this test only) two shares are recombined
    for a, b in itertools.combinations(key_packages, 2):
        secret = frost.secret_share_combine(
            [(a, key_packages[a].signing_share), (b, key_packages[b].signing_share)]
        )
        # Then they are consistent with the group public key
        assert frost.scalar_base_mult(secret) == publics[1].group_public_key


def test_single_participant_cannot_produce_a_valid_signature() -> None:
    # Given a 2-of-3 DKG key
    key_packages, publics = run_dkg(2, 3)
    public = publics[1]
    msg = b"send everything to mallory"
    # When participant 1 alone tries to sign through the API / Then it is refused
    with pytest.raises(frost.InvalidCommitmentList, match="threshold"):
        threshold_sign(key_packages, public, [1], msg)
    # When participant 1 bypasses every check and aggregates its lone share itself
    nonces, commitment = frost.commit(key_packages[1])
    share = frost.sign(key_packages[1], nonces, msg, [commitment])
    forged = frost.aggregate_unverified([commitment], msg, public.group_public_key, [share])
    # Then the result is not a valid signature under the group key
    assert not frost.verify_signature(public.group_public_key, msg, forged)
    with pytest.raises(BadSignatureError):
        VerifyKey(public.group_public_key).verify(msg, forged)


# --------------------------------------------------------------------------
# Cheating participants are caught and named: tests/threshold/test_dkg_suites.py runs those
# cases (bad proof, rogue key, replayed proof, inconsistent share, wrong number of commitments,
# wrong sender, malformed and missing packages) for this DKG and the secp256k1 one alike.
# --------------------------------------------------------------------------


def test_invalid_parameters_are_refused() -> None:
    # Given thresholds below 2, above n, or identifiers outside 1..n / Then round 1 refuses
    for args in [(1, 1, 3), (1, 4, 3), (0, 2, 3), (4, 2, 3)]:
        with pytest.raises(DkgError):
            dkg.round1(*args, "ctx")


# --------------------------------------------------------------------------
# Serialization
# --------------------------------------------------------------------------


def test_messages_and_states_round_trip_through_json() -> None:
    # Given every message and state of a 2-of-3 DKG
    ids = [1, 2, 3]
    r1 = {i: dkg.round1(i, 2, 3, "vault:json") for i in ids}
    r2 = {i: dkg.round2(r1[i][0], [r1[l][1] for l in ids if l != i]) for i in ids}
    # When each is converted to JSON text and back / Then it is unchanged
    for i in ids:
        secret1, pkg1 = r1[i]
        secret2, out = r2[i]
        assert wire(pkg1) == pkg1
        assert wire(secret1) == secret1
        assert wire(secret2) == secret2
        for p in out.values():
            assert wire(p) == p
    # And the public message carries only hex strings and integers
    text = json.dumps(r1[1][1].to_dict())
    assert set(json.loads(text)) == {"sender", "commitments", "proof_r", "proof_mu"}
    # And a full finalize from JSON-restored state works and agrees across participants
    results = {
        i: dkg.finalize(wire(r2[i][0]), [wire(r2[s][1][i]) for s in ids if s != i]) for i in ids
    }
    assert len({json.dumps(pub.to_dict(), sort_keys=True) for _, pub in results.values()}) == 1


def test_secret_state_is_not_in_repr() -> None:
    # Given round-1 and round-2 secret state / Then their reprs expose no secret scalar
    s1, p1 = dkg.round1(1, 2, 3, "ctx")
    _, p2 = dkg.round1(2, 2, 3, "ctx")
    _, p3 = dkg.round1(3, 2, 3, "ctx")
    s2, out = dkg.round2(s1, [p2, p3])
    for coeff in s1.coefficients:
        assert coeff.hex() not in repr(s1) and repr(coeff) not in repr(s1)
    assert repr(s2.own_share) not in repr(s2)
    assert repr(out[2].signing_share) not in repr(out[2])


def test_dkg_outputs_are_the_frost_types_used_for_signing() -> None:
    # Given a DKG key package / Then it is the very frost.KeyPackage type used for signing
    key_packages, publics = run_dkg(2, 3)
    assert isinstance(key_packages[1], frost.KeyPackage)
    assert isinstance(publics[1], frost.PublicKeyPackage)
    nonces, c = frost.commit(key_packages[1])
    assert isinstance(frost.sign(key_packages[1], nonces, b"m", [c]), SignatureShare)
