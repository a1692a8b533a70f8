"""Helpers of the threshold-signing tests: vaults, an in-process co-signer, waiting for the pipeline."""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

import httpx
import nacl.pwhash
import pytest
from nacl.signing import SigningKey

from client.cosigner import CoSigner, Credentials, ShareStore
from core.unit_of_work import unit_of_work
from domain.signing import keys
from threshold.cosigner_part import KdfParams
from models.keys import KeySet
from models.sessions import SigningSession
from models.vaults import Vault
from tests.conftest import Caller

#: The cheapest argon2id cost: the tests exercise the format, not the cost.
FAST_KDF = KdfParams(nacl.pwhash.argon2id.OPSLIMIT_MIN, nacl.pwhash.argon2id.MEMLIMIT_MIN)
PASSPHRASE = b"correct horse battery staple"


class _Response:
    """The parts of sanic-testing's response the tests read: status, json, body, headers."""

    def __init__(self, response: httpx.Response) -> None:
        self.status = response.status_code
        self.body = response.content
        self.headers = response.headers

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class FastClient:
    """The ``client`` fixture's call style, ``(request, response)``, straight into the started app.

    sanic-testing re-runs the app's start-up on every request (about 100 ms); these tests make
    many round trips, so after one request through ``client`` (which starts the app) the rest go
    to the app over httpx's ASGI transport: the same routes, middleware and error handlers.
    """

    def __init__(self, client: Any) -> None:
        self.client = client
        self._http: httpx.AsyncClient | None = None

    async def request(self, method: str, path: str, **kwargs: Any) -> tuple[None, _Response]:
        if self._http is None:
            await self.client.get("/api/v2/auth/time")
            self._http = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.client.sanic_app),
                                           base_url="http://testserver")
        return None, _Response(await self._http.request(method, path, **kwargs))

    async def get(self, path: str, **kwargs: Any) -> tuple[None, _Response]:
        return await self.request("GET", path, **kwargs)

    async def post(self, path: str, **kwargs: Any) -> tuple[None, _Response]:
        return await self.request("POST", path, **kwargs)

    async def put(self, path: str, **kwargs: Any) -> tuple[None, _Response]:
        return await self.request("PUT", path, **kwargs)

    async def delete(self, path: str, **kwargs: Any) -> tuple[None, _Response]:
        return await self.request("DELETE", path, **kwargs)


@pytest.fixture
def api(client: Any) -> FastClient:
    """Like ``client``, faster (see :class:`FastClient`); import it into a test module to use it."""
    return FastClient(client)


class AsgiTransport:
    """The co-signer's transport: its HTTP requests go into the app in-process."""

    def __init__(self, client: Any) -> None:
        self.api = client if isinstance(client, FastClient) else FastClient(client)

    async def request(self, method: str, path: str, *, json_body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        kwargs: dict[str, Any] = {"headers": headers or {}}
        if json_body is not None:
            kwargs["json"] = json_body
        _, response = await self.api.request(method, path, **kwargs)
        return response.status, response.json


async def fast_caller(client: Any, *, role: str = "ADMIN", workspace_id: str | None = None) -> Caller:
    """What ``make_caller`` returns, with the token issued by the domain service directly
    (the same signed-request check, without an HTTP round trip)."""
    from domain import auth, companies, users, workspaces

    key = SigningKey.generate()
    async with unit_of_work():
        if workspace_id is None:
            company = await companies.create_company(principal=None, name="Acme", email="ops@acme.test")
            workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name="Main",
                                                          network_type="testnet")
            workspace_id = str(workspace.id)
        member = await users.create_api_user(principal=None, workspace_id=uuid.UUID(workspace_id),
                                             name=f"api-{role.lower()}", role=role, public_key=bytes(key.verify_key))
    caller = Caller(client, user_id=str(member.user.id), signing_key=key, workspace_id=workspace_id)
    async with unit_of_work():
        issued = await auth.issue_access_token(**caller.signed_request())
    caller.token = issued.access_token
    return caller


def cosigner_for(client: Any, caller: Caller, store_dir: Path, **kwargs: Any) -> CoSigner:
    """A headless co-signer authenticating as ``caller`` (an API user), its store in ``store_dir``."""
    credentials = Credentials(base_url="http://testserver", workspace_id=caller.workspace_id,
                              client_id=caller.user_id, client_type="user", signing_key=caller.signing_key)
    store = ShareStore(store_dir, PASSPHRASE, params=FAST_KDF)
    return CoSigner(AsgiTransport(client), credentials=credentials, store=store, **kwargs)


async def create_vault(workspace_id: str | uuid.UUID, *, name: str = "Treasury", generate_key: bool = True) -> Vault:
    """A vault, with its key generation requested in the same unit of work (as the wallet code will)."""
    async with unit_of_work():
        vault = await Vault.create(workspace_id=uuid.UUID(str(workspace_id)), name=name)
        if generate_key:
            await keys.request_key_generation(vault=vault)
    return vault


async def settle(worker: Any, *cosigners: CoSigner, until: Callable[[], Awaitable[bool]],
                 timeout: float = 30.0) -> None:
    """Let the worker run and the co-signers act until ``until()`` holds.

    Polls the database rather than draining every queue at each hop, and lets the co-signers
    poll the API only when a key generation or signing session changed status (what a real
    co-signer's polling interval would notice), because each in-process API call is slow.
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
    sessions = await SigningSession.all().order_by("id").values_list("id", "status")
    return tuple(key_sets), tuple(sessions)


async def key_set_status(vault: Vault) -> str:
    return (await KeySet.filter(vault_id=vault.id).order_by("-created_at").first()).status  # type: ignore[union-attr]


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


async def ready_vault(client: Any, worker: Any, store_dir: Path, *, owner: Caller | None = None,
                      cosigner: CoSigner | None = None, cosigner_user: Caller | None = None) -> SigningSetup:
    """Create a vault and run its DKG across both signers and the co-signer until ready."""
    owner = owner or await fast_caller(client, role="OWNER")
    if cosigner is None:
        cosigner_user = await fast_caller(client, role="SIGNER", workspace_id=owner.workspace_id)
        cosigner = cosigner_for(client, cosigner_user, store_dir)
    vault = await create_vault(owner.workspace_id)
    await settle(worker, cosigner, until=status_is(vault, "ready", "failed"))
    key_set = await KeySet.get(vault_id=vault.id)
    assert key_set.status == "ready", key_set.failure_reason
    return SigningSetup(owner=owner, cosigner_user=cosigner_user, cosigner=cosigner, vault=vault,  # type: ignore[arg-type]
                        key_set=key_set)
