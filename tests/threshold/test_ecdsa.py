"""Tests for threshold.ecdsa: 2-of-3 threshold ECDSA (cait-sith) behind the scheme interface.

Every signature is checked by libsecp256k1 (coincurve's ECDSA recovery) and by eth-account's
``recover_message``-level primitive (``Account._recover_hash``), as Ethereum would check it. The
danger of a reused presignature is demonstrated with the library's own outputs: two signatures
from one presignature give the private key. Each test reads Given / When / Then.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from coincurve import PrivateKey
from eth_account import Account
from eth_keys import keys as eth_keys

from tests.threshold.helpers import run_dkg
from threshold import dkg_secp256k1, ecdsa
from threshold.ecdsa import KeyShare, MaterialReused, Presignature, ProtocolAborted, Triple
from threshold.errors import FrostError, InvalidParameters
from threshold.scheme import ECDSA_SCHEME, SCHEMES
from threshold.secp256k1 import N

PAIRS = [(1, 2), (1, 3), (2, 3)]


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def eth_address(public_key: bytes) -> str:
    return eth_keys.PublicKey.from_compressed_bytes(public_key).to_checksum_address()


def triples(pair: tuple[int, int]) -> dict[int, Triple]:
    return ecdsa.run_locally([ecdsa.triple(n, pair) for n in pair])


def presignatures(shares: dict[int, KeyShare], pair: tuple[int, int] = (1, 2)) -> dict[int, Presignature]:
    first, second = triples(pair), triples(pair)
    return ecdsa.run_locally([ecdsa.presign(n, pair, shares[n], first[n], second[n]) for n in pair])


def sign(shares: dict[int, KeyShare], presigned: dict[int, Presignature], message: bytes,
         pair: tuple[int, int] = (1, 2)) -> ecdsa.Signature:
    results = ecdsa.run_locally([ecdsa.sign(n, pair, shares[n], presigned[n], message) for n in pair])
    assert results[pair[0]] == results[pair[1]]
    return results[pair[0]]


@pytest.fixture(scope="module")
def shares() -> dict[int, KeyShare]:
    return ecdsa.run_locally([ecdsa.keygen(n) for n in (1, 2, 3)])


def test_the_scheme_is_named_beside_the_frost_ones() -> None:
    assert ECDSA_SCHEME == ecdsa.SCHEME == "ECDSA-secp256k1-cait-sith-v1"
    assert ECDSA_SCHEME in SCHEMES and len(ECDSA_SCHEME) <= 40  # key_sets.scheme is 40 characters


@pytest.mark.parametrize("pair", PAIRS, ids=["signers-1-2", "signer-1-cosigner", "signer-2-cosigner"])
def test_every_pair_signs_for_the_group_key(shares: dict[int, KeyShare], pair: tuple[int, int]) -> None:
    # Given the three shares of one key generation (participants 1, 2 and the co-signer 3)
    public_key = shares[1].public_key
    assert {s.public_key for s in shares.values()} == {public_key}
    assert len({s.share for s in shares.values()}) == 3
    # When the pair makes triples, a presignature and signs an Ethereum-style digest
    message = digest(f"pay from {pair}")
    signature = sign(shares, presignatures(shares, pair), message, pair)
    # Then libsecp256k1 and Ethereum's ecrecover both recover the group key's address
    assert ecdsa.verify(public_key, message, signature.to_bytes())
    assert 0 < signature.s <= N // 2  # low s (EIP-2)
    v = ecdsa.recovery_id(public_key, message, signature.to_bytes())
    assert v in (0, 1)
    recovered = Account._recover_hash(message, vrs=(v + 27, signature.r, signature.s))
    assert recovered == eth_address(public_key)
    # And a different digest or key does not verify
    assert not ecdsa.verify(public_key, digest("other"), signature.to_bytes())
    assert not ecdsa.verify(PrivateKey().public_key.format(), message, signature.to_bytes())


def test_both_recovery_ids_occur_and_are_found_by_recovery(shares: dict[int, KeyShare]) -> None:
    # Given signatures over several digests (s is normalized low without adjusting R, so R's
    # parity does not give the recovery id)
    found = set()
    for i in range(3):
        message = digest(f"message {i}")
        signature = sign(shares, presignatures(shares), message)
        v = ecdsa.recovery_id(shares[1].public_key, message, signature.to_bytes())
        # Then recovery finds the id that gives the group key, whatever R's parity
        assert v is not None
        found.add((v, signature.big_r[0] == 3))
    assert len({v for v, _ in found}) >= 1


def test_shares_of_the_services_pedersen_dkg_sign_with_this_scheme() -> None:
    # Given key packages of threshold.dkg_secp256k1 (the DKG the service runs with the co-signer)
    packages, publics = run_dkg(dkg_secp256k1.DKG, 2, 3, b"vault:ecdsa")
    shares = {n: KeyShare.from_key_package(p) for n, p in packages.items()}
    # When signers 1 and 2 presign and sign with them
    message = digest("dkg shares")
    signature = sign(shares, presignatures(shares), message)
    # Then the signature is valid for the DKG's group key: participant n's share is f(n) in both
    assert ecdsa.verify(publics[1].group_public_key, message, signature.to_bytes())


def test_shares_triples_and_presignatures_survive_json_and_sign_after_a_reload(shares: dict[int, KeyShare]) -> None:
    # Given everything a signer stores (sealed, in the service), written as JSON and read back
    first, second = triples((1, 2)), triples((1, 2))
    reloaded = {n: KeyShare.from_dict(json.loads(json.dumps(s.to_dict()))) for n, s in shares.items()}
    assert reloaded == shares
    first = {n: Triple.from_dict(json.loads(json.dumps(t.to_dict()))) for n, t in first.items()}
    assert first[1].public == first[2].public  # one triple's commitments, seen by both
    presigned = ecdsa.run_locally([ecdsa.presign(n, (1, 2), reloaded[n], first[n], second[n]) for n in (1, 2)])
    presigned = {n: Presignature.from_dict(json.loads(json.dumps(p.to_dict()))) for n, p in presigned.items()}
    # When they sign after the reload
    message = digest("after a reload")
    signature = sign(reloaded, presigned, message)
    # Then the signature is valid
    assert ecdsa.verify(shares[1].public_key, message, signature.to_bytes())
    # And the secrets stay out of repr
    assert reloaded[1].share.hex() not in repr(reloaded[1])
    assert presigned[1].k.hex() not in repr(presigned[1])


def test_a_presignature_is_consumed_by_its_first_signature(shares: dict[int, KeyShare]) -> None:
    # Given a presignature that signed once
    presigned = presignatures(shares)
    sign(shares, presigned, digest("first"))
    # When it is offered again, for another digest or the same one
    for message in (digest("second"), digest("first")):
        with pytest.raises(MaterialReused, match="reveal the private key"):
            ecdsa.sign(1, (1, 2), shares[1], presigned[1], message)
    # Then it is refused before any protocol message exists, and it is never written out again
    assert presigned[1].spent and presigned[2].spent
    with pytest.raises(MaterialReused):
        presigned[1].to_dict()


def test_a_triple_is_consumed_by_its_presignature(shares: dict[int, KeyShare]) -> None:
    # Given two triples that made a presignature
    first, second = triples((1, 2)), triples((1, 2))
    ecdsa.run_locally([ecdsa.presign(n, (1, 2), shares[n], first[n], second[n]) for n in (1, 2)])
    third = triples((1, 2))
    # When one of them is offered for another presignature, or one triple twice
    with pytest.raises(MaterialReused):
        ecdsa.presign(1, (1, 2), shares[1], first[1], third[1])
    with pytest.raises(MaterialReused):
        ecdsa.presign(1, (1, 2), shares[1], third[1], third[1])
    # Then both are refused; the unused triple is still whole
    assert not third[1].spent
    with pytest.raises(MaterialReused):
        first[1].to_dict()


def test_a_presignature_used_twice_reveals_the_private_key(shares: dict[int, KeyShare]) -> None:
    """The danger on record: what the single-use rule (here and in the database) prevents."""
    # Given one presignature stored by each signer, and a copy of what was stored (what a store
    # without the single-use rule, a retry after a crash, or a restored backup would hand out)
    presigned = presignatures(shares)
    stored = {n: p.to_dict() for n, p in presigned.items()}
    message_1, message_2 = digest("pay Alice 1 ETH"), digest("pay Bob 1 ETH")
    # When it signs two different digests, once from memory and once from the stored copy
    first = sign(shares, presigned, message_1)
    second = sign(shares, {n: Presignature.from_dict(d) for n, d in stored.items()}, message_2)
    # Then both signatures share r, and anyone who sees them computes the private key:
    # s = k (z + r x), so s1 - s2 = k (z1 - z2) (up to the sign s was normalized with)
    assert first.r == second.r
    z1, z2, r = int.from_bytes(message_1, "big"), int.from_bytes(message_2, "big"), first.r
    leaked = None
    for s1 in (first.s, N - first.s):
        for s2 in (second.s, N - second.s):
            k = (s1 - s2) * pow(z1 - z2, -1, N) % N
            x = (s1 * pow(k, -1, N) - z1) * pow(r, -1, N) % N
            if x and PrivateKey(x.to_bytes(32, "big")).public_key.format() == shares[1].public_key:
                leaked = x
    assert leaked is not None, "two signatures from one presignature give the private key"


def test_library_panics_become_clear_errors(shares: dict[int, KeyShare]) -> None:
    # Given a signing run whose peer's signature share arrives corrupted
    presigned = presignatures(shares)
    party = ecdsa.sign(1, (1, 2), shares[1], presigned[1], digest("garbage"))
    peer = ecdsa.sign(2, (1, 2), shares[2], presigned[2], digest("garbage"))
    party.outgoing()
    (share,) = peer.outgoing()
    # When it is processed, the library panics (pyo3's PanicException, a BaseException)
    with pytest.raises(ProtocolAborted) as caught:
        party.receive(ecdsa.Message(2, None, share.data[:-5] + b"\xff" * 5))
        party.outgoing()
    # Then it leaves as a ProtocolAborted naming the protocol: an Exception, a FrostError
    assert isinstance(caught.value, Exception) and isinstance(caught.value, FrostError)
    assert caught.value.protocol == "sign"
    # And a presignature whose shares were tampered with gives no signature, only a clear error
    good = presignatures(shares)
    tampered = {1: good[1], 2: Presignature.from_dict({**good[2].to_dict(), "k": (1).to_bytes(32, "big").hex()})}
    with pytest.raises(ProtocolAborted):
        sign(shares, tampered, digest("tampered"))


@pytest.fixture(scope="module")
def unused(shares: dict[int, KeyShare]) -> dict[int, Presignature]:
    """A presignature that only the refused calls below see (none of them may consume it)."""
    return presignatures(shares)


@pytest.mark.parametrize("case", ["short digest", "foreign pair", "other key", "outsider message", "bad share"])
def test_malformed_inputs_are_refused_before_the_library(shares: dict[int, KeyShare], unused: dict[int, Presignature],
                                                        case: str) -> None:
    presigned = unused
    calls: dict[str, Any] = {
        "short digest": lambda: ecdsa.sign(1, (1, 2), shares[1], presigned[1], b"\x01" * 31),
        "foreign pair": lambda: ecdsa.sign(1, (1, 3), shares[1], presigned[1], digest("x")),
        "other key": lambda: ecdsa.sign(1, (1, 2), KeyShare(1, PrivateKey().public_key.format(), shares[1].share),
                                        presigned[1], digest("x")),
        "outsider message": lambda: ecdsa.sign(1, (1, 2), shares[1], presignatures(shares)[1], digest("x")).receive(
            ecdsa.Message(3, None, b"x")),
        "bad share": lambda: KeyShare.from_dict({**shares[1].to_dict(), "share": "00" * 32}),
    }
    with pytest.raises(InvalidParameters):
        calls[case]()
    # Refused before signing started: the presignature is still unused
    assert not presigned[1].spent and not presigned[2].spent
