"""The gas station's services behind the API: assign, autofuel on and off, per-asset configuration.

Spec: "Gas station" (resource, state table, rules 1-10). What this module decides where the spec
is silent (docs/gas-station.md):

- **Assign** (``POST /gas_station/vault/{vid}``): creates the workspace's one station, or moves
  it to another vault (the station and its configurations stay; one station per workspace, the
  unique workspace column makes that a rule of the table). Configurations are created from the
  defaults for each base asset the station vault has a wallet for (existing ones are kept).
  Assigning the current vault again changes nothing and records nothing. A vault whose autofuel
  is on loses it when it becomes the station (the station never refuels itself; audited).
- **Autofuel** on a vault needs a station (404 GAS_STATION_NOT_FOUND) and is refused on the
  station's own vault (409 GAS_STATION_CANNOT_ASSIGN_SELF). Turning on creates the missing
  configurations from the defaults (state table) and queues a refuel check for each gas network
  where the vault holds tokens. Turning on what is on (or off what is off) changes nothing.
- **Configuration** (``PUT .../currency/{cid}``): a partial update; an absent (or null) field is
  unchanged. After the update ``cap >= threshold > 0`` must hold for the values that are set
  (400 GAS_STATION_INVALID_LIMITS); ``max_gas_price`` is -1 (no limit), 0 (no fee allowed) or a
  positive limit; ``daily_budget`` is -1 (none) or positive. A currency of the other network type
  is 400 GAS_STATION_NETWORK_MISMATCH (404 GAS_STATION_NOT_FOUND on GET, spec rule 7); a currency
  the station does not support (a token, a UTXO coin, a base asset absent from the platform
  configuration) is 400 GAS_STATION_UNSUPPORTED_CURRENCY. A PUT for a supported asset without a
  configuration yet creates it. Any change sets ``is_default`` false.

Every change is audited in the caller's transaction (spec rule 10): ``gas_station.assigned``,
``gas_station.autofuel_activated``, ``gas_station.autofuel_deactivated``,
``gas_station.configuration_changed`` (with the values before and after). Changes of one
workspace's station are serialized by a transaction-scoped advisory lock.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from tortoise import connections

from core.outbox import add_command
from domain import audit
from domain.auth import Principal
from domain.currencies import Currency, registry
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.gas_station.autofuel import CHECK_REFUEL
from domain.gas_station.defaults import NO_LIMIT, defaults_for, supported
from domain.permissions import Permission
from models.gas_station import GasStation, GasStationAsset, VaultAutofuel
from models.vaults import Vault
from models.wallets import Wallet
from models.workspaces import Workspace

OBJECT_TYPE = "gas_station"


class GasStationNotFound(NotFound):
    code = "GAS_STATION_NOT_FOUND"


class GasStationNetworkMismatch(ValidationFailed):
    code = "GAS_STATION_NETWORK_MISMATCH"


class CannotAssignSelf(Conflict):
    code = "GAS_STATION_CANNOT_ASSIGN_SELF"


class InvalidLimits(ValidationFailed):
    """cap >= threshold > 0 does not hold (the spec names no code for it)."""

    code = "GAS_STATION_INVALID_LIMITS"


class UnsupportedCurrency(ValidationFailed):
    code = "GAS_STATION_UNSUPPORTED_CURRENCY"


@dataclass(frozen=True)
class StationView:
    station: GasStation
    assets: list[GasStationAsset]


@dataclass(frozen=True)
class AutofuelView:
    vault_id: uuid.UUID
    enabled: bool


@dataclass(frozen=True)
class AssetChange:
    """A partial update of a per-asset configuration: None leaves a value unchanged.

    ``max_gas_price``: -1 no limit, 0 no fee allowed, n > 0 the limit. ``daily_budget``: -1 none."""

    threshold: int | None = None
    cap: int | None = None
    max_gas_price: int | None = None
    daily_budget: int | None = None


def _not_found(message: str = "no gas station is assigned in this workspace", **details: Any) -> GasStationNotFound:
    return GasStationNotFound(message, details=details)


async def _lock(workspace_id: uuid.UUID) -> None:
    await connections.get("default").execute_query(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [f"gas_station:{workspace_id}"])


async def _workspace(workspace_id: uuid.UUID) -> Workspace:
    return await Workspace.get(id=workspace_id)


async def _vault(workspace_id: uuid.UUID, vault_id: uuid.UUID) -> Vault:
    vault = await Vault.get_or_none(id=vault_id, workspace_id=workspace_id)
    if vault is None:
        raise NotFound("vault not found", code="VAULT_NOT_FOUND", details={"vault_id": str(vault_id)})
    return vault


def _actor(principal: Principal | None) -> uuid.UUID | None:
    return principal.user.id if principal is not None else None


def asset_values(row: GasStationAsset) -> dict[str, Any]:
    """A configuration's values as the audit log and the API show them (strings, None unset)."""
    def text(value: Any) -> str | None:
        return None if value is None else str(int(value))
    return {"threshold": text(row.threshold), "cap": text(row.cap), "max_gas_price": text(row.max_gas_price),
            "daily_budget": text(row.daily_budget) if row.daily_budget is not None else str(NO_LIMIT),
            "is_default": row.is_default}


def _new_asset(station: GasStation, currency: Currency) -> GasStationAsset:
    default = defaults_for(currency)
    assert default is not None
    return GasStationAsset(gas_station_id=station.id, currency_id=currency.id, threshold=default.threshold,
                           cap=default.cap, max_gas_price=default.max_gas_price, daily_budget=default.daily_budget,
                           is_default=True)


async def create_missing_assets(station: GasStation, network_type: str) -> list[str]:
    """Create configurations from the defaults for each supported base asset the station vault
    has a wallet for; returns the currencies created (existing configurations are kept)."""
    existing = set(await GasStationAsset.filter(gas_station_id=station.id).values_list("currency_id", flat=True))
    created = []
    currency_ids = await Wallet.filter(vault_id=station.vault_id).values_list(
        "currency_id", flat=True)
    for currency_id in sorted(set(currency_ids)):
        currency = registry().currencies.get(currency_id)  # type: ignore[call-overload]  # flat values_list
        if (currency is None or not currency.is_native or currency.network_type != network_type
                or not supported(currency) or currency_id in existing):
            continue
        await _new_asset(station, currency).save()
        created.append(currency_id)
    return created  # type: ignore[return-value]  # flat values_list


async def _view(station: GasStation) -> StationView:
    assets = await GasStationAsset.filter(gas_station_id=station.id).order_by("currency_id")
    return StationView(station, list(assets))


async def assign_station(*, principal: Principal | None, workspace_id: uuid.UUID,
                         vault_id: uuid.UUID) -> StationView:
    """Make ``vault_id`` the workspace's gas station (see the module docstring)."""
    if principal is not None:
        principal.require(workspace_id, Permission.EDIT_WORKSPACE)
    await _lock(workspace_id)
    vault = await _vault(workspace_id, vault_id)
    station = await GasStation.get_or_none(workspace_id=workspace_id)
    if station is not None and station.vault_id == vault.id:
        return await _view(station)
    previous = station.vault_id if station is not None else None
    if station is None:
        station = await GasStation.create(workspace_id=workspace_id, vault_id=vault.id)
    else:
        station.vault_id = vault.id
        await station.save(update_fields=["vault_id"])
    workspace = await _workspace(workspace_id)
    created = await create_missing_assets(station, workspace.network_type)
    autofuel = await VaultAutofuel.filter(vault_id=vault.id, enabled=True).select_for_update().first()
    if autofuel is not None:
        autofuel.enabled = False
        await autofuel.save(update_fields=["enabled"])
        await audit.record(action="gas_station.autofuel_deactivated", object_type="vault", object_id=vault.id,
                           actor_id=_actor(principal), workspace_id=workspace_id,
                           details={"reason": "assigned_as_gas_station", "gas_station_id": str(station.id)})
    await audit.record(action="gas_station.assigned", object_type=OBJECT_TYPE, object_id=station.id,
                       actor_id=_actor(principal), workspace_id=workspace_id,
                       details={"vault_id": str(vault.id), "previous_vault_id": str(previous) if previous else None,
                                "assets_created": created})
    return await _view(station)


async def set_autofuel(*, principal: Principal | None, workspace_id: uuid.UUID, vault_id: uuid.UUID,
                       enabled: bool) -> AutofuelView:
    """Turn a vault's autofuel on or off (see the module docstring)."""
    if principal is not None:
        principal.require(workspace_id, Permission.EDIT_WORKSPACE)
    await _lock(workspace_id)
    vault = await _vault(workspace_id, vault_id)
    station = await GasStation.get_or_none(workspace_id=workspace_id)
    if enabled:
        if station is None:
            raise _not_found("assign a gas station before turning autofuel on")
        if station.vault_id == vault.id:
            raise CannotAssignSelf("the gas station's own vault cannot be a refuel target",
                                   details={"vault_id": str(vault.id), "gas_station_id": str(station.id)})
    row = await VaultAutofuel.filter(vault_id=vault.id).select_for_update().first()
    if (row.enabled if row is not None else False) == enabled:
        return AutofuelView(vault.id, enabled)
    if row is None:
        row = VaultAutofuel(workspace_id=workspace_id, vault_id=vault.id)
    row.enabled = enabled
    await row.save()
    details: dict[str, Any] = {"gas_station_id": str(station.id) if station else None}
    if enabled:
        assert station is not None
        details["assets_created"] = await create_missing_assets(station, (await _workspace(workspace_id)).network_type)
        details["refuel_checks"] = await _check_token_networks(workspace_id, vault.id)
    await audit.record(action=f"gas_station.autofuel_{'activated' if enabled else 'deactivated'}",
                       object_type="vault", object_id=vault.id, actor_id=_actor(principal),
                       workspace_id=workspace_id, details=details)
    return AutofuelView(vault.id, enabled)


async def _check_token_networks(workspace_id: uuid.UUID, vault_id: uuid.UUID) -> list[str]:
    """Queue a refuel check for each supported base asset where the vault holds a token wallet."""
    bases = set()
    for currency_id in await Wallet.filter(vault_id=vault_id).values_list("currency_id", flat=True):
        currency = registry().currencies.get(currency_id)  # type: ignore[call-overload]  # flat values_list
        if currency is None or currency.is_native:
            continue
        native = registry().native_currency(currency.network.id)
        if supported(native):
            bases.add(native.id)
    for base in sorted(bases):
        await add_command(actor_name=CHECK_REFUEL, workspace_id=workspace_id,
                          payload={"workspace_id": str(workspace_id), "vault_id": str(vault_id),
                                   "currency_id": base, "reason": "autofuel_activated"})
    return sorted(bases)


async def get_station(*, principal: Principal | None, workspace_id: uuid.UUID) -> StationView | None:
    """The workspace's station, or None when none is assigned (GET answers configured false)."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    station = await GasStation.get_or_none(workspace_id=workspace_id)
    return await _view(station) if station is not None else None


def _currency(currency_id: str) -> Currency:
    return registry().currency(currency_id)  # 404 CURRENCY_NOT_FOUND for an unknown id


async def get_asset(*, principal: Principal | None, workspace_id: uuid.UUID, currency_id: str) -> GasStationAsset:
    """One per-asset configuration; 404 GAS_STATION_NOT_FOUND for the other network type (spec
    rule 7), without a station, or without a configuration of that currency."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    currency = _currency(currency_id)
    workspace = await _workspace(workspace_id)
    if currency.network_type != workspace.network_type:
        raise _not_found(f"{currency_id} is a {currency.network_type} currency; this workspace is "
                         f"{workspace.network_type}", currency_id=currency_id)
    station = await GasStation.get_or_none(workspace_id=workspace_id)
    if station is None:
        raise _not_found(currency_id=currency_id)
    row = await GasStationAsset.get_or_none(gas_station_id=station.id, currency_id=currency_id)
    if row is None:
        raise _not_found(f"the gas station has no configuration of {currency_id}", currency_id=currency_id)
    return row


def _check_limits(threshold: int | None, cap: int | None) -> None:
    if threshold is not None and threshold <= 0:
        raise InvalidLimits("threshold must be above 0 (cap >= threshold > 0)",
                            details={"field": "threshold", "threshold": str(threshold)})
    if cap is not None and cap <= 0:
        raise InvalidLimits("cap must be above 0 (cap >= threshold > 0)", details={"field": "cap", "cap": str(cap)})
    if threshold is not None and cap is not None and cap < threshold:
        raise InvalidLimits("cap must be at least threshold (cap >= threshold > 0)",
                            details={"field": "cap", "threshold": str(threshold), "cap": str(cap)})


async def update_asset(*, principal: Principal | None, workspace_id: uuid.UUID, currency_id: str,
                       change: AssetChange) -> GasStationAsset:
    """PUT a per-asset configuration (partial; see the module docstring)."""
    if principal is not None:
        principal.require(workspace_id, Permission.EDIT_WORKSPACE)
    currency = _currency(currency_id)
    workspace = await _workspace(workspace_id)
    if currency.network_type != workspace.network_type:
        raise GasStationNetworkMismatch(
            f"{currency_id} is a {currency.network_type} currency; this workspace is {workspace.network_type}",
            details={"field": "currency_id", "currency_id": currency_id,
                     "workspace_network_type": workspace.network_type})
    if not supported(currency):
        raise UnsupportedCurrency(
            f"the gas station refuels only the base assets of gas-model networks the platform configures; "
            f"{currency_id} is not one", details={"field": "currency_id", "currency_id": currency_id})
    if change.max_gas_price is not None and change.max_gas_price < NO_LIMIT:
        raise InvalidLimits("max_gas_price must be -1 (no limit), 0 (no fee allowed) or a positive limit",
                            details={"field": "max_gas_price"})
    if change.daily_budget is not None and (change.daily_budget == 0 or change.daily_budget < NO_LIMIT):
        raise InvalidLimits("daily_budget must be -1 (no budget) or positive", details={"field": "daily_budget"})
    await _lock(workspace_id)
    station = await GasStation.get_or_none(workspace_id=workspace_id)
    if station is None:
        raise _not_found(currency_id=currency_id)
    row = await GasStationAsset.filter(gas_station_id=station.id, currency_id=currency_id).select_for_update().first()
    created = row is None
    if row is None:
        row = _new_asset(station, currency)
    before = asset_values(row)
    threshold = change.threshold if change.threshold is not None else (
        None if row.threshold is None else int(row.threshold))
    cap = change.cap if change.cap is not None else (None if row.cap is None else int(row.cap))
    _check_limits(threshold, cap)
    row.threshold, row.cap = threshold, cap
    if change.max_gas_price is not None:
        row.max_gas_price = change.max_gas_price
    if change.daily_budget is not None:
        row.daily_budget = None if change.daily_budget == NO_LIMIT else change.daily_budget
    after = {**asset_values(row), "is_default": before["is_default"]}
    if after == before and not created:
        return row  # nothing changes: nothing written, nothing recorded
    if after != before:
        row.is_default = False
    await row.save()
    await audit.record(action="gas_station.configuration_changed", object_type=OBJECT_TYPE, object_id=station.id,
                       actor_id=_actor(principal), workspace_id=workspace_id,
                       details={"currency_id": currency_id, "before": None if created else before,
                                "after": asset_values(row)})
    return row
