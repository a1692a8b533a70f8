"""POST /transaction: a withdrawal is checked, reserved and recorded in one database transaction.

In order (the first refusal wins, and a refusal leaves nothing behind):

1. the caller needs CREATE_TRANSACTION;
2. ``X-Idempotency-Key``: a repeat answers the existing transaction (domain.withdrawals.keys);
3. the source wallet must be the workspace's (404 WALLET_NOT_FOUND), its vault not frozen (409
   VAULT_FROZEN), the amount at least the network's dust limit (400 AMOUNT_BELOW_DUST);
4. the destination (domain.withdrawals.destinations) and the fee (domain.withdrawals.fees); a
   plain target address is looked up in the source wallet's statement;
5. ``X-Attempt-Key`` and ``X-Utxo-Intent-Key`` rules;
6. the source (and fee) wallet rows are locked: every withdrawal from a wallet waits for the
   one before it to commit, so no interleaving can overdraw it; on UTXO networks the duplicate
   rule is checked under that lock;
7. amount and fee limit move into ``held`` (409 INSUFFICIENT_BALANCE / INSUFFICIENT_GAS; a token
   transfer of a vault with autofuel on waits for gas instead, and a refuel check is queued).
   One wallet paying both, on a network without the duplicate rule and with no internal
   target, is locked by the hold's own statement (6 and 7 in one round trip);
8. the check stage's command is queued (the outbox) and the transaction written ``pending``
   with its audit entry, change-log position and ``transaction.created`` event.
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

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
def _source_sql(*, with_target: bool) -> str:
    """The source wallet of the workspace with its address and vault, one constant statement (what
    ``Wallet.get_or_none(...).select_related("address", "vault")`` sends, without building it per
    request). Made on first use: the models' foreign-key columns exist once tortoise is set up.

    ``with_target``: with what the plain target address ``$3`` is on the source's network, for
    its currency (destinations.what_address_is), in the same statement."""
    columns = f"{_columns('w', Wallet)}, {_columns('a', WalletAddress)}, {_columns('v', Vault)}"
    joins = "FROM wallets w JOIN wallet_addresses a ON a.id = w.address_id JOIN vaults v ON v.id = w.vault_id"
    if with_target:
        columns += ", " + ", ".join(f't.{name} AS "t.{name}"' for name in _TARGET_COLUMNS)
        lookup = destinations.what_address_is(workspace_id="$2", network="a.network", address="$3",
                                              currency_id="w.currency_id")
        joins += f" CROSS JOIN LATERAL ({lookup}) t"
    return f"SELECT {columns} {joins} WHERE w.id = $1 AND w.workspace_id = $2"


_TARGET_COLUMNS = ("own_vault_id", "own_wallet_id", "whitelisted_id", "one_time_allowed")


async def _source_wallet(*, wallet_id: uuid.UUID, workspace_id: uuid.UUID,
                         target_address: str | None) -> tuple[Wallet | None, destinations.KnownAddress | None]:
    """The workspace's wallet ``wallet_id`` with its ``address`` and ``vault`` loaded (None if the
    workspace has no such wallet) and, given a plain ``target_address``, what that address is,
    read as given (the caller normalizes it: destinations.resolve uses this only when it was
    already canonical)."""
    parameters: list[Any] = [wallet_id, workspace_id]
    if target_address is not None:
        parameters.append(target_address)
    sql = _source_sql(with_target=target_address is not None)
    rows = await connections.get("default").execute_query_dict(sql, parameters)
    if not rows:
        return None, None
    parts: dict[str, dict[str, Any]] = {"w": {}, "a": {}, "v": {}, "t": {}}
    for key, value in rows[0].items():
        alias, _, column = key.partition(".")
        parts[alias][column] = value
    source = Wallet._init_from_db(**parts["w"])  # noqa: SLF001  (tortoise's own row → model)
    # As select_related leaves them: the related objects cached on the wallet
    object.__setattr__(source, "_address", WalletAddress._init_from_db(**parts["a"]))  # noqa: SLF001
    object.__setattr__(source, "_vault", Vault._init_from_db(**parts["v"]))  # noqa: SLF001
    known = None if target_address is None else destinations.KnownAddress.of(target_address, parts["t"])
    return source, known


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

    # A plain target address is looked up with the source (one statement less when it is canonical).
    # Only printable ASCII goes to SQL before it is validated (every network's addresses are).
    plain = (request.target_wallet_id is None and request.target_whitelisted_asset_id is None
             and request.target_address.isascii() and request.target_address.isprintable())
    source, known = await _source_wallet(wallet_id=request.source_wallet_id, workspace_id=workspace.id,
                                         target_address=request.target_address if plain else None)
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
        target_whitelisted_asset_id=request.target_whitelisted_asset_id, known=known)
    plan = await fees.plan_fee(adapter=adapter, currency=currency, amount=request.amount, from_address=from_address,
                               fee=request.fee, fee_rate_sat_per_vb=request.fee_rate_sat_per_vb)
    attempt = await key_rules.attempt_of(workspace_id=workspace.id, keys=keys, wallet_id=source.id,
                                    to_address=destination.address, amount=request.amount)
    await key_rules.check_intent(workspace_id=workspace.id, keys=keys)

    fee_wallet = await ledger.fee_wallet_of(source, plan.fee_currency_id)
    # One wallet paying amount and fee, nothing checked under its lock and no internal target to
    # lock with it: the lock is taken by the hold's own statement (ledger.lock_and_hold) below.
    lock_with_hold = fee_wallet is source and network.family != "utxo" and destination.wallet is None
    if not lock_with_hold:
        locked = await balances.lock_wallets([source.id, fee_wallet.id])
        source, fee_wallet = locked[source.id], locked[fee_wallet.id]
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
    parties = ledger.Parties(tx, source, fee_wallet, destination.wallet, currency, vault=vault, workspace=workspace)
    if lock_with_hold:
        await ledger.lock_and_hold(parties)
    else:
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
