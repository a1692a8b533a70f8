"""Whether a vault's autofuel is on, and queueing a refuel check: what withdrawals and deposits ask.

This module imports nothing of domain.withdrawals (the refuels, domain.withdrawals.refuels, build on the pipeline,
and the pipeline asks this module), so both sides can use it without an import cycle.

A vault's autofuel counts as on only while the workspace has a station and the vault is not the
station's own vault (spec rule 8: the station is never a refuel target).
"""

from __future__ import annotations

import uuid

from core.outbox import add_command
from domain.currencies import Currency, registry
from domain.gas_station.defaults import supported
from models.gas_station import GasStation, VaultAutofuel

#: Outbox command: check one vault's gas at one network and refuel it when below threshold
#: (actors/gas_station.py; domain.withdrawals.refuels.check_refuel).
CHECK_REFUEL = "gas_station.check_refuel"


async def is_on(vault_id: uuid.UUID) -> bool:
    """Whether the vault's autofuel is on and a station other than the vault itself serves it."""
    row = await VaultAutofuel.get_or_none(vault_id=vault_id, enabled=True)
    if row is None:
        return False
    station = await GasStation.get_or_none(workspace_id=row.workspace_id)
    return station is not None and station.vault_id != vault_id


def base_asset_of(currency: Currency) -> Currency | None:
    """The base asset the station would refuel for a transfer of ``currency`` (None: not covered)."""
    native = registry().native_currency(currency.network.id)
    return native if supported(native) else None


async def covers(*, vault_id: uuid.UUID, currency: Currency) -> bool:
    """Whether the gas station refuels the vault for transfers of ``currency`` (a token of a
    supported gas-model network, the vault's autofuel on and not the station's own vault): only
    then may a token transfer lacking gas wait for a refuel instead of being refused."""
    return not currency.is_native and base_asset_of(currency) is not None and await is_on(vault_id)


async def request_refuel_check(*, workspace_id: uuid.UUID, vault_id: uuid.UUID, currency: Currency,
                               reason: str) -> bool:
    """Queue a refuel check of the vault's address on ``currency``'s network (a token withdrawal
    was created, or a token deposit arrived), in the caller's transaction. False when autofuel
    does not apply (off, no station, the station's own vault, a network without a gas model)."""
    base = base_asset_of(currency)
    if base is None or currency.is_native or not await is_on(vault_id):
        return False
    await add_command(actor_name=CHECK_REFUEL, workspace_id=workspace_id,
                      payload={"workspace_id": str(workspace_id), "vault_id": str(vault_id),
                               "currency_id": base.id, "reason": reason})
    return True
