"""Retries (custody_sdk.retry) against the real service behind injected network faults: idempotent
calls are retried with jittered backoff, a POST only with an idempotency key (the same key on
every attempt), never twice an effect; timeouts on a real socket."""

from __future__ import annotations

import asyncio
import random
import socket
import uuid

import pytest

from custody_sdk import (
    NO_RETRIES,
    Conflict,
    ConnectionFailed,
    Credentials,
    Custody,
    RequestTimeout,
    RetryPolicy,
    ServerError,
)
from custody_sdk.openapi.api.vaults import create_vault, list_vaults
from custody_sdk.openapi.api.wallets import create_wallet
from custody_sdk.openapi.api.workspaces import current_workspace
from custody_sdk.openapi.models import VaultCreate, WalletCreate
from models.vaults import Vault
from models.workspaces import Workspace
from tests.support.callers import make_api_user
from tests.support.sdk import RecordedSleep, faulty, sdk_for
from tests.support.wallets import vault_with_key

VAULTS = "/api/v1/vault/accounts"


async def test_an_idempotent_call_is_retried_with_jittered_backoff(client):
    # Given a network that refuses the first connection and whose gateway answers 503 next
    caller = await make_api_user()
    transport = faulty(client, "refuse", 503)
    waits = RecordedSleep()
    async with sdk_for(client, caller, transport=transport, sleep=waits) as custody:
        # When the client reads its workspace
        workspace = await custody.call(current_workspace)
    # Then the third attempt got the answer; all three were one call (one request id)
    assert str(workspace.id) == caller.workspace_id
    attempts = transport.to("/api/v1/workspace")
    assert len(attempts) == 3 and len({a.headers["X-Request-Id"] for a in attempts}) == 1
    # And it waited between attempts: a jittered share of a doubling ceiling
    policy = RetryPolicy()
    assert len(waits.waits) == 2
    for attempt, wait in enumerate(waits.waits, start=1):
        ceiling = policy.initial_delay * 2 ** (attempt - 1)
        assert ceiling / 2 <= wait <= ceiling


def test_backoff_doubles_to_its_cap_and_honours_retry_after():
    # Given the default policy and a seeded random source
    policy, rng = RetryPolicy(), random.Random(7)
    # Then waits stay within [ceiling/2, ceiling] of a ceiling that doubles up to max_delay
    for attempt in range(1, 12):
        ceiling = min(policy.max_delay, policy.initial_delay * 2 ** (attempt - 1))
        assert ceiling / 2 <= policy.delay(attempt, rng=rng) <= ceiling
    # And a Retry-After asking for longer is honoured, up to max_delay
    assert policy.delay(1, retry_after=3.0, rng=rng) == 3.0
    assert policy.delay(1, retry_after=600.0, rng=rng) == policy.max_delay


async def test_retries_stop_after_the_last_attempt_with_the_services_error(client):
    # Given a gateway that keeps answering 502
    caller = await make_api_user()
    transport = faulty(client, *([502] * 10))
    async with sdk_for(client, caller, transport=transport, retry=RetryPolicy(max_attempts=3)) as custody:
        # When the client reads; Then it gives up after three attempts with a typed 5xx
        with pytest.raises(ServerError) as failed:
            await custody.call(current_workspace)
    assert failed.value.status == 502 and failed.value.code == "HTTP_502"
    assert len(transport.to("/api/v1/workspace")) == 3


async def test_a_post_without_a_key_is_never_retried(client):
    # Given a network that refuses the first connection
    caller = await make_api_user()
    transport = faulty(client, "refuse")
    async with sdk_for(client, caller, transport=transport) as custody:
        # When the client creates a vault without an idempotency key
        with pytest.raises(ConnectionFailed) as failed:
            await custody.call(create_vault, body=VaultCreate(name="Once"))
    # Then it made one attempt and said so: it cannot know whether a lost POST was carried out
    assert failed.value.attempts == 1 and len(transport.to(VAULTS)) == 1
    assert await Vault.filter(workspace_id=caller.workspace_id).count() == 0


async def test_a_keyed_post_is_retried_with_its_key_and_creates_one_object(client):
    # Given a network that refuses the first connection, then a gateway that answers 502
    caller = await make_api_user()
    transport = faulty(client, "refuse", 502)
    async with sdk_for(client, caller, transport=transport) as custody:
        # When the client creates a vault with an idempotency key
        result = await custody.call_detailed(create_vault, body=VaultCreate(name="Treasury"),
                                             idempotency_key="create-treasury-1")
    # Then every attempt carried the same key, the third reached the service, and one vault exists
    attempts = transport.to(VAULTS)
    assert [a.headers.get("X-Idempotency-Key") for a in attempts] == ["create-treasury-1"] * 3
    assert [a.status for a in attempts] == [None, 502, 201]
    assert result.status_code == 201 and result.replayed is False and result.value.name == "Treasury"
    assert await Vault.filter(workspace_id=caller.workspace_id).count() == 1


async def test_a_409_carrying_the_object_is_the_keyed_posts_success(client):
    # Given a keyed POST whose answer is lost after the service created the vault, and whose
    # retry is answered as a service that keeps idempotency keys answers (the spec's
    # POST /transaction): 409 with the object the first attempt created. The vault endpoint
    # keeps no keys, so that answer is injected ("replay"): it stands in for POST /transaction.
    caller = await make_api_user()
    transport = faulty(client, "lose", "replay")
    async with sdk_for(client, caller, transport=transport) as custody:
        # When the client retries with the same key
        result = await custody.call_detailed(create_vault, body=VaultCreate(name="Once"), idempotency_key="k-1")
    # Then the replayed object is the call's success, and the service holds one vault
    created = await Vault.get(workspace_id=caller.workspace_id)
    assert result.replayed is True and result.status_code == 409 and str(result.value.id) == str(created.id)
    assert [a.headers["X-Idempotency-Key"] for a in transport.to(VAULTS)] == ["k-1", "k-1"]
    assert await Vault.filter(workspace_id=caller.workspace_id).count() == 1


async def test_a_409_error_to_a_keyed_post_is_still_an_error(client):
    # Given a vault that already has its DETH wallet
    caller = await make_api_user()
    workspace = await Workspace.get(id=caller.workspace_id)
    keyed = await vault_with_key(workspace)
    body = WalletCreate(currency_id="DETH_TEST", vault_id=keyed.vault.id)
    async with sdk_for(client, caller) as custody:
        await custody.call(create_wallet, body=body)
        # When the same wallet is asked for again with an idempotency key
        with pytest.raises(Conflict) as conflict:
            await custody.call(create_wallet, body=body, idempotency_key="wallet-2")
    # Then the service's refusal (an error envelope, not an object) is raised
    assert conflict.value.code == "WALLET_ALREADY_EXISTS"


async def test_a_silent_server_times_out_each_attempt(tmp_path):
    # Given a TCP server on loopback that accepts connections and never answers
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    credentials = Credentials.from_key(client_id=str(uuid.uuid4()), private_key=bytes(32))
    waits = RecordedSleep()
    try:
        async with Custody(credentials=credentials, base_url=f"http://127.0.0.1:{port}", timeout=0.2,
                           retry=RetryPolicy(max_attempts=2), sleep=waits) as custody:
            # When a read is sent with a 0.2 s timeout
            started = asyncio.get_running_loop().time()
            with pytest.raises(RequestTimeout) as timed_out:
                await custody.call(list_vaults)
            elapsed = asyncio.get_running_loop().time() - started
        async with Custody(credentials=credentials, base_url=f"http://127.0.0.1:{port}", retry=NO_RETRIES) as custody:
            # ...and with a per-call timeout
            with pytest.raises(RequestTimeout):
                await custody.call(list_vaults, timeout=0.1)
    finally:
        silent.close()
    # Then each attempt (the token request first) gave up at the timeout, and the call after two
    assert timed_out.value.attempts == 2 and len(waits.waits) == 1
    assert elapsed < 2.0
