"""Refuelling: the station sends gas to a vault whose address runs low, through the withdrawal pipeline.

When (spec rule 9: no manual step)
    A refuel check (:func:`check_refuel`, outbox command ``gas_station.check_refuel``) is queued
    when a token withdrawal is created from a vault with autofuel on, when a token deposit to such
    a vault is detected, and when autofuel is turned on; the scheduled :func:`retry_due` also
    checks every address where a token withdrawal is waiting for gas without a live refuel.

What a check decides (the first that applies)
    skipped: no station; the target is the station's own vault (rule 8); autofuel off; a base
    asset the platform does not support (rules 5, 6); no native wallet at the target; a refuel of
    that address and asset is already live; no threshold/cap (no default, rule 5); the available
    balance is at least the threshold and covers the fees that waiting withdrawals need.
    Otherwise a refuel of ``cap - available`` is wanted, and:

    * **held back** when the network fee of the refuel is above ``max_gas_price`` (rule 4: -1 no
      limit, 0 no fee allowed): the refuel is recorded ``held_back`` and tried again by the
      scheduler (``gas_station.retry``) after ``GAS_STATION_RETRY_INTERVAL_SECONDS``; it is not a
      configuration error, and it keeps the address's one live refuel;
    * **skipped, budget reached** when the amount would take the total sent of that asset over
      the rolling 24 hours above ``daily_budget`` (``gas_station.budget_reached`` event, once per
      window);
    * **skipped, station low** when the station's available balance cannot pay amount plus fee
      (``gas_station.low_balance`` event, once until the balance recovers);
    * else **in flight**: a withdrawal from the station's native wallet to the target's native
      wallet (an internal transfer) is created.

Which checks a refuel passes
    The refuel is an ordinary withdrawal created by the system (``created_by`` null) with the
    idempotency key ``gas-station-refuel:<refuel id>``: it is reserved (409s are pre-checked and
    turn into a skip), goes through the check stage like any withdrawal, so policies and AML
    registered there apply to it, is signed by the station vault's key and tracked to finality.
    Its destination is internal, so the whitelist and the one-time address rule do not apply. No
    human approval is asked for by the gas station itself: a refuel needs one only if the
    workspace's own policy rules (the check stage) say so for withdrawals from the station vault.

One live refuel per address and asset
    Decided under a transaction-scoped advisory lock of (network, address, asset); the partial
    unique index ``gas_station_refuels_one_live`` is the last line (tested with concurrent checks).

When the refuel is final
    The withdrawal tracker credits the target wallet and resumes the token withdrawals waiting for
    gas at that address (domain.withdrawals.pipeline.resume_awaiting_gas); the refuel row is
    closed (``finished`` / ``failed``) by the next check of that address or by the retry sweep.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from tortoise import connections
from tortoise.functions import Sum
from tortoise.transactions import in_transaction

from core import clock
from core.settings import get_settings
from domain import audit, balances
from domain import transaction_statuses as statuses
from domain.currencies import registry
from domain.errors import DomainError
from domain.gas_station import autofuel
from domain.gas_station.configuration import OBJECT_TYPE, create_missing_assets
from domain.gas_station.defaults import NO_LIMIT, supported
from domain.networks.registry import get_adapter
from domain.webhooks import catalogue, events
from domain.withdrawals import create, pipeline
from domain.withdrawals.create import WithdrawalRequest
from domain.withdrawals.keys import RequestKeys
from models.gas_station import GasStation, GasStationAsset, Refuel
from models.transactions import Transaction
from models.wallets import Wallet
from models.workspaces import Workspace

logger = logging.getLogger(__name__)

#: Scheduled actor: held-back refuels, closing final ones, waiting withdrawals (every
#: GAS_STATION_RETRY_INTERVAL_SECONDS).
RETRY = "gas_station.retry"

HELD_BACK, IN_FLIGHT, FINISHED, FAILED, DROPPED = "held_back", "in_flight", "finished", "failed", "dropped"
#: A live refuel: at most one per (network, target address, asset).
LIVE = (HELD_BACK, IN_FLIGHT)
#: The rolling window of the daily budget.
BUDGET_WINDOW = timedelta(hours=24)
#: The idempotency key of a refuel's withdrawal names the refuel.
KEY_PREFIX = "gas-station-refuel:"

# Why a check did nothing (``Outcome.reason``).
NO_STATION = "no_gas_station"
STATION_VAULT = "station_vault"
AUTOFUEL_OFF = "autofuel_off"
UNSUPPORTED = "unsupported_asset"
NO_WALLET = "no_native_wallet"
IN_PROGRESS = "refuel_in_flight"
NOT_CONFIGURED = "not_configured"
ABOVE_THRESHOLD = "above_threshold"
CAP_REACHED = "cap_reached"
BUDGET_REACHED = "daily_budget_reached"
STATION_LOW = "station_balance_low"
REFUSED = "withdrawal_refused"


@dataclass(frozen=True)
class Outcome:
    #: ``refuelled``, ``held_back`` or ``skipped``.
    action: str
    reason: str | None = None
    refuel: Refuel | None = None


def _skipped(reason: str) -> Outcome:
    return Outcome("skipped", reason)


async def _lock_target(network: str, address: str, currency_id: str) -> None:
    await connections.get("default").execute_query(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [f"gas_station:refuel:{network}:{address}:{currency_id}"])


async def close_final(refuel: Refuel) -> bool:
    """Close an in-flight refuel whose withdrawal is final (finished / failed); True when closed."""
    if refuel.status != IN_FLIGHT or refuel.transaction_id is None:
        return False
    tx = await Transaction.get(id=refuel.transaction_id)
    if tx.status not in statuses.FINAL:
        return False
    refuel.status = FINISHED if tx.status == statuses.FINISHED else FAILED
    refuel.reason = None if tx.status == statuses.FINISHED else (tx.error_code or tx.status)
    await refuel.save(update_fields=["status", "reason"])
    await audit.record(action=f"gas_station.refuel_{refuel.status}", object_type=OBJECT_TYPE,
                       object_id=refuel.gas_station_id, actor_id=None,
                       workspace_id=refuel.workspace_id,
                       details=_refuel_details(refuel, transaction_status=tx.status))
    return True


def _refuel_details(refuel: Refuel, **extra: Any) -> dict[str, Any]:
    return {"refuel_id": str(refuel.id), "currency_id": refuel.currency_id, "network": refuel.network,
            "target_vault_id": str(refuel.target_vault_id),
            "target_address": refuel.target_address, "amount": str(int(refuel.amount)),
            "transaction_id": str(refuel.transaction_id) if refuel.transaction_id else None,
            "status": refuel.status, **extra}


async def sent_within_window(station: GasStation, currency_id: str) -> int:
    """What the station sent (or is sending) of ``currency_id`` in the rolling 24 hours."""
    rows = await Refuel.filter(gas_station_id=station.id, currency_id=currency_id, status__in=[IN_FLIGHT, FINISHED],
                               created_at__gte=clock.now() - BUDGET_WINDOW).annotate(
        total=Sum("amount")).values("total")
    total = rows[0]["total"] if rows else None
    return int(total or 0)


async def _waiting_fees(network: str, address: str) -> int:
    """The fees token withdrawals waiting for gas at the address need."""
    rows = await Transaction.filter(direction="withdrawal", network=network, from_address=address, awaiting_gas=True,
                                    status__in=list(statuses.LIVE)).values_list("fee_limit", flat=True)
    return sum(int(v) for v in rows)  # type: ignore[call-overload]  # flat values_list


async def _emit(workspace_id: uuid.UUID, event_type: str, data: dict[str, Any]) -> None:
    await events.emit_event(workspace_id=workspace_id, event_type=event_type, data=data)


async def _station_low(asset: GasStationAsset, station: GasStation, *, available: int, needed: int,
                       currency_id: str) -> None:
    """Raise ``gas_station.low_balance`` once per episode (until the balance recovers)."""
    if asset.low_balance_since is not None:
        return
    asset.low_balance_since = clock.now()
    await asset.save(update_fields=["low_balance_since"])
    data = {"gas_station_id": str(station.id), "vault_id": str(station.vault_id),
            "currency_id": currency_id, "available_atomic": str(available), "needed_atomic": str(needed)}
    await audit.record(action="gas_station.low_balance", object_type=OBJECT_TYPE, object_id=station.id,
                       actor_id=None, workspace_id=station.workspace_id, details=data)
    await _emit(station.workspace_id, catalogue.GAS_STATION_LOW_BALANCE, data)


async def _station_recovered(asset: GasStationAsset) -> None:
    if asset.low_balance_since is not None:
        asset.low_balance_since = None
        await asset.save(update_fields=["low_balance_since"])


async def _budget_reached(asset: GasStationAsset, station: GasStation, *, sent: int, amount: int) -> None:
    """Raise ``gas_station.budget_reached`` once per rolling window."""
    now = clock.now()
    if asset.budget_reached_at is not None and asset.budget_reached_at > now - BUDGET_WINDOW:
        return
    asset.budget_reached_at = now
    await asset.save(update_fields=["budget_reached_at"])
    data = {"gas_station_id": str(station.id), "vault_id": str(station.vault_id),
            "currency_id": asset.currency_id, "daily_budget": str(int(asset.daily_budget or 0)),
            "sent_atomic": str(sent), "requested_atomic": str(amount)}
    await audit.record(action="gas_station.budget_reached", object_type=OBJECT_TYPE, object_id=station.id,
                       actor_id=None, workspace_id=station.workspace_id, details=data)
    await _emit(station.workspace_id, catalogue.GAS_STATION_BUDGET_REACHED, data)


async def check_refuel(*, workspace_id: uuid.UUID | str, vault_id: uuid.UUID | str, currency_id: str,
                       reason: str = "") -> Outcome:
    """Check one vault's gas of ``currency_id`` and refuel it when needed (module docstring).

    Runs in the caller's unit of work (the actor's); the refuel's withdrawal, its audit entries
    and events commit with it.
    """
    workspace_id, vault_id = uuid.UUID(str(workspace_id)), uuid.UUID(str(vault_id))
    station = await GasStation.get_or_none(workspace_id=workspace_id)
    if station is None:
        return _skipped(NO_STATION)
    if station.vault_id == vault_id:
        return _skipped(STATION_VAULT)  # spec rule 8: never a refuel of the station itself
    if not await autofuel.is_on(vault_id):
        return _skipped(AUTOFUEL_OFF)
    currency = registry().currency(currency_id)
    if not currency.is_native or not supported(currency):
        return _skipped(UNSUPPORTED)
    target = await Wallet.get_or_none(vault_id=vault_id, currency_id=currency_id).select_related("address")
    if target is None:
        return _skipped(NO_WALLET)
    network, address = currency.network.id, target.address.address
    await _lock_target(network, address, currency_id)
    live = await Refuel.filter(network=network, target_address=address, currency_id=currency_id,
                               status__in=list(LIVE)).select_for_update().first()
    if live is not None and await close_final(live):
        live = None
    if live is not None and live.status == IN_FLIGHT:
        return Outcome("skipped", IN_PROGRESS, live)
    asset = await GasStationAsset.filter(gas_station_id=station.id, currency_id=currency_id).select_for_update().first()
    if asset is None and await create_missing_assets(station, currency.network_type):
        # The station vault opened this base asset's wallet after assignment and activation: its
        # configuration comes from the defaults, as it would have then.
        asset = await GasStationAsset.filter(gas_station_id=station.id,
                                             currency_id=currency_id).select_for_update().first()
    if asset is None or asset.threshold is None or asset.cap is None:
        return await _drop(live, NOT_CONFIGURED)
    threshold, cap = int(asset.threshold), int(asset.cap)
    target = await Wallet.get(id=target.id)  # fresh: the lock above may have waited for another refuel
    available = balances.parts_of(target).available
    waiting = await _waiting_fees(network, address)
    if available >= threshold and available >= waiting:
        return await _drop(live, ABOVE_THRESHOLD)
    amount = cap - available
    if amount <= 0:
        return await _drop(live, CAP_REACHED)
    fee = (await get_adapter(network).estimate_fee(currency=currency)).fee
    max_fee = int(asset.max_gas_price)
    if max_fee != NO_LIMIT and fee > max_fee:
        return await _hold_back(live, station=station, asset=asset, target=target, address=address, amount=amount,
                                fee=fee)
    if asset.daily_budget is not None:
        sent = await sent_within_window(station, currency_id)
        if sent + amount > int(asset.daily_budget):
            await _budget_reached(asset, station, sent=sent, amount=amount)
            return await _drop(live, BUDGET_REACHED)
    source = await Wallet.get_or_none(vault_id=station.vault_id, currency_id=currency_id)
    station_available = balances.parts_of(source).available if source is not None else 0
    if source is None or station_available < amount + fee:
        await _station_low(asset, station, available=station_available, needed=amount + fee, currency_id=currency_id)
        return await _drop(live, STATION_LOW)
    refuel = live or Refuel(workspace_id=workspace_id, gas_station_id=station.id, currency_id=currency_id,
                            network=network, target_vault_id=vault_id, target_address=address)
    workspace = await Workspace.get(id=workspace_id)
    try:
        async with in_transaction():  # a savepoint: a refused withdrawal leaves nothing behind
            created = await create.create_withdrawal(
                principal=None, workspace=workspace,
                request=WithdrawalRequest(amount=amount, source_wallet_id=source.id, target_address=address,
                                          target_wallet_id=target.id),
                keys=RequestKeys(idempotency_key=f"{KEY_PREFIX}{refuel.id}"))
    except DomainError as exc:
        logger.warning("gas station %s: the refuel of %s was refused: %s", station.id, address, exc.message)
        return await _drop(live, REFUSED)
    refuel.status, refuel.amount, refuel.retry_at = IN_FLIGHT, amount, None
    refuel.transaction_id = created.transaction.id
    refuel.reason = reason[:200] or None
    await refuel.save()
    await audit.record(action="gas_station.refuel_created", object_type=OBJECT_TYPE, object_id=station.id,
                       actor_id=None, workspace_id=workspace_id,
                       details=_refuel_details(refuel, available_before=str(available), threshold=str(threshold),
                                               cap=str(cap), fee_limit=str(int(created.transaction.fee_limit)),
                                               trigger=reason or None))
    remaining = station_available - amount - int(created.transaction.fee_limit)
    if remaining < cap:
        # The station cannot make one more full refuel of this asset: tell the workspace now.
        await _station_low(asset, station, available=remaining, needed=cap, currency_id=currency_id)
    else:
        await _station_recovered(asset)
    return Outcome("refuelled", None, refuel)


async def _drop(live: Refuel | None, reason: str) -> Outcome:
    """A held-back refuel no longer wanted (or no longer possible) ends ``dropped``."""
    if live is not None and live.status == HELD_BACK:
        live.status, live.reason, live.retry_at = DROPPED, reason, None
        await live.save(update_fields=["status", "reason", "retry_at"])
    return _skipped(reason)


async def _hold_back(live: Refuel | None, *, station: GasStation, asset: GasStationAsset, target: Wallet,
                     address: str, amount: int, fee: int) -> Outcome:
    """Record (or keep) the refuel ``held_back`` and set when the scheduler tries it again."""
    retry_at = clock.now() + timedelta(seconds=get_settings().gas_station_retry_interval_seconds)
    why = f"the network fee {fee} is above max_gas_price {int(asset.max_gas_price)}"
    first = live is None
    refuel = live or Refuel(workspace_id=station.workspace_id,
                            gas_station_id=station.id, currency_id=asset.currency_id,
                            network=registry().currency(asset.currency_id).network.id,
                            target_vault_id=target.vault_id, target_address=address)
    refuel.status, refuel.amount, refuel.reason, refuel.retry_at = HELD_BACK, amount, why, retry_at
    await refuel.save()
    if first:
        await audit.record(action="gas_station.refuel_held_back", object_type=OBJECT_TYPE, object_id=station.id,
                           actor_id=None, workspace_id=station.workspace_id,
                           details=_refuel_details(refuel, fee=str(fee), max_gas_price=str(int(asset.max_gas_price)),
                                                   retry_at=retry_at.isoformat()))
    return Outcome("held_back", why, refuel)


# --------------------------------------------------------------------------------------------
# The retry sweep (scheduled)
# --------------------------------------------------------------------------------------------


async def due_held_back(*, limit: int = 500) -> list[Refuel]:
    return list(await Refuel.filter(status=HELD_BACK, retry_at__lte=clock.now()).order_by("retry_at").limit(limit))


async def in_flight(*, limit: int = 500) -> list[uuid.UUID]:
    return list(await Refuel.filter(status=IN_FLIGHT).order_by("created_at").limit(limit).values_list(  # type: ignore[arg-type]  # flat values_list
        "id", flat=True))


async def close_refuel(*, refuel_id: uuid.UUID) -> bool:
    refuel = await Refuel.filter(id=refuel_id).select_for_update().first()
    return refuel is not None and await close_final(refuel)


async def waiting_for_gas(*, limit: int = 500) -> list[uuid.UUID]:
    """Token withdrawals approved and waiting for gas (their step is resumed or their address checked)."""
    return list(await Transaction.filter(direction="withdrawal", status=statuses.APPROVED, awaiting_gas=True,  # type: ignore[arg-type]  # flat values_list
                                         signing_session_id__isnull=True).order_by("created_at").limit(limit)
                .values_list("id", flat=True))


async def attend_waiting(*, transaction_id: uuid.UUID) -> str:
    """A withdrawal waiting for gas: resume it when the gas is there, else check its address's
    refuel (a refuel skipped earlier, e.g. for the station's balance or the budget, is tried
    again). Returns what was done: ``resumed``, the check's action, or ``none``."""
    tx = await Transaction.get_or_none(id=transaction_id)
    if tx is None or tx.status != statuses.APPROVED or not tx.awaiting_gas:
        return "none"
    fee_wallet = await Wallet.get_or_none(vault_id=tx.vault_id, currency_id=tx.fee_currency_id)
    if fee_wallet is not None and balances.parts_of(fee_wallet).available >= int(tx.fee_limit):
        await pipeline.resume_awaiting_gas(network=tx.network, address=tx.from_address or "")
        return "resumed"
    outcome = await check_refuel(workspace_id=tx.workspace_id, vault_id=tx.vault_id,
                                 currency_id=tx.fee_currency_id, reason="waiting_withdrawal")
    return outcome.action


async def retry_held_back(*, refuel_id: uuid.UUID) -> Outcome | None:
    """Try a held-back refuel again (the scheduler); one no longer wanted ends ``dropped``."""
    refuel = await Refuel.get_or_none(id=refuel_id)
    if refuel is None or refuel.status != HELD_BACK:
        return None
    outcome = await check_refuel(workspace_id=refuel.workspace_id,
                                 vault_id=refuel.target_vault_id,
                                 currency_id=refuel.currency_id, reason="held_back_retry")
    if outcome.action == "skipped":
        row = await Refuel.filter(id=refuel_id).select_for_update().first()
        if row is not None and row.status == HELD_BACK:
            await _drop(row, outcome.reason or "skipped")
    return outcome
