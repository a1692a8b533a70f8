"""The Pedersen DKG in both groups: same rounds, same wire format, same cheater detection.

Each test runs for threshold.dkg (Ed25519) and threshold.dkg_secp256k1, with the participants
as separate processes (messages and secret state through JSON; round-2 packages through
threshold.transport). Each test reads Given / When / Then.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import os
from dataclasses import dataclass
from typing import Any

import pytest
from nacl.public import PrivateKey

from tests.threshold.helpers import run_dkg, threshold_sign, wire
from threshold import dkg, dkg_secp256k1, frost, frost_secp256k1, pedersen, transport
from threshold.pedersen import (
    DkgCheatingParticipant,
    InvalidProofOfKnowledge,
    PedersenDkg,
    Round1Package,
    Round2Package,
)
from threshold.protocol import Frost
from threshold.secp256k1 import hash_to_field


@dataclass(frozen=True)
class Suite:
    dkg: PedersenDkg
    frost: Frost

    @property
    def group(self) -> Any:
        return self.frost.group


@pytest.fixture(
    params=[Suite(dkg.DKG, frost.FROST), Suite(dkg_secp256k1.DKG, frost_secp256k1.FROST)],
    ids=["ed25519", "secp256k1"],
)
def suite(request: pytest.FixtureRequest) -> Suite:
    return request.param


def _plus_one(suite: Suite, scalar: bytes) -> bytes:
    return suite.group.scalar_add(scalar, suite.group.scalar_from_int(1))


def _random_element(suite: Suite) -> bytes:
    return suite.group.scalar_base_mult(suite.group.random_scalar())


# --------------------------------------------------------------------------
# Happy path
# --------------------------------------------------------------------------


def test_every_participant_derives_the_same_key_and_any_two_sign(suite: Suite) -> None:
    # Given a 2-of-3 DKG run by three independent participants
    key_packages, publics = run_dkg(suite.dkg, 2, 3)
    public = publics[1]
    # Then all derived the same public package, consistent with their shares
    assert publics[2] == public and publics[3] == public
    for i, kp in key_packages.items():
        assert kp.verifying_share == public.verifying_shares[i] == suite.group.scalar_base_mult(kp.signing_share)
    # And any two (or all three) produce a signature that verifies under the group key
    for signers in ([1, 2], [1, 3], [2, 3], [1, 2, 3]):
        msg = os.urandom(40)
        assert suite.frost.verify_signature(public.group_public_key, msg,
                                            threshold_sign(suite.frost, key_packages, public, signers, msg))
    # And no one ever held the secret, though two shares interpolate to it
    for a, b in itertools.combinations(key_packages, 2):
        secret = suite.frost.secret_share_combine(
            [(a, key_packages[a].signing_share), (b, key_packages[b].signing_share)])
        assert suite.group.scalar_base_mult(secret) == public.group_public_key


def test_messages_carry_the_same_fields_in_both_groups(suite: Suite) -> None:
    # Given a participant's round-1 and round-2 messages / Then their JSON has the documented fields
    secret, package = suite.dkg.round1(1, 2, 3, "ctx")
    _, other = suite.dkg.round1(2, 2, 3, "ctx")
    _, third = suite.dkg.round1(3, 2, 3, "ctx")
    state, outgoing = suite.dkg.round2(secret, [other, third])
    assert set(package.to_dict()) == {"sender", "commitments", "proof_r", "proof_mu"}
    assert set(outgoing[2].to_dict()) == {"sender", "recipient", "signing_share"}
    assert len(bytes.fromhex(package.to_dict()["commitments"][0])) == suite.group.element_size
    assert wire(package) == package and wire(secret) == secret and wire(state) == state


def test_proof_of_knowledge_hashes_the_documented_bytes(suite: Suite) -> None:
    # Given a commitment, a proof nonce point and a session context
    c0, r, context = _random_element(suite), _random_element(suite), b"vault:abc"
    challenge = suite.dkg.proof_of_knowledge_challenge(2, context, c0, r)
    # Then the challenge is the suite's hash-to-scalar of the length-prefixed input
    g = suite.group
    message = len(context).to_bytes(8, "big") + context + g.serialize_identifier(2) + c0 + r
    ctx = suite.frost.suite.context_string
    if suite.frost is frost.FROST:  # SHA-512 reduced mod L, as before this module was generic
        expected = int.from_bytes(hashlib.sha512(ctx + b"dkg-pok" + message).digest(), "little") % g.order
    else:  # RFC 9380 hash_to_field, DST "FROST-secp256k1-SHA256-v1dkg-pok"
        expected = hash_to_field(message, ctx + b"dkg-pok")
    assert g.scalar_to_int(challenge) == expected


# --------------------------------------------------------------------------
# Cheaters are caught and named
# --------------------------------------------------------------------------


def test_bad_proof_of_knowledge_is_named(suite: Suite) -> None:
    # Given participant 2 broadcasts a proof with a wrong response
    def corrupt(b: dict[int, Round1Package]) -> dict[int, Round1Package]:
        return {**b, 2: dataclasses.replace(b[2], proof_mu=_plus_one(suite, b[2].proof_mu))}

    # When the others run round 2 / Then participant 2 is named
    with pytest.raises(InvalidProofOfKnowledge) as exc_info:
        run_dkg(suite.dkg, 2, 3, tamper_round1=corrupt)
    assert exc_info.value.participant == 2


def test_rogue_key_without_a_fresh_proof_is_named(suite: Suite) -> None:
    # Given participant 3 replaces its constant-term commitment but keeps its proof
    def rogue(b: dict[int, Round1Package]) -> dict[int, Round1Package]:
        return {**b, 3: dataclasses.replace(b[3], commitments=(_random_element(suite),) + b[3].commitments[1:])}

    with pytest.raises(InvalidProofOfKnowledge) as exc_info:
        run_dkg(suite.dkg, 2, 3, tamper_round1=rogue)
    assert exc_info.value.participant == 3


def test_wrong_number_of_commitments_is_named(suite: Suite) -> None:
    # Given participant 2 publishes a degree-2 polynomial commitment in a 2-of-3 DKG
    def extra(b: dict[int, Round1Package]) -> dict[int, Round1Package]:
        return {**b, 2: dataclasses.replace(b[2], commitments=b[2].commitments + (_random_element(suite),))}

    # When the others verify its broadcast / Then participant 2 is named
    with pytest.raises(DkgCheatingParticipant) as exc_info:
        run_dkg(suite.dkg, 2, 3, tamper_round1=extra)
    assert exc_info.value.participant == 2
    # And the coordinator's public derivation names it as well
    _, packages = zip(*(suite.dkg.round1(i, 2, 3, "ctx") for i in (1, 2, 3)))
    commitments = {p.sender: p.commitments for p in packages} | {2: packages[1].commitments + (_random_element(suite),)}
    with pytest.raises(DkgCheatingParticipant) as coordinator:
        suite.dkg.public_key_package_from_commitments(commitments, 2)
    assert coordinator.value.participant == 2


def test_share_inconsistent_with_its_commitments_is_named(suite: Suite) -> None:
    # Given participant 3 sends participant 1 a share off its committed polynomial
    def corrupt(out: dict[int, dict[int, Round2Package]]) -> dict[int, dict[int, Round2Package]]:
        bad = dataclasses.replace(out[3][1], signing_share=_plus_one(suite, out[3][1].signing_share))
        return {**out, 3: {**out[3], 1: bad}}

    # When participant 1 finalizes / Then participant 3 is named
    with pytest.raises(pedersen.InvalidSecretShare) as exc_info:
        run_dkg(suite.dkg, 2, 3, tamper_round2=corrupt)
    assert exc_info.value.participant == 3


def test_round1_package_under_another_sender_is_named(suite: Suite) -> None:
    # Given participant 3's genuine broadcast relabelled as participant 2's
    def relabel(b: dict[int, Round1Package]) -> dict[int, Round1Package]:
        return {**b, 2: dataclasses.replace(b[3], sender=2)}

    # When verified / Then the proof (which binds the sender's identifier) fails for participant 2
    with pytest.raises(InvalidProofOfKnowledge) as exc_info:
        run_dkg(suite.dkg, 2, 3, tamper_round1=relabel)
    assert exc_info.value.participant == 2


def test_round2_package_claiming_another_sender_is_named(suite: Suite) -> None:
    # Given participant 3 seals, for participant 1, a share it labels as coming from participant 2
    keys = {i: PrivateKey.generate() for i in (1, 3)}
    forged = suite.dkg.Round2Package(2, 1, suite.group.random_scalar())
    ciphertext = transport.seal_round2_package(forged, own=keys[3], recipient_transport_key=bytes(keys[1].public_key))
    # When participant 1 opens what arrived from participant 3 / Then participant 3 is named
    with pytest.raises(DkgCheatingParticipant) as exc_info:
        transport.open_round2_package(own=keys[1], recipient=1, sender=3, sender_transport_key=bytes(keys[3].public_key),
                                      ciphertext_b64=ciphertext, package_type=suite.dkg.Round2Package)
    assert exc_info.value.participant == 3


def test_round2_package_for_another_recipient_is_refused(suite: Suite) -> None:
    # Given participant 1's round-2 state and, among its inbox, participant 2's package for participant 3
    secrets = {i: suite.dkg.round1(i, 2, 3, "ctx") for i in (1, 2, 3)}
    states = {i: suite.dkg.round2(secrets[i][0], [secrets[j][1] for j in (1, 2, 3) if j != i]) for i in (1, 2, 3)}
    misrouted = [states[2][1][3], states[3][1][2]]
    # When participant 1 finalizes with it / Then it is refused as misrouted
    with pytest.raises(pedersen.DkgError, match="from participant 2 is addressed to 3, not 1"):
        suite.dkg.finalize(states[1][0], misrouted)


def test_equivocation_is_named(suite: Suite) -> None:
    # Given participant 2 broadcast two different round-1 packages
    s1, _ = suite.dkg.round1(1, 2, 3, "ctx")
    _, p2 = suite.dkg.round1(2, 2, 3, "ctx")
    _, p2_again = suite.dkg.round1(2, 2, 3, "ctx")
    _, p3 = suite.dkg.round1(3, 2, 3, "ctx")
    # When participant 1 receives both / Then participant 2 is named
    with pytest.raises(DkgCheatingParticipant) as exc_info:
        suite.dkg.round2(s1, [p2, p2_again, p3])
    assert exc_info.value.participant == 2


def test_proof_from_another_session_is_named(suite: Suite) -> None:
    # Given participant 1's round-1 package of a session with another context
    _, replayed = suite.dkg.round1(1, 2, 3, "vault:other")
    secret2, _ = suite.dkg.round1(2, 2, 3, "vault:this")
    _, p3 = suite.dkg.round1(3, 2, 3, "vault:this")
    with pytest.raises(InvalidProofOfKnowledge) as exc_info:
        suite.dkg.round2(secret2, [replayed, p3])
    assert exc_info.value.participant == 1


def test_malformed_packages_name_their_sender(suite: Suite) -> None:
    # Given round-1 packages with an invalid point or scalar, and a round-2 share >= the order
    _, package = suite.dkg.round1(2, 2, 3, "ctx")
    g = suite.group
    not_a_point = package.to_dict()
    not_a_point["commitments"][0] = (b"\x00" * g.element_size).hex()
    scalar_too_big = {**package.to_dict(), "proof_mu": g.order.to_bytes(g.scalar_size, g.byteorder).hex()}
    bad_share = {"sender": 2, "recipient": 1, "signing_share": (g.order + 1).to_bytes(g.scalar_size, g.byteorder).hex()}
    # When they are parsed / Then participant 2 is named every time
    for parse, data in ((suite.dkg.Round1Package.from_dict, not_a_point),
                        (suite.dkg.Round1Package.from_dict, scalar_too_big),
                        (suite.dkg.Round2Package.from_dict, bad_share)):
        with pytest.raises(DkgCheatingParticipant) as exc_info:
            parse(data)
        assert exc_info.value.participant == 2


def test_packages_of_the_other_group_name_their_sender(suite: Suite) -> None:
    # Given a round-1 package of the other group's DKG
    other = dkg_secp256k1.DKG if suite.dkg is dkg.DKG else dkg.DKG
    _, foreign = other.round1(2, 2, 3, "ctx")
    # When parsed as this group's / Then participant 2 is named (its points do not decode here)
    with pytest.raises(DkgCheatingParticipant) as exc_info:
        suite.dkg.Round1Package.from_dict(foreign.to_dict())
    assert exc_info.value.participant == 2


def test_missing_packages_are_reported(suite: Suite) -> None:
    # Given participant 1 has heard nothing from participant 3 / Then participant 3 is reported missing
    s1, _ = suite.dkg.round1(1, 2, 3, "ctx")
    _, p2 = suite.dkg.round1(2, 2, 3, "ctx")
    with pytest.raises(pedersen.DkgMissingPackage) as exc_info:
        suite.dkg.round2(s1, [p2])
    assert exc_info.value.participant == 3
