"""Policies and transaction approvals through HTTP: publish, history, rollback, explain, and a
withdrawal allowed, held and approved from a device, declined by vote and blocked by a rule, end
to end with the worker and the webhook events on a loopback receiver."""

from __future__ import annotations

from models.transactions import Transaction
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.approvals import make_owner
from tests.support.callers import make_caller
from tests.support.policies import approver
from tests.support.wallets import Api, vault_with_key
from tests.support.webhooks import verify
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, allow_one_time_addresses, funded_wallet
from tests.support.worker import wait_for


def _rules(approver_id: str) -> list[dict]:
    asset = {"currency_ids": ["DETH_TEST"]}
    return [
        {"id": "too-big", "name": "Too big", "action": "block", "asset": asset, "amount": {"min": "9000"}},
        {"id": "big", "name": "Big ones need approval", "action": "require_approval", "asset": asset,
         "amount": {"min": "5000"}, "approval": {"approver_user_ids": [approver_id], "threshold": 1}},
        {"id": "rest", "name": "The rest", "action": "allow"},
    ]


async def _owner_with_wallet(client):
    owner = await make_owner()
    ws = await Workspace.get(id=owner.workspace_id)
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)
    return Api(client, owner), owner, ws, wallet


def _base(ws) -> str:
    return f"/api/v2/admin/tenants/{ws.id}/policies"


async def test_publish_history_rollback_and_permissions(client, broker):
    api, owner, ws, wallet = await _owner_with_wallet(client)
    person = await approver(ws.id)
    status, listed = await api.get(_base(ws))
    assert status == 200 and [p["published"] for p in listed["policies"]] == [None, None]
    status, v1 = await api.request("PUT", f"{_base(ws)}/transfer", json={"rules": _rules(person.user_id)})
    assert status == 201, v1
    assert (v1["version"], v1["policy_type_name"], v1["no_match_action"]) == (1, "Transfer policy", "block")
    assert v1["version_published_at"] and [r["id"] for r in v1["rules"]] == ["too-big", "big", "rest"]
    status, v2 = await api.request("PUT", f"{_base(ws)}/transfer", json={"rules": [], "no_match_action": "allow"})
    assert (status, v2["version"]) == (201, 2)
    status, v3 = await api.post(f"{_base(ws)}/transfer/rollback", {"version": 1})
    assert (status, v3["version"], v3["copied_from_version"], v3["rules"]) == (201, 3, 1, v1["rules"])
    status, page = await api.get(f"{_base(ws)}/transfer/versions")
    assert [v["version"] for v in page["items"]] == [3, 2, 1] and page["total"] == 3
    status, one = await api.get(f"{_base(ws)}/transfer/versions/2")
    assert (status, one["no_match_action"]) == (200, "allow")
    status, missing = await api.get(f"{_base(ws)}/transfer/versions/99")
    assert (status, missing["code"]) == (404, "POLICY_VERSION_NOT_FOUND")
    status, unknown = await api.get(f"{_base(ws)}/nonsense")
    assert (status, unknown["code"]) == (404, "POLICY_TYPE_NOT_FOUND")
    # A bad rule names its field
    status, bad = await api.request("PUT", f"{_base(ws)}/transfer", json={"rules": [
        {"name": "x", "action": "block", "source": {"type": "any", "tag_ids": [str(ws.id)], "tag_match_mode": "any"}}]})
    assert (status, bad["code"], bad["details"]["field"]) == (400, "INVALID_POLICY_RULE", "rules[0].source.tag_ids")
    # Only MANAGE_POLICIES publishes; another workspace's caller sees nothing
    editor = Api(client, await make_caller(role="EDITOR", workspace_id=ws.id))
    status, denied = await editor.request("PUT", f"{_base(ws)}/transfer", json={"rules": []})
    assert (status, denied["code"]) == (403, "PERMISSION_DENIED")
    stranger = Api(client, await make_owner())
    status, hidden = await stranger.get(_base(ws))
    assert (status, hidden["code"]) == (404, "WORKSPACE_NOT_FOUND")


async def test_explain_tells_every_rule_verdict_against_the_published_policy_or_a_draft(client, broker):
    api, owner, ws, wallet = await _owner_with_wallet(client)
    person = await approver(ws.id)
    hypothetical = {"amount": "9500", "source_wallet_id": str(wallet.id), "target_address": ELSEWHERE_EVM}
    status, none = await api.post(f"{_base(ws)}/transfer/explain", {"withdrawal": hypothetical})
    assert (status, none["code"]) == (404, "POLICY_NOT_PUBLISHED")
    await api.request("PUT", f"{_base(ws)}/transfer", json={"rules": _rules(person.user_id)})
    status, explained = await api.post(f"{_base(ws)}/transfer/explain", {"withdrawal": hypothetical})
    assert status == 200, explained
    assert (explained["action"], explained["matched_rule"]["rule_id"], explained["version"]) == ("block", "too-big", 1)
    assert [(r["rule_id"], r["matched"]) for r in explained["rules"]] == [
        ("too-big", True), ("big", True), ("rest", True)]
    assert explained["destination_type"] == "one_time"
    assert "amount 9500 atomic units within [9000, -)" in explained["matched_rule"]["reason"]
    status, held = await api.post(f"{_base(ws)}/transfer/explain",
                                  {"withdrawal": {**hypothetical, "amount": "6000"}})
    assert (held["action"], held["approval"]["source"], held["approval"]["threshold"]) == (
        "require_approval", "policy:big", 1)
    assert held["rules"][0]["matched"] is False and "outside" in held["rules"][0]["reason"]
    # A rule naming the caller: explain shows the approvers a real withdrawal would get, the
    # initiator (the caller, by default) left out (four eyes), and that two cannot be reached
    four_eyes = [{"id": "pair", "name": "Two of us", "action": "require_approval",
                  "approval": {"approver_user_ids": [owner.person_id, person.user_id], "threshold": 2}}]
    status, mine = await api.post(f"{_base(ws)}/transfer/explain", {"withdrawal": hypothetical, "rules": four_eyes})
    assert status == 200, mine
    assert (mine["approval"]["approver_user_ids"], mine["approval"]["initiator_excluded"],
            mine["approval"]["meetable"]) == ([person.user_id], True, False)
    # Made by someone else, both named approvers count
    status, theirs = await api.post(f"{_base(ws)}/transfer/explain", {
        "withdrawal": {**hypothetical, "initiator_user_id": person.user_id}, "rules": four_eyes})
    assert (theirs["approval"]["approver_user_ids"], theirs["approval"]["initiator_excluded"]) == (
        [owner.person_id], True)
    # A draft with a window: the usage is shown and nothing is counted
    draft = [{"id": "hourly", "name": "Two an hour", "action": "allow",
              "window": {"seconds": 3600, "max_count": 2, "match": "within"}}]
    status, drafted = await api.post(f"{_base(ws)}/transfer/explain", {"withdrawal": hypothetical, "rules": draft})
    assert (status, drafted["draft"], drafted["version"], drafted["action"]) == (200, True, None, "allow")
    assert drafted["rules"][0]["window"]["used"]["count"] == 0
    assert drafted["rules"][0]["window"]["with_this"]["count"] == 1
    status, aml = await api.post(f"{_base(ws)}/aml/explain", {"withdrawal": hypothetical})
    assert (status, aml["code"]) == (400, "POLICY_TYPE_NOT_EXPLAINABLE")


async def test_end_to_end_allowed_held_approved_declined_blocked_with_events(client, worker, receiver):
    api, owner, ws, wallet = await _owner_with_wallet(client)
    person = await approver(ws.id)
    status, webhook = await api.post("/api/v1/webhooks", {"url": receiver.url(), "event_types": ["transaction.*"]})
    assert status == 201
    status, _ = await api.request("PUT", f"{_base(ws)}/transfer", json={"rules": _rules(person.user_id)})
    assert status == 201

    async def create(amount: int) -> dict:
        status, body = await api.post("/api/v1/transaction", {"amount": str(amount), "source_wallet_id": str(wallet.id),
                                                              "target_address": ELSEWHERE_EVM})
        assert status == 201, body
        return body

    async def left_checks(transaction_id: str, *wanted: str) -> Transaction:
        async def reached():
            tx = await Transaction.get(id=transaction_id)
            return tx if tx.status in wanted else None
        return await wait_for(reached, timeout=30, interval=0.02)

    past_approval = ("approved", "signing", "awaiting_broadcast", "broadcast", "finished", "failed")
    allowed = await create(1000)
    held = await create(6000)
    refused = await create(7000)
    blocked = await create(9500)
    assert (await left_checks(allowed["id"], *past_approval)).checks[0]["details"]["policy"]["rule_id"] == "rest"
    await left_checks(held["id"], "awaiting_approvals")
    await left_checks(refused["id"], "awaiting_approvals")
    blocked_row = await left_checks(blocked["id"], "declined")
    assert blocked_row.error_code == "POLICY_BLOCKED" and "Too big" in blocked_row.error_message
    # The approver's device lists what waits for its vote
    device = Api(client, person.device)
    status, waiting = await device.get("/api/v1/transactions/approvals")
    assert status == 200 and {i["transaction_id"] for i in waiting["items"]} == {held["id"], refused["id"]}
    assert all(i["can_vote"] for i in waiting["items"])
    # A vote with the approver's own key (not the device) is refused
    status, refusal = await Api(client, person.caller).post(f"/api/v1/transactions/{held['id']}/approve")
    assert (status, refusal["code"]) == (403, "TRANSACTION_VOTE_DEVICE_REQUIRED")
    # Approved from the device: signing follows
    status, card = await device.post(f"/api/v1/transactions/{held['id']}/approve", {"reason": "known payee"})
    assert status == 200, card
    assert card["status"] == "approved" and card["requirements"][0]["reached"] is True
    await left_checks(held["id"], *past_approval)
    # Declined by vote
    status, card = await device.post(f"/api/v1/transactions/{refused['id']}/decline")
    assert (status, card["status"], card["transaction"]["status"]) == (200, "declined", "declined")
    assert card["transaction"]["error_code"] == "APPROVAL_REJECTED"
    status, waiting = await device.get("/api/v1/transactions/approvals")
    assert waiting["items"] == []
    # The events: each vote, the approval, the declines, delivered signed to the receiver
    wanted = {(held["id"], "transaction.approval_voted"), (refused["id"], "transaction.approval_voted"),
              (refused["id"], "transaction.declined"), (blocked["id"], "transaction.declined")}

    async def delivered():
        seen = {(e["data"]["id"], e["type"]) for e in (verify(webhook["secret"], r) for r in receiver.received)}
        return seen if wanted <= seen else None

    seen = await wait_for(delivered, timeout=30, interval=0.05)
    assert wanted <= seen
    votes = [verify(webhook["secret"], r) for r in receiver.received]
    vote = next(e for e in votes if e["type"] == "transaction.approval_voted" and e["data"]["id"] == held["id"])
    assert vote["data"]["approval_vote"]["vote"] == "approve"
    assert vote["data"]["approval_vote"]["device_id"] == person.device.user_id
    approved_updates = [e for e in votes if e["data"]["id"] == held["id"] and e["type"] == "transaction.updated"
                        and e["data"]["status"] == "approved"]
    assert approved_updates
    assert await WebhookEvent.filter(workspace_id=ws.id, type="transaction.approval_voted").count() == 2
