"""Tests for threshold.dkg: Pedersen DKG with proofs of knowledge (FROST paper, Figure 1).

Every test runs the participants as if they were separate processes: all
messages and the secret state kept between rounds go through JSON.
Each test reads Given / When / Then.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
from typing import Any, Callable

import pytest
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from threshold import dkg, frost
from threshold.dkg import (
    DkgCheatingParticipant,
    DkgError,
    DkgMissingPackage,
    InvalidProofOfKnowledge,
    InvalidSecretShare,
    Round1Package,
    Round1SecretPackage,
    Round2Package,
    Round2SecretPackage,
)
from threshold.frost import KeyPackage, PublicKeyPackage, SignatureShare, SigningCommitments, SigningNonces


def wire(obj: Any) -> Any:
    """Send a message (or store a state) as JSON and parse it back on the other side."""
    return type(obj).from_dict(json.loads(json.dumps(obj.to_dict())))


Round1Tamper = Callable[[dict[int, Round1Package]], dict[int, Round1Package]]
Round2Tamper = Callable[[dict[int, dict[int, Round2Package]]], dict[int, dict[int, Round2Package]]]


def run_dkg(
    min_signers: int,
    max_signers: int,
    context: str = "vault:test",
    *,
    tamper_round1: Round1Tamper | None = None,
    tamper_round2: Round2Tamper | None = None,
) -> tuple[dict[int, KeyPackage], dict[int, PublicKeyPackage]]:
    """Run all participants; each only ever sees its own secrets and received messages."""
    ids = range(1, max_signers + 1)

    # Round 1: each process samples its polynomial and broadcasts commitments + proof.
    r1_state: dict[int, dict[str, Any]] = {}
    broadcast: dict[int, Round1Package] = {}
    for i in ids:
        secret, pkg = dkg.round1(i, min_signers, max_signers, context)
        r1_state[i] = secret.to_dict()  # stored (encrypted, in production) between rounds
        broadcast[i] = wire(pkg)
    if tamper_round1:
        broadcast = tamper_round1(broadcast)

    # Round 2: each process verifies the others' proofs and sends private shares.
    r2_state: dict[int, dict[str, Any]] = {}
    outbox: dict[int, dict[int, Round2Package]] = {}
    for i in ids:
        secret = Round1SecretPackage.from_dict(r1_state[i])
        received = [wire(broadcast[l]) for l in ids if l != i]
        state, out = dkg.round2(secret, received)
        r2_state[i] = state.to_dict()
        outbox[i] = {recipient: wire(p) for recipient, p in out.items()}
    if tamper_round2:
        outbox = tamper_round2(outbox)

    # Finalize: each process verifies the shares it received.
    key_packages: dict[int, KeyPackage] = {}
    publics: dict[int, PublicKeyPackage] = {}
    for i in ids:
        state = Round2SecretPackage.from_dict(r2_state[i])
        inbox = [outbox[sender][i] for sender in ids if sender != i]
        kp, pub = dkg.finalize(state, inbox)
        key_packages[i] = wire(kp)
        publics[i] = wire(pub)
    return key_packages, publics


def threshold_sign(
    key_packages: dict[int, KeyPackage], public: PublicKeyPackage, signers: list[int], msg: bytes
) -> bytes:
    nonces: dict[int, SigningNonces] = {}
    commitments: list[SigningCommitments] = []
    for i in sorted(signers):
        n, c = frost.commit(key_packages[i])
        nonces[i] = n
        commitments.append(wire(c))
    shares = [wire(frost.sign(key_packages[i], nonces[i], msg, commitments, min_signers=public.min_signers)) for i in signers]
    return frost.aggregate(commitments, msg, shares, public)


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
# Cheating participants are caught and named
# --------------------------------------------------------------------------


def test_bad_proof_of_knowledge_is_caught_and_named() -> None:
    # Given participant 2 broadcasts a proof of knowledge with a wrong response
    def corrupt_mu(b: dict[int, Round1Package]) -> dict[int, Round1Package]:
        bad_mu = frost.scalar_add(b[2].proof_mu, frost.scalar_from_int(1))
        return {**b, 2: dataclasses.replace(b[2], proof_mu=bad_mu)}

    # When the others run round 2 / Then participant 2 is named as the cheater
    with pytest.raises(InvalidProofOfKnowledge) as exc_info:
        run_dkg(2, 3, tamper_round1=corrupt_mu)
    assert exc_info.value.participant == 2
    assert isinstance(exc_info.value, DkgCheatingParticipant)
    assert "participant 2" in str(exc_info.value)


def test_rogue_key_without_proof_is_caught() -> None:
    # Given participant 3 replaces its constant-term commitment (a rogue-key attempt)
    # but keeps its old proof
    def rogue(b: dict[int, Round1Package]) -> dict[int, Round1Package]:
        forged = (frost.scalar_base_mult(frost.random_scalar()),) + b[3].commitments[1:]
        return {**b, 3: dataclasses.replace(b[3], commitments=forged)}

    # Then the proof no longer verifies and participant 3 is named
    with pytest.raises(InvalidProofOfKnowledge) as exc_info:
        run_dkg(2, 3, tamper_round1=rogue)
    assert exc_info.value.participant == 3


def test_proof_from_another_session_is_rejected() -> None:
    # Given participant 1's round-1 package from a DKG session with another context
    _, replayed = dkg.round1(1, 2, 3, "vault:other")
    secret2, _ = dkg.round1(2, 2, 3, "vault:this")
    _, pkg3 = dkg.round1(3, 2, 3, "vault:this")
    # When participant 2 (in session "vault:this") verifies it / Then participant 1 is named
    with pytest.raises(InvalidProofOfKnowledge) as exc_info:
        dkg.round2(secret2, [replayed, pkg3])
    assert exc_info.value.participant == 1


def test_share_inconsistent_with_commitments_is_caught_and_named() -> None:
    # Given participant 3 sends participant 1 a share that does not match its commitments
    def corrupt_share(out: dict[int, dict[int, Round2Package]]) -> dict[int, dict[int, Round2Package]]:
        p = out[3][1]
        bad = dataclasses.replace(p, signing_share=frost.scalar_add(p.signing_share, frost.scalar_from_int(1)))
        return {**out, 3: {**out[3], 1: bad}}

    # When participant 1 finalizes / Then participant 3 is named
    with pytest.raises(InvalidSecretShare) as exc_info:
        run_dkg(2, 3, tamper_round2=corrupt_share)
    assert exc_info.value.participant == 3
    assert "participant 3" in str(exc_info.value)


def test_wrong_number_of_commitments_is_caught_and_named() -> None:
    # Given participant 2 publishes a degree-2 polynomial commitment in a 2-of-3 DKG
    def extra(b: dict[int, Round1Package]) -> dict[int, Round1Package]:
        more = b[2].commitments + (frost.scalar_base_mult(frost.random_scalar()),)
        return {**b, 2: dataclasses.replace(b[2], commitments=more)}

    # Then participant 2 is named
    with pytest.raises(DkgCheatingParticipant) as exc_info:
        run_dkg(2, 3, tamper_round1=extra)
    assert exc_info.value.participant == 2


def test_malformed_packages_name_their_sender() -> None:
    # Given JSON round-1 and round-2 packages from participant 2 with an invalid point / scalar
    _, pkg = dkg.round1(2, 2, 3, "ctx")
    bad1 = pkg.to_dict()
    bad1["commitments"][0] = frost.IDENTITY.hex()
    bad2 = {"sender": 2, "recipient": 1, "signing_share": (frost.L).to_bytes(32, "little").hex()}
    # When they are parsed / Then the sender is named
    with pytest.raises(DkgCheatingParticipant) as e1:
        Round1Package.from_dict(bad1)
    assert e1.value.participant == 2
    with pytest.raises(DkgCheatingParticipant) as e2:
        Round2Package.from_dict(bad2)
    assert e2.value.participant == 2


def test_missing_packages_are_reported() -> None:
    # Given participant 1 has received nothing from participant 3
    s1, _ = dkg.round1(1, 2, 3, "ctx")
    _, p2 = dkg.round1(2, 2, 3, "ctx")
    # When it runs round 2 / Then participant 3 is reported missing
    with pytest.raises(DkgMissingPackage) as exc_info:
        dkg.round2(s1, [p2])
    assert exc_info.value.participant == 3


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
