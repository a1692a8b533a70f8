"""What a withdrawal does to balances, and how every one of its changes is written.

Balances (all under the wallet locks of :func:`domain.balances.lock_wallets`):

* :func:`hold` moves the amount and the fee limit from available into ``held`` (the fee limit
  in the fee currency's wallet: the same wallet, or the native coin's for a token) and sets
  ``holding``; :func:`release` gives both back **only while** ``holding`` and clears it, so
  every release path (declined, failed, cancelled, expired, frozen) releases exactly once, and
  an unfreeze can hold again; a token transfer ``awaiting_gas`` (autofuel refuels its address)
  holds its amount only, and :func:`hold_gas` adds the fee once the gas is there;
* :func:`settle` ends a transfer the network made final: releases, takes the amount (when it
  succeeded) and the actual fee out of ``total``, and credits an internal target wallet, in
  one balance change per wallet (the hold given back and the debit are one update).

Every change of a withdrawal goes through :func:`write_change`, in the caller's database
transaction: the status move is checked against the table (domain.transaction_statuses); the
sides are refreshed with each affected wallet's absolute balance and its address's
``balance_version`` read as one state, with the change-log position the change takes (``seq``,
no lock: domain.transactions; a creation's :func:`hold` takes both in its own statement when it
is the only change of the withdrawal's wallets, see there); then the row, its audit entry, the ``transaction.*`` webhook event
carrying the ``seq`` and the outbox commands written so far go in one statement (core.rows).

Lock order, one for the whole money path: the withdrawal row (and its approval request), then
the wallets (:func:`domain.balances.lock_wallets`: addresses, then wallets, each sorted by id),
then the policy windows (advisory locks, sorted) and their bucket rows (sorted). Nothing is
locked per workspace.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Awaitable, Callable

from core import clock
from core.outbox import Command, RowLock, commands_to_write, new_command, take_locked
from core.rows import build, by_key, get_by_key, write_rows
from domain import audit, balances, transactions
from domain import transaction_statuses as statuses
from domain.currencies import Currency, registry
from domain.gas_station import autofuel
from domain.withdrawals import fees
from models.transactions import Transaction
from models.vaults import Vault
from models.wallets import Wallet, WalletAddress
from models.workspaces import Workspace


@dataclass
class Parties:
    """A withdrawal and the wallets it touches (locked when loaded with ``lock=True``)."""

    tx: Transaction
    source: Wallet
    fee_wallet: Wallet
    target: Wallet | None
    currency: Currency
    #: The source vault and the workspace, loaded on first use when not given.
    vault: Vault | None = None
    workspace: Workspace | None = None
    #: The wallets' states and the change-log position, when :func:`hold` took them in its own
    #: statement (``take_position``): the next :func:`write_change` uses them instead of reading.
    taken: tuple[dict[uuid.UUID, transactions.WalletState], int] | None = None

    @property
    def wallet_ids(self) -> list[uuid.UUID]:
        return [w.id for w in (self.source, self.fee_wallet, self.target) if w is not None]

    @property
    def same_fee_wallet(self) -> bool:
        return self.fee_wallet.id == self.source.id


async def fee_wallet_of(source: Wallet, fee_currency_id: str) -> Wallet:
    if fee_currency_id == source.currency_id:
        return source
    return await Wallet.get(vault_id=source.vault_id, currency_id=fee_currency_id)


async def load(tx: Transaction, *, lock: bool) -> Parties:
    """The withdrawal's wallets; ``lock`` takes their row locks (needed to change balances).

    One statement for a withdrawal paying its fee in its own currency (the source wallet, the
    internal target, locked or read by id, both named by the row); a token's fee wallet (the
    vault's wallet of the fee currency) is looked up first."""
    ids = [tx.wallet_id, *([tx.target_wallet_id] if tx.target_wallet_id else [])]
    fee_wallet_id = tx.wallet_id
    if tx.fee_currency_id != tx.currency_id:  # the source is in the withdrawal's vault and currency
        fee_wallet_id = (await Wallet.get(vault_id=tx.vault_id, currency_id=tx.fee_currency_id)).id
        ids.append(fee_wallet_id)
    wallets = (await balances.lock_wallets(ids) if lock
               else {w.id: w for w in await Wallet.filter(id__in=sorted(set(ids)))})
    target = wallets[tx.target_wallet_id] if tx.target_wallet_id else None
    return Parties(tx, wallets[tx.wallet_id], wallets[fee_wallet_id], target, registry().currency(tx.currency_id))


async def for_change(tx: Transaction) -> Parties:
    """The parties of a change that moves no balance, for :func:`write_change` only (it reads
    every balance it writes itself, :func:`_sides`).

    A withdrawal with one wallet (its own fee, no internal target) reads nothing: its wallet is
    named by the row (id, vault, workspace, currency), with no balance and no address id, so it
    must never be used to change or read a balance; the others are :func:`load` without locks."""
    if tx.target_wallet_id is None and tx.fee_currency_id == tx.currency_id:
        source = build(Wallet, id=tx.wallet_id, workspace_id=tx.workspace_id, vault_id=tx.vault_id,
                       currency_id=tx.currency_id)
        return Parties(tx, source, source, None, registry().currency(tx.currency_id))
    return await load(tx, lock=False)


async def hold(parties: Parties, *, take_position: bool = False) -> None:
    """Reserve amount and fee limit (409 INSUFFICIENT_BALANCE, or INSUFFICIENT_GAS for a token's fee).

    A token transfer whose address lacks the gas while the vault's autofuel is on holds only its
    amount and is marked ``awaiting_gas``; :func:`hold_gas` holds the fee once the refuel landed.

    ``take_position``: the caller's next step is :func:`write_change`, with nothing changing these
    wallets in between. When the hold's one statement is the only change of the withdrawal's
    wallets (one wallet pays amount and fee, no internal target), that statement also takes the
    change-log position, and the wallet's state is what it wrote: both its rows stay locked by this
    transaction (lock_wallets), so a read would find exactly that. One round trip less.
    """
    tx = parties.tx
    amount, fee_limit = int(tx.amount), int(tx.fee_limit)
    if parties.same_fee_wallet and take_position and parties.target is None:
        version, position = await balances.apply_change_taking_position(wallet=parties.source, held=amount + fee_limit)
        _take(parties, version=version, position=position)
    elif parties.same_fee_wallet:
        await balances.apply_change(wallet=parties.source, held=amount + fee_limit)
    else:
        await balances.apply_change(wallet=parties.source, held=amount)
        # Ask about autofuel only when the gas is short (most token transfers have it).
        short = balances.parts_of(parties.fee_wallet).available < fee_limit
        autofuel_on = short and await autofuel.covers(vault_id=parties.source.vault_id,
                                                      currency=parties.currency)
        if fees.require_gas_for_token_transfer(fee_wallet=parties.fee_wallet, fee_limit=fee_limit,
                                               address=tx.from_address or "", autofuel=autofuel_on):
            await balances.apply_change(wallet=parties.fee_wallet, held=fee_limit)
            tx.awaiting_gas = False
        else:
            tx.awaiting_gas = True
    tx.holding = True


async def lock_and_hold(parties: Parties) -> None:
    """:func:`hold` with ``take_position`` for a new withdrawal whose wallets are not locked yet,
    when one wallet pays amount and fee and nothing else changes (no internal target): the
    source's address and row are locked, the hold written and the change-log position taken in
    one statement (balances.hold_taking_position), in the lock order of the module docstring.
    ``parties.source`` (and ``fee_wallet``, the same wallet) become the wallet as written."""
    tx = parties.tx
    if not (parties.same_fee_wallet and parties.target is None):
        raise ValueError("lock_and_hold takes one wallet paying amount and fee, with no internal target")
    source, version, position = await balances.hold_taking_position(
        wallet_id=parties.source.id, held=int(tx.amount) + int(tx.fee_limit))
    parties.source = parties.fee_wallet = source
    _take(parties, version=version, position=position)
    tx.holding = True


def _take(parties: Parties, *, version: int, position: int) -> None:
    """What a hold taking the position read: the source's state as written, for the next
    :func:`write_change` (``Parties.taken``)."""
    source = parties.source
    state = transactions.WalletState(wallet_id=source.id, vault_id=source.vault_id, currency_id=source.currency_id,
                                     address=parties.tx.from_address or "", parts=balances.parts_of(source),
                                     balance_version=version)
    parties.taken = ({source.id: state}, position)

async def hold_gas(parties: Parties) -> bool:
    """Hold the fee of a withdrawal ``awaiting_gas`` if its address has the gas now (wallets locked).

    True when the fee is held (or was already); False while the gas is still missing.
    """
    tx = parties.tx
    if not tx.awaiting_gas:
        return True
    if balances.parts_of(parties.fee_wallet).available < int(tx.fee_limit):
        return False
    await balances.apply_change(wallet=parties.fee_wallet, held=int(tx.fee_limit))
    tx.awaiting_gas = False
    return True


def _holds(parties: Parties) -> list[tuple[Wallet, int]]:
    """What the withdrawal holds, by wallet (nothing when it holds nothing): a withdrawal waiting
    for gas holds no fee yet."""
    tx = parties.tx
    if not tx.holding:
        return []
    amount, fee_limit = int(tx.amount), int(tx.fee_limit)
    if parties.same_fee_wallet:
        return [(parties.source, amount + fee_limit)]
    return [(parties.source, amount), *([] if tx.awaiting_gas else [(parties.fee_wallet, fee_limit)])]


async def release(parties: Parties) -> bool:
    """Give back what the withdrawal holds; False (and no change) when it holds nothing."""
    holds = _holds(parties)
    if not holds:
        return False
    for wallet, held in holds:
        await balances.apply_change(wallet=wallet, held=-held)
    parties.tx.holding, parties.tx.awaiting_gas = False, False
    return True


async def change_fee_limit(parties: Parties, fee_limit: int) -> bool:
    """Hold ``fee_limit`` instead of the withdrawal's current fee limit (wallets locked): a
    replacement with a higher max fee raises it (False, and no change, when the fee wallet's
    available balance cannot cover the rise), a refused one lowers it back."""
    tx = parties.tx
    delta = int(fee_limit) - int(tx.fee_limit)
    if delta and tx.holding and not tx.awaiting_gas:
        if delta > 0 and balances.parts_of(parties.fee_wallet).available < delta:
            return False
        await balances.apply_change(wallet=parties.fee_wallet, held=delta)
    tx.fee_limit = int(fee_limit)
    return True


async def settle(parties: Parties, *, moved: bool, fee: int, block_height: int | None) -> None:
    """The network made the transfer final: release, then take out what it cost, in one balance
    change per wallet (a wallet's hold given back and its debit are one update).

    ``moved``: the amount left (and reached an internal target); False for a transfer that was
    included but reverted, which still paid ``fee``.
    """
    amount = int(parties.tx.amount) if moved else 0
    changes: dict[uuid.UUID, tuple[Wallet, int, int]] = {}  # wallet id -> (wallet, total, held)

    def add(wallet: Wallet, *, total: int = 0, held: int = 0) -> None:
        _, before_total, before_held = changes.get(wallet.id, (wallet, 0, 0))
        changes[wallet.id] = (wallet, before_total + total, before_held + held)

    for wallet, held in _holds(parties):
        add(wallet, held=-held)
    parties.tx.holding, parties.tx.awaiting_gas = False, False
    if parties.same_fee_wallet:
        add(parties.source, total=-(amount + fee))
    else:
        if amount:
            add(parties.source, total=-amount)
        add(parties.fee_wallet, total=-fee)
    if moved and parties.target is not None:
        add(parties.target, total=amount)
    for wallet, total, held in changes.values():
        await balances.apply_change(wallet=wallet, total=total, held=held, block_height=block_height if total else None)


# --------------------------------------------------------------------------------------------
# Writing a change
# --------------------------------------------------------------------------------------------

#: Called by :func:`write_change` for every status change (not the creation), in the same
#: database transaction, with the withdrawal, its previous status and the new one: how the policy
#: windows are released and taken again and how transaction approvals open and close, without
#: this package importing them (domain.policies registers its listener on import).
TransitionListener = Callable[[Transaction, str, str], Awaitable[None]]
_listeners: list[TransitionListener] = []


def add_transition_listener(listener: TransitionListener) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


async def _sides(parties: Parties) -> int:
    """Refresh from / to / fee_payer with the wallets' current absolute balances and versions;
    returns the change-log position the change takes (read with them, in one statement)."""
    tx = parties.tx
    vault: Vault | transactions.Named
    workspace: Workspace | transactions.Named
    vaults: dict[uuid.UUID, Vault | transactions.Named]
    if parties.taken is not None:  # hold(take_position=True) read them with its change
        (states, position), parties.taken = parties.taken, None
        if parties.vault is None:
            parties.vault = await get_by_key(Vault, tx.vault_id)
        if parties.workspace is None:
            parties.workspace = await Workspace.get(id=tx.workspace_id)
        vault, workspace, vaults = parties.vault, parties.workspace, {parties.vault.id: parties.vault}
    else:  # the vaults' and the workspace's names come with the states (one statement)
        read = await transactions.wallet_states_and_position(parties.wallet_ids)
        states, position, vaults = read.states, read.position, dict(read.vaults)
        vault, workspace = vaults[parties.source.vault_id], read.workspace
    source_state = states[parties.source.id]
    tx.from_side = transactions.wallet_side(state=source_state, vault=vault, workspace=workspace,
                                            currency=parties.currency)
    tx.balance_version = source_state.balance_version
    if parties.target is not None:
        target_vault = vaults.get(parties.target.vault_id) or await Vault.get(id=parties.target.vault_id)
        tx.to_side = transactions.wallet_side(state=states[parties.target.id], vault=target_vault,
                                              workspace=workspace, currency=parties.currency)
    else:
        previous = tx.to_side or {}
        tx.to_side = transactions.external_side(address=tx.to_address, block_height=tx.block_height,
                                                whitelisted_wallet_name=previous.get("whitelisted_wallet_name"))
    if not parties.same_fee_wallet:
        tx.fee_payer_side = transactions.wallet_side(state=states[parties.fee_wallet.id], vault=vault,
                                                     workspace=workspace,
                                                     currency=registry().currency(parties.fee_wallet.currency_id))
    return position


async def write_change(parties: Parties, *, status: str, actor_id: uuid.UUID | None, created: bool = False,
                       details: dict[str, Any] | None = None, action: str | None = None) -> Transaction:
    """Record a change of the withdrawal (see the module docstring); returns the saved row.

    ``action`` names the audit entry of a change that keeps the status (a replacement), instead
    of ``withdrawal.confirmations``."""
    tx = parties.tx
    if not created:
        statuses.require_move(tx.status, status)
    previous = None if created else tx.status
    tx.status = status
    if previous is not None:
        for listener in list(_listeners):
            await listener(tx, previous, status)
    tx.seq = await _sides(parties)
    action = action or ("withdrawal.created" if created else (
        "withdrawal.confirmations" if previous == status else f"withdrawal.{status}"))
    entry = audit.new_entry(action=action, object_type="transaction", object_id=tx.id, actor_id=actor_id,
                            workspace_id=tx.workspace_id,
                            details={"from_status": previous, "status": status,
                                     "balance_version": tx.balance_version, **(details or {})})
    tx.updated_at = clock.now()
    event = transactions.new_event(tx, created=created)
    # The row, its audit entry, its event and the commands this unit of work wrote so far (the
    # event's fan-out among them): one statement.
    await write_rows([entry, event, *commands_to_write(), tx])
    return tx


#: The signing sessions' wake-up of their withdrawal (actors.withdrawals.signed), named by the
#: pipeline and by the stuck-transaction replacement alike.
SIGNED = "withdrawals.signed"


#: The source addresses' public keys, by network and address, as this process read them. An
#: address's key never changes (the address is derived from it when the row is created,
#: domain.wallets, and nothing updates it; a network has each address once), so the build step
#: and the signature check read it once per process.
_public_keys: dict[tuple[str, str], bytes] = {}
#: How many keys :data:`_public_keys` keeps before it starts again (a bound, not a tuning knob).
PUBLIC_KEYS_KEPT = 100_000


async def public_key_of(tx: Transaction) -> bytes:
    """The public key of the withdrawal's source address (read once per process, see above)."""
    name = (tx.network, tx.from_address or "")
    key = _public_keys.get(name)
    if key is None:
        address = await WalletAddress.get(network=tx.network, address=tx.from_address, workspace_id=tx.workspace_id)
        key = bytes(address.public_key)
        if len(_public_keys) >= PUBLIC_KEYS_KEPT:
            _public_keys.clear()
        _public_keys[name] = key
    return key


#: A pipeline step's command locks its withdrawal's row with its claim (core.jobs.execute_command):
#: the row :func:`lock_withdrawal` then takes without a statement of its own. The claim locks the
#: command's row first and then this one, the order in which the step would.
WITHDRAWAL_ROW = RowLock(model=Transaction, payload_key="transaction_id", filters=(("direction", "withdrawal"),))


def take_locked_withdrawal(transaction_id: uuid.UUID | str) -> Transaction | None:
    """The withdrawal's row when the running command's claim locked it (:data:`WITHDRAWAL_ROW`),
    given once; None otherwise (the caller locks it itself)."""
    return take_locked(Transaction, transaction_id)


async def lock_withdrawal(transaction_id: uuid.UUID | str) -> Transaction | None:
    """The withdrawal's row, locked until the end of the transaction (None: no such withdrawal);
    the one the running command's claim locked when it did (:data:`WITHDRAWAL_ROW`)."""
    return take_locked_withdrawal(transaction_id) or await by_key(
        Transaction, transaction_id, lock="update", direction="withdrawal")


async def add_step(step: str, tx: Transaction, *, delay: timedelta | None = None, **payload: object) -> Command:
    """The pipeline step ``step`` of the withdrawal as an outbox command (after ``delay``).

    Its row is written with the next :func:`write_change` of the unit of work (one statement with
    the change: issue the step before the change it follows), or just before the commit with the
    other commands still unwritten (core.outbox.new_command)."""
    return new_command(actor_name=step, payload={"transaction_id": str(tx.id), **payload},
                       workspace_id=tx.workspace_id, run_at=clock.now() + delay if delay else None)
