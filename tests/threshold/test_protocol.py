"""Tests for threshold.protocol, the one FROST implementation, through its three ciphersuites.

Covers what is generic: threshold signing with every quorum, cheater identification at every
position (the last share is verified through the aggregate signature), the fallback for key
packages whose verifying shares do not interpolate to the group key, and the binding of the
data classes to their group. Each test reads Given / When / Then.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
from typing import Any

import pytest

from tests.threshold.helpers import signing_session, threshold_sign, wire
from threshold import frost, frost_secp256k1, protocol
from threshold.ed25519 import ED25519
from threshold.errors import InvalidElement, InvalidParameters, InvalidSignature, InvalidSignatureShare
from threshold.protocol import Frost
from threshold.secp256k1 import SECP256K1
from threshold.taproot import TAPROOT

ENGINES = [frost.FROST, frost_secp256k1.FROST, TAPROOT]
ENGINE_IDS = ["ed25519", "secp256k1", "taproot"]


@pytest.fixture(params=ENGINES, ids=ENGINE_IDS)
def engine(request: pytest.FixtureRequest) -> Frost:
    return request.param


def _bump(engine: Frost, share: Any) -> Any:
    return engine.SignatureShare(share.identifier, engine.group.scalar_add(share.share, engine.group.scalar_from_int(1)))


@pytest.mark.parametrize("min_signers, max_signers", [(2, 3), (3, 5)])
def test_every_quorum_signs_and_the_signature_verifies(engine: Frost, min_signers: int, max_signers: int) -> None:
    # Given a random t-of-n dealer key
    packages, public = engine.trusted_dealer_key_packages(max_signers, min_signers)
    for k in range(min_signers, max_signers + 1):
        for signers in itertools.combinations(range(1, max_signers + 1), k):
            msg = os.urandom(32)
            # When the quorum signs (messages through JSON)
            sig = threshold_sign(engine, packages, public, list(signers), msg)
            # Then the signature verifies under the group key, for this message only
            assert engine.verify_signature(public.group_public_key, msg, sig)
            assert not engine.verify_signature(public.group_public_key, msg + b"!", sig)


@pytest.mark.parametrize("signers", [[1, 2], [1, 3], [2, 3], [1, 2, 3]])
def test_a_tampered_share_is_named_at_every_position(engine: Frost, signers: list[int]) -> None:
    # Given honest shares of a session
    packages, public = engine.trusted_dealer_key_packages(3, 2)
    msg = os.urandom(32)
    nonces, commitments = signing_session(engine, packages, signers)
    shares = [engine.sign(packages[i], nonces[i], msg, commitments) for i in signers]
    assert engine.verify_signature(public.group_public_key, msg, engine.aggregate(commitments, msg, shares, public))
    for cheater in signers:
        # When one of them, first, middle or last, is altered
        tampered = [_bump(engine, s) if s.identifier == cheater else s for s in shares]
        # Then aggregation names exactly that participant
        with pytest.raises(InvalidSignatureShare) as exc_info:
            engine.aggregate(commitments, msg, tampered, public)
        assert exc_info.value.participant == cheater


def test_the_first_offender_in_identifier_order_is_named(engine: Frost) -> None:
    # Given two bad shares, or a bad share before a missing one
    packages, public = engine.trusted_dealer_key_packages(3, 2)
    nonces, commitments = signing_session(engine, packages, [1, 2, 3])
    shares = [engine.sign(packages[i], nonces[i], b"m", commitments) for i in (1, 2, 3)]
    # Then the lowest identifier at fault is named, as when every share was checked one by one
    with pytest.raises(InvalidSignatureShare) as two_bad:
        engine.aggregate(commitments, b"m", [shares[0], _bump(engine, shares[1]), _bump(engine, shares[2])], public)
    assert two_bad.value.participant == 2
    with pytest.raises(InvalidSignatureShare) as bad_then_missing:
        engine.aggregate(commitments, b"m", [_bump(engine, shares[0]), shares[1]], public)
    assert bad_then_missing.value.participant == 1


def test_verifying_shares_that_do_not_interpolate_fall_back_to_checking_every_share(engine: Frost) -> None:
    # Given a key package whose verifying shares of participants 2 and 3 were swapped
    packages, public = engine.trusted_dealer_key_packages(3, 2)
    swapped = engine.PublicKeyPackage(
        public.group_public_key,
        {1: public.verifying_shares[1], 2: public.verifying_shares[3], 3: public.verifying_shares[2]},
        2,
    )
    for signers, wrong in (([1, 2], 2), ([1, 3], 3), ([2, 3], 2)):
        nonces, commitments = signing_session(engine, packages, signers)
        shares = [engine.sign(packages[i], nonces[i], b"m", commitments) for i in signers]
        # When honest shares are aggregated with it / Then the share checked against a wrong
        # verifying share is named, the last one included
        with pytest.raises(InvalidSignatureShare) as exc_info:
            engine.aggregate(commitments, b"m", shares, swapped)
        assert exc_info.value.participant == wrong


def test_shares_valid_for_an_inconsistent_group_key_do_not_make_a_signature(engine: Frost) -> None:
    # Given key packages whose shares match their verifying shares but name another group key
    packages, public = engine.trusted_dealer_key_packages(3, 2)
    other_key = engine.trusted_dealer_key_packages(3, 2)[1].group_public_key
    forged = {i: engine.KeyPackage(i, kp.signing_share, kp.verifying_share, other_key) for i, kp in packages.items()}
    forged_public = engine.PublicKeyPackage(other_key, public.verifying_shares, 2)
    nonces, commitments = signing_session(engine, forged, [1, 2])
    shares = [engine.sign(forged[i], nonces[i], b"m", commitments) for i in (1, 2)]
    # When aggregated / Then every share checks out alone, but no signature is released
    for share in shares:
        assert engine.verify_signature_share(share, public.verifying_shares[share.identifier], commitments,
                                             other_key, b"m")
    with pytest.raises(InvalidSignature):
        engine.aggregate(commitments, b"m", shares, forged_public)


def test_a_verifying_share_changed_after_validation_is_caught(engine: Frost) -> None:
    # Given a validated public key package whose dict is then changed in place
    packages, public = engine.trusted_dealer_key_packages(3, 2)
    nonces, commitments = signing_session(engine, packages, [1, 2])
    shares = [engine.sign(packages[i], nonces[i], b"m", commitments) for i in (1, 2)]
    public.verifying_shares[2] = b"\x05" * engine.group.element_size  # type: ignore[index]
    # When aggregated / Then the encoding is validated again and refused
    with pytest.raises(InvalidElement):
        engine.aggregate(commitments, b"m", shares, public)


def test_commitments_of_nonces_are_computed_once_and_right(engine: Frost) -> None:
    # Given fresh nonces and the same nonces restored from their bytes (another process)
    packages, _ = engine.trusted_dealer_key_packages(3, 2)
    nonces, commitments = engine.commit(packages[1])
    restored = engine.SigningNonces.from_bytes(nonces.to_bytes())
    # Then both give [d]B, [e]B, and the commitments are valid received values too
    g = engine.group
    expected = (g.scalar_base_mult(nonces.hiding), g.scalar_base_mult(nonces.binding))
    assert nonces.commitment_elements() == restored.commitment_elements() == expected
    assert (commitments.hiding, commitments.binding) == expected
    assert wire(commitments) == commitments == restored.commitments(1)


def test_interpolating_values_are_memoized_but_still_validated(engine: Frost) -> None:
    # Given participants {1, 3} / Then lambda_1 = 3 / (3 - 1), however often it is asked for
    g = engine.group
    for _ in range(2):
        assert g.scalar_mul(engine.derive_interpolating_value([1, 3], 1), g.scalar_from_int(2)) == g.scalar_from_int(3)
    # And a participant outside the set, or duplicates, are still refused
    with pytest.raises(InvalidParameters):
        engine.derive_interpolating_value([1, 3], 2)
    with pytest.raises(InvalidParameters):
        engine.derive_interpolating_value([1, 1, 3], 1)


# --------------------------------------------------------------------------
# Data classes bound to groups
# --------------------------------------------------------------------------


def test_generic_data_classes_cannot_be_instantiated() -> None:
    # Given the generic classes of threshold.protocol / When instantiated directly / Then refused
    with pytest.raises(TypeError, match="generic"):
        protocol.SignatureShare(1, bytes(32))


def test_one_class_per_group_however_it_is_reached() -> None:
    # Given the Ed25519 classes declared in threshold.frost and the secp256k1 ones bound on demand
    # Then bound_to finds the same class, the engines use it, and groups never share one
    assert protocol.KeyPackage.bound_to(ED25519) is frost.KeyPackage is frost.FROST.KeyPackage
    assert protocol.KeyPackage.bound_to(SECP256K1) is frost_secp256k1.KeyPackage is TAPROOT.KeyPackage
    assert frost.KeyPackage is not frost_secp256k1.KeyPackage
    assert frost_secp256k1.KeyPackage.__module__ == "threshold.frost_secp256k1"
    # And a second binding, or binding a bound class, is refused
    with pytest.raises(TypeError, match="already bound"):
        type("KeyPackage", (protocol.KeyPackage,), {}, group=ED25519)
    with pytest.raises(TypeError, match="already bound"):
        frost.KeyPackage.bound_to(SECP256K1)


def test_values_compare_by_group() -> None:
    # Given the same field values in both groups' share classes / Then they are different values
    share = bytes(31) + b"\x01"
    assert frost.SignatureShare(1, share) != frost_secp256k1.SignatureShare(1, share)
    assert dataclasses.astuple(frost.SignatureShare(1, share)) == dataclasses.astuple(frost_secp256k1.SignatureShare(1, share))
