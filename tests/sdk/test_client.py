"""The SDK's client (custody_sdk.client, custody_sdk.errors) against the real service: the
workspace per client and per call, typed errors, the generated operations called directly, and
paths the generated part does not know."""

from __future__ import annotations

import uuid

import pytest

from custody_sdk import BadRequest, Forbidden, NotFound, UnexpectedResponse
from custody_sdk.openapi.api.vaults import create_vault, get_vault, list_vaults
from custody_sdk.openapi.api.workspaces import current_workspace
from custody_sdk.openapi.models import VaultCreate
from tests.support.callers import make_api_user, make_workspace
from tests.support.sdk import faulty, sdk_for


async def test_the_workspace_comes_from_the_client_or_the_call(client):
    # Given an API user of workspace A, and a workspace B it is no member of
    caller = await make_api_user(role="ADMIN")
    other = str((await make_workspace()).id)
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport) as custody:
        # When it calls with its own workspace, then names B for one call
        mine = await custody.call(current_workspace)
        with pytest.raises(NotFound) as foreign:
            await custody.call(current_workspace, workspace_id=other)
        # ...and through a client for B that names A for one call
        in_b = custody.with_workspace(other)
        with pytest.raises(NotFound):
            await in_b.call(list_vaults)
        back_in_a = await in_b.call(current_workspace, workspace_id=caller.workspace_id)
        await in_b.aclose()  # closes nothing of the first client
        again = await custody.call(current_workspace)
    # Then each call went to the workspace it named, or else its client's
    assert str(mine.id) == str(back_in_a.id) == str(again.id) == caller.workspace_id
    assert foreign.value.code == "WORKSPACE_NOT_FOUND"
    assert [s.headers["X-Workspace-Id"] for s in transport.sent if s.path != "/api/v2/auth/access-token"] == [
        caller.workspace_id, other, other, caller.workspace_id, caller.workspace_id]
    # And the two clients shared one token
    assert custody.auth.tokens_issued == 1


async def test_errors_are_typed_and_carry_code_error_details_and_request_id(client):
    # Given a VIEWER and an ADMIN of one workspace
    admin = await make_api_user(role="ADMIN")
    viewer = await make_api_user(role="VIEWER", workspace_id=admin.workspace_id)
    async with sdk_for(client, admin) as custody, sdk_for(client, viewer) as read_only:
        # When the admin reads a vault that does not exist
        with pytest.raises(NotFound) as missing:
            await custody.call(get_vault, vault_id=uuid.uuid4())
        # ...sends a name the service refuses
        with pytest.raises(BadRequest) as invalid:
            await custody.call(create_vault, body=VaultCreate(name=""))
        # ...and the viewer tries to create a vault
        with pytest.raises(Forbidden) as denied:
            await read_only.call(create_vault, body=VaultCreate(name="Nope"))
    # Then each error is the service's envelope, typed by status
    assert (missing.value.status, missing.value.code) == (404, "VAULT_NOT_FOUND")
    assert missing.value.error and uuid.UUID(missing.value.request_id)
    assert missing.value.method == "GET" and "/api/v1/vault/accounts/" in missing.value.url
    assert (invalid.value.code, invalid.value.field) == ("VALIDATION_ERROR", "name")
    assert denied.value.details == {"permission": "EDIT_WORKSPACE", "role": "VIEWER"}


async def test_generated_operations_run_through_the_same_layer(client):
    # Given a client, and the generated module of an operation
    caller = await make_api_user(role="ADMIN")
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport) as custody:
        # When the operation is called directly with the client's generated client
        vault = await create_vault.asyncio(client=custody.api, body=VaultCreate(name="Direct"))
        # Then it was authenticated and sent to the client's workspace; its errors are typed too
        assert vault is not None and vault.name == "Direct"
        with pytest.raises(NotFound):
            await get_vault.asyncio(client=custody.api, vault_id=uuid.uuid4())
        # And the generated synchronous functions, which would bypass the layer, are refused
        with pytest.raises(TypeError, match="asynchronous"):
            get_vault.sync(client=custody.api, vault_id=vault.id)
    assert transport.sent[1].headers["Authorization"].startswith("Bearer cws_")


async def test_paths_newer_than_the_generated_part_are_called_raw(client):
    # Given a client
    caller = await make_api_user(role="ADMIN")
    async with sdk_for(client, caller) as custody:
        # When it calls a known path without a generated operation
        reply = await custody.request("GET", "/api/v1/vault/accounts", params={"limit": 1})
        # Then it has the JSON answer; and a path the service does not have is a typed 404
        assert reply.status_code == 200 and reply.json["total"] == 0 and reply.request_id
        with pytest.raises(NotFound) as unknown:
            await custody.request("POST", "/api/v1/no-such-thing", json={})
    assert unknown.value.code == "NOT_FOUND"


async def test_a_success_status_the_document_does_not_declare_is_reported(client):
    # Given the generated module of GET /api/v1/workspace, and a gateway that answers 204 for it
    caller = await make_api_user()
    async with sdk_for(client, caller, transport=faulty(client, 204)) as custody:
        # When it is called
        with pytest.raises(UnexpectedResponse) as unexpected:
            await custody.call(current_workspace)
    # Then the SDK says what it got instead of returning None
    assert unexpected.value.status == 204
