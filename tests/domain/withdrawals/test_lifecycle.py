"""Freeze, unfreeze, cancel and expiry (domain/withdrawals/lifecycle.py): every release path gives
the held amount back exactly once, and unfreeze returns to the previous status."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.unit_of_work import unit_of_work
from domain import balances, vaults
from domain.errors import DomainError
from domain.withdrawals import lifecycle, pipeline
from models.audit import AuditEntry
from models.transactions import Transaction
from models.webhooks import WebhookEvent
from tests.support.callers import make_principal
from tests.support.wallets import reload, vault_with_key, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    allow_one_time_addresses,
    expire_due,
    funded_wallet,
    step,
    to_broadcast,
    withdraw,
)

HELD = 1000 + 21_000 * 10**9


async def _setup():
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    return ws, tv, await funded_wallet(tv, "DETH_TEST", ETH)


async def _held(wallet) -> int:
    return balances.parts_of(await reload(wallet)).held


async def _act(action, tx: Transaction, principal=None) -> Transaction:
    async with unit_of_work():
        return await action(principal=principal, workspace_id=tx.workspace_id, transaction_id=tx.id)  # type: ignore[attr-defined]


async def test_freeze_releases_and_unfreeze_returns_to_the_previous_status_holding_again(broker, frozen_clock):
    ws, _, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    tx = await step(pipeline.run_checks, tx)
    assert (tx.status, await _held(wallet)) == ("approved", HELD)
    # When it is frozen: nothing is held any more, and freezing again changes nothing
    frozen = await _act(lifecycle.freeze, tx)
    assert (frozen.status, frozen.frozen_from, frozen.holding, await _held(wallet)) == ("frozen", "approved", False, 0)
    seq = frozen.seq
    assert (await _act(lifecycle.freeze, tx)).seq == seq
    # A frozen withdrawal does not move on, even if its next step runs
    assert (await step(pipeline.start_signing, tx)).status == "frozen"
    # When it is unfrozen two hours later: back to approved, held again, expiry moved by the frozen time
    expires = frozen.expires_at
    frozen_clock.advance(hours=2)
    resumed = await _act(lifecycle.unfreeze, tx)
    assert (resumed.status, resumed.holding, resumed.frozen_from, await _held(wallet)) == ("approved", True, None, HELD)
    assert resumed.expires_at == expires + timedelta(hours=2)
    # And the step it was at runs again (its command was queued with the unfreeze)
    assert (await step(pipeline.start_signing, tx)).status == "signing"
    # Unfreezing what is not frozen, or freezing after signing began, is refused
    with pytest.raises(DomainError) as refused:
        await _act(lifecycle.unfreeze, tx)
    assert refused.value.code == "TRANSACTION_NOT_FROZEN"
    with pytest.raises(DomainError) as refused:
        await _act(lifecycle.freeze, tx)
    assert refused.value.code == "TRANSACTION_NOT_FREEZABLE"
    # Every transition was written to the log, the audit log and as an event
    actions = await AuditEntry.filter(object_id=str(tx.id)).values_list("action", flat=True)
    assert sorted(actions) == sorted(["withdrawal.created", "withdrawal.checks", "withdrawal.approved",
                                      "withdrawal.frozen", "withdrawal.approved", "withdrawal.signing"])
    events = await WebhookEvent.filter(workspace_id=ws.id, payload__contains=str(tx.id)).values_list("type", flat=True)
    assert sorted(events) == sorted(["transaction.created"] + ["transaction.updated"] * 5)


async def test_unfreeze_holds_again_or_stays_frozen_when_the_money_is_gone(broker):
    ws, _, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 2)).transaction
    await _act(lifecycle.freeze, tx)
    # Meanwhile another withdrawal takes most of the balance
    await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 2 + 1)
    with pytest.raises(DomainError) as refused:
        await _act(lifecycle.unfreeze, tx)
    assert refused.value.code == "INSUFFICIENT_BALANCE"
    row = await Transaction.get(id=tx.id)
    assert (row.status, row.holding) == ("frozen", False)


async def test_a_frozen_vault_freezes_its_withdrawals_at_signing_and_blocks_their_unfreeze(broker):
    ws, tv, wallet = await _setup()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    await step(pipeline.run_checks, tx)
    async with unit_of_work():
        await vaults.set_frozen(principal=None, workspace_id=ws.id, vault_id=tv.vault.id, frozen=True)
    # When its signing step runs: it is frozen from approved, and nothing is held or signed
    row = await step(pipeline.start_signing, tx)
    assert (row.status, row.frozen_from, row.signing_session_id, await _held(wallet)) == ("frozen", "approved", None, 0)
    with pytest.raises(DomainError) as refused:
        await _act(lifecycle.unfreeze, tx)
    assert refused.value.code == "VAULT_FROZEN"
    async with unit_of_work():
        await vaults.set_frozen(principal=None, workspace_id=ws.id, vault_id=tv.vault.id, frozen=False)
    assert (await _act(lifecycle.unfreeze, tx)).status == "approved"


async def test_only_the_creator_cancels_and_only_before_signing(broker):
    ws, tv, wallet = await _setup()
    creator = await make_principal(role="SIGNER", workspace_id=ws.id)
    colleague = await make_principal(role="ADMIN", workspace_id=ws.id)
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, principal=creator)).transaction
    with pytest.raises(DomainError) as refused:
        await _act(lifecycle.cancel, tx, colleague)
    assert (refused.value.code, refused.value.status) == ("TRANSACTION_CANCEL_NOT_ALLOWED", 403)
    cancelled = await _act(lifecycle.cancel, tx, creator)
    assert (cancelled.status, cancelled.holding, await _held(wallet)) == ("cancelled", False, 0)
    # Cancelling again answers it unchanged
    assert (await _act(lifecycle.cancel, tx, creator)).seq == cancelled.seq
    # After signing began it cannot be cancelled
    signing = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1001, principal=creator)).transaction
    await to_broadcast(signing, tv.key)
    with pytest.raises(DomainError) as refused:
        await _act(lifecycle.cancel, signing, creator)
    assert refused.value.code == "TRANSACTION_NOT_CANCELLABLE"


async def test_expiry_releases_withdrawals_not_signing_in_time_but_not_frozen_ones(broker, frozen_clock):
    ws, tv, wallet = await _setup()
    waiting = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    frozen = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1001)).transaction
    signing = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1002)).transaction
    await _act(lifecycle.freeze, frozen)
    await to_broadcast(signing, tv.key)
    assert await expire_due() == 0
    # When the expiry time (24 h by default) has passed
    frozen_clock.advance(hours=24, seconds=1)
    assert await expire_due() == 1
    # Then only the waiting one expired, its hold released; the frozen one waits; the broadcast one goes on
    statuses = {t.id: t.status for t in await Transaction.filter(direction="withdrawal")}
    assert statuses == {waiting.id: "expired", frozen.id: "frozen", signing.id: "broadcast"}
    assert (await Transaction.get(id=waiting.id)).error_code == "EXPIRED"
    assert await _held(wallet) == 1002 + 21_000 * 10**9
    event = await WebhookEvent.get(type="transaction.expired")
    assert str(waiting.id) in event.payload


async def test_every_release_path_releases_exactly_once_in_any_order(broker):
    ws, _, wallet = await _setup()
    # freeze → cancel, freeze → expire attempt, cancel → freeze attempt, declined via rejected approval
    a = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    b = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1001)).transaction
    c = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1002)).transaction
    await _act(lifecycle.freeze, a)
    await _act(lifecycle.cancel, a)
    await _act(lifecycle.cancel, b)
    with pytest.raises(DomainError):
        await _act(lifecycle.freeze, b)
    await _act(lifecycle.freeze, c)
    await _act(lifecycle.freeze, c)
    await _act(lifecycle.unfreeze, c)
    await _act(lifecycle.cancel, c)
    await _act(lifecycle.cancel, c)
    # Then nothing is held and the total is untouched: each hold was given back once
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held, parts.available) == (ETH, 0, ETH)
    assert {t.status for t in await Transaction.filter(direction="withdrawal")} == {"cancelled"}
