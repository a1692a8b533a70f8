"""Policy windows (domain/policies/windows.py): counts and sums over a rolling window, exact under
concurrency, released when a withdrawal is declined, frozen, cancelled or expired, and taken again
on unfreeze."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from core.unit_of_work import unit_of_work
from domain.policies import service, windows
from domain.policies.service import PolicyCheck
from domain.withdrawals import ledger, lifecycle, pipeline
from domain.withdrawals.checks import CheckSubject
from models.policies import PolicyWindowBucket, PolicyWindowEntry
from models.transactions import Transaction
from models.vaults import Vault
from tests.support.callers import make_principal
from tests.support.policies import publish
from tests.support.wallets import vault_with_key, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    allow_one_time_addresses,
    expire_due,
    funded_wallet,
    step,
    withdraw,
)

HOUR = 3600


def _within(max_count: int | None = None, max_amount: str | None = None, scope: str = "rule") -> list[dict]:
    """Allow while the window has room; no match (the window full) fails closed."""
    window = {"seconds": HOUR, "match": "within", "scope": scope}
    if max_count is not None:
        window["max_count"] = max_count
    if max_amount is not None:
        window["max_amount"] = max_amount
    return [{"id": "limit", "name": "Hourly limit", "action": "allow", "asset": {"currency_ids": ["DETH_TEST"]},
             "window": window}]


async def _setup():
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", 10 * ETH)
    return ws, tv, wallet


async def _checked(ws, wallet, amount=1000, **kw) -> Transaction:
    created = await withdraw(ws, wallet, ELSEWHERE_EVM, amount, **kw)
    return await step(pipeline.run_checks, created.transaction)


async def test_count_and_sum_limits_and_the_window_rolls(broker, frozen_clock):
    ws, tv, wallet = await _setup()
    await publish(ws.id, _within(max_count=2, max_amount="5000"))
    assert [(await _checked(ws, wallet, 2000)).status for _ in range(2)] == ["approved", "approved"]
    third = await _checked(ws, wallet, 100)
    assert third.status == "declined"
    window = third.checks[0]["details"]["policy"]
    assert window["rule_id"] is None and "no rule matched" in window["reason"]
    # The amount limit: one hour later the window is empty again; 4000 + 2000 is over 5000
    frozen_clock.advance(seconds=HOUR + 1)
    assert (await _checked(ws, wallet, 4000)).status == "approved"
    assert (await _checked(ws, wallet, 2000)).status == "declined"
    assert (await _checked(ws, wallet, 1000)).status == "approved"


async def test_per_source_windows_are_separate(broker):
    ws, tv, wallet = await _setup()
    other = await funded_wallet(await vault_with_key(ws, name="Other"), "DETH_TEST", ETH)
    await publish(ws.id, _within(max_count=1, scope="source"))
    assert (await _checked(ws, wallet)).status == "approved"
    assert (await _checked(ws, other)).status == "approved"
    assert (await _checked(ws, wallet)).status == "declined"


async def test_declined_cancelled_frozen_and_expired_withdrawals_release_their_room(broker, frozen_clock):
    ws, tv, wallet = await _setup()
    creator = await make_principal(role="ADMIN", workspace_id=ws.id)
    await publish(ws.id, [
        {"id": "approve", "name": "Big ones need approval", "action": "require_approval",
         "asset": {"currency_ids": ["DETH_TEST"]}, "amount": {"min": "5000"},
         "approval": {"approver_user_ids": [str(creator.user.id)], "threshold": 1}},
        *_within(max_count=1),
    ])
    key = "transfer:{}:limit:3600"

    async def used() -> int:
        return (await windows.usage([(key.format(ws.id), HOUR)]))[key.format(ws.id)].count

    # cancelled
    first = await _checked(ws, wallet, principal=creator)
    assert first.status == "approved" and await used() == 1
    async with unit_of_work():
        await lifecycle.cancel(principal=creator, workspace_id=ws.id, transaction_id=first.id)
    assert await used() == 0
    # frozen, then unfrozen: the room is taken again (even though the window is full by then)
    second = await _checked(ws, wallet)
    async with unit_of_work():
        await lifecycle.freeze(principal=None, workspace_id=ws.id, transaction_id=second.id)
    assert await used() == 0
    third = await _checked(ws, wallet)
    assert third.status == "approved" and await used() == 1
    async with unit_of_work():
        await lifecycle.unfreeze(principal=None, workspace_id=ws.id, transaction_id=second.id)
    assert await used() == 2
    # expired: a withdrawal awaiting approvals that was counted (the approval rule is first,
    # but every rule whose conditions select the withdrawal counts it) leaves the window
    frozen_clock.advance(seconds=HOUR + 1)
    held = await _checked(ws, wallet, 6000)
    assert held.status == "awaiting_approvals" and await used() == 1
    frozen_clock.advance(seconds=25 * HOUR)
    assert await expire_due() >= 1
    assert (await Transaction.get(id=held.id)).status == "expired"
    # every one of them ended (expired) and left the running totals
    totals = await PolicyWindowBucket.filter(window_key=key.format(ws.id)).values_list("count", flat=True)
    assert sum(totals) == 0
    assert await PolicyWindowEntry.filter(transaction_id=held.id, released_at__isnull=False).count() == 1


async def _subject(ws, tx: Transaction) -> CheckSubject:
    row = await Transaction.get(id=tx.id)
    parties = await ledger.load(row, lock=False)
    return CheckSubject(transaction=row, workspace_id=ws.id, vault=await Vault.get(id=row.vault_id),
                        source_wallet=parties.source, currency=parties.currency, amount=int(row.amount),
                        destination_type="one_time", target_address=ELSEWHERE_EVM, target_wallet_id=None,
                        whitelisted_wallet_id=None, amount_usdt=None)


async def test_two_withdrawals_racing_for_the_last_room_cannot_both_pass(broker):
    """The policy check of two withdrawals runs at the same time, each in its own database
    transaction (the stage itself is also serialized per workspace by the change-log counter,
    so the check is raced directly here): exactly one gets the last room."""
    ws, tv, wallet = await _setup()
    other = await funded_wallet(await vault_with_key(ws, name="Other"), "DETH_TEST", ETH)
    await publish(ws.id, _within(max_count=1))

    async def check(tx: Transaction) -> str:
        async with unit_of_work():
            return (await PolicyCheck().check(await _subject(ws, tx))).verdict.value

    for _ in range(3):
        a = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
        b = (await withdraw(ws, other, ELSEWHERE_EVM, 1000)).transaction
        verdicts = await asyncio.gather(check(a), check(b))
        assert sorted(verdicts) == ["allow", "block"]
        # free the room for the next round
        await windows_release(a, b)
    # and through the whole stage
    a = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    b = (await withdraw(ws, other, ELSEWHERE_EVM, 1000)).transaction
    results = await asyncio.gather(step(pipeline.run_checks, a), step(pipeline.run_checks, b))
    assert sorted(r.status for r in results) == ["approved", "declined"]


async def windows_release(*txs: Transaction) -> None:
    async with unit_of_work():
        for tx in txs:
            await windows.release_transaction(tx.id)


async def test_a_rerun_of_the_check_stage_does_not_count_the_withdrawal_twice(broker):
    ws, tv, wallet = await _setup()
    await publish(ws.id, _within(max_count=1))
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    async with unit_of_work():
        subject = await _subject(ws, tx)
        first = await PolicyCheck().check(subject)
        again = await PolicyCheck().check(subject)
    assert (first.verdict.value, again.verdict.value) == ("allow", "allow")
    assert await PolicyWindowEntry.filter(transaction_id=tx.id).count() == 1


async def test_buckets_make_the_window_exact_at_its_edge(broker, frozen_clock):
    """Entries in the partial bucket at the window's start count only from the start on."""
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    key = "edge"
    async with unit_of_work():
        await windows.record(workspace_id=ws.id, transaction_id=tx.id, windows=[(key, HOUR)], amount=7,
                             amount_usd=None)
    frozen_clock.advance(seconds=HOUR - 1)
    assert (await windows.usage([(key, HOUR)]))[key].amount == 7
    frozen_clock.advance(seconds=2)
    assert (await windows.usage([(key, HOUR)]))[key].count == 0
    # The same entry seen through the running bucket at mid-window
    frozen_clock.advance(seconds=-HOUR // 2)
    assert (await windows.usage([(key, HOUR)]))[key].count == 1
    assert timedelta(seconds=windows.bucket_seconds(HOUR)) == timedelta(minutes=1)


async def test_a_failure_before_broadcast_releases_and_explain_shows_the_usage(broker):
    ws, tv, wallet = await _setup()
    await publish(ws.id, _within(max_count=2))
    first = await _checked(ws, wallet)
    await _checked(ws, wallet)
    explained = await service.explain(principal=None, workspace_id=ws.id, withdrawal=service.Hypothetical(
        source_wallet_id=wallet.id, amount=1000, target_address=ELSEWHERE_EVM))
    window = explained.decision.verdicts[0].window
    assert (explained.decision.action, window["used"]["count"], window["over"]) == ("block", 2, ["count 3 > 2"])
    # The first one fails before it is broadcast (e.g. the fee limit when it is built): its room is free again
    async with unit_of_work():
        row = await Transaction.filter(id=first.id).select_for_update().first()
        await pipeline.fail(await ledger.load(row, lock=True), code="FEE_LIMIT_EXCEEDED", message="test")
    explained = await service.explain(principal=None, workspace_id=ws.id, withdrawal=service.Hypothetical(
        source_wallet_id=wallet.id, amount=1000, target_address=ELSEWHERE_EVM))
    assert explained.decision.action == "allow" and explained.decision.verdicts[0].window["used"]["count"] == 1
    assert (await _checked(ws, wallet)).status == "approved"
