"""POST /api/v1/transaction and the withdrawal actions through HTTP, and the whole flow end to end:
fund, withdraw to an external address and to an internal wallet, and see statuses, balances,
change-log entries and signed webhook events as an integrator does."""

from __future__ import annotations

import asyncio
import uuid

from custody.faucet import faucet_command
from custody_sdk import BalanceSync
from models.transactions import Transaction
from models.vaults import Vault
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.approvals import make_owner
from tests.support.callers import make_caller
from tests.support.changelog import until_final
from tests.support.sdk import sdk_for
from tests.support.signing import cosigner_for, designated_signer, settle, status_is
from tests.support.wallets import Api, vault_with_key, watch
from tests.support.webhooks import verify
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    EVM,
    allow_one_time_addresses,
    funded_wallet,
    until_status,
)

TRANSACTION_REQUIRED = {"amount", "created_at", "decimals", "fee", "fee_limit", "formatted_amount", "formatted_fee",
                        "from", "id", "status", "symbol", "to", "updated_at"}
FEE = 21_000 * 10**9


async def _api_with_wallet(client, *, role: str = "ADMIN", amount: int = ETH):
    caller = await make_caller(role=role)
    ws = await Workspace.get(id=caller.workspace_id)
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", amount)
    return Api(client, caller), ws, tv, wallet


def _body(wallet, **fields) -> dict:
    return {"amount": "1000", "source_wallet_id": str(wallet.id), "target_address": ELSEWHERE_EVM, **fields}


async def test_end_to_end_fund_withdraw_out_and_in_and_see_it_all(client, worker, receiver, tmp_path):
    owner = await make_owner()
    api = Api(client, owner)
    cosigner = cosigner_for(client, await designated_signer(owner.workspace_id),
                            tmp_path / "cosigner")
    # Given two vaults whose keys come from the DKG with the co-signer, a DETH wallet in each
    vaults = {}
    for name in ("Treasury", "Savings"):
        status, vault = await api.post("/api/v1/vault/accounts", {"name": name})
        vaults[name] = vault
        await settle(worker, cosigner, until=status_is(await Vault.get(id=vault["id"]), "ready", "failed"))
    wallets = {}
    for name, vault in vaults.items():
        status, body = await api.post("/api/v1/wallet", {"currency_id": "DETH_TEST", "vault_id": vault["id"]})
        assert status == 201, body
        wallets[name] = body["assets"][0]
    treasury_address = wallets["Treasury"]["primary_address"]["address"]
    savings_address = wallets["Savings"]["primary_address"]["address"]
    # And a webhook for transaction.*, and an integrator's balance copy from the snapshot
    status, webhook = await api.post("/api/v1/webhooks", {"url": receiver.url(), "event_types": ["transaction.*"]})
    assert status == 201
    custody = sdk_for(client, owner)
    sync = BalanceSync(custody)
    await sync.reset()
    # When the treasury is funded on the devnet (custody faucet) and the deposit is seen
    await faucet_command(network=EVM, address=treasury_address, amount="2", mine=True)
    await watch(EVM)
    # And the external address is whitelisted, then 0.5 DETH is sent there and 0.25 DETH to the savings
    status, entry = await api.post("/api/v1/whitelist/wallets", {"name": "Exchange", "currency_id": "DETH_TEST",
                                                                  "address": ELSEWHERE_EVM})
    assert status == 201, entry
    headers = {**owner.headers(), "X-Idempotency-Key": "payout-2024-001"}
    out_body = {"amount": str(ETH // 2), "source_wallet_id": wallets["Treasury"]["id"],
                "target_address": ELSEWHERE_EVM, "target_whitelisted_asset_id": entry["id"]}
    status, out = await api.request("POST", "/api/v1/transaction", json=out_body, headers=headers)
    assert status == 201, out
    assert (out["status"], out["to"]["whitelisted_wallet_name"], out["from"]["balance"]["held_atomic"]) == (
        "pending", "Exchange", str(ETH // 2 + FEE))
    # (a repeat of the request with its key answers 409 with the same transaction)
    status, again = await api.request("POST", "/api/v1/transaction", json=out_body, headers=headers)
    assert (status, again["id"]) == (409, out["id"])
    status, internal = await api.post("/api/v1/transaction", {
        "amount": str(ETH // 4), "source_wallet_id": wallets["Treasury"]["id"], "target_address": savings_address,
        "target_wallet_id": wallets["Savings"]["id"]})
    assert status == 201 and internal["destination_type"] == "internal"
    # Then the worker checks, signs (the two service signers) and broadcasts; blocks confirm them
    for item in (out, internal):
        await until_status(uuid.UUID(item["id"]), "finished", "failed", network=EVM, timeout=60)
    status, out_now = await api.get(f"/api/v1/transactions/{out['id']}")
    status, internal_now = await api.get(f"/api/v1/transactions/{internal['id']}")
    assert (out_now["status"], internal_now["status"]) == ("finished", "finished")
    assert TRANSACTION_REQUIRED <= set(out_now) and out_now["tx_hash"] and out_now["external_link"]
    assert (out_now["fee"], out_now["confirmations"], out_now["amount_usdt"]) == (str(FEE), 1, "1500.00")
    # And the balances: 2 - 0.5 - 0.25 - two fees in the treasury, 0.25 in the savings, nothing held
    status, assets = await api.get("/api/v1/asset")
    balances = {a["vault_id"]: a["balances"] for a in assets["assets"]}
    treasury, savings = balances[vaults["Treasury"]["id"]], balances[vaults["Savings"]["id"]]
    assert (treasury["total_atomic"], treasury["held_atomic"]) == (str(2 * ETH - 3 * ETH // 4 - 2 * FEE), "0")
    assert savings["total_atomic"] == str(ETH // 4)
    assert internal_now["to"]["balance"]["total_atomic"] == str(ETH // 4)
    # And the change log has the deposit and both withdrawals in their final state
    await until_final()
    status, page = await api.get("/api/v1/transactions/changes")
    assert [(i["type"], i["status"]) for i in page["items"]] == [("deposit", "finished")] + [
        ("withdrawal", "finished")] * 2
    # And every event arrived signed: created, updates, finished, for each withdrawal
    await _wait_for_deliveries(receiver, await WebhookEvent.filter(workspace_id=owner.workspace_id).count())
    delivered = [verify(webhook["secret"], request) for request in receiver.received]
    types = {}
    for event in delivered:
        types.setdefault(event["data"]["id"], []).append(event["type"])
    assert sorted(types[out["id"]]) == sorted(["transaction.created"] + ["transaction.updated"] * 5
                                              + ["transaction.finished"])
    assert "transaction.finished" in types[internal["id"]]
    # And a client fed with those events (out of order, one twice) ends equal to the server
    for event in reversed(delivered + delivered[:1]):
        sync.apply_event(event["id"], event["data"])
    assert await sync.sync() is True
    assert sync.totals()["DETH_TEST"]["total"] == 2 * ETH - ETH // 2 - 2 * FEE  # the 0.25 moved within
    await custody.aclose()


async def _wait_for_deliveries(receiver, count: int) -> None:
    for _ in range(1000):
        if len({r.event_id for r in receiver.received}) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{len(receiver.received)} of {count} events delivered")


async def test_the_amount_is_an_integer_string_of_atomic_units_and_anything_else_is_refused(client, broker):
    api, _, _, wallet = await _api_with_wallet(client)
    for amount in ("1.5", "1e18", "-5", "0", "007", " 100", "1_000", "", "0x10", 1000, 1.5, None, "12345" * 16):
        status, body = await api.post("/api/v1/transaction", _body(wallet, amount=amount))
        assert (status, body["code"], body["details"]["field"]) == (400, "INVALID_AMOUNT", "amount"), amount
    status, body = await api.post("/api/v1/transaction", _body(wallet, amount="1.5"))
    assert "atomic units" in body["details"]["reason"]
    for field, value in (("fee", "0.1"), ("fee_rate_sat_per_vb", "2.5"), ("fee", 21000)):
        status, body = await api.post("/api/v1/transaction", _body(wallet, **{field: value}))
        assert (status, body["code"], body["details"]["field"]) == (400, "INVALID_AMOUNT", field), (field, value)
    # Unknown fields, a missing required one, and a bad id are the usual 400s; nothing was created
    for body_, field in ((_body(wallet, note="x"), "note"), ({"amount": "1", "target_address": "x"},
                                                             "source_wallet_id")):
        status, body = await api.post("/api/v1/transaction", body_)
        assert (status, body["code"], body["details"]["field"]) == (400, "VALIDATION_ERROR", field)
    assert await Transaction.filter(direction="withdrawal").count() == 0


async def test_the_answer_is_the_full_resource_and_a_viewer_cannot_create(client, broker):
    api, ws, tv, wallet = await _api_with_wallet(client)
    status, tx = await api.post("/api/v1/transaction", _body(wallet, amount=str(ETH // 10)))
    assert status == 201
    assert TRANSACTION_REQUIRED <= set(tx)
    assert (tx["fee_limit"], tx["formatted_fee_limit"], tx["fee_asset_id"], tx["amount_usdt"]) == (
        str(FEE), "0.000021", "DETH_TEST", "300.00")
    assert (tx["blockchain_name"], tx["descriptor"], tx["balance_version"]) == (
        "Devnet EVM Testnet", "Devnet Ether Testnet", 2)
    (funding,) = await Transaction.filter(workspace_id=ws.id, direction="deposit")
    assert tx["seq"] > funding.seq  # after the deposit that funded it
    assert tx["from"]["balance"]["available_atomic"] == str(ETH - ETH // 10 - FEE)
    assert tx["created_by"] == api.caller.user_id
    status, same = await api.get(f"/api/v1/transactions/{tx['id']}")
    assert (status, same) == (200, tx)
    viewer = Api(client, await make_caller(role="VIEWER", workspace_id=ws.id))
    status, body = await viewer.post("/api/v1/transaction", _body(wallet))
    assert (status, body["code"], body["details"]["permission"]) == (403, "PERMISSION_DENIED", "CREATE_TRANSACTION")


async def test_headers_idempotent_replay_reuse_and_bad_values(client, broker):
    api, _, _, wallet = await _api_with_wallet(client)
    headers = {**api.caller.headers(), "X-Idempotency-Key": "abc-1"}
    status, first = await api.request("POST", "/api/v1/transaction", json=_body(wallet), headers=headers)
    status, replay = await api.request("POST", "/api/v1/transaction", json=_body(wallet), headers=headers)
    # The repeat answers 409 with the existing transaction as the body
    assert status == 409 and replay == first and first["idempotency_key"] == "abc-1"
    status, body = await api.request("POST", "/api/v1/transaction", json=_body(wallet, amount="2000"), headers=headers)
    assert (status, body["code"], body["details"]["transaction_id"]) == (422, "IDEMPOTENCY_KEY_REUSED", first["id"])
    for header, code in (("X-Idempotency-Key", "INVALID_IDEMPOTENCY_KEY"), ("X-Attempt-Key", "INVALID_ATTEMPT_KEY"),
                         ("X-Utxo-Intent-Key", "INVALID_UTXO_INTENT_KEY")):
        status, body = await api.request("POST", "/api/v1/transaction", json=_body(wallet),
                                         headers={**api.caller.headers(), header: "x" * 101})
        assert (status, body["code"], body["details"]["field"]) == (400, code, header)
    status, body = await api.request("POST", "/api/v1/transaction", json=_body(wallet),
                                     headers={**api.caller.headers(), "X-Utxo-Intent-Key": "i-1"})
    assert (status, body["code"]) == (400, "UTXO_INTENT_KEY_NOT_APPLICABLE")
    status, attempt = await api.request("POST", "/api/v1/transaction", json=_body(wallet, amount="3000"),
                                        headers={**api.caller.headers(), "X-Attempt-Key": "invoice-9"})
    assert (status, attempt["attempt_key"], attempt["attempt_number"]) == (201, "invoice-9", 1)


async def test_a_hundred_concurrent_requests_with_one_key_create_one_transaction(client, broker):
    api, _, _, wallet = await _api_with_wallet(client)
    headers = {**api.caller.headers(), "X-Idempotency-Key": "stampede"}
    answers = await asyncio.gather(*(api.request("POST", "/api/v1/transaction", json=_body(wallet), headers=headers)
                                     for _ in range(100)))
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201] + [409] * 99
    assert len({body["id"] for _, body in answers}) == 1
    assert await Transaction.filter(direction="withdrawal").count() == 1


async def test_cancel_freeze_unfreeze_through_the_api(client, broker):
    api, ws, _, wallet = await _api_with_wallet(client, role="SIGNER")
    status, tx = await api.post("/api/v1/transaction", _body(wallet))
    approver = Api(client, await make_caller(role="APPROVER", workspace_id=ws.id))
    admin = Api(client, await make_caller(role="ADMIN", workspace_id=ws.id))
    # A signer cannot freeze; an approver can, and the hold is released
    status, body = await api.post(f"/api/v1/transactions/{tx['id']}/freeze")
    assert (status, body["code"]) == (403, "PERMISSION_DENIED")
    status, frozen = await approver.post(f"/api/v1/transactions/{tx['id']}/freeze")
    assert (status, frozen["status"], frozen["from"]["balance"]["held_atomic"]) == (200, "frozen", "0")
    status, body = await approver.post(f"/api/v1/transactions/{tx['id']}/freeze")
    assert (status, body["seq"]) == (200, frozen["seq"])
    status, back = await approver.post(f"/api/v1/transactions/{tx['id']}/unfreeze")
    assert (status, back["status"], back["from"]["balance"]["held_atomic"]) == (200, "pending", str(1000 + FEE))
    status, body = await approver.post(f"/api/v1/transactions/{tx['id']}/unfreeze")
    assert (status, body["code"]) == (409, "TRANSACTION_NOT_FROZEN")
    # Only its creator cancels it
    status, body = await admin.post(f"/api/v1/transactions/{tx['id']}/cancel")
    assert (status, body["code"]) == (403, "TRANSACTION_CANCEL_NOT_ALLOWED")
    status, cancelled = await api.post(f"/api/v1/transactions/{tx['id']}/cancel")
    assert (status, cancelled["status"], cancelled["from"]["balance"]["held_atomic"]) == (200, "cancelled", "0")
    status, body = await approver.post(f"/api/v1/transactions/{tx['id']}/freeze")
    assert (status, body["code"]) == (409, "TRANSACTION_NOT_FREEZABLE")
    # Another workspace sees none of it
    stranger = Api(client, await make_caller(role="ADMIN"))
    for action in ("cancel", "freeze", "unfreeze"):
        status, body = await stranger.post(f"/api/v1/transactions/{tx['id']}/{action}")
        assert (status, body["code"]) == (404, "TRANSACTION_NOT_FOUND")


async def test_the_list_filters_by_status_wallet_vault_direction_and_time_and_pages(client, broker, frozen_clock):
    api, ws, tv, wallet = await _api_with_wallet(client)
    other_vault = await vault_with_key(ws, name="Other")
    other = await funded_wallet(other_vault, "DETH_TEST", ETH)
    start = frozen_clock.advance(minutes=1)
    created = []
    for amount in (1000, 2000, 3000):
        frozen_clock.advance(minutes=1)
        status, tx = await api.post("/api/v1/transaction", _body(wallet, amount=str(amount)))
        created.append(tx)
    frozen_clock.advance(minutes=1)
    status, from_other = await api.post("/api/v1/transaction", _body(other, amount="4000"))
    await api.post(f"/api/v1/transactions/{created[0]['id']}/cancel")

    async def ids(**params) -> list[str]:
        status, page = await api.get("/api/v1/transactions", **params)
        assert status == 200, page
        return [item["id"] for item in page["items"]]

    newest_first = [from_other["id"], created[2]["id"], created[1]["id"], created[0]["id"]]
    assert (await ids(direction="outgoing")) == newest_first
    assert len(await ids()) == 6 and len(await ids(direction="incoming")) == 2  # the two deposits
    assert await ids(status="cancelled") == [created[0]["id"]]
    status, page = await api.request("GET", "/api/v1/transactions", params=[("status", "pending"),
                                                                            ("status", "cancelled")])
    assert page["total"] == 4
    assert await ids(wallet_id=str(other.id), direction="outgoing") == [from_other["id"]]
    assert await ids(vault_id=str(tv.vault.id), direction="outgoing") == newest_first[1:]
    later = created[1]["created_at"]
    assert await ids(created_from=later, direction="outgoing") == newest_first[:3]
    assert await ids(created_to=later, direction="outgoing") == [created[0]["id"]]
    assert await ids(created_from=start.isoformat(), created_to=later) == [created[0]["id"]]
    status, page = await api.get("/api/v1/transactions", limit=2, offset=1, direction="outgoing")
    assert ([i["id"] for i in page["items"]], page["total"], page["limit"], page["offset"]) == (
        newest_first[1:3], 4, 2, 1)
    # Bad filters are clear 4xx
    for params, status_code, code in (({"status": "done"}, 400, "VALIDATION_ERROR"),
                                      ({"created_from": "yesterday"}, 400, "VALIDATION_ERROR"),
                                      ({"created_from": "2025-01-01T00:00:00"}, 400, "VALIDATION_ERROR"),
                                      ({"created_from": later, "created_to": later}, 400, "VALIDATION_ERROR"),
                                      ({"wallet_id": str(uuid.uuid4())}, 404, "WALLET_NOT_FOUND"),
                                      ({"vault_id": str(uuid.uuid4())}, 404, "VAULT_NOT_FOUND")):
        status, body = await api.get("/api/v1/transactions", **params)
        assert (status, body["code"]) == (status_code, code), params
