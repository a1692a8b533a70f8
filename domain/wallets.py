"""Wallets: one currency in a vault, with the vault's receiving address on that network.

Opening a wallet (POST /wallet):

* the currency must be in the registry (404 CURRENCY_NOT_FOUND) and of the workspace's network
  type (400 CURRENCY_NETWORK_MISMATCH);
* the vault must be in the workspace (404 VAULT_NOT_FOUND, also for another workspace's
  vault), not frozen (409 VAULT_FROZEN), with a ready key set (409 KEY_SET_NOT_READY);
* a vault holds one wallet per currency (409 WALLET_ALREADY_EXISTS).

The receiving address is derived from the vault's group public key of the network's key scheme
(``key_scheme_of_network``: Ed25519 for Solana and the devnets, Taproot secp256k1 for Bitcoin)
and created once per vault and network: the native coin wallet and the token wallets of that
network share it, and it is reused for every receipt. Opening a token wallet also opens the
network's native coin wallet when the vault has none, because the token's network fees are
paid in that coin from the same address; both are returned.

A wallet opened on an address that already received its currency (a token sent before its
wallet existed) is credited with it once it is open (domain.deposits.credit_history, an outbox
command written with the wallet).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from core.outbox import add_command
from domain import audit, deposits
from domain.auth import Principal
from domain.currencies import Currency, currency_for_workspace, registry
from domain.errors import Conflict, NotFound
from domain.networks.registry import get_adapter, key_scheme_of_network
from domain.permissions import Permission
from domain.signing import keys
from domain.vaults import get_vault
from models.wallets import Wallet, WalletAddress
from models.workspaces import Workspace


class WalletAlreadyExists(Conflict):
    code = "WALLET_ALREADY_EXISTS"


@dataclass(frozen=True)
class WalletView:
    wallet: Wallet
    address: WalletAddress
    currency: Currency


async def _vault_public_key(vault_id: uuid.UUID, workspace_id: uuid.UUID, network_id: str) -> bytes:
    """The vault's group key of the network's key scheme (Ed25519 for Solana and the devnets, the
    secp256k1 Taproot key for Bitcoin): the key the address derives from and transfers sign with."""
    scheme = key_scheme_of_network(network_id)
    try:
        return await keys.group_public_key(vault_id=vault_id, workspace_id=workspace_id, scheme=scheme)
    except NotFound:
        raise keys.KeySetNotReady("the vault has no key set of this network's scheme yet",
                                  details={"status": "missing", "scheme": scheme}) from None


async def address_for(*, vault_id: uuid.UUID, workspace_id: uuid.UUID, network_id: str,
                      public_key: bytes) -> WalletAddress:
    """The vault's receiving address on the network, created on first use (caller holds the vault lock)."""
    existing = await WalletAddress.get_or_none(vault_id=vault_id, network=network_id)
    if existing is not None:
        return existing
    adapter = get_adapter(network_id)
    return await WalletAddress.create(workspace_id=workspace_id, vault_id=vault_id, network=network_id,
                                      address=adapter.address_from_public_key(public_key), public_key=public_key)


async def create_wallet(*, principal: Principal | None, workspace: Workspace, vault_id: uuid.UUID,
                        currency_id: str) -> list[WalletView]:
    """Open the wallet of ``currency_id`` in the vault (see the module docstring)."""
    if principal is not None:
        principal.require(workspace.id, Permission.EDIT_WORKSPACE)
    currency = currency_for_workspace(currency_id=currency_id, network_type=workspace.network_type)
    # The vault lock serializes wallet openings of one vault (one address per network, one wallet
    # per currency); the unique constraints below are the last line if anything slips past.
    vault = await get_vault(workspace_id=workspace.id, vault_id=vault_id, lock=True)
    if vault.is_frozen:
        raise Conflict("the vault is frozen", code="VAULT_FROZEN", details={"vault_id": str(vault.id)})
    if await Wallet.exists(vault_id=vault.id, currency_id=currency.id):
        raise WalletAlreadyExists(f"the vault already has a {currency.symbol} wallet",
                                  details={"vault_id": str(vault.id), "currency_id": currency.id})
    public_key = await _vault_public_key(vault.id, workspace.id, currency.network.id)
    address = await address_for(vault_id=vault.id, workspace_id=workspace.id, network_id=currency.network.id,
                                public_key=public_key)
    wanted = [currency]
    native = registry().native_currency(currency.network.id)
    if not currency.is_native and not await Wallet.exists(vault_id=vault.id, currency_id=native.id):
        wanted.append(native)
    created: list[WalletView] = []
    for item in wanted:
        try:
            async with in_transaction():  # a savepoint: a duplicate must not poison the transaction
                wallet = await Wallet.create(workspace_id=workspace.id, vault_id=vault.id, address=address,
                                             currency_id=item.id)
        except IntegrityError:
            raise WalletAlreadyExists(f"the vault already has a {item.symbol} wallet",
                                      details={"vault_id": str(vault.id), "currency_id": item.id}) from None
        created.append(WalletView(wallet, address, item))
        # What the address already received in this currency is credited once the wallet exists.
        await add_command(actor_name=deposits.CREDIT_HISTORY, payload={"wallet_id": str(wallet.id)},
                          workspace_id=workspace.id)
        await audit.record(action="wallet.created", object_type="wallet", object_id=wallet.id,
                           actor_id=principal.user.id if principal else None, workspace_id=workspace.id,
                           details={"vault_id": str(vault.id), "currency_id": item.id, "address": address.address})
    return created


async def list_wallets(*, principal: Principal | None, workspace_id: uuid.UUID, limit: int, offset: int,
                       vault_id: uuid.UUID | None = None) -> tuple[list[WalletView], int]:
    """GET /asset: the workspace's wallets (optionally of one vault), oldest first."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    query = Wallet.filter(workspace_id=workspace_id)
    if vault_id is not None:
        await get_vault(workspace_id=workspace_id, vault_id=vault_id)  # 404 for a foreign or missing vault
        query = query.filter(vault_id=vault_id)
    total = await query.count()
    wallets = await query.order_by("created_at", "id").offset(offset).limit(limit).prefetch_related("address")
    views = []
    for wallet in wallets:
        currency = registry().currencies.get(wallet.currency_id)
        if currency is not None:
            views.append(WalletView(wallet, wallet.address, currency))
    return views, total


async def get_wallet(*, principal: Principal | None, workspace_id: uuid.UUID, wallet_id: uuid.UUID) -> WalletView:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    wallet = await Wallet.get_or_none(id=wallet_id, workspace_id=workspace_id).prefetch_related("address")
    if wallet is None:
        raise NotFound("wallet not found", code="WALLET_NOT_FOUND")
    return WalletView(wallet, wallet.address, registry().currency(wallet.currency_id))
