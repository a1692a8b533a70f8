"""The SDK's authentication (custody_sdk.auth, custody_sdk.credentials) against the real service:
signed token requests from the bootstrap file or a key, one token shared by calls, renewal before
expiry, one renewal on a 401, and a client clock the service disagrees with."""

from __future__ import annotations

import asyncio
import json
import os
import uuid

import pytest

from common.files import write_private_file
from core.unit_of_work import unit_of_work
from custody_sdk import Credentials, CredentialsError, Custody, Unauthorized
from custody_sdk.openapi.api.auth import introspect
from custody_sdk.openapi.api.users import remove_user
from custody_sdk.openapi.api.workspaces import current_workspace
from domain.bootstrap import bootstrap
from tests.support.approvals import make_owner
from tests.support.callers import make_api_user
from tests.support.client import BASE_URL
from tests.support.sdk import faulty, sdk_for, service_clock

TOKEN_TTL = 3600  # ACCESS_TOKEN_TTL_SECONDS' default, which the suite runs with


async def test_first_call_from_the_bootstrap_file(client, tmp_path):
    # Given the file `custody bootstrap --out` writes (the same fields, mode 0600)
    async with unit_of_work():
        made = await bootstrap(company_name="Acme", company_email="ops@acme.test", workspace_name="Main",
                               network_type="testnet", owner_email="owner@acme.test")
    path = tmp_path / "creds.json"
    write_private_file(path, json.dumps({
        "base_url": BASE_URL, "workspace_id": made.workspace_id, "company_id": made.company_id,
        "owner_id": made.owner_id, "client_id": made.client_id, "client_type": "user",
        "private_key": made.private_key, "public_key": made.public_key}))
    transport = faulty(client)
    # When a client made from it calls the API (over the in-process transport)
    async with Custody.from_credentials_file(path, transport=transport, clock=service_clock) as custody:
        workspace = await custody.call(current_workspace)
        token = await custody.call(introspect)
    # Then it signed a token request and used the token, in the file's workspace
    assert str(workspace.id) == str(made.workspace_id) and workspace.role == "ADMIN"
    assert token.active is True and str(token.subject_uuid) == str(made.client_id)
    assert [s.path for s in transport.sent] == ["/api/v2/auth/access-token", "/api/v1/workspace",
                                                "/api/v2/auth/introspect"]
    signed = transport.token_requests[0].json
    assert json.loads(signed["data"])["client_id"] == str(made.client_id)
    assert transport.sent[1].headers["X-Workspace-Id"] == str(made.workspace_id)


def test_credentials_refuse_what_cannot_be_used_without_showing_the_key(tmp_path):
    # Given a file anyone may read, a file without a key, and a key of the wrong length
    readable = tmp_path / "readable.json"
    seed = "A" * 43 + "="
    readable.write_text(json.dumps({"client_id": "c", "private_key": seed}))
    os.chmod(readable, 0o644)
    keyless = tmp_path / "keyless.json"
    write_private_file(keyless, json.dumps({"client_id": "c"}))
    # Then the readable one loads with a warning, the others are refused with a reason
    with pytest.warns(UserWarning, match="chmod 600"):
        loaded = Credentials.from_file(readable)
    assert seed not in repr(loaded) and "signing_key" not in repr(loaded)
    with pytest.raises(CredentialsError, match="lacks private_key"):
        Credentials.from_file(keyless)
    with pytest.raises(CredentialsError, match="32-byte"):
        Credentials.from_key(client_id="c", private_key=b"short")


async def test_one_token_serves_concurrent_calls(client):
    # Given a client without a token yet
    caller = await make_api_user()
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport) as custody:
        # When ten calls start at once
        answers = await asyncio.gather(*(custody.call(current_workspace) for _ in range(10)))
    # Then one token request served them all
    assert len(answers) == 10 and custody.auth.tokens_issued == 1 and len(transport.token_requests) == 1


async def test_a_token_is_renewed_before_it_expires(client, frozen_clock):
    # Given a client whose token was issued now (its clock is the service's)
    caller = await make_api_user()
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport) as custody:
        await custody.call(current_workspace)
        # When its expiry is 30 s away (inside the 60 s margin) and it calls again
        frozen_clock.advance(seconds=TOKEN_TTL - 30)
        await custody.call(current_workspace)
    # Then it took a new token first: the service never had to refuse the old one
    assert custody.auth.tokens_issued == 2
    assert [s.status for s in transport.sent] == [200, 200, 200, 200] and len(transport.token_requests) == 2


async def test_a_refused_token_is_renewed_once_and_the_call_succeeds(client, frozen_clock):
    # Given a client whose clock runs 200 s behind the service's: within the tolerance of signed
    # requests, but enough for it to believe a token fresh that the service has let expire
    caller = await make_api_user()
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport, clock_=lambda: service_clock() - 200) as custody:
        await custody.call(current_workspace)
        # When the token expired on the service's clock
        frozen_clock.advance(seconds=TOKEN_TTL + 1)
        workspace = await custody.call(current_workspace)
    # Then the call was refused once, the client took one new token, and the repeat succeeded
    assert str(workspace.id) == caller.workspace_id
    assert [(s.path, s.status) for s in transport.sent][2:] == [
        ("/api/v1/workspace", 401), ("/api/v2/auth/access-token", 200), ("/api/v1/workspace", 200)]
    assert custody.auth.tokens_issued == 2


async def test_a_revoked_api_user_gets_one_renewal_then_the_services_refusal(client):
    # Given a client with a token, whose API user the owner then removes from the workspace
    owner = await make_owner()
    caller = await make_api_user(role="ADMIN", workspace_id=owner.workspace_id)
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport) as custody, sdk_for(client, owner) as admin:
        await custody.call(current_workspace)
        await admin.call(remove_user, user_id=uuid.UUID(caller.user_id))
        # When it calls again
        with pytest.raises(Unauthorized) as refused:
            await custody.call(current_workspace)
    # Then it tried one new token, which the service refused: no loop, the service's code
    assert refused.value.code == "INVALID_CREDENTIALS" and refused.value.status == 401
    assert [(s.path, s.status) for s in transport.sent][2:] == [
        ("/api/v1/workspace", 401), ("/api/v2/auth/access-token", 401)]


async def test_a_client_clock_an_hour_off_learns_the_services_time(client):
    # Given a client whose clock is an hour behind the service's
    caller = await make_api_user()
    transport = faulty(client)
    async with sdk_for(client, caller, transport=transport, clock_=lambda: service_clock() - 3600) as custody:
        # When it calls
        workspace = await custody.call(current_workspace)
    # Then its first token request was refused for the timestamp, and the second, signed at the
    # service's time as the refusal told it, was accepted
    assert str(workspace.id) == caller.workspace_id
    assert [s.status for s in transport.token_requests] == [401, 200]
    assert abs(custody.auth.server_now() - service_clock()) < 2
