"""Deposits: the chain watcher turns final blocks into deposit transactions and balances.

:func:`scan_next_block` (one block per unit of work, run by the ``deposits.watch`` actor) locks
the network's watch state, reads the next block that has the confirmations the adapter asks
for, records a deposit for every successful transfer to a workspace address that has a wallet
of the transferred currency, and advances the state. A deposit is created ``finished`` (final:
no approvals, no signatures), raises the wallet's total, bumps the address's balance_version and
enters the change log; a ``transaction.created`` webhook event carries it.

AML (docs/aml.md): when the workspace screens transfers, each deposit is screened as it is
recorded (domain.aml.screening.screen_deposit); a deposit whose decision is freeze, or whose
result is still pending at an asynchronous provider, is credited into the wallet's ``frozen``
part (in total, not available) until it is released; the transaction carries the record as
``aml_screening``.

An internal transfer (a withdrawal to a wallet of its own workspace) is not a deposit: the
withdrawal credits its target wallet itself when the transfer is final
(domain.withdrawals.pipeline.track), so the watcher skips a transfer whose hash belongs to such
a withdrawal. The hash is recorded before the transfer is submitted, so it is known here.

What an address received before its wallet existed (a token sent to a vault's address before
its token wallet was opened: the watcher read that block and found no wallet for it) is credited
when the wallet opens: opening it writes a :data:`CREDIT_HISTORY` command, and
:func:`credit_history` asks the network adapter for the address's incoming transfers of the
currency (``incoming_transfers``: the devnet's ledger, Solana's associated token account history)
up to the height the watcher has read, and records them like the watcher records a block's. The
watcher reads every later block with the wallet in place; the watch state's row lock, taken
first by both, makes the boundary exact (a watcher in the middle of a block when the wallet
opened has finished it before the history is read up to it).

Exactly once: each deposit has a unique ``chain_ref`` (network, tx hash, address, currency).
It is inserted in a savepoint before the balance moves, in the same transaction; a block read
twice, or two watchers racing on it, hit the unique constraint (the second insert waits for the
first to commit, then does nothing), so the balance moves once. The watch-state row lock also
keeps two watchers of one network from doing the same work at the same time.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from tortoise import connections
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from core import clock
from domain import balances, transactions
from domain.aml import screening as aml_screening
from domain.aml import settings as aml_settings
from domain.currencies import registry
from domain.gas_station import autofuel
from domain.networks.base import Block, NetworkAdapter, Transfer, incoming_history
from domain.networks.registry import get_adapter
from models.deposits import ChainWatchState
from models.transactions import Transaction
from models.vaults import Vault
from models.wallets import Wallet, WalletAddress
from models.workspaces import Workspace

#: Scheduled actor: read new final blocks into deposits (every CHAIN_WATCH_INTERVAL_SECONDS).
WATCH = "deposits.watch"
#: Outbox command of a wallet just opened: credit what its address received before (credit_history).
CREDIT_HISTORY = "deposits.credit_history"

logger = logging.getLogger(__name__)


def chain_ref(network_id: str, transfer: Transfer) -> str:
    return f"{network_id}:{transfer.tx_hash}:{transfer.to_address}:{transfer.currency_id}"


@dataclass(frozen=True)
class ScannedBlock:
    network_id: str
    height: int
    deposits: list[Transaction]


#: A real network's first read starts this many blocks below its final height, unless the
#: network's ``params.watch_lookback_blocks`` says otherwise: the watcher reads a real network
#: only once a vault has an address there (:func:`watched_networks`), and nothing older than
#: that address can pay it, so its history from genesis is never read.
DEFAULT_WATCH_LOOKBACK_BLOCKS = 1000


async def _first_scanned_height(network_id: str, adapter: NetworkAdapter) -> int:
    """Where the watcher of a network starts: the beginning for a devnet, else the lookback."""
    network = registry().network(network_id)
    if network.adapter == "devnet":
        return 0
    lookback = int(network.params.get("watch_lookback_blocks", DEFAULT_WATCH_LOOKBACK_BLOCKS))
    return max(0, await final_height(adapter) - lookback)


async def _lock_state(network_id: str, adapter: NetworkAdapter | None = None) -> ChainWatchState:
    start = 0
    if adapter is not None and not await ChainWatchState.exists(network=network_id):
        start = await _first_scanned_height(network_id, adapter)
    await connections.get("default").execute_query(
        "INSERT INTO chain_watch_states (id, network, scanned_height, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, $4) ON CONFLICT (network) DO NOTHING",
        [uuid.uuid4(), network_id, start, clock.now()],
    )
    state = await ChainWatchState.filter(network=network_id).select_for_update().first()
    assert state is not None
    return state


async def watched_networks() -> list[str]:
    """The networks the watcher reads: every enabled devnet, and each enabled real network once
    a vault has an address on it (nothing to find before that, and an unused network's node
    need not be reachable)."""
    enabled = registry().enabled_networks()
    used = set(await WalletAddress.filter(network__in=[n.id for n in enabled if n.adapter != "devnet"])
               .distinct().values_list("network", flat=True))
    return sorted(n.id for n in enabled if n.adapter == "devnet" or n.id in used)


async def final_height(adapter: NetworkAdapter) -> int:
    """The newest height whose block has the confirmations a deposit needs."""
    return await adapter.latest_height() - adapter.confirmations_required() + 1


async def scan_next_block(*, network_id: str) -> ScannedBlock | None:
    """Process the next final block of the network (in the caller's transaction); None when
    there is none yet."""
    adapter = get_adapter(network_id)
    state = await _lock_state(network_id, adapter)
    height = state.scanned_height + 1
    if height > await final_height(adapter):
        return None
    block = await adapter.read_block(height)
    if block is None:
        return None
    deposits = await record_block_deposits(adapter=adapter, block=block)
    state.scanned_height = height
    await state.save(update_fields=["scanned_height"])
    return ScannedBlock(network_id, height, deposits)


async def credit_history(*, wallet_id: uuid.UUID) -> list[Transaction]:
    """Credit a wallet with what its address received in its currency before it was opened.

    Runs once per wallet (its CREDIT_HISTORY command), in the caller's transaction; running again
    changes nothing (each transfer's ``chain_ref`` is recorded once, whoever records it first).
    Lock order: the network's watch state, then the wallets, as the watcher.
    """
    wallet = await Wallet.get_or_none(id=wallet_id)
    if wallet is None:
        return []
    address = await WalletAddress.get(wallets__id=wallet.id)
    adapter = get_adapter(address.network)
    state = await _lock_state(address.network, adapter)
    recorded: list[Transaction] = []
    for block in await incoming_history(adapter, address=address.address, currency=registry().currency(
            wallet.currency_id), up_to_height=state.scanned_height):
        recorded += await record_block_deposits(adapter=adapter, block=block)
    if recorded:
        logger.info("deposits: wallet %s credited with %d transfer(s) its address received before it opened",
                    wallet.id, len(recorded))
    return recorded


async def record_block_deposits(*, adapter: NetworkAdapter, block: Block) -> list[Transaction]:
    """Record the block's deposits to workspace wallets; transfers already recorded are skipped.

    Lock order: wallets (addresses, then wallets, by id), as every balance writer does; the
    change-log positions take no lock (domain.transactions.assign_positions, in chain order).
    """
    network_id = block.network_id
    candidates = [t for t in block.transfers if t.success and t.amount > 0]
    if not candidates:
        return []
    addresses = {a.address: a for a in await WalletAddress.filter(
        network=network_id, address__in=sorted({t.to_address for t in candidates}))}
    if not addresses:
        return []
    wallets = {(w.address_id, w.currency_id): w for w in await Wallet.filter(  # type: ignore[attr-defined]
        address_id__in=[a.id for a in addresses.values()])}
    matched: list[tuple[Transfer, WalletAddress, Wallet]] = []
    for transfer in candidates:
        address = addresses.get(transfer.to_address)
        wallet = wallets.get((address.id, transfer.currency_id)) if address else None
        if address is None or wallet is None:
            continue  # not ours, or a currency the vault has no wallet for (not credited)
        matched.append((transfer, address, wallet))
    if not matched:
        return []
    internal = set(await Transaction.filter(
        direction=transactions.WITHDRAWAL, network=network_id, tx_hash__in=sorted({t.tx_hash for t, _, _ in matched}),
        target_wallet_id__isnull=False).values_list("tx_hash", "target_wallet_id"))
    matched = [m for m in matched if (m[0].tx_hash, m[2].id) not in internal]
    if not matched:
        return []
    refs = [chain_ref(network_id, t) for t, _, _ in matched]
    known = set(await Transaction.filter(chain_ref__in=refs).values_list("chain_ref", flat=True))
    matched = [m for m, ref in zip(matched, refs) if ref not in known]
    if not matched:
        return []
    locked = await balances.lock_wallets(w.id for _, _, w in matched)
    vaults = {v.id: v for v in await Vault.filter(id__in={w.vault_id for w in locked.values()})}  # type: ignore[attr-defined]
    workspaces = {w.id: w for w in await Workspace.filter(id__in={w.workspace_id for w in locked.values()})}  # type: ignore[attr-defined]
    own_addresses = {a.address: a for a in await WalletAddress.filter(
        network=network_id, address__in=sorted({t.from_address for t, _, _ in matched}))}
    recorded: list[Transaction] = []
    screenings: list[aml_screening.DepositScreening] = []
    aml_settings_of: dict[uuid.UUID, aml_settings.Settings] = {}
    # Chain order: balance versions and log positions follow the order of transfers in the block.
    for transfer, address, wallet in sorted(matched, key=lambda m: m[0].index):
        wallet = locked[wallet.id]
        try:
            async with in_transaction():  # savepoint: a duplicate (a racing watcher) skips only this one
                tx = await Transaction.create(
                    workspace_id=wallet.workspace_id, vault_id=wallet.vault_id, wallet_id=wallet.id,  # type: ignore[attr-defined]
                    direction=transactions.DEPOSIT, status=transactions.FINISHED, currency_id=transfer.currency_id,
                    network=network_id, amount=transfer.amount, fee=transfer.fee, fee_limit=transfer.fee,
                    fee_currency_id=transfer.fee_currency_id, from_address=transfer.from_address,
                    to_address=transfer.to_address, tx_hash=transfer.tx_hash, block_height=block.height,
                    block_time=block.time, chain_ref=chain_ref(network_id, transfer),
                    amount_usdt=transactions.usd_value(registry().currency(transfer.currency_id), transfer.amount),
                )
        except IntegrityError:
            logger.info("deposit %s already recorded", chain_ref(network_id, transfer))
            continue
        sender = own_addresses.get(transfer.from_address)
        internal_sender = sender is not None and sender.workspace_id == wallet.workspace_id  # type: ignore[attr-defined]
        workspace_id = wallet.workspace_id  # type: ignore[attr-defined]
        if workspace_id not in aml_settings_of:
            aml_settings_of[workspace_id] = await aml_settings.load(workspace_id)
        screened = await aml_screening.screen_deposit(tx=tx, settings=aml_settings_of[workspace_id],
                                                      internal_sender=internal_sender)
        # A deposit AML freezes (or that waits for an asynchronous result) is credited into
        # ``frozen``: it counts in total, not in available, until it is released.
        frozen = transfer.amount if screened is not None and screened.freeze else 0
        version = await balances.apply_change(wallet=wallet, total=transfer.amount, frozen=frozen,
                                              block_height=block.height)
        currency = registry().currency(transfer.currency_id)
        vault = vaults[wallet.vault_id]  # type: ignore[attr-defined]
        workspace = workspaces[wallet.workspace_id]  # type: ignore[attr-defined]
        from_side = transactions.external_side(address=transfer.from_address, block_height=block.height)
        if internal_sender:
            # A transfer between vaults of the workspace: name the sending vault (its balance
            # change belongs to its own outgoing transaction).
            sending_vault = await Vault.get(id=sender.vault_id)  # type: ignore[attr-defined]
            from_side.update(external=False, vault_id=str(sending_vault.id), vault_name=sending_vault.name,
                             workspace_id=str(workspace.id), workspace_name=workspace.name)
        tx.balance_version = version
        tx.from_side = from_side
        tx.to_side = transactions.own_side(address=address.address, wallet=wallet, vault=vault, workspace=workspace,
                                           currency=currency, balance_version=version)
        if screened is not None:
            tx.aml_screening = aml_screening.to_resource(screened.record)
            screenings.append(screened)
        await tx.save(update_fields=["balance_version", "from_side", "to_side", "aml_screening"])
        recorded.append(tx)
    await transactions.assign_positions(recorded)
    for tx in recorded:
        await transactions.publish(tx, created=True)
    for tx in recorded:
        # A token deposit to a vault with autofuel on: the gas station checks the address's gas,
        # so the tokens can move on.
        await autofuel.request_refuel_check(workspace_id=tx.workspace_id, vault_id=tx.vault_id,  # type: ignore[attr-defined]
                                            currency=registry().currency(tx.currency_id), reason="token_deposit")
    for screened in screenings:
        await aml_screening.announce_deposit(screened)
    return recorded
