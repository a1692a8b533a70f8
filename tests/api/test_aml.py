"""AML screening through HTTP: the settings, the records, the release of a frozen deposit, and the
whole flow end to end on the devnet (a withdrawal frozen by AML and released by unfreeze, a
deposit frozen and released) with the worker running the pipeline and webhooks delivered."""

from __future__ import annotations

import asyncio
import uuid
from typing import Iterator

import pytest

from core.unit_of_work import unit_of_work
from custody.faucet import faucet_command
from domain import wallets
from domain.aml import decisions
from domain.withdrawals import pipeline
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.aml import RISKY, SANCTIONED, blocked, enable_aml, evm_faucet
from tests.support.callers import make_caller
from tests.support.signing import ready_vault
from tests.support.wallets import Api, address_of, fund, open_wallet, vault_with_key, watch
from tests.support.webhooks import verify
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    EVM,
    allow_one_time_addresses,
    funded_wallet,
    step,
    until_status,
    withdraw,
)

FEE = 21_000 * 10**9


@pytest.fixture(autouse=True)
def no_policy() -> Iterator[None]:
    previous = decisions.policy_evaluator()
    decisions.register_policy_evaluator(None)
    yield
    decisions.register_policy_evaluator(previous)


SETTINGS = {
    "enabled": True,
    "blocked_addresses": [{"network_id": EVM, "address": SANCTIONED, "category": "sanctions", "note": "OFAC"}],
    "trusted_addresses": [],
    "address_exposures": [{"network_id": EVM, "address": RISKY,
                           "exposures": [{"category": "mixing", "exposure_percent": 90}]}],
}


async def test_settings_read_and_replace_with_workspace_permissions(client, database):
    admin = await make_caller(role="ADMIN")
    api = Api(client, admin)
    viewer = Api(client, await make_caller(role="VIEWER", workspace_id=admin.workspace_id))
    # The default: screening off, built-in screener, default categories and thresholds
    status, current = await viewer.get("/api/v1/aml/settings")
    assert (status, current["enabled"], current["provider"], current["updated_at"]) == (200, False, "builtin", None)
    assert current["thresholds"] == {"medium": "25", "high": "50", "severe": "80"}
    # A viewer cannot change them; an admin can (EDIT_WORKSPACE)
    status, body = await viewer.request("PUT", "/api/v1/aml/settings", json=SETTINGS)
    assert (status, body["code"]) == (403, "PERMISSION_DENIED")
    status, saved = await api.request("PUT", "/api/v1/aml/settings", json=SETTINGS)
    assert status == 200, saved
    assert (saved["enabled"], saved["blocked_addresses"][0]["note"], saved["updated_by"]) == (
        True, "OFAC", admin.user_id)
    assert saved["address_exposures"][0]["exposures"] == [{"category": "mixing", "exposure_percent": "90.00"}]
    status, again = await viewer.get("/api/v1/aml/settings")
    assert again == saved
    # Another workspace still has its own (off)
    stranger = Api(client, await make_caller(role="ADMIN"))
    assert (await stranger.get("/api/v1/aml/settings"))[1]["enabled"] is False


@pytest.mark.parametrize(("body", "code"), [
    ({**SETTINGS, "surprise": 1}, "VALIDATION_ERROR"),
    ({**SETTINGS, "enabled": "yes"}, "VALIDATION_ERROR"),
    ({"enabled": True, "blocked_addresses": [{"network_id": EVM, "address": "0x12"}]}, "INVALID_ADDRESS"),
    ({"enabled": True, "blocked_addresses": [{"network_id": "devnet-utxo-mainnet", "address": SANCTIONED}]},
     "NETWORK_NOT_FOUND"),
    ({"enabled": True, "blocked_addresses": [{"network_id": EVM, "address": SANCTIONED, "category": "x"}]},
     "AML_UNKNOWN_CATEGORY"),
    ({"enabled": True, "provider": "elsewhere"}, "AML_PROVIDER_UNKNOWN"),
    ({"enabled": True, "thresholds": {"medium": 30, "high": 20, "severe": 90}}, "VALIDATION_ERROR"),
    ({"enabled": True, "thresholds": {"medium": True, "high": 20, "severe": 90}}, "VALIDATION_ERROR"),
    ({"enabled": True, "address_exposures": [{"network_id": EVM, "address": RISKY, "exposures": []}]},
     "VALIDATION_ERROR"),
    ({"enabled": True, "categories": [{"category": "Bad Id", "label": "x", "weight": 1}]}, "VALIDATION_ERROR"),
])
async def test_bad_settings_are_a_400_naming_the_problem(client, database, body, code):
    api = Api(client, await make_caller(role="ADMIN"))
    status, answer = await api.request("PUT", "/api/v1/aml/settings", json=body)
    assert (status, answer["code"]) == (400, code), answer


async def test_screenings_are_listed_and_read_within_the_workspace(client, broker):
    caller = await make_caller(role="ADMIN")
    ws = await Workspace.get(id=caller.workspace_id)
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)
    await enable_aml(ws.id, blocked_addresses=[blocked(SANCTIONED)])
    declined = await step(pipeline.run_checks, (await withdraw(ws, wallet, SANCTIONED, 1000)).transaction)
    approved = await step(pipeline.run_checks, (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction)
    api = Api(client, caller)
    status, page = await api.get("/api/v1/aml/screenings")
    assert (status, page["total"], {i["transaction_id"] for i in page["items"]}) == (
        200, 2, {str(approved.id), str(declined.id)})
    status, page = await api.get("/api/v1/aml/screenings", risk_level="severe")
    (item,) = page["items"]
    assert (item["risk_score"], item["post_screening_action"], item["matched_risks"]) == (
        100.0, "block", [{"category": "sanctions", "category_label": "Sanctioned entity", "exposure_percent": 100.0}])
    status, one = await api.get(f"/api/v1/aml/screenings/{item['id']}")
    assert (status, one) == (200, item)
    # The transaction carries it, with the spec's field types (numbers for score and exposure)
    status, tx = await api.get(f"/api/v1/transactions/{declined.id}")
    assert (tx["status"], tx["error_code"], tx["aml_screening"]) == ("declined", "AML_BLOCKED", item)
    # Another workspace: not found; bad filters: 400
    stranger = Api(client, await make_caller(role="ADMIN"))
    status, body = await stranger.get(f"/api/v1/aml/screenings/{item['id']}")
    assert (status, body["code"]) == (404, "AML_SCREENING_NOT_FOUND")
    assert (await stranger.get("/api/v1/aml/screenings"))[1]["total"] == 0
    for bad in ({"risk_level": "extreme"}, {"limit": "0"}, {"direction": "sideways"}, {"transaction_id": "x"}):
        status, body = await api.get("/api/v1/aml/screenings", **bad)
        assert (status, body["code"]) == (400, "VALIDATION_ERROR"), bad


async def test_release_of_a_frozen_deposit_needs_approve_transaction(client, broker):
    admin = await make_caller(role="ADMIN")
    ws = await Workspace.get(id=admin.workspace_id)
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await enable_aml(ws.id, blocked_addresses=[blocked(evm_faucet())])
    await fund(EVM, await address_of(wallet), ETH)
    (deposit,) = await watch(EVM)
    viewer = Api(client, await make_caller(role="VIEWER", workspace_id=ws.id))
    approver = Api(client, await make_caller(role="APPROVER", workspace_id=ws.id))
    path = f"/api/v1/transactions/{deposit.id}/release"
    status, body = await viewer.post(path, {})
    assert (status, body["code"]) == (403, "PERMISSION_DENIED")
    status, body = await approver.post(path, {"reason": 7})
    assert (status, body["code"]) == (400, "VALIDATION_ERROR")
    status, released = await approver.post(path, {"reason": "false positive"})
    assert status == 200, released
    assert (released["to"]["balance"]["frozen_atomic"], released["to"]["balance"]["available_atomic"]) == (
        "0", str(ETH))
    assert released["aml_screening"]["funds_frozen"] is False
    status, body = await approver.post(path, {})
    assert (status, body["code"]) == (409, "TRANSACTION_NOT_FROZEN")
    status, body = await approver.post(f"/api/v1/transactions/{uuid.uuid4()}/release", {})
    assert (status, body["code"]) == (404, "TRANSACTION_NOT_FOUND")
    stranger = Api(client, await make_caller(role="ADMIN"))
    status, body = await stranger.post(path, {})
    assert (status, body["code"]) == (404, "TRANSACTION_NOT_FOUND")


async def _wait_for_events(receiver, predicate, timeout: float = 30.0) -> list[dict]:
    for _ in range(int(timeout / 0.05)):
        events = [r.json for r in receiver.received]
        if predicate(events):
            return events
        await asyncio.sleep(0.05)
    raise AssertionError(f"events not delivered: {[e['type'] for e in (r.json for r in receiver.received)]}")


async def test_end_to_end_frozen_by_aml_released_and_finished_with_events(client, worker, receiver, tmp_path):
    # Given a workspace whose vault key comes from the DKG, a funded DETH wallet, and screening on
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    owner = setup.owner
    api = Api(client, owner)
    ws = await Workspace.get(id=setup.workspace_id)
    async with unit_of_work():
        (view,) = await wallets.create_wallet(principal=None, workspace=ws, vault_id=setup.vault.id,
                                              currency_id="DETH_TEST")
    address = await address_of(view.wallet)
    await faucet_command(network=EVM, address=address, amount="2", mine=True)
    await watch(EVM)
    earlier = await WebhookEvent.filter(workspace_id=ws.id).count()  # before the subscription: not sent
    status, webhook = await api.post("/api/v1/webhooks", {"url": receiver.url(),
                                                          "event_types": ["transaction.*", "aml.*"]})
    assert status == 201, webhook
    status, _ = await api.request("PUT", "/api/v1/whitelist/settings", json={"one_time_addresses_allowed": True})
    status, saved = await api.request("PUT", "/api/v1/aml/settings", json={
        **SETTINGS, "blocked_addresses": [*SETTINGS["blocked_addresses"],
                                          {"network_id": EVM, "address": evm_faucet(), "category": "scam"}]})
    assert status == 200, saved
    # When 0.5 DETH is sent to an address with 90 % mixing exposure (high risk)
    status, out = await api.post("/api/v1/transaction", {"amount": str(ETH // 2), "source_wallet_id": str(view.wallet.id),
                                                         "target_address": RISKY})
    assert status == 201, out
    # Then the worker's check stage screens it and freezes it (nothing held)
    frozen = await until_status(uuid.UUID(out["id"]), "frozen", "approved", "declined", network=EVM, timeout=60)
    assert (frozen.status, frozen.aml_screening["risk_level"], frozen.aml_screening["post_screening_action"]) == (
        "frozen", "high", "freeze")
    status, tx = await api.get(f"/api/v1/transactions/{out['id']}")
    assert (tx["status"], tx["from"]["balance"]["held_atomic"]) == ("frozen", "0")
    # When an approver unfreezes it: it resumes at approved, is signed, broadcast and finished
    status, resumed = await api.post(f"/api/v1/transactions/{out['id']}/unfreeze")
    assert (status, resumed["status"]) == (200, "approved")
    done = await until_status(uuid.UUID(out["id"]), "finished", "failed", network=EVM, timeout=60)
    assert (done.status, done.error_code) == ("finished", None)
    # And a withdrawal to the sanctioned address is declined by the worker
    status, refused = await api.post("/api/v1/transaction", {"amount": "1000", "source_wallet_id": str(view.wallet.id),
                                                             "target_address": SANCTIONED})
    declined = await until_status(uuid.UUID(refused["id"]), "declined", "approved", timeout=60)
    assert (declined.status, declined.error_code) == ("declined", "AML_BLOCKED")
    # When the (now blocked) faucet pays the wallet again: the deposit is frozen, then released
    await faucet_command(network=EVM, address=address, amount="1", mine=True)
    (deposit,) = await watch(EVM)
    status, assets = await api.get("/api/v1/asset")
    (asset,) = [a for a in assets["assets"] if a["vault_id"] == str(setup.vault.id)]
    assert asset["balances"]["frozen_atomic"] == str(ETH)
    status, released = await api.post(f"/api/v1/transactions/{deposit.id}/release", {"reason": "our faucet"})
    assert (status, released["to"]["balance"]["frozen_atomic"]) == (200, "0")
    # And every step arrived as a signed webhook event
    expected = await WebhookEvent.filter(workspace_id=ws.id).count() - earlier
    events = await _wait_for_events(receiver, lambda got: len({e["id"] for e in got}) >= expected, timeout=60)
    delivered = [verify(webhook["secret"], request) for request in receiver.received]
    assert len(delivered) >= len(events)
    about_out = [e for e in delivered if e["data"].get("id") == out["id"]
                 or e["data"].get("transaction_id") == out["id"]]
    types = [e["type"] for e in about_out]
    assert {"transaction.created", "aml.screened", "transaction.updated", "transaction.finished"} <= set(types)
    assert any(e["type"] == "transaction.updated" and e["data"]["status"] == "frozen" for e in about_out)
    about_deposit = {e["type"] for e in delivered if str(deposit.id) in (e["data"].get("id"),
                                                                         e["data"].get("transaction_id"))}
    assert {"transaction.created", "aml.screened", "transaction.updated", "aml.released"} <= about_deposit
