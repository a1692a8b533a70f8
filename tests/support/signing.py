"""Helpers of the threshold-signing tests: vaults, an in-process co-signer, waiting for the pipeline.

A vault's key comes from the session's pool of DKGs unless the test runs the key generation
itself (tests/support/key_pool.py says how a pooled one is a real one).
"""

from __future__ import annotations

import asyncio
import base64
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

import nacl.pwhash
from nacl.public import PrivateKey

from client.cosigner import CoSigner, Credentials, ShareStore
from core.unit_of_work import unit_of_work
from domain.signing import cosigner as cosigner_domain
from domain.signing import keys, sessions
from models.backups import Backup
from models.keys import KeySet
from models.sessions import SigningSession
from models.vaults import Vault
from tests.support.approvals import make_owner
from tests.support.callers import Caller, make_caller, make_workspace
from tests.support.client import BASE_URL, AppClient, AsgiTransport
from tests.support.key_pool import REAL_DKG_ONLY, resume_at_finalize
from threshold.cosigner_part import KdfParams
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME

#: The cheapest argon2id cost: the tests exercise the format, not the cost.
FAST_KDF = KdfParams(nacl.pwhash.argon2id.OPSLIMIT_MIN, nacl.pwhash.argon2id.MEMLIMIT_MIN)
PASSPHRASE = b"correct horse battery staple"


async def designate(caller: Caller) -> Caller:
    """Designate ``caller`` (an API user) as its workspace's co-signer, as the operator's bootstrap
    does; only the designated co-signer takes a key set's seat (tests/api/test_cosigner.py checks
    the owner's PUT /api/v1/co-signer/designation)."""
    async with unit_of_work():
        await cosigner_domain.designate(principal=None, workspace_id=uuid.UUID(caller.workspace_id),
                                        user_id=uuid.UUID(caller.user_id))
    return caller


async def designated_signer(workspace_id: str | uuid.UUID) -> Caller:
    """A SIGNER API user of the workspace, designated as its co-signer."""
    return await designate(await make_caller(role="SIGNER", workspace_id=workspace_id))


def cosigner_for(client: AppClient, caller: Caller, store_dir: Path, **kwargs: Any) -> CoSigner:
    """A headless co-signer authenticating as ``caller`` (an API user), its store in ``store_dir``."""
    credentials = Credentials(base_url=BASE_URL, workspace_id=caller.workspace_id,
                              client_id=caller.user_id, client_type="user", signing_key=caller.signing_key)
    store = ShareStore(store_dir, PASSPHRASE, params=FAST_KDF)
    return CoSigner(AsgiTransport(client), credentials=credentials, store=store, **kwargs)


async def create_vault(workspace_id: str | uuid.UUID, *, name: str = "Treasury", generate_key: bool = True,
                       schemes: tuple[str, ...] = (ED25519_SCHEME,), pooled_for: CoSigner | None = None) -> Vault:
    """A vault, with its key generation(s) requested in the same unit of work (as the vault code
    does): one key set per scheme of ``schemes``.

    ``pooled_for``: each key generation starts where the pipeline stands after round 2, from a
    DKG of the session's pool (tests/support/key_pool.py), with this co-signer (the workspace's
    designated one) in participant 3's seat; the service's participants finish it."""
    async with unit_of_work():
        vault = await Vault.create(workspace_id=uuid.UUID(str(workspace_id)), name=name)
        if generate_key:
            for scheme in schemes:
                key_set = await keys.request_key_generation(vault=vault, scheme=scheme)
                if pooled_for is not None and not REAL_DKG_ONLY:
                    await resume_at_finalize(key_set, pooled_for.store)
    return vault


async def settle(worker: Any, *cosigners: CoSigner, until: Callable[[], Awaitable[bool]],
                 timeout: float = 30.0) -> None:
    """Let the worker run and the co-signers act until ``until()`` holds.

    Polls the database rather than draining every queue at each hop, and lets the co-signers
    poll the API only when a key generation or signing session changed status (what a real
    co-signer's polling interval would notice).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen: object = None
    last_step = 0.0
    while not await until():
        assert loop.time() < deadline, f"the pipeline did not settle: {await _protocol_state()}"
        state = await _protocol_state()
        # Like the real co-signer's polling interval: also step now and then without a change, so
        # a step that failed (e.g. a transient error under load) is retried rather than awaited forever.
        if state != seen or loop.time() - last_step > 1.0:
            seen, last_step = state, loop.time()
            for cosigner in cosigners:
                await cosigner.step()
        await asyncio.sleep(0.01)


async def _protocol_state() -> tuple:
    key_sets = await KeySet.all().order_by("id").values_list("id", "status")
    signing_sessions = await SigningSession.all().order_by("id").values_list("id", "status")
    return tuple(key_sets), tuple(signing_sessions)


async def key_set_status(vault: Vault, scheme: str = ED25519_SCHEME) -> str:
    return (await KeySet.filter(vault_id=vault.id, scheme=scheme).order_by("-created_at").first()).status  # type: ignore[union-attr]


def status_is(vault: Vault, *statuses: str) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        return await key_set_status(vault) in statuses
    return check


@dataclass
class SigningSetup:
    """A workspace with an owner, a co-signer (an API user with role SIGNER) and a ready vault key."""

    owner: Caller
    cosigner_user: Caller
    cosigner: CoSigner
    vault: Vault
    key_set: KeySet

    @property
    def workspace_id(self) -> uuid.UUID:
        return uuid.UUID(self.owner.workspace_id)


async def ready_vault(client: AppClient, worker: Any, store_dir: Path, *, owner: Caller | None = None,
                      cosigner: CoSigner | None = None, cosigner_user: Caller | None = None,
                      schemes: tuple[str, ...] = (ED25519_SCHEME,), name: str = "Treasury",
                      real_dkg: bool = False) -> SigningSetup:
    """Create a vault and let both signers and the co-signer finish its key generation(s) until
    ready (``key_set`` is the first scheme's). A co-signer made here is designated; one passed in
    must have been designated by the caller.

    The key generation starts from the session's pool of DKGs (tests/support/key_pool.py): rounds
    1 and 2 ran ahead of time, the service's signers, co-signer and coordinator finalize.
    ``real_dkg``: every round runs through the service, for the tests of the key generation."""
    owner = owner or await make_owner()
    if cosigner is None:
        cosigner_user = await designated_signer(owner.workspace_id)
        cosigner = cosigner_for(client, cosigner_user, store_dir)
    vault = await create_vault(owner.workspace_id, schemes=schemes, name=name,
                               pooled_for=None if real_dkg else cosigner)

    async def all_done() -> bool:
        found = await KeySet.filter(vault_id=vault.id).values_list("status", flat=True)
        return len(found) == len(schemes) and all(status in ("ready", "failed") for status in found)
    await settle(worker, cosigner, until=all_done)
    for key_set in await KeySet.filter(vault_id=vault.id):
        assert key_set.status == "ready", (key_set.scheme, key_set.failure_reason)
    key_set = await KeySet.get(vault_id=vault.id, scheme=schemes[0])
    return SigningSetup(owner=owner, cosigner_user=cosigner_user, cosigner=cosigner, vault=vault,  # type: ignore[arg-type]
                        key_set=key_set)


async def request_signature(setup: SigningSetup, message: bytes, **kwargs: Any) -> SigningSession:
    """A signing session of ``message`` under the setup's vault key (purpose "test")."""
    async with unit_of_work():
        return await sessions.request_signature(workspace_id=setup.workspace_id, vault_id=setup.vault.id,
                                               message=message, purpose="test", **kwargs)


async def backup_ready(client: AppClient, worker: Any, owner: Caller, private_key: PrivateKey) -> dict:
    """Start a backup to ``private_key``'s public key through the API; its status once ready."""
    public_key = base64.b64encode(bytes(private_key.public_key)).decode()
    _, started = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": public_key})
    assert started.status == 202 and started.json["status"] == "pending"

    async def ready() -> bool:
        return (await Backup.get(id=started.json["backup_id"])).status in ("ready", "failed")
    await settle(worker, until=ready)
    _, status = await client.get("/api/v1/backup", headers=owner.headers())
    assert status.json["status"] == "ready", status.json
    return status.json


async def key_set_row(vault_name: str, *, status: str = "ready") -> KeySet:
    """A threshold ECDSA key set row in a vault of a new workspace, made without a DKG: for the
    stock and presignature tests, which need a key set to point at, not a key."""
    workspace = await make_workspace()
    async with unit_of_work():
        vault = await Vault.create(workspace_id=workspace.id, name=vault_name)
        return await KeySet.create(workspace_id=workspace.id, vault_id=vault.id, scheme=ECDSA_SCHEME,
                                   context=b"ctx", status=status, group_public_key=b"\x02" + bytes(32))
