"""Whitelisted external wallets and whether one-time addresses are allowed.

A whitelisted wallet is a counterparty address registered for one currency of the workspace's
network type (``name``, ``currency_id``, ``address``, validated and normalized for the
currency's network). A withdrawal names it with ``target_whitelisted_asset_id``, or simply sends
to its address. An address of one of the workspace's own vaults is not whitelisted: a transfer
there is internal (``target_wallet_id``), so registering it is refused (400 INTERNAL_ADDRESS).

A *one-time address* is a destination that is neither internal nor whitelisted. Whether
withdrawals may go to one is a workspace setting, off by default (as at Fireblocks): until an
administrator allows them, money leaves only to whitelisted or internal destinations.

Changes need EDIT_WORKSPACE and are audited; the change approvals gate them (Add whitelist
address, One-time address transfers), both registered here and applied after approval whatever
the initiator's rights by then (spec).
Deleting an entry keeps its row (transactions still name it); withdrawals already created to it
go on.
"""

from __future__ import annotations

import uuid
from typing import Any

from tortoise import connections
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from core import clock
from domain import audit
from domain.auth import Principal
from domain.change_approvals import registry as approvals
from domain.change_approvals.gate import gate
from domain.currencies import Currency, currency_for_workspace
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.networks.registry import normalize_address
from domain.permissions import Permission
from models.wallets import WalletAddress
from models.whitelist import WhitelistedWallet, WhitelistSettings
from models.workspaces import Workspace


class WhitelistedWalletNotFound(NotFound):
    code = "WHITELISTED_WALLET_NOT_FOUND"


class WhitelistedWalletExists(Conflict):
    code = "WHITELISTED_WALLET_EXISTS"


def _actor(principal: Principal | None) -> uuid.UUID | None:
    return principal.user.id if principal else None


async def _lock_entry_key(workspace_id: uuid.UUID, currency_id: str, address: str) -> None:
    """Serialize registrations of one (workspace, currency, address) for this transaction."""
    await connections.get("default").execute_query(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
        [f"whitelist:{workspace_id}:{currency_id}:{address}"])


async def add_wallet(*, principal: Principal | None, workspace: Workspace, name: str, currency_id: str,
                     address: str) -> WhitelistedWallet:
    """Register ``address`` for ``currency_id`` (POST /whitelist/wallets)."""
    if principal is not None:
        principal.require(workspace.id, Permission.EDIT_WORKSPACE)
    currency: Currency = currency_for_workspace(currency_id=currency_id, network_type=workspace.network_type)
    normalized = normalize_address(currency.network.id, address)
    if await WalletAddress.exists(workspace_id=workspace.id, network=currency.network.id, address=normalized):
        raise ValidationFailed("address: this is an address of one of the workspace's vaults; send to it with "
                               "target_wallet_id instead of whitelisting it", code="INTERNAL_ADDRESS",
                               details={"field": "address", "reason": "an address of the workspace"})
    await _lock_entry_key(workspace.id, currency.id, normalized)
    existing = await find_live(workspace_id=workspace.id, currency_id=currency.id, address=normalized)
    if existing is not None:
        raise WhitelistedWalletExists("this address is already whitelisted for the currency",
                                      details={"whitelisted_wallet_id": str(existing.id)})
    await gate(principal=principal, workspace_id=workspace.id, action=approvals.ADD_WHITELIST_ADDRESS, operation=None,
               payload={"name": name, "currency_id": currency.id, "address": normalized})
    try:
        async with in_transaction():  # savepoint: the partial unique index is the last line
            entry = await WhitelistedWallet.create(workspace_id=workspace.id, name=name, currency_id=currency.id,
                                                   network=currency.network.id, address=normalized,
                                                   created_by=_actor(principal))
    except IntegrityError:
        raise WhitelistedWalletExists("this address is already whitelisted for the currency") from None
    await audit.record(action="whitelist.wallet_added", object_type="whitelisted_wallet", object_id=entry.id,
                       actor_id=_actor(principal), workspace_id=workspace.id,
                       details={"name": name, "currency_id": currency.id, "address": normalized})
    return entry


async def find_live(*, workspace_id: uuid.UUID, currency_id: str, address: str) -> WhitelistedWallet | None:
    """The live entry of a normalized address for a currency, if any."""
    return await WhitelistedWallet.get_or_none(workspace_id=workspace_id, currency_id=currency_id, address=address,
                                               deleted_at__isnull=True)


async def get_live(*, workspace_id: uuid.UUID, wallet_id: uuid.UUID) -> WhitelistedWallet:
    """A live entry of the workspace (404 WHITELISTED_WALLET_NOT_FOUND for a deleted, foreign or missing one)."""
    entry = await WhitelistedWallet.get_or_none(id=wallet_id, workspace_id=workspace_id, deleted_at__isnull=True)
    if entry is None:
        raise WhitelistedWalletNotFound("whitelisted wallet not found")
    return entry


async def get_wallet(*, principal: Principal | None, workspace_id: uuid.UUID,
                     wallet_id: uuid.UUID) -> WhitelistedWallet:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    return await get_live(workspace_id=workspace_id, wallet_id=wallet_id)


async def list_wallets(*, principal: Principal | None, workspace_id: uuid.UUID, limit: int, offset: int,
                       currency_id: str | None = None) -> tuple[list[WhitelistedWallet], int]:
    """Live entries, newest first (optionally of one currency)."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    query = WhitelistedWallet.filter(workspace_id=workspace_id, deleted_at__isnull=True)
    if currency_id is not None:
        query = query.filter(currency_id=currency_id)
    total = await query.count()
    return await query.order_by("-created_at", "-id").offset(offset).limit(limit), total


async def remove_wallet(*, principal: Principal | None, workspace_id: uuid.UUID, wallet_id: uuid.UUID) -> None:
    """Delete an entry (DELETE /whitelist/wallets/{id}); the row stays for the record."""
    if principal is not None:
        principal.require(workspace_id, Permission.EDIT_WORKSPACE)
    entry = await WhitelistedWallet.filter(id=wallet_id, workspace_id=workspace_id,
                                           deleted_at__isnull=True).select_for_update().first()
    if entry is None:
        raise WhitelistedWalletNotFound("whitelisted wallet not found")
    entry.deleted_at, entry.deleted_by = clock.now(), _actor(principal)
    await entry.save(update_fields=["deleted_at", "deleted_by"])
    await audit.record(action="whitelist.wallet_removed", object_type="whitelisted_wallet", object_id=entry.id,
                       actor_id=_actor(principal), workspace_id=workspace_id,
                       details={"name": entry.name, "currency_id": entry.currency_id, "address": entry.address})


# --------------------------------------------------------------------------------------------
# The one-time address setting
# --------------------------------------------------------------------------------------------


async def get_settings(*, principal: Principal | None, workspace_id: uuid.UUID) -> WhitelistSettings:
    """The workspace's setting (an unsaved default row when none was set: forbidden)."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    current = await WhitelistSettings.get_or_none(workspace_id=workspace_id)
    return current or WhitelistSettings(workspace_id=workspace_id, one_time_addresses_allowed=False)


async def one_time_addresses_allowed(*, workspace_id: uuid.UUID) -> bool:
    return (await get_settings(principal=None, workspace_id=workspace_id)).one_time_addresses_allowed


async def set_settings(*, principal: Principal | None, workspace_id: uuid.UUID,
                       one_time_addresses_allowed: bool) -> WhitelistSettings:
    """Allow or forbid one-time addresses; setting the current value changes and records nothing."""
    if principal is not None:
        principal.require(workspace_id, Permission.EDIT_WORKSPACE)
    # Setting the current value executes at once (and an approved one ends EXECUTED, no change).
    current_value = (await get_settings(principal=None, workspace_id=workspace_id)).one_time_addresses_allowed
    unchanged = current_value == one_time_addresses_allowed
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.ONE_TIME_ADDRESS_TRANSFERS,
               operation=None, payload={"one_time_addresses_allowed": one_time_addresses_allowed}, noop=unchanged)
    await connections.get("default").execute_query(
        "INSERT INTO whitelist_settings (id, workspace_id, one_time_addresses_allowed, created_at, updated_at) "
        "VALUES ($1, $2, false, $3, $3) ON CONFLICT (workspace_id) DO NOTHING",
        [uuid.uuid4(), workspace_id, clock.now()])
    current = await WhitelistSettings.filter(workspace_id=workspace_id).select_for_update().first()
    assert current is not None
    if current.one_time_addresses_allowed != one_time_addresses_allowed:
        current.one_time_addresses_allowed = one_time_addresses_allowed
        current.updated_by = _actor(principal)
        await current.save(update_fields=["one_time_addresses_allowed", "updated_by"])
        await audit.record(action="whitelist.one_time_addresses_" + ("allowed" if one_time_addresses_allowed
                                                                       else "forbidden"),
                           object_type="whitelist_settings", object_id=current.id, actor_id=_actor(principal),
                           workspace_id=workspace_id, details={"one_time_addresses_allowed": one_time_addresses_allowed})
    return current


# --------------------------------------------------------------------------------------------
# The change approvals' Add whitelist address and One-time address transfers
# --------------------------------------------------------------------------------------------


async def _approval_display(*, workspace_id: uuid.UUID, payload: approvals.Payload) -> dict[str, Any] | None:
    """The spec's display of a new address: its name and its currency's symbol and network."""
    workspace = await Workspace.get(id=workspace_id)
    currency = currency_for_workspace(currency_id=payload["currency_id"], network_type=workspace.network_type)
    return {"whitelisted_wallet_name": payload["name"], "currency_symbol": currency.symbol,
            "currency_descriptor": currency.descriptor, "blockchain_name": currency.network.blockchain_name}


async def _apply_approved_address(*, workspace_id: uuid.UUID, payload: approvals.Payload,
                                  principal: Principal | None) -> None:
    await add_wallet(principal=None, workspace=await Workspace.get(id=workspace_id), name=payload["name"],
                     currency_id=payload["currency_id"], address=payload["address"])


async def _apply_approved_setting(*, workspace_id: uuid.UUID, payload: approvals.Payload,
                                  principal: Principal | None) -> None:
    await set_settings(principal=None, workspace_id=workspace_id,
                       one_time_addresses_allowed=bool(payload["one_time_addresses_allowed"]))


approvals.register(approvals.GatedAction(key=approvals.ADD_WHITELIST_ADDRESS, display_name="Add whitelist address",
                                         operations=(), display=_approval_display, apply=_apply_approved_address))
approvals.register(approvals.GatedAction(key=approvals.ONE_TIME_ADDRESS_TRANSFERS,
                                         display_name="One-time address transfers", operations=(),
                                         apply=_apply_approved_setting))
