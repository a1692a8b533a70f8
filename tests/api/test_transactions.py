"""GET /api/v1/transactions/changes: paging, cursors, min_cursor, isolation."""

from __future__ import annotations

import uuid
from datetime import timedelta

from core.unit_of_work import unit_of_work
from domain import transactions
from models.transactions import Transaction
from models.workspaces import Workspace
from tests.support.callers import make_caller
from tests.support.changelog import until_final
from tests.support.wallets import Api, fund, mine_block, open_wallet, vault_with_key, watch

UTXO = "devnet-utxo-testnet"


async def _workspace_with_deposits(client, count: int):
    caller = await make_caller(role="VIEWER")
    ws = await Workspace.get(id=caller.workspace_id)
    wallet = await open_wallet(await vault_with_key(ws), "DBTC_TEST")
    await wallet.fetch_related("address")
    for index in range(count):
        await fund(UTXO, wallet.address.address, 10_000 + index, mine=False)
    await mine_block(UTXO)
    await watch(UTXO)
    await until_final()
    return Api(client, caller), ws


async def test_pages_follow_the_cursor_without_gaps(client, broker):
    api, ws = await _workspace_with_deposits(client, 5)
    positions = [t.seq for t in await Transaction.filter(workspace_id=ws.id).order_by("seq")]
    assert len(positions) == 5
    status, first = await api.get("/api/v1/transactions/changes", limit=2)
    assert status == 200 and [i["seq"] for i in first["items"]] == positions[:2]
    assert (first["next_cursor"], first["has_more"], first["min_cursor"]) == (positions[1], True, 0)
    status, second = await api.get("/api/v1/transactions/changes", since_cursor=first["next_cursor"], limit=2)
    status, third = await api.get("/api/v1/transactions/changes", since_cursor=second["next_cursor"], limit=2)
    assert [i["seq"] for i in second["items"] + third["items"]] == positions[2:]
    assert third["has_more"] is False and third["next_cursor"] == positions[-1]
    # An empty page keeps the cursor; the default page size is 100
    status, empty = await api.get("/api/v1/transactions/changes", since_cursor=positions[-1])
    assert (empty["items"], empty["next_cursor"], empty["has_more"]) == ([], positions[-1], False)
    status, default = await api.get("/api/v1/transactions/changes")
    assert len(default["items"]) == 5
    # One item is one transaction in its current state
    status, one = await api.get(f"/api/v1/transactions/{default['items'][0]['id']}")
    assert status == 200 and one == default["items"][0]


async def test_bad_cursors_and_limits_are_clear_4xx(client, broker):
    api, _ = await _workspace_with_deposits(client, 1)
    for params, code in (({"limit": 1001}, "VALIDATION_ERROR"), ({"limit": 0}, "VALIDATION_ERROR"),
                         ({"limit": "x"}, "VALIDATION_ERROR"), ({"since_cursor": "abc"}, "INVALID_CURSOR"),
                         ({"since_cursor": "-3"}, "INVALID_CURSOR"),
                         ({"since_cursor": transactions.MAX_CURSOR}, "INVALID_CURSOR")):
        status, answer = await api.get("/api/v1/transactions/changes", **params)
        assert (status, answer["code"]) == (400, code), params
    status, page = await api.get("/api/v1/transactions/changes", limit=1000)
    assert status == 200


async def test_a_cursor_below_min_cursor_gets_410_cursor_expired(client, broker, frozen_clock):
    api, ws = await _workspace_with_deposits(client, 2)
    frozen_clock.advance(days=400)
    await api.caller.login()  # the old token expired meanwhile
    last = max(t.seq for t in await Transaction.filter(workspace_id=ws.id))
    async with unit_of_work():
        await transactions.compact(workspace_id=ws.id, retention=timedelta(days=90))
    status, answer = await api.get("/api/v1/transactions/changes", since_cursor=0)
    assert (status, answer["code"]) == (410, "CURSOR_EXPIRED")
    assert answer["details"]["min_cursor"] == last and "snapshot" in answer["details"]
    status, snap = await api.get("/api/v1/asset/balances/currencies")
    status, page = await api.get("/api/v1/transactions/changes", since_cursor=snap["cursor"])
    assert (status, page["items"], page["min_cursor"]) == (200, [], last)


async def test_another_workspace_sees_none_of_it(client, broker):
    api, _ = await _workspace_with_deposits(client, 1)
    status, page = await api.get("/api/v1/transactions/changes")
    other = Api(client, await make_caller(role="ADMIN"))
    status, theirs = await other.get("/api/v1/transactions/changes")
    assert (status, theirs["items"], theirs["next_cursor"]) == (200, [], 0)
    status, answer = await other.get(f"/api/v1/transactions/{page['items'][0]['id']}")
    assert (status, answer["code"]) == (404, "TRANSACTION_NOT_FOUND")
    status, answer = await other.get(f"/api/v1/transactions/{uuid.uuid4()}")
    assert (status, answer["code"]) == (404, "TRANSACTION_NOT_FOUND")
