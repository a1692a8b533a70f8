"""Who calls: API users with their Ed25519 keys, and their access tokens.

A caller's token is issued by the authentication service itself (``domain.auth``: the signed
request is verified and the token stored as its SHA-256), in-process: no HTTP round trip. The
tests of authentication (tests/api/test_auth.py, tests/api/test_devices.py) request tokens over
HTTP with :meth:`Caller.signed_request`.
"""

from __future__ import annotations

import base64
import json
import uuid

from nacl.signing import SigningKey

from core import clock
from core.unit_of_work import unit_of_work
from domain import auth, companies, users, workspaces
from domain.auth import Principal
from domain.permissions import PlatformRole
from models.workspaces import Workspace


class Caller:
    """An API user (or a paired device) with its key: signs token requests, gives request headers."""

    def __init__(self, *, user_id: str, signing_key: SigningKey, workspace_id: str) -> None:
        self.user_id = user_id
        self.signing_key = signing_key
        self.workspace_id = workspace_id
        self.token: str | None = None

    def signed_request(self, *, timestamp: int | None = None, nonce: str | None = None,
                       client_type: str = "user", client_id: str | None = None) -> dict[str, str]:
        """The body of ``POST /api/v2/auth/access-token``."""
        data = json.dumps({
            "client_type": client_type,
            "client_id": client_id or self.user_id,
            "timestamp": int(clock.now().timestamp()) if timestamp is None else timestamp,
            "nonce": nonce or uuid.uuid4().hex,
        })
        signature = base64.b64encode(self.signing_key.sign(data.encode()).signature).decode()
        return {"data": data, "signature": signature}

    async def login(self) -> str:
        """A fresh access token from the authentication service (e.g. after the clock moved on)."""
        async with unit_of_work():
            issued = await auth.issue_access_token(**self.signed_request())
        self.token = issued.access_token
        return self.token

    def headers(self, *, workspace: str | None = "default") -> dict[str, str]:
        """Bearer token, and ``X-Workspace-Id``: the caller's workspace, another one, or none."""
        headers = {"Authorization": f"Bearer {self.token}"}
        if workspace == "default":
            headers["X-Workspace-Id"] = self.workspace_id
        elif workspace is not None:
            headers["X-Workspace-Id"] = workspace
        return headers


async def make_workspace(*, network_type: str = "testnet", name: str = "Main") -> Workspace:
    """A new company with one workspace."""
    async with unit_of_work():
        company = await companies.create_company(principal=None, name="Acme", email="ops@acme.test")
        return await workspaces.create_workspace(principal=None, company_id=company.id, name=name,
                                                 network_type=network_type)


async def make_api_user(*, role: str = "ADMIN", workspace_id: str | uuid.UUID | None = None,
                        platform_admin: bool = False, network_type: str = "testnet") -> Caller:
    """An API user with ``role`` (in a new company and workspace unless given), without a token."""
    if workspace_id is None:
        workspace_id = (await make_workspace(network_type=network_type)).id
    key = SigningKey.generate()
    async with unit_of_work():
        member = await users.create_api_user(
            principal=None, workspace_id=uuid.UUID(str(workspace_id)), name=f"api-{role.lower()}", role=role,
            public_key=bytes(key.verify_key), platform_role=PlatformRole.PLATFORM_ADMIN if platform_admin else None,
        )
    return Caller(user_id=str(member.user.id), signing_key=key, workspace_id=str(workspace_id))


async def make_caller(*, role: str = "ADMIN", workspace_id: str | uuid.UUID | None = None,
                      platform_admin: bool = False, network_type: str = "testnet") -> Caller:
    """An API user with ``role`` and an access token (see :func:`make_api_user`)."""
    caller = await make_api_user(role=role, workspace_id=workspace_id, platform_admin=platform_admin,
                                 network_type=network_type)
    await caller.login()
    return caller


async def make_principal(*, role: str = "ADMIN", workspace_id: str | uuid.UUID | None = None) -> Principal:
    """What the API hands a domain service for a caller: the principal behind a real token."""
    caller = await make_caller(role=role, workspace_id=workspace_id)
    assert caller.token is not None
    return await auth.authenticate(caller.token)
