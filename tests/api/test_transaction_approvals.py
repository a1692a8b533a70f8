"""Four eyes on transaction approvals (issue 21.2), through HTTP from paired devices.

The maker of a withdrawal never checks it: a person who initiates (from their paired device) is
left out of every requirement and their vote is refused; a requirement that cannot be met without
them declines the withdrawal at once (APPROVAL_UNREACHABLE). Devices are paired the documented
way (tests/support/approvals.py), never written to the database.
"""

from __future__ import annotations

import uuid

from core.outbox import Command
from domain import transaction_approvals as approvals
from domain.withdrawals import pipeline
from models.audit import AuditEntry
from tests.support.approvals import DeviceCaller, make_owner, make_person
from tests.support.client import AppClient
from tests.support.policies import publish
from tests.support.wallets import vault_with_key, workspace
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, allow_one_time_addresses, funded_wallet, step


async def _scene(approver_roles: tuple[str, ...]) -> tuple:
    """A workspace with its owner, a funded DETH wallet, a SIGNER person (the maker) and people
    with ``approver_roles`` (the checkers)."""
    ws = await workspace()
    await make_owner(workspace_id=str(ws.id))
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)
    maker = await make_person(workspace_id=str(ws.id), role="SIGNER")
    checkers = [await make_person(workspace_id=str(ws.id), role=role) for role in approver_roles]
    return ws, wallet, maker, checkers


async def _withdraw_as(client: AppClient, person: DeviceCaller, wallet_id: uuid.UUID) -> dict:
    _, created = await client.post("/api/v1/transaction", headers=person.headers(), json={
        "amount": "1000", "source_wallet_id": str(wallet_id), "target_address": ELSEWHERE_EVM})
    assert created.status == 201, created.json
    return created.json


async def test_the_initiator_never_approves_their_own_withdrawal(client, broker):
    # Given a rule requiring one approval from the maker or the checker
    ws, wallet, maker, (checker,) = await _scene(("APPROVER",))
    await publish(ws.id, [{"id": "hold", "name": "Everything", "action": "require_approval",
                           "approval": {"approver_user_ids": [maker.person_id, checker.person_id], "threshold": 1}}])
    # When the maker creates a withdrawal from their device and the check stage holds it
    tx = await _withdraw_as(client, maker, wallet.id)
    assert tx["created_by"] == maker.person_id  # the person behind the device, not the device
    assert (await step(pipeline.run_checks, uuid.UUID(tx["id"]))).status == "awaiting_approvals"
    # Then the request leaves the maker out, and the maker's vote is refused either way
    _, card = await client.get(f"/api/v1/transactions/{tx['id']}/approvals", headers=checker.headers())
    (requirement,) = card.json["requirements"]
    assert requirement["approver_user_ids"] == [checker.person_id] and requirement["initiator_excluded"] is True
    for verb in ("approve", "decline"):
        _, own = await client.post(f"/api/v1/transactions/{tx['id']}/{verb}", headers=maker.headers(), json={})
        assert own.status == 403 and own.json["code"] == "TRANSACTION_VOTE_BY_INITIATOR", verb
    _, waiting = await client.get("/api/v1/transactions/approvals", headers=maker.headers())
    assert waiting.json["total"] == 0
    # When the checker approves from their device
    _, approved = await client.post(f"/api/v1/transactions/{tx['id']}/approve", headers=checker.headers(), json={})
    # Then the withdrawal goes on to signing, approved by someone else
    assert approved.status == 200 and approved.json["status"] == "approved"
    assert approved.json["transaction"]["status"] == "approved"
    votes = await AuditEntry.filter(action="transaction.approval_vote", object_id=tx["id"]).values_list(
        "actor_id", flat=True)
    assert [str(v) for v in votes] == [checker.person_id]


async def test_a_rule_only_the_initiator_could_meet_declines_at_once(client, broker):
    # Given a rule whose one approver is the maker
    ws, wallet, maker, _ = await _scene(())
    await publish(ws.id, [{"id": "self", "name": "Self check", "action": "require_approval",
                           "approval": {"approver_user_ids": [maker.person_id], "threshold": 1}}])
    # When the maker withdraws and the check stage holds it
    tx = await _withdraw_as(client, maker, wallet.id)
    await step(pipeline.run_checks, uuid.UUID(tx["id"]))
    # Then the settle command was queued with the hold, and it declines the withdrawal: nobody may approve it
    assert await Command.filter(actor_name=approvals.SETTLE, payload__contains={"transaction_id": tx["id"]}).exists()
    row = await step(approvals.settle, uuid.UUID(tx["id"]))
    assert (row.status, row.error_code) == ("declined", "APPROVAL_UNREACHABLE")
    assert "the initiator cannot approve their own withdrawal" in row.error_message
    _, seen = await client.get(f"/api/v1/transactions/{tx['id']}", headers=maker.headers())
    assert seen.json["status"] == "declined" and seen.json["error_code"] == "APPROVAL_UNREACHABLE"
    _, card = await client.get(f"/api/v1/transactions/{tx['id']}/approvals", headers=maker.headers())
    assert card.json["status"] == "declined"
