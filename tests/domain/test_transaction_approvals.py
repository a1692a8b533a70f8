"""Transaction approvals (domain/transaction_approvals.py): requirements from the check results,
votes from paired devices, thresholds, declines, expiry, audit and webhook events."""

from __future__ import annotations

import pytest

from core.unit_of_work import unit_of_work
from domain import auth
from domain import transaction_approvals as approvals
from domain.errors import DomainError
from domain.withdrawals import checks, lifecycle, pipeline
from domain.withdrawals.checks import CheckResult, Verdict
from models.audit import AuditEntry
from models.policies import TransactionApproval
from models.transactions import Transaction
from models.webhooks import WebhookEvent
from tests.support.policies import approver, publish
from tests.support.wallets import vault_with_key, workspace
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, allow_one_time_addresses, funded_wallet, step, withdraw


async def _setup(threshold: int = 2, approvers: int = 3):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)
    people = [await approver(ws.id) for _ in range(approvers)]
    await publish(ws.id, [{"id": "hold", "name": "Everything needs approval", "action": "require_approval",
                           "approval": {"approver_user_ids": [p.user_id for p in people], "threshold": threshold}}])
    return ws, wallet, people


async def _held(ws, wallet) -> Transaction:
    tx = await step(pipeline.run_checks, (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction)
    assert tx.status == "awaiting_approvals"
    return tx


async def _vote(person, ws, tx, decision: str, reason: str | None = None):
    async with unit_of_work():
        return await approvals.vote(principal=await person.device_principal(), workspace_id=ws.id,
                                    transaction_id=tx.id, decision=decision, reason=reason)


async def _refused(coro) -> DomainError:
    with pytest.raises(DomainError) as caught:
        async with unit_of_work():
            await coro
    return caught.value


async def test_threshold_of_device_votes_approves_and_signing_follows(broker):
    ws, wallet, people = await _setup()
    tx = await _held(ws, wallet)
    request = await TransactionApproval.get(transaction_id=tx.id)
    assert request.requirements == [{"approver_user_ids": [p.user_id for p in people], "group_id": None,
                                     "threshold": 2, "source": "policy:hold", "initiator_excluded": False}]
    # The approvers see it waiting for their vote
    cards, total = await approvals.list_for_me(principal=await people[0].device_principal(), workspace_id=ws.id,
                                               scope="PENDING_MY_VOTE", limit=10, offset=0)
    assert total == 1 and cards[0].transaction.id == tx.id
    _, after_one = await _vote(people[0], ws, tx, "approve")
    assert (await Transaction.get(id=tx.id)).status == "awaiting_approvals"
    cards, total = await approvals.list_for_me(principal=await people[0].device_principal(), workspace_id=ws.id,
                                               scope="PENDING_MY_VOTE", limit=10, offset=0)
    assert total == 0
    # The same vote again changes nothing; the opposite one is a conflict
    await _vote(people[0], ws, tx, "approve")
    error = await _refused(approvals.vote(principal=await people[0].device_principal(), workspace_id=ws.id,
                                          transaction_id=tx.id, decision="decline"))
    assert error.code == "TRANSACTION_VOTE_CONFLICT"
    await _vote(people[1], ws, tx, "approve")
    row = await Transaction.get(id=tx.id)
    assert row.status == "approved"
    assert (await TransactionApproval.get(transaction_id=tx.id)).status == "approved"
    audit = await AuditEntry.filter(object_id=str(tx.id), action__startswith="transaction.").values_list(
        "action", flat=True)
    assert list(audit).count("transaction.approval_vote") == 2 and "transaction.approvals_approved" in audit
    events = await WebhookEvent.filter(workspace_id=ws.id, type="transaction.approval_voted").count()
    assert events == 2


async def test_votes_only_from_a_paired_device_of_a_named_approver(broker):
    ws, wallet, people = await _setup()
    tx = await _held(ws, wallet)
    own_key = await auth.authenticate(people[0].caller.token)
    error = await _refused(approvals.vote(principal=own_key, workspace_id=ws.id, transaction_id=tx.id,
                                          decision="approve"))
    assert (error.code, error.status) == ("TRANSACTION_VOTE_DEVICE_REQUIRED", 403)
    outsider = await approver(ws.id)
    error = await _refused(approvals.vote(principal=await outsider.device_principal(), workspace_id=ws.id,
                                          transaction_id=tx.id, decision="approve"))
    assert (error.code, error.status) == ("TRANSACTION_VOTE_NOT_ALLOWED", 403)


async def test_one_decline_declines_and_releases(broker):
    ws, wallet, people = await _setup()
    tx = await _held(ws, wallet)
    await _vote(people[2], ws, tx, "decline", "not today")
    row = await Transaction.get(id=tx.id)
    assert (row.status, row.error_code, row.holding) == ("declined", "APPROVAL_REJECTED", False)
    assert "not today" in row.error_message
    assert await WebhookEvent.filter(workspace_id=ws.id, type="transaction.declined").exists()
    error = await _refused(approvals.vote(principal=await people[0].device_principal(), workspace_id=ws.id,
                                          transaction_id=tx.id, decision="approve"))
    assert error.code == "TRANSACTION_NOT_AWAITING_APPROVALS"


async def test_every_requirement_of_every_check_must_reach_its_threshold(broker):
    ws, wallet, people = await _setup(threshold=1, approvers=2)
    extra = await approver(ws.id)

    class AmlLike:
        name = "aml_like"

        async def check(self, subject):
            return CheckResult(Verdict.REQUIRE_APPROVAL, "aml_like", details={"approval": {
                "approver_user_ids": [extra.user_id], "group_id": None, "threshold": 1, "source": "aml:risky"}})

    checks.register_check(AmlLike())
    try:
        tx = await _held(ws, wallet)
    finally:
        checks.unregister_check("aml_like")
    assert [r["source"] for r in (await TransactionApproval.get(transaction_id=tx.id)).requirements] == [
        "policy:hold", "aml:risky"]
    await _vote(people[0], ws, tx, "approve")
    assert (await Transaction.get(id=tx.id)).status == "awaiting_approvals"
    await _vote(extra, ws, tx, "approve")
    assert (await Transaction.get(id=tx.id)).status == "approved"


async def test_approvals_expire_and_freeze_closes_then_unfreeze_reopens(broker, frozen_clock, settings):
    ws, wallet, people = await _setup()
    tx = await _held(ws, wallet)
    async with unit_of_work():
        await lifecycle.freeze(principal=None, workspace_id=ws.id, transaction_id=tx.id)
    assert (await TransactionApproval.get(transaction_id=tx.id)).status == "closed"
    async with unit_of_work():
        await lifecycle.unfreeze(principal=None, workspace_id=ws.id, transaction_id=tx.id)
    reopened = await TransactionApproval.get(transaction_id=tx.id)
    assert reopened.status == "pending"
    frozen_clock.advance(seconds=settings.transaction_approval_expiry_seconds + 1)
    due = await approvals.due_for_expiry()
    assert due == [tx.id]
    async with unit_of_work():
        assert await approvals.expire(transaction_id=tx.id)
    row = await Transaction.get(id=tx.id)
    assert (row.status, row.error_code, row.holding) == ("expired", "APPROVAL_EXPIRED", False)
    assert (await TransactionApproval.get(transaction_id=tx.id)).status == "expired"
    assert await AuditEntry.filter(object_id=str(tx.id), action="transaction.approvals_expired").exists()
    assert await WebhookEvent.filter(workspace_id=ws.id, type="transaction.expired").exists()
