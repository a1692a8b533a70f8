"""POST /transaction: a withdrawal is checked, reserved and recorded in one database transaction.

In order (the first refusal wins, and a refusal leaves nothing behind):

1. the caller needs CREATE_TRANSACTION;
2. ``X-Idempotency-Key``: a repeat answers the existing transaction (domain.withdrawals.keys);
3. the source wallet must be the workspace's (404 WALLET_NOT_FOUND), its vault not frozen (409
   VAULT_FROZEN), the amount at least the network's dust limit (400 AMOUNT_BELOW_DUST);
4. the destination (domain.withdrawals.destinations) and the fee (domain.withdrawals.fees);
5. ``X-Attempt-Key`` and ``X-Utxo-Intent-Key`` rules;
6. the source (and fee) wallet rows are locked: every withdrawal from a wallet waits for the
   one before it to commit, so no interleaving can overdraw it; on UTXO networks the duplicate
   rule is checked under that lock;
7. amount and fee limit move into ``held`` (409 INSUFFICIENT_BALANCE / INSUFFICIENT_GAS; a token
   transfer of a vault with autofuel on waits for gas instead, and a refuel check is queued);
8. the check stage's command is queued (the outbox) and the transaction written ``pending``
   with its audit entry, change-log position and ``transaction.created`` event.
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from datetime import timedelta

from tortoise import connections

from core import clock
from core.outbox import new_command
from core.rows import build
from core.settings import get_settings
from domain import balances, transactions
from domain import transaction_statuses as statuses
from domain.auth import Principal
from domain.currencies import registry
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.gas_station import autofuel
from domain.networks.registry import get_adapter
from domain.permissions import Permission
from domain.withdrawals import destinations, fees, ledger
from domain.withdrawals import keys as key_rules
from domain.withdrawals.keys import RequestKeys
from models.transactions import Transaction
from models.vaults import Vault
from models.wallets import Wallet, WalletAddress
from models.workspaces import Workspace

#: Outbox command of the check stage (actors/withdrawals.py).
CHECK = "withdrawals.check"


def _columns(alias: str, model: type[Wallet | WalletAddress | Vault]) -> str:
    return ", ".join(f'{alias}."{column}" AS "{alias}.{column}"'
                     for column in model._meta.fields_db_projection.values())  # noqa: SLF001


@functools.cache
def _source_sql() -> str:
    """The source wallet of the workspace with its address and vault, one constant statement (what
    ``Wallet.get_or_none(...).select_related("address", "vault")`` sends, without building it per
    request). Made on first use: the models' foreign-key columns exist once tortoise is set up."""
    return (f"SELECT {_columns('w', Wallet)}, {_columns('a', WalletAddress)}, {_columns('v', Vault)} "
            "FROM wallets w JOIN wallet_addresses a ON a.id = w.address_id JOIN vaults v ON v.id = w.vault_id "
            "WHERE w.id = $1 AND w.workspace_id = $2")


async def _source_wallet(*, wallet_id: uuid.UUID, workspace_id: uuid.UUID) -> Wallet | None:
    """The workspace's wallet ``wallet_id`` with its ``address`` and ``vault`` loaded; None if the
    workspace has no such wallet."""
    rows = await connections.get("default").execute_query_dict(_source_sql(), [wallet_id, workspace_id])
    if not rows:
        return None
    parts: dict[str, dict[str, object]] = {"w": {}, "a": {}, "v": {}}
    for key, value in rows[0].items():
        alias, _, column = key.partition(".")
        parts[alias][column] = value
    source = Wallet._init_from_db(**parts["w"])  # noqa: SLF001  (tortoise's own row → model)
    # As select_related leaves them: the related objects cached on the wallet
    object.__setattr__(source, "_address", WalletAddress._init_from_db(**parts["a"]))  # noqa: SLF001
    object.__setattr__(source, "_vault", Vault._init_from_db(**parts["v"]))  # noqa: SLF001
    return source


@dataclass(frozen=True)
class WithdrawalRequest:
    """The body of POST /transaction, parsed (amounts in atomic units)."""

    amount: int
    source_wallet_id: uuid.UUID
    target_address: str
    fee: int | None = None
    fee_rate_sat_per_vb: int | None = None
    target_wallet_id: uuid.UUID | None = None
    target_whitelisted_asset_id: uuid.UUID | None = None


@dataclass(frozen=True)
class Created:
    transaction: Transaction
    #: True when an earlier request with the same X-Idempotency-Key created it (answer 409).
    replayed: bool


async def create_withdrawal(*, principal: Principal | None, workspace: Workspace, request: WithdrawalRequest,
                            keys: RequestKeys = RequestKeys()) -> Created:
    """Create a withdrawal (see the module docstring); call inside a unit of work."""
    actor_id = principal.user.id if principal else None
    if principal is not None:
        principal.require(workspace.id, Permission.CREATE_TRANSACTION)
    request_hash = None
    if keys.idempotency_key is not None:  # the request's hash is kept (and compared) only under a key
        request_hash = key_rules.fingerprint(request, keys)
        existing = await key_rules.replayed(workspace_id=workspace.id, keys=keys, request_hash=request_hash)
        if existing is not None:
            return Created(existing, replayed=True)

    source = await _source_wallet(wallet_id=request.source_wallet_id, workspace_id=workspace.id)
    if source is None:
        raise NotFound("source wallet not found", code="WALLET_NOT_FOUND", details={"field": "source_wallet_id"})
    currency = registry().currency(source.currency_id)
    network = currency.network
    adapter = get_adapter(network.id)
    if keys.utxo_intent_key is not None and network.family != "utxo":
        raise ValidationFailed(f"{key_rules.INTENT_HEADER} applies to UTXO networks; {network.id} is not one",
                               code="UTXO_INTENT_KEY_NOT_APPLICABLE", details={"field": key_rules.INTENT_HEADER})
    vault = source.vault
    if vault.is_frozen:
        raise Conflict("the vault is frozen: it accepts no new withdrawal", code="VAULT_FROZEN",
                       details={"vault_id": str(vault.id)})
    dust = int(network.params.get("dust_limit", 0))
    if request.amount < dust:
        raise ValidationFailed(f"amount must be at least the network's dust limit of {dust}",
                               code="AMOUNT_BELOW_DUST", details={"field": "amount", "minimum": str(dust)})
    from_address = source.address.address
    destination = await destinations.resolve(
        workspace_id=workspace.id, currency=currency, source=source, source_address=from_address,
        target_address=request.target_address, target_wallet_id=request.target_wallet_id,
        target_whitelisted_asset_id=request.target_whitelisted_asset_id)
    plan = await fees.plan_fee(adapter=adapter, currency=currency, amount=request.amount, from_address=from_address,
                               fee=request.fee, fee_rate_sat_per_vb=request.fee_rate_sat_per_vb)
    attempt = await key_rules.attempt_of(workspace_id=workspace.id, keys=keys, wallet_id=source.id,
                                    to_address=destination.address, amount=request.amount)
    await key_rules.check_intent(workspace_id=workspace.id, keys=keys)

    fee_wallet = await ledger.fee_wallet_of(source, plan.fee_currency_id)
    locked = await balances.lock_wallets([source.id, fee_wallet.id])
    if network.family == "utxo":
        await key_rules.check_duplicates(workspace_id=workspace.id, keys=keys, wallet_id=source.id,
                                    to_address=destination.address, amount=request.amount,
                                    window_seconds=get_settings().withdrawal_duplicate_window_seconds)
    now = clock.now()
    tx = build(
        Transaction,
        workspace_id=workspace.id, vault_id=vault.id, wallet_id=source.id, direction=transactions.WITHDRAWAL,
        status=statuses.PENDING, currency_id=currency.id, network=network.id, amount=request.amount, fee=0,
        fee_limit=plan.fee_limit, fee_currency_id=plan.fee_currency_id, fee_rate=plan.fee_rate,
        from_address=from_address, to_address=destination.address, destination_type=destination.kind,
        target_wallet_id=destination.wallet.id if destination.wallet else None,
        whitelisted_wallet_id=destination.whitelisted.id if destination.whitelisted else None,
        to_side={"whitelisted_wallet_name": destination.whitelisted.name if destination.whitelisted else None},
        amount_usdt=transactions.usd_value(currency, request.amount), created_by=actor_id,
        idempotency_key=keys.idempotency_key, request_hash=request_hash,
        attempt_key=keys.attempt_key, attempt_number=attempt.number,
        retry_of_id=attempt.retry_of.id if attempt.retry_of else None, utxo_intent_key=keys.utxo_intent_key,
        expires_at=now + timedelta(seconds=get_settings().withdrawal_expiry_seconds),
    )
    parties = ledger.Parties(tx, locked[source.id], locked[fee_wallet.id], destination.wallet, currency,
                             vault=vault, workspace=workspace)
    await ledger.hold(parties, take_position=True)
    if not parties.same_fee_wallet:
        # A token transfer from a vault with autofuel on: the gas station checks its address's gas
        # (and refuels it when low, or when this withdrawal is waiting for gas).
        await autofuel.request_refuel_check(workspace_id=workspace.id, vault_id=vault.id, currency=currency,
                                            reason="token_withdrawal")
    # Written with the transaction's row (ledger.write_change: one statement)
    new_command(actor_name=CHECK, payload={"transaction_id": str(tx.id)}, workspace_id=workspace.id)
    await ledger.write_change(parties, status=statuses.PENDING, actor_id=actor_id, created=True,
                              details={"amount": str(request.amount), "currency_id": currency.id,
                                       "to_address": destination.address, "destination_type": destination.kind,
                                       "fee_limit": str(plan.fee_limit), "attempt_number": attempt.number,
                                       "awaiting_gas": tx.awaiting_gas})
    return Created(tx, replayed=False)
