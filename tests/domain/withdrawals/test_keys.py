"""X-Idempotency-Key, X-Attempt-Key and X-Utxo-Intent-Key (domain/withdrawals/keys.py): each rule."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from core.unit_of_work import unit_of_work
from domain import balances
from domain.errors import DomainError
from domain.withdrawals import lifecycle
from domain.withdrawals.keys import RequestKeys, parse_keys
from models.transactions import Transaction
from tests.support.wallets import reload, vault_with_key, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    allow_one_time_addresses,
    external_utxo_address,
    funded_wallet,
    withdraw,
)


async def _refused(coro) -> DomainError:
    with pytest.raises(DomainError) as refused:
        await coro
    return refused.value


async def _cancel(tx: Transaction) -> None:
    async with unit_of_work():
        await lifecycle.cancel(principal=None, workspace_id=tx.workspace_id, transaction_id=tx.id)  # type: ignore[attr-defined]


async def _evm_wallet():
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    return ws, await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)


async def _utxo_wallet():
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    return ws, await funded_wallet(await vault_with_key(ws), "DBTC_TEST", 10_000_000)


def test_header_values_are_checked_each_with_its_own_code():
    assert parse_keys(idempotency_key="a" * 100, attempt_key="order-1:retry", utxo_intent_key=None).attempt_key
    for field, code in (("idempotency_key", "INVALID_IDEMPOTENCY_KEY"), ("attempt_key", "INVALID_ATTEMPT_KEY"),
                        ("utxo_intent_key", "INVALID_UTXO_INTENT_KEY")):
        for bad in ("", "a" * 101, "has space", "tab\there", "caf\u00e9"):
            values = {"idempotency_key": None, "attempt_key": None, "utxo_intent_key": None, field: bad}
            with pytest.raises(DomainError) as refused:
                parse_keys(**values)
            assert refused.value.code == code, (field, bad)


async def test_an_idempotent_repeat_returns_the_same_transaction_and_holds_once(broker):
    ws, wallet = await _evm_wallet()
    keys = RequestKeys(idempotency_key="payout-1")
    first = await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys)
    # When the same request comes again with the key
    again = await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys)
    # Then it is the same transaction, answered as a replay, and nothing more is held
    assert (again.replayed, again.transaction.id, first.replayed) == (True, first.transaction.id, False)
    assert balances.parts_of(await reload(wallet)).held == 1000 + 21_000 * 10**9
    # The same key with a different request is refused with its own code
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1001, keys=keys))
    assert (refused.code, refused.status, refused.details["transaction_id"]) == (
        "IDEMPOTENCY_KEY_REUSED", 422, str(first.transaction.id))
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000,
                                      keys=RequestKeys(idempotency_key="payout-1", attempt_key="a")))
    assert refused.code == "IDEMPOTENCY_KEY_REUSED"
    # Keys are scoped per workspace: another workspace may use the same key
    other_ws, other_wallet = await _evm_wallet()
    assert not (await withdraw(other_ws, other_wallet, ELSEWHERE_EVM, 1000, keys=keys)).replayed


async def test_a_refused_request_leaves_its_key_free(broker):
    ws, wallet = await _evm_wallet()
    keys = RequestKeys(idempotency_key="k")
    assert (await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 2 * ETH, keys=keys))).code == "INSUFFICIENT_BALANCE"
    assert not (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys)).replayed


async def test_concurrent_requests_with_one_key_create_one_transaction(broker):
    ws, wallet = await _evm_wallet()
    keys = RequestKeys(idempotency_key="burst")
    results = await asyncio.gather(*(withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys) for _ in range(100)))
    assert sum(not r.replayed for r in results) == 1
    assert len({r.transaction.id for r in results}) == 1
    assert await Transaction.filter(direction="withdrawal").count() == 1


async def test_an_attempt_key_links_retries_of_a_failed_payment_one_live_at_a_time(broker):
    ws, wallet = await _evm_wallet()
    keys = RequestKeys(attempt_key="invoice-7")
    first = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys)).transaction
    assert (first.attempt_number, first.retry_of_id) == (1, None)  # type: ignore[attr-defined]
    # While the attempt is live, another one is refused
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys))
    assert (refused.code, refused.details["transaction_id"]) == ("ATTEMPT_IN_PROGRESS", str(first.id))
    # Once it ended without paying, an equivalent retry is attempt 2, linked to it (the fee may change)
    await _cancel(first)
    retry = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys, fee=21_000 * 2 * 10**9)).transaction
    assert (retry.attempt_number, retry.retry_of_id) == (2, first.id)  # type: ignore[attr-defined]
    # A retry that is not equivalent is refused, naming what differs
    await _cancel(retry)
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 999, keys=keys))
    assert (refused.code, refused.status, refused.details["differs"]) == ("ATTEMPT_NOT_EQUIVALENT", 422, ["amount"])
    # After an attempt finished (the payment was made), every retry is refused
    await Transaction.filter(id=retry.id).update(status="finished")
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys))
    assert (refused.code, refused.details["transaction_id"]) == ("ATTEMPT_ALREADY_FINISHED", str(retry.id))


async def test_concurrent_attempts_with_one_key_leave_one_live(broker):
    ws, wallet = await _evm_wallet()
    keys = RequestKeys(attempt_key="race")

    async def one() -> str:
        try:
            await withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=keys)
            return "created"
        except DomainError as exc:
            return exc.code

    outcomes = await asyncio.gather(*(one() for _ in range(20)))
    assert sorted(set(outcomes)) == ["ATTEMPT_IN_PROGRESS", "created"] and outcomes.count("created") == 1


async def test_utxo_same_values_are_a_probable_duplicate_unless_a_new_intent_key_says_otherwise(broker, frozen_clock):
    ws, wallet = await _utxo_wallet()
    to = external_utxo_address()
    first = (await withdraw(ws, wallet, to, 50_000)).transaction
    # The same source, destination and amount again within the window: refused
    refused = await _refused(withdraw(ws, wallet, to, 50_000))
    assert (refused.code, refused.details["transaction_id"], refused.details["window_seconds"]) == (
        "PROBABLE_DUPLICATE", str(first.id), 86_400)
    # Other values are not duplicates
    assert (await withdraw(ws, wallet, to, 50_001)).transaction.status == "pending"
    # A new intent key makes a second payment on purpose; an intent key is used once per workspace
    second = (await withdraw(ws, wallet, to, 50_000, keys=RequestKeys(utxo_intent_key="bonus-2"))).transaction
    assert second.utxo_intent_key == "bonus-2"
    refused = await _refused(withdraw(ws, wallet, to, 70_000, keys=RequestKeys(utxo_intent_key="bonus-2")))
    assert (refused.code, refused.details["transaction_id"]) == ("UTXO_INTENT_KEY_USED", str(second.id))
    # A payment that ended unsuccessfully does not count; after the window nothing counts
    await _cancel(first)
    await _cancel(second)
    third = (await withdraw(ws, wallet, to, 50_000)).transaction
    frozen_clock.advance(timedelta(days=1, seconds=1))
    assert (await withdraw(ws, wallet, to, 50_000)).transaction.id != third.id


async def test_the_intent_key_is_for_utxo_networks_only(broker):
    ws, wallet = await _evm_wallet()
    refused = await _refused(withdraw(ws, wallet, ELSEWHERE_EVM, 1000, keys=RequestKeys(utxo_intent_key="x")))
    assert (refused.code, refused.status) == ("UTXO_INTENT_KEY_NOT_APPLICABLE", 400)
    # On a gas network the same values twice are two payments (nonces order them; no duplicate rule)
    await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)
    await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)
