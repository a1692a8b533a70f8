"""The check stage (domain/withdrawals/checks.py): allow by default; a registered check blocks,
asks for approvals or defers, and the approvals hook moves the withdrawal on."""

from __future__ import annotations

from datetime import timedelta
from typing import Iterator

import pytest

from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import balances
from domain.withdrawals import checks, pipeline
from domain.withdrawals.checks import CheckResult, CheckSubject, Verdict
from domain.withdrawals.create import CHECK
from models.transactions import Transaction
from tests.support.checks import only_checks
from tests.support.wallets import reload, vault_with_key, workspace
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, allow_one_time_addresses, funded_wallet, step, withdraw


class FixedCheck:
    """A check answering one verdict for amounts at or above ``threshold`` (allow below)."""

    def __init__(self, name: str, verdict: Verdict, *, threshold: int = 0, code: str | None = None) -> None:
        self.name, self.verdict, self.threshold, self.code = name, verdict, threshold, code
        self.seen: list[CheckSubject] = []

    async def check(self, subject: CheckSubject) -> CheckResult:
        self.seen.append(subject)
        if subject.amount < self.threshold:
            return CheckResult(Verdict.ALLOW, self.name)
        return CheckResult(self.verdict, self.name, code=self.code, reason=f"{self.name} says {self.verdict}",
                           retry_after=timedelta(seconds=5) if self.verdict is Verdict.DEFER else None)


@pytest.fixture(autouse=True)
def only_these_checks() -> Iterator[None]:
    """The stage with only the checks a test registers (the service's own, the policy engine and AML, are
    put back afterwards)."""
    with only_checks():
        yield


@pytest.fixture
def registered() -> Iterator[list[FixedCheck]]:
    added: list[FixedCheck] = []
    yield added
    for check in added:
        checks.unregister_check(check.name)


def _register(added: list[FixedCheck], check: FixedCheck) -> FixedCheck:
    checks.register_check(check)
    added.append(check)
    return check


async def _withdrawal(amount: int = 1000):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)
    return wallet, (await withdraw(ws, wallet, ELSEWHERE_EVM, amount)).transaction


async def test_with_no_check_registered_every_withdrawal_is_approved(broker):
    _, tx = await _withdrawal()
    row = await step(pipeline.run_checks, tx)
    assert (row.status, row.checks) == ("approved", [])
    assert await Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(tx.id)}).exists()


async def test_a_blocking_check_declines_and_releases_with_its_code(broker, registered):
    policy = _register(registered, FixedCheck("policy", Verdict.BLOCK, threshold=500, code="POLICY_BLOCKED"))
    wallet, tx = await _withdrawal()
    row = await step(pipeline.run_checks, tx)
    assert (row.status, row.error_code, row.error_message, row.holding) == (
        "declined", "POLICY_BLOCKED", "policy says block", False)
    assert balances.parts_of(await reload(wallet)).held == 0
    assert row.checks[0]["verdict"] == "block" and policy.seen[0].destination_type == "one_time"
    assert policy.seen[0].amount_usdt == "0.00"


async def test_a_check_asking_for_approval_waits_for_the_approvals_hook(broker, registered):
    _register(registered, FixedCheck("aml", Verdict.ALLOW))
    _register(registered, FixedCheck("approvals", Verdict.REQUIRE_APPROVAL))
    wallet, tx = await _withdrawal()
    row = await step(pipeline.run_checks, tx)
    assert (row.status, [c["verdict"] for c in row.checks]) == ("awaiting_approvals", ["allow", "require_approval"])
    # When the approvers approve: approved, and signing is queued
    async with unit_of_work():
        await pipeline.resolve_approvals(transaction_id=tx.id, approved=True)
    assert (await Transaction.get(id=tx.id)).status == "approved"
    # A second withdrawal rejected by the approvers is declined and released
    other = (await withdraw(await tx.workspace, wallet, ELSEWHERE_EVM, 2000)).transaction
    await step(pipeline.run_checks, other)
    async with unit_of_work():
        await pipeline.resolve_approvals(transaction_id=other.id, approved=False, reason="not this week")
    row = await Transaction.get(id=other.id)
    assert (row.status, row.error_code, row.error_message) == ("declined", "APPROVAL_REJECTED", "not this week")
    assert balances.parts_of(await reload(wallet)).held == 1000 + 21_000 * 10**9


async def test_block_wins_over_approval_and_defer_keeps_the_stage_open(broker, registered):
    deferring = _register(registered, FixedCheck("aml", Verdict.DEFER))
    _register(registered, FixedCheck("approvals", Verdict.REQUIRE_APPROVAL))
    _, tx = await _withdrawal()
    row = await step(pipeline.run_checks, tx)
    # An AML provider still screening: the withdrawal stays in checks and the stage runs again later
    assert row.status == "checks"
    assert await Command.filter(actor_name=CHECK, payload__contains={"transaction_id": str(tx.id)},
                                run_at=row.updated_at + timedelta(seconds=5)).exists()
    # When the provider answers "block", the block wins over the approval request
    deferring.verdict, deferring.code = Verdict.BLOCK, "AML_HIGH_RISK"
    row = await step(pipeline.run_checks, tx)
    assert (row.status, row.error_code) == ("declined", "AML_HIGH_RISK")


def test_a_check_name_is_registered_once(registered):
    _register(registered, FixedCheck("policy", Verdict.ALLOW))
    with pytest.raises(ValueError):
        checks.register_check(FixedCheck("policy", Verdict.BLOCK))


async def test_freeze_ranks_after_block_and_before_defer_and_remembers_where_to_resume(broker, registered):
    freezing = _register(registered, FixedCheck("aml", Verdict.FREEZE, code="AML_FROZEN"))
    _register(registered, FixedCheck("approvals", Verdict.REQUIRE_APPROVAL))
    deferring = _register(registered, FixedCheck("slow", Verdict.DEFER))
    wallet, tx = await _withdrawal()
    # A freeze beside a deferring check and an approval request: frozen by the system, hold released,
    # resuming at awaiting_approvals (what the other verdicts lead to) when it is unfrozen
    row = await step(pipeline.run_checks, tx)
    assert (row.status, row.frozen_from, row.holding) == ("frozen", "awaiting_approvals", False)
    assert balances.parts_of(await reload(wallet)).held == 0
    # A block wins over a freeze
    deferring.verdict, deferring.code = Verdict.BLOCK, "POLICY_BLOCKED"
    other = (await withdraw(await tx.workspace, wallet, ELSEWHERE_EVM, 2000)).transaction
    row = await step(pipeline.run_checks, other)
    assert (row.status, row.error_code) == ("declined", "POLICY_BLOCKED")
    assert freezing.seen and checks.Verdict.FREEZE.value == "freeze"
