"""Key generations whose first two rounds ran ahead of time: a pool the end-to-end tests draw from.

A vault's 2-of-3 key generation through the service is three rounds of messages between signer
1, signer 2 (worker actors), the co-signer (through the API) and the coordinator: a dozen
pipeline hops, most of a signing test's time. The tests of the key generation itself run it
whole (tests/domain/signing/test_keys.py, tests/api/test_cosigner.py, tests/client/test_cosigner.py,
``ready_vault(..., real_dkg=True)``); every other test that needs a ready vault key gets one
from this pool:

1. **Made ahead, by the real DKG.** :func:`pooled_dkg` runs rounds 1 and 2 of the scheme's
   Pedersen DKG (``threshold.suites``: the code the signers and the co-signer run) for all
   three participants in this process, every message through JSON and every round-2 package
   in the NaCl Box of the service's transport (``threshold.transport``), under a context made
   like the service's (``keys.dkg_context``). Before a set is served, each participant's
   finalize is run here on a copy and the set is checked: the three derive one public package,
   the one the round-1 commitments define, and every pair of them signs a message that
   verifies under the group key (for Taproot, the key-path output key).
2. **Served once.** Each drawn set is a fresh, independent DKG: never served twice, so two
   vaults of a test never share a key. The pool keeps :data:`STOCK` sets per scheme, made in one
   batch when it runs out (a few milliseconds each: the DKG itself is cheap, the pipeline is not).
3. **Finished by the service.** :func:`resume_at_finalize` puts a drawn set into a key set the
   service just created, in the caller's unit of work, exactly where the pipeline stands after
   round 2: the round-1 broadcasts and round-2 ciphertexts in ``dkg_packages``, each signer's
   round-2 state sealed with its own key (``signer_states``), the co-signer's in its encrypted
   store, the co-signer's seat taken by the designated co-signer (audited as when it sends its
   round 1), status ``finalize`` and the signers' finalize commands in the outbox. From there
   the service's own code finishes: each signer verifies the shares it received against the
   commitments and seals its key package (``service_signer.dkg_finalize``), the co-signer does
   the same and registers its part through the API (the service checks it against the round-1
   broadcasts), and the coordinator (``keys.collect_results``) makes the key set ready only if
   every participant agrees.

``CUSTODY_TEST_REAL_DKG=1`` turns the pool off: every key generation of the run goes through all
rounds of the service (slower; to compare, or to rule the pool out).

The pool writes the state formats of ``service_signer.dkg_round2`` (signer state) and of the
co-signer's ``_round2`` (its store record); the tests that run the whole DKG keep those honest,
and a mismatch fails the finalize loudly rather than silently.
"""

from __future__ import annotations

import copy
import json
import os
import uuid
from dataclasses import dataclass
from typing import Any

from nacl.public import PrivateKey

from client.cosigner import ShareStore
from core.outbox import add_command
from domain import audit
from domain.signing import keys, service_signer
from domain.signing.signer_keys import signer_key
from models.cosigner import CosignerDesignation
from models.keys import DkgPackage, KeySet, SignerDkgState
from threshold.scheme import (
    ALL_PARTICIPANTS,
    COSIGNER_PARTICIPANT,
    MAX_SIGNERS,
    MIN_SIGNERS,
    SECP256K1_SCHEME,
    SERVICE_PARTICIPANTS,
)
from threshold.suites import SUITES, Suite, suite_of
from threshold.transport import open_round2_package, seal_round2_package

#: Sets made per scheme whenever the pool runs out.
STOCK = 8
#: Whether the pool is off for this run (module docstring).
REAL_DKG_ONLY = os.environ.get("CUSTODY_TEST_REAL_DKG", "").strip().lower() not in ("", "0", "false", "no")


def _wire(obj: Any) -> Any:
    """A message or state as another process receives it: through JSON."""
    return type(obj).from_dict(json.loads(json.dumps(obj.to_dict())))


@dataclass(frozen=True)
class PooledDkg:
    """One 2-of-3 key generation of ``scheme`` after round 2: every participant's state and messages."""

    scheme: str
    context: bytes
    #: Each participant's round-1 broadcast (package dict) and transport public key (hex).
    round1: dict[int, dict[str, Any]]
    #: Each participant's round-2 secret state (dict) and transport private key (hex).
    round2_states: dict[int, dict[str, Any]]
    #: Round-2 ciphertexts by (sender, recipient): base64 NaCl Box, as the service stores them.
    round2_packages: dict[tuple[int, int], str]
    #: The group public key every participant derives (checked when made).
    group_public_key: bytes

    @property
    def suite(self) -> Suite:
        return suite_of(self.scheme)


def pooled_dkg(scheme: str) -> PooledDkg:
    """Rounds 1 and 2 of a fresh DKG of ``scheme`` by all three participants, checked (module docstring)."""
    suite = suite_of(scheme)
    dkg = suite.dkg
    context = keys.dkg_context(uuid.uuid4())
    transports = {i: PrivateKey.generate() for i in ALL_PARTICIPANTS}
    secrets1, broadcasts = {}, {}
    for i in ALL_PARTICIPANTS:
        secret, package = dkg.round1(i, MIN_SIGNERS, MAX_SIGNERS, context)
        secrets1[i], broadcasts[i] = _wire(secret), _wire(package)
    states, sealed = {}, {}
    for i in ALL_PARTICIPANTS:
        state, outgoing = dkg.round2(secrets1[i], [_wire(broadcasts[j]) for j in ALL_PARTICIPANTS if j != i])
        states[i] = _wire(state)
        for recipient, package in outgoing.items():
            sealed[(i, recipient)] = seal_round2_package(
                package, own=transports[i], recipient_transport_key=bytes(transports[recipient].public_key))
    pooled = PooledDkg(
        scheme=scheme, context=context,
        round1={i: {"package": broadcasts[i].to_dict(), "transport_public_key": bytes(transports[i].public_key).hex()}
                for i in ALL_PARTICIPANTS},
        round2_states={i: {"round2": states[i].to_dict(), "transport_private_key": bytes(transports[i]).hex()}
                       for i in ALL_PARTICIPANTS},
        round2_packages=sealed,
        group_public_key=b"",
    )
    group_public_key = _check(pooled)
    return PooledDkg(**{**pooled.__dict__, "group_public_key": group_public_key})


def _check(pooled: PooledDkg) -> bytes:
    """Finalize every participant on a copy and prove the set works; its group public key."""
    suite, dkg = pooled.suite, pooled.suite.dkg
    transport_keys = {i: bytes.fromhex(pooled.round1[i]["transport_public_key"]) for i in ALL_PARTICIPANTS}
    expected = dkg.public_key_package_from_commitments(
        {i: dkg.Round1Package.from_dict(pooled.round1[i]["package"]).commitments for i in ALL_PARTICIPANTS},
        MIN_SIGNERS)
    key_packages = {}
    for i in ALL_PARTICIPANTS:
        state = copy.deepcopy(pooled.round2_states[i])
        own = PrivateKey(bytes.fromhex(state["transport_private_key"]))
        received = [open_round2_package(own=own, recipient=i, sender=s, sender_transport_key=transport_keys[s],
                                        ciphertext_b64=pooled.round2_packages[(s, i)], package_type=dkg.Round2Package)
                    for s in ALL_PARTICIPANTS if s != i]
        key_packages[i], public = dkg.finalize(dkg.Round2SecretPackage.from_dict(state["round2"]), received)
        assert public == expected, f"participant {i} derived another public key package"
    # An ECDSA key set's shares come from the same secp256k1 DKG: every pair proves them with
    # FROST(secp256k1) (the same key and shares; the ECDSA protocol itself is tested through the
    # service's sessions).
    suite = SUITES[SECP256K1_SCHEME] if suite.ecdsa else suite
    merkle_root = b"" if suite.taproot else None  # Taproot: the key-path-only output (a P2TR address)
    engine = suite.engine(merkle_root)
    message = b"pooled key set " + pooled.context
    for pair in ((1, 2), (1, 3), (2, 3)):
        nonces, commitments = {}, []
        for i in pair:
            nonces[i], commitment = engine.commit(key_packages[i])
            commitments.append(commitment)
        shares = [engine.sign(key_packages[i], nonces[i], message, commitments, min_signers=MIN_SIGNERS) for i in pair]
        signature = engine.aggregate(commitments, message, shares, expected)
        assert suite.verify(expected.group_public_key, message, signature, merkle_root), \
            f"signers {pair} made no valid signature"
    return bytes(expected.group_public_key)


class KeyPool:
    """Fresh pooled DKGs per scheme, each served once (module docstring)."""

    def __init__(self, stock: int = STOCK) -> None:
        self.stock = stock
        self._ready: dict[str, list[PooledDkg]] = {}
        self.served: set[bytes] = set()

    def draw(self, scheme: str) -> PooledDkg:
        ready = self._ready.setdefault(scheme, [])
        if not ready:
            ready.extend(pooled_dkg(scheme) for _ in range(self.stock))
        pooled = ready.pop()
        assert pooled.group_public_key not in self.served, "a pooled key set was about to be served twice"
        self.served.add(pooled.group_public_key)
        return pooled


#: The session's pool (a module of the test process: one per run).
POOL = KeyPool()


async def resume_at_finalize(key_set: KeySet, store: ShareStore, *, pool: KeyPool = POOL) -> PooledDkg:
    """Put a drawn DKG into ``key_set`` (just requested, in the caller's unit of work) as it stands
    after round 2; the service's participants and coordinator finish it (module docstring).

    The co-signer's seat goes to the workspace's designated co-signer, whose store is ``store``.
    """
    assert key_set.status == "round1", key_set.status
    pooled = pool.draw(key_set.scheme)
    designation = await CosignerDesignation.get(workspace_id=key_set.workspace_id)  # type: ignore[attr-defined]
    key_set.context = pooled.context
    key_set.cosigner_user_id = designation.user_id  # type: ignore[attr-defined]
    key_set.cosigner_device_id = designation.device_id  # type: ignore[attr-defined]
    key_set.status = "finalize"
    await key_set.save(update_fields=["context", "cosigner_user_id", "cosigner_device_id", "status"])
    await audit.record(action="key_set.cosigner_joined", object_type="key_set", object_id=key_set.id,
                       actor_id=designation.user_id, workspace_id=key_set.workspace_id,  # type: ignore[attr-defined]
                       details={"device_id": str(designation.device_id) if designation.device_id else None})  # type: ignore[attr-defined]
    for sender in ALL_PARTICIPANTS:
        await DkgPackage.create(key_set_id=key_set.id, round=1, sender=sender, recipient=0,
                                payload=pooled.round1[sender])
    for (sender, recipient), ciphertext in sorted(pooled.round2_packages.items()):
        await DkgPackage.create(key_set_id=key_set.id, round=2, sender=sender, recipient=recipient,
                                payload={"ciphertext": ciphertext})
    for participant in SERVICE_PARTICIPANTS:
        # What service_signer.dkg_round2 keeps: its round-2 state, sealed with the signer's own key
        # (by the signer's own sealing, so the stored format stays the signer's).
        await SignerDkgState.create(key_set_id=key_set.id, participant=participant, round=2,
                                    sealed_state=service_signer._seal(signer_key(participant),
                                                                      pooled.round2_states[participant]))
        await add_command(actor_name=keys.signer_actor(participant, "dkg_finalize"),
                          payload={"key_set_id": str(key_set.id)}, workspace_id=key_set.workspace_id)  # type: ignore[attr-defined]
    # What the co-signer's round 2 keeps in its store (client/cosigner.py, CoSigner._round2).
    me = COSIGNER_PARTICIPANT
    store.save("dkg", str(key_set.id), {
        "stage": 2, "scheme": key_set.scheme, "context": pooled.context.hex(),
        "round2": pooled.round2_states[me]["round2"],
        "transport_private_key": pooled.round2_states[me]["transport_private_key"],
        "transport_keys": {str(s): pooled.round1[s]["transport_public_key"] for s in ALL_PARTICIPANTS if s != me},
        "round2_packages": [{"recipient": r, "ciphertext": pooled.round2_packages[(me, r)]}
                            for r in ALL_PARTICIPANTS if r != me],
        "package": pooled.round1[me]["package"],
    })
    return pooled

