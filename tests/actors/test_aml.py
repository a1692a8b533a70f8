"""The ``aml.poll`` actor through a real worker: an asynchronous provider's pending deposit is
registered, screened and released; a later update is applied; a pending withdrawal's check stage
runs again as soon as its result is there; a second delivery of the job changes nothing."""

from __future__ import annotations

import asyncio
from typing import Iterator

import pytest

from actors.aml import POLL
from domain import balances
from domain.aml import decisions, providers
from domain.withdrawals import pipeline
from models.aml import AmlScreening
from models.audit import AuditEntry
from models.transactions import Transaction
from tests.support.aml import AsyncTestProvider, enable_aml, install_async_provider, result
from tests.support.wallets import address_of, fund, open_wallet, reload, vault_with_key, watch, workspace
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, EVM, allow_one_time_addresses, funded_wallet, step, withdraw


@pytest.fixture
def async_provider() -> Iterator[AsyncTestProvider]:
    provider = install_async_provider()
    previous = decisions.policy_evaluator()
    decisions.register_policy_evaluator(None)
    yield provider
    decisions.register_policy_evaluator(previous)
    providers.unregister_provider(provider.name)


async def _poll(broker, worker) -> None:
    await asyncio.to_thread(broker.get_actor(POLL).send)
    await worker.drain()


async def test_the_poll_registers_screens_releases_and_applies_updates(broker, worker, async_provider):
    # Given a deposit waiting for an asynchronous provider (its amount frozen)
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await enable_aml(ws.id, provider="test_async")
    await fund(EVM, await address_of(wallet), ETH)
    (deposit,) = await watch(EVM)
    record = await AmlScreening.get(transaction_id=deposit.id)
    # When the poll runs: registered with the provider, still pending, still frozen
    await _poll(broker, worker)
    assert AsyncTestProvider.ref_of(record.id) in async_provider.registered
    assert balances.parts_of(await reload(wallet)).frozen == ETH
    # When the provider's result is low and the poll runs (twice: the second finds nothing to do)
    async_provider.answer(record.id, result("low", "3"))
    await _poll(broker, worker)
    await _poll(broker, worker)
    parts = balances.parts_of(await reload(wallet))
    assert (parts.frozen, parts.available) == (0, ETH)
    assert await AuditEntry.filter(object_id=str(deposit.id), action="aml.released").count() == 1
    # When the provider re-screens it: the update is applied once, no money moves
    async_provider.update(record.id, result("severe", "99", sanctions="100"))
    await _poll(broker, worker)
    await _poll(broker, worker)
    row = await Transaction.get(id=deposit.id)
    assert [u["risk_level"] for u in row.aml_screening["updates"]] == ["severe"]
    assert balances.parts_of(await reload(wallet)).available == ETH


async def test_a_pending_withdrawal_is_checked_again_when_its_result_arrives(broker, worker, async_provider):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    wallet = await funded_wallet(await vault_with_key(ws), "DETH_TEST", ETH)
    await enable_aml(ws.id, provider="test_async")
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    assert (await step(pipeline.run_checks, tx)).status == "checks"
    record = await AmlScreening.get(transaction_id=tx.id)
    # The provider answers severe; the poll queues the check stage, which the worker runs: declined
    async_provider.answer(record.id, result("severe", "100", sanctions="100"))
    await _poll(broker, worker)
    row = await Transaction.get(id=tx.id)
    assert (row.status, row.error_code, row.aml_screening["post_screening_action"]) == (
        "declined", "AML_BLOCKED", "block")
