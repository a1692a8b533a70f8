"""Refuelling (domain/withdrawals/refuels.py) and the withdrawals that wait for it: a token
withdrawal of a vault with autofuel on and no gas waits, the station refuels its address through the
withdrawal pipeline, and the withdrawal goes on when the refuel is final. Plus every rule of a
refuel check: the station never refuels itself, thresholds, one live refuel per address (under
concurrency), max_gas_price held back and retried, the daily budget, the station's low balance."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

import pytest

from core import clock
from core.outbox import Command
from core.settings import configure
from core.unit_of_work import unit_of_work
from domain import balances, transactions
from domain.errors import DomainError
from domain.gas_station import autofuel, configuration
from domain.gas_station.autofuel import CHECK_REFUEL
from domain.gas_station.configuration import AssetChange
from domain.withdrawals import lifecycle, pipeline, refuels
from models.audit import AuditEntry
from models.gas_station import GasStationAsset, Refuel, VaultAutofuel
from models.transactions import Transaction
from models.wallets import Wallet
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.wallets import KeyedVault, address_of, fund, reload, vault_with_key, watch, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    EVM,
    allow_one_time_addresses,
    confirm,
    funded_wallet,
    sign_with_test_key,
    step,
    to_broadcast,
    withdraw,
)

THRESHOLD, CAP = 5 * 10**15, 2 * 10**16
#: The devnet's fees at 1 gwei: a native transfer (a refuel) and a token transfer.
NATIVE_FEE, TOKEN_FEE = 21_000 * 10**9, 65_000 * 10**9
TOKENS = 10**9


@dataclass
class Setup:
    ws: Workspace
    station: KeyedVault
    station_wallet: Wallet
    target: KeyedVault
    token_wallet: Wallet

    async def native(self) -> Wallet:
        return await Wallet.get(vault_id=self.target.vault.id, currency_id="DETH_TEST")


async def _setup(*, station_gas: int = ETH, target_gas: int = 0, autofuel: bool = True) -> Setup:
    """A station vault holding ``station_gas`` DETH and a token vault holding tokens and ``target_gas``."""
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    station = await vault_with_key(ws, name="Gas")
    station_wallet = await funded_wallet(station, "DETH_TEST", station_gas)
    target = await vault_with_key(ws, name="Tokens")
    token_wallet = await funded_wallet(target, "DUSD_TEST", TOKENS, gas=target_gas)
    async with unit_of_work():
        await configuration.assign_station(principal=None, workspace_id=ws.id, vault_id=station.vault.id)
        if autofuel:
            await configuration.set_autofuel(principal=None, workspace_id=ws.id, vault_id=target.vault.id,
                                             enabled=True)
    return Setup(ws, station, station_wallet, target, token_wallet)


async def _check(s: Setup, *, vault=None) -> refuels.Outcome:
    async with unit_of_work():
        return await refuels.check_refuel(workspace_id=s.ws.id, vault_id=(vault or s.target.vault).id,
                                          currency_id="DETH_TEST", reason="test")


async def _put(s: Setup, **values) -> None:
    async with unit_of_work():
        await configuration.update_asset(principal=None, workspace_id=s.ws.id, currency_id="DETH_TEST",
                                         change=AssetChange(**values))


async def _commands(actor_name: str, **payload) -> int:
    return await Command.filter(actor_name=actor_name, payload__contains=payload).count()


def _parts(wallet: Wallet) -> tuple[int, int]:
    parts = balances.parts_of(wallet)
    return parts.total, parts.held


async def test_a_token_withdrawal_without_gas_waits_for_the_refuel_and_then_finishes(broker):
    # Given a token vault with autofuel on and no gas, and a funded station
    s = await _setup()
    # When a token withdrawal is created: it is accepted, holds its amount only and waits for gas
    tx = (await withdraw(s.ws, s.token_wallet, ELSEWHERE_EVM, 1000)).transaction
    assert (tx.status, tx.awaiting_gas) == ("pending", True)
    assert transactions.to_resource(tx)["awaiting_gas"] is True
    assert _parts(await reload(s.token_wallet)) == (TOKENS, 1000)
    assert _parts(await s.native()) == (0, 0)
    # And a refuel check of its vault was queued (besides the one autofuel's activation queued)
    assert await _commands(CHECK_REFUEL, vault_id=str(s.target.vault.id), currency_id="DETH_TEST",
                           reason="token_withdrawal") == 1
    assert await _commands(CHECK_REFUEL, vault_id=str(s.target.vault.id), reason="autofuel_activated") == 1
    # When the check runs: the station sends cap minus the balance (an internal transfer)
    outcome = await _check(s)
    assert outcome.action == "refuelled"
    refuel_tx = await Transaction.get(id=outcome.refuel.transaction_id)
    assert (int(refuel_tx.amount), refuel_tx.destination_type, refuel_tx.wallet_id) == (
        CAP, "internal", s.station_wallet.id)
    assert refuel_tx.idempotency_key == f"{refuels.KEY_PREFIX}{outcome.refuel.id}"
    # And the token withdrawal passes its checks but waits in approved while the gas is missing
    assert (await step(pipeline.run_checks, tx)).status == "approved"
    waiting = await step(pipeline.start_signing, tx)
    assert (waiting.status, waiting.awaiting_gas, waiting.signing_session_id) == ("approved", True, None)
    # When the refuel is signed, broadcast and final
    await to_broadcast(refuel_tx, s.station.key)
    assert (await confirm(refuel_tx)).status == "finished"
    assert _parts(await s.native()) == (CAP, 0)
    # Then the waiting withdrawal's sign step is issued again, holds the fee and signs
    assert await _commands(pipeline.SIGN, transaction_id=str(tx.id)) == 2
    signing = await step(pipeline.start_signing, tx)
    assert (signing.status, signing.awaiting_gas) == ("signing", False)
    assert _parts(await s.native()) == (CAP, TOKEN_FEE)
    await sign_with_test_key(signing, s.target.key)
    await step(pipeline.collect_signature, tx)
    await step(pipeline.broadcast, tx)
    done = await confirm(tx)
    assert (done.status, done.error_code) == ("finished", None)
    assert _parts(await reload(s.token_wallet)) == (TOKENS - 1000, 0)
    assert _parts(await s.native()) == (CAP - TOKEN_FEE, 0)
    # And the refuel is closed and audited
    async with unit_of_work():
        assert await refuels.close_refuel(refuel_id=outcome.refuel.id)
    assert (await Refuel.get(id=outcome.refuel.id)).status == "finished"
    actions = set(await AuditEntry.filter(workspace_id=s.ws.id).values_list("action", flat=True))
    assert {"gas_station.refuel_created", "gas_station.refuel_finished"} <= actions


async def test_without_autofuel_a_token_withdrawal_lacking_gas_is_still_refused(broker):
    s = await _setup(autofuel=False)
    with pytest.raises(DomainError) as refused:
        await withdraw(s.ws, s.token_wallet, ELSEWHERE_EVM, 1000)
    assert (refused.value.status, refused.value.code) == (409, "INSUFFICIENT_GAS")
    assert (await _check(s)).reason == refuels.AUTOFUEL_OFF
    assert not await Refuel.exists()


async def test_the_station_never_refuels_itself(broker):
    s = await _setup()
    await funded_wallet(s.station, "DUSD_TEST", TOKENS)
    # Even with an autofuel row on the station vault (written behind the service's back)
    await VaultAutofuel.create(workspace_id=s.ws.id, vault_id=s.station.vault.id, enabled=True)
    # Then its autofuel does not count, a check of it is skipped, and nothing is sent
    assert await autofuel.is_on(s.station.vault.id) is False
    assert (await _check(s, vault=s.station.vault)).reason == refuels.STATION_VAULT
    assert not await Refuel.exists()


async def test_a_balance_at_threshold_is_left_alone_and_a_held_fee_below_it_starts_a_refuel(broker):
    s = await _setup(target_gas=THRESHOLD)
    assert (await _check(s)).reason == refuels.ABOVE_THRESHOLD
    # When a token withdrawal holds its fee, the available gas falls below the threshold
    tx = (await withdraw(s.ws, s.token_wallet, ELSEWHERE_EVM, 1000)).transaction
    assert tx.awaiting_gas is False
    outcome = await _check(s)
    assert outcome.action == "refuelled"
    assert int(outcome.refuel.amount) == CAP - (THRESHOLD - TOKEN_FEE)


async def test_concurrent_checks_of_one_address_make_exactly_one_refuel(broker):
    s = await _setup()
    outcomes = await asyncio.gather(*(_check(s) for _ in range(8)))
    assert sorted(o.action for o in outcomes) == ["refuelled"] + ["skipped"] * 7
    assert {o.reason for o in outcomes if o.action == "skipped"} == {refuels.IN_PROGRESS}
    assert await Refuel.filter(status="in_flight").count() == 1
    assert await Transaction.filter(wallet_id=s.station_wallet.id, direction="withdrawal").count() == 1


async def test_the_unique_index_allows_one_live_refuel_per_address_and_asset(broker):
    from tortoise.exceptions import IntegrityError

    s = await _setup()
    outcome = await _check(s)
    live = outcome.refuel
    with pytest.raises(IntegrityError):
        async with unit_of_work():
            await Refuel.create(workspace_id=s.ws.id, gas_station_id=live.gas_station_id, currency_id="DETH_TEST",
                                network=EVM, target_vault_id=s.target.vault.id, target_address=live.target_address,
                                status="held_back", amount=1)


async def test_a_refuel_held_back_by_max_gas_price_is_retried_by_the_scheduler(broker):
    s = await _setup()
    await _put(s, max_gas_price=0)  # no fee allowed
    outcome = await _check(s)
    assert outcome.action == "held_back"
    held = await Refuel.get(id=outcome.refuel.id)
    assert (held.status, held.transaction_id) == ("held_back", None)
    assert await AuditEntry.filter(action="gas_station.refuel_held_back").count() == 1
    # Not a configuration error: the configuration is untouched, and a second check keeps the one refuel
    assert (await _check(s)).action == "held_back"
    assert await Refuel.all().count() == 1
    # Not due before retry_at
    assert await refuels.due_held_back() == []
    clock.get_clock().advance(seconds=31)
    due = await refuels.due_held_back()
    assert [r.id for r in due] == [held.id]
    # A limit below the fee still holds it back; at the fee it goes
    await _put(s, max_gas_price=NATIVE_FEE - 1)
    async with unit_of_work():
        assert (await refuels.retry_held_back(refuel_id=held.id)).action == "held_back"
    await _put(s, max_gas_price=NATIVE_FEE)
    clock.get_clock().advance(seconds=31)
    async with unit_of_work():
        retried = await refuels.retry_held_back(refuel_id=held.id)
    assert retried.action == "refuelled"
    row = await Refuel.get(id=held.id)
    assert (row.status, row.retry_at) == ("in_flight", None) and row.transaction_id is not None


async def test_a_held_back_refuel_no_longer_needed_is_dropped(broker):
    s = await _setup()
    await _put(s, max_gas_price=0)
    held = (await _check(s)).refuel
    async with unit_of_work():
        await configuration.set_autofuel(principal=None, workspace_id=s.ws.id, vault_id=s.target.vault.id,
                                         enabled=False)
    clock.get_clock().advance(seconds=31)
    async with unit_of_work():
        await refuels.retry_held_back(refuel_id=held.id)
    row = await Refuel.get(id=held.id)
    assert (row.status, row.reason) == ("dropped", refuels.AUTOFUEL_OFF)


async def test_the_daily_budget_counts_a_rolling_24_hours_and_raises_one_event(broker):
    s = await _setup()
    station = await GasStationAsset.get(currency_id="DETH_TEST").prefetch_related("gas_station")
    await _put(s, daily_budget=2 * CAP)
    # Given a refuel of cap + 1 sent 23 hours ago
    started = clock.now()
    await Refuel.create(workspace_id=s.ws.id, gas_station_id=station.gas_station_id, currency_id="DETH_TEST",
                        network=EVM, target_vault_id=s.target.vault.id, target_address="0x" + "cd" * 20,
                        status="finished", amount=CAP + 1, created_at=started - timedelta(hours=23))
    # When the check would send cap more: over the budget, skipped, one event (and one for two checks)
    assert (await _check(s)).reason == refuels.BUDGET_REACHED
    assert (await _check(s)).reason == refuels.BUDGET_REACHED
    events = await WebhookEvent.filter(workspace_id=s.ws.id, type="gas_station.budget_reached")
    assert len(events) == 1 and '"daily_budget":"%d"' % (2 * CAP) in events[0].payload
    assert not await Refuel.filter(status="in_flight").exists()
    # When the old refuel leaves the window (the clock moves on), the refuel goes
    clock.get_clock().advance(hours=1, seconds=1)
    assert (await _check(s)).action == "refuelled"
    assert await refuels.sent_within_window(station.gas_station, "DETH_TEST") == CAP


async def test_the_stations_low_balance_skips_the_refuel_and_raises_one_event(broker):
    s = await _setup(station_gas=CAP // 2)
    assert (await _check(s)).reason == refuels.STATION_LOW
    assert (await _check(s)).reason == refuels.STATION_LOW
    events = await WebhookEvent.filter(workspace_id=s.ws.id, type="gas_station.low_balance")
    assert len(events) == 1
    assert (await GasStationAsset.get(currency_id="DETH_TEST")).low_balance_since is not None
    # When the station is funded, the refuel goes and the low-balance episode ends
    await fund(EVM, await address_of(s.station_wallet), 10 * CAP)
    await watch(EVM)
    assert (await _check(s)).action == "refuelled"
    assert (await GasStationAsset.get(currency_id="DETH_TEST")).low_balance_since is None


async def test_an_asset_without_threshold_and_cap_is_skipped_until_they_are_set(broker):
    s = await _setup()
    await GasStationAsset.filter(currency_id="DETH_TEST").update(threshold=None, cap=None)  # no default
    assert (await _check(s)).reason == refuels.NOT_CONFIGURED
    await _put(s, threshold=THRESHOLD, cap=CAP)
    assert (await _check(s)).action == "refuelled"


async def test_a_token_deposit_to_an_autofuel_vault_queues_a_refuel_check(broker):
    s = await _setup()
    before = await _commands(CHECK_REFUEL, vault_id=str(s.target.vault.id))
    await fund(EVM, await address_of(s.token_wallet), 500, currency_id="DUSD_TEST")
    await watch(EVM)
    assert await _commands(CHECK_REFUEL, vault_id=str(s.target.vault.id)) == before + 1
    # A native deposit needs no refuel check
    await fund(EVM, await address_of(s.token_wallet), 500)
    await watch(EVM)
    assert await _commands(CHECK_REFUEL, vault_id=str(s.target.vault.id)) == before + 1


async def test_cancelling_a_withdrawal_waiting_for_gas_releases_only_what_it_held(broker):
    s = await _setup()
    tx = (await withdraw(s.ws, s.token_wallet, ELSEWHERE_EVM, 1000)).transaction
    async with unit_of_work():
        frozen = await lifecycle.freeze(principal=None, workspace_id=s.ws.id, transaction_id=tx.id)
    assert frozen.status == "frozen" and _parts(await reload(s.token_wallet)) == (TOKENS, 0)
    async with unit_of_work():
        back = await lifecycle.unfreeze(principal=None, workspace_id=s.ws.id, transaction_id=tx.id)
    assert (back.status, back.awaiting_gas) == ("pending", True)
    async with unit_of_work():
        cancelled = await lifecycle.cancel(principal=None, workspace_id=s.ws.id, transaction_id=tx.id)
    assert cancelled.status == "cancelled"
    assert _parts(await reload(s.token_wallet)) == (TOKENS, 0) and _parts(await s.native()) == (0, 0)


async def test_the_sweep_resumes_a_waiting_withdrawal_funded_by_hand_and_retries_a_skipped_refuel(broker):
    # Given a waiting withdrawal whose refuel was skipped (the station was low)
    s = await _setup(station_gas=CAP // 2)
    tx = (await withdraw(s.ws, s.token_wallet, ELSEWHERE_EVM, 1000)).transaction
    assert (await _check(s)).reason == refuels.STATION_LOW
    await step(pipeline.run_checks, tx)
    assert await refuels.waiting_for_gas() == [tx.id]
    # When the station is funded, the sweep checks the waiting withdrawal's address again: a refuel goes
    await fund(EVM, await address_of(s.station_wallet), 10 * CAP)
    await watch(EVM)
    async with unit_of_work():
        assert await refuels.attend_waiting(transaction_id=tx.id) == "refuelled"
    # And when gas arrives by other means (a deposit), the sweep resumes the withdrawal
    await fund(EVM, await address_of(s.token_wallet), ETH // 100)
    await watch(EVM)
    sign_steps = await _commands(pipeline.SIGN, transaction_id=str(tx.id))
    async with unit_of_work():
        assert await refuels.attend_waiting(transaction_id=tx.id) == "resumed"
    assert await _commands(pipeline.SIGN, transaction_id=str(tx.id)) == sign_steps + 1
    assert (await step(pipeline.start_signing, tx)).status == "signing"


async def test_a_station_wallet_opened_after_assignment_gets_the_default_configuration_at_the_first_check(broker):
    # Given a station assigned (and autofuel turned on) before the station vault had a native wallet
    ws = await workspace()
    station, target = await vault_with_key(ws, name="Gas"), await vault_with_key(ws, name="Tokens")
    await funded_wallet(target, "DUSD_TEST", TOKENS)
    async with unit_of_work():
        await configuration.assign_station(principal=None, workspace_id=ws.id, vault_id=station.vault.id)
        await configuration.set_autofuel(principal=None, workspace_id=ws.id, vault_id=target.vault.id, enabled=True)
    assert not await GasStationAsset.exists()
    # When the station opens and funds its native wallet, the next check configures it from the defaults
    await funded_wallet(station, "DETH_TEST", ETH)
    async with unit_of_work():
        outcome = await refuels.check_refuel(workspace_id=ws.id, vault_id=target.vault.id, currency_id="DETH_TEST")
    assert outcome.action == "refuelled" and int(outcome.refuel.amount) == CAP
    asset = await GasStationAsset.get(currency_id="DETH_TEST")
    assert (int(asset.threshold), int(asset.cap), asset.is_default) == (THRESHOLD, CAP, True)


@pytest.fixture
def no_gas_station_assets(settings, tmp_path):
    """A platform configuration that supports no base asset of the testnet."""
    path = tmp_path / "gas_station.json"
    path.write_text('{"mainnet": {}, "testnet": {}}')
    configure(settings.with_overrides(gas_station_file=path))
    yield
    configure(settings)


async def test_a_token_of_a_network_the_station_does_not_cover_is_refused_without_gas(broker, no_gas_station_assets):
    # Given autofuel on, but a platform configuration without the network's base asset
    s = await _setup()
    # Then a token withdrawal lacking gas is refused as before, and no refuel check is queued
    with pytest.raises(DomainError) as refused:
        await withdraw(s.ws, s.token_wallet, ELSEWHERE_EVM, 1000)
    assert refused.value.code == "INSUFFICIENT_GAS"
    assert await _commands(CHECK_REFUEL, reason="token_withdrawal") == 0
    assert (await _check(s)).reason == refuels.UNSUPPORTED
