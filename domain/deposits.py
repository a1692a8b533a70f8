"""Deposits: the chain watcher turns final transfers into deposit transactions and balances.

:func:`scan_next_block` (one unit of work, run by the ``deposits.watch`` actor) locks the
network's watch state and then, in this order:

1. a network stopped by a reorganization deeper than its confirmations (``halted_at``) is not
   read: nothing is credited there until an operator resumes it (:func:`resume_watch`);
2. a network whose deposits are found per watched address (Solana: ``read_account``, see
   :func:`scan_addresses`) reads a batch of its watched accounts from their cursors;
3. a block-read network (Bitcoin, EVM, the devnets) first checks that the newest block it read
   is still the chain's block at that height (``block_hash``, against the hashes it keeps for a
   recent window, :class:`~models.deposits.ChainWatchBlock`); if not, the chain replaced a block
   the watcher had already treated as final: the network is halted with the fork point and the
   deposits credited above it, and logged as critical (a deposit that was final is never
   removed or rewritten by the service);
4. it reads the next block that has the confirmations the adapter asks for, checks that it
   extends the block read before (its parent hash; otherwise nothing of it is kept and the next
   poll's check of step 3 halts the network), records a deposit for every successful transfer
   to a workspace address that has a wallet of the transferred currency, remembers the block's
   hash and advances the state.

A transfer is credited only once its block is final (the network's ``confirmations``), so a
reorganization shallower than that replaces blocks before they are read: what they held is
never credited, and what the replacing blocks hold is credited once when they are final. A
deposit is created ``finished`` (final: no approvals, no signatures), raises the wallet's total,
bumps the address's balance_version and enters the change log; a ``transaction.created`` webhook
event carries it.

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
from domain.networks.base import Block, NetworkAdapter, Transfer, incoming_history, watches_addresses
from domain.networks.registry import get_adapter
from models.deposits import ChainAddressCursor, ChainWatchBlock, ChainWatchState
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


#: Block hashes the watcher keeps per network, below the newest block it read: how deep it can
#: find the fork point of a reorganization (far beyond any network's confirmations).
WATCH_BLOCK_WINDOW = 512
#: Watched accounts an address-watched network reads per unit of work.
ACCOUNTS_PER_SCAN = 50


async def _first_scanned_height(network_id: str, adapter: NetworkAdapter) -> int:
    """Where the watcher of a network starts: the beginning for a devnet or an address-watched
    network (each account is read from its own first transaction), else the lookback."""
    network = registry().network(network_id)
    if network.adapter == "devnet" or watches_addresses(adapter):
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
    return sorted(n.id for n in enabled if n.adapter == "devnet" or n.id in used)  # type: ignore[comparison-overlap]  # flat values_list


async def final_height(adapter: NetworkAdapter) -> int:
    """The newest height whose block has the confirmations a deposit needs."""
    return await adapter.latest_height() - adapter.confirmations_required() + 1


async def scan_next_block(*, network_id: str) -> ScannedBlock | None:
    """One unit of the network's watcher (in the caller's transaction; see the module): a block,
    or a batch of watched accounts; None when there is nothing new (or the network is halted)."""
    adapter = get_adapter(network_id)
    state = await _lock_state(network_id, adapter)
    if state.halted_at is not None:
        logger.error("deposits: the watcher of %s is halted since %s (%s): nothing is credited there until an "
                     "operator resumes it (custody watch resume --network %s)", network_id,
                     state.halted_at.isoformat(), (state.halt_details or {}).get("reason"), network_id)
        return None
    if watches_addresses(adapter):
        return await scan_addresses(state=state, adapter=adapter)
    if not await _chain_holds_newest_read(state, adapter):
        return None
    height = state.scanned_height + 1
    if height > await final_height(adapter):
        return None
    previous = await ChainWatchBlock.get_or_none(network=network_id, height=height - 1)
    try:
        async with in_transaction():  # savepoint: a block that does not extend the chain read leaves nothing
            block = await adapter.read_block(height)
            if block is None:
                return None
            if previous is not None and block.parent_hash and block.parent_hash != previous.hash:
                raise _NotOurChain(block)
            deposits = await record_block_deposits(adapter=adapter, block=block)
    except _NotOurChain as replaced:
        logger.warning("deposits: block %d of %s (%s) does not extend block %d read before (%s); checking the chain",
                       height, network_id, replaced.block.hash, height - 1, previous.hash if previous else None)
        await _chain_holds_newest_read(state, adapter)
        return None
    await _remember_block(network_id, block)
    state.scanned_height = height
    await state.save(update_fields=["scanned_height"])
    return ScannedBlock(network_id, height, deposits)


class _NotOurChain(Exception):
    def __init__(self, block: Block) -> None:
        super().__init__(block.hash)
        self.block = block


async def _remember_block(network_id: str, block: Block) -> None:
    if not block.hash:
        return
    await connections.get("default").execute_query(
        "INSERT INTO chain_watch_blocks (id, network, height, hash, parent_hash, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (network, height) DO UPDATE SET hash = EXCLUDED.hash, "
        "parent_hash = EXCLUDED.parent_hash, updated_at = EXCLUDED.updated_at",
        [uuid.uuid4(), network_id, block.height, block.hash, block.parent_hash or "", clock.now()],
    )
    if block.height % 64 == 0:
        await ChainWatchBlock.filter(network=network_id, height__lt=block.height - WATCH_BLOCK_WINDOW).delete()


async def _chain_holds_newest_read(state: ChainWatchState, adapter: NetworkAdapter) -> bool:
    """Whether the chain still has, at the watcher's height, the block the watcher read there.

    When it does not, the chain replaced blocks the watcher had already credited as final (a
    reorganization deeper than the network's confirmations): the network is halted (see the
    module) and False returned. An adapter without ``block_hash`` is trusted (the devnets)."""
    block_hash = getattr(adapter, "block_hash", None)
    newest = await ChainWatchBlock.get_or_none(network=state.network, height=state.scanned_height)
    if block_hash is None or newest is None:
        return True
    current = await block_hash(newest.height)
    if current == newest.hash:
        return True
    fork_height: int | None = None
    for row in await ChainWatchBlock.filter(network=state.network, height__lt=newest.height).order_by("-height"):
        if await block_hash(row.height) == row.hash:
            fork_height = int(row.height)
            break
    credited = Transaction.filter(direction=transactions.DEPOSIT, network=state.network,
                                  block_height__gt=fork_height if fork_height is not None else -1)
    count = await credited.count()
    details = {
        "reason": "REORG_BEYOND_FINALITY", "height": int(newest.height), "read_hash": newest.hash,
        "chain_hash": current, "fork_height": fork_height, "confirmations": adapter.confirmations_required(),
        "deposits_above_fork": count,
        "deposit_ids": [str(i) for i in await credited.order_by("block_height").limit(100).values_list("id", flat=True)],
    }
    state.halted_at, state.halt_details = clock.now(), details
    await state.save(update_fields=["halted_at", "halt_details"])
    logger.critical(
        "deposits: %s reorganized deeper than its %d confirmations: block %d read as %s is now %s (fork point %s); "
        "%d deposit(s) credited above the fork point stay as they are; the watcher of %s is halted until an "
        "operator resumes it (custody watch resume --network %s)", state.network, adapter.confirmations_required(),
        newest.height, newest.hash, current, fork_height, count, state.network, state.network)
    return False


async def resume_watch(*, network_id: str, from_height: int | None = None) -> dict[str, object]:
    """Resume a watcher halted by a reorganization deeper than finality (an operator's decision,
    in the caller's transaction): it reads again from the fork point (or ``from_height``), so the
    replacing branch's deposits are credited once; what was credited from the replaced blocks
    stays (it was final: the operator settles it, the service never rewrites it). The adapter
    forgets what it derived from the replaced blocks (``rewind``: Bitcoin's UTXO index)."""
    registry().network(network_id)  # 404 NETWORK_NOT_FOUND for an unknown id
    state = await _lock_state(network_id)
    if state.halted_at is None:
        return {"network": network_id, "resumed": False, "scanned_height": int(state.scanned_height)}
    details = dict(state.halt_details or {})
    restart = from_height if from_height is not None else details.get("fork_height")
    if restart is None:
        raise ValueError(f"the fork point of {network_id} is below the blocks the watcher kept: name the height to "
                         "read again from (--from-height)")
    restart = min(int(restart), int(state.scanned_height))
    rewind = getattr(get_adapter(network_id), "rewind", None)
    if rewind is not None:
        await rewind(restart)
    await ChainWatchBlock.filter(network=network_id, height__gt=restart).delete()
    state.scanned_height, state.halted_at, state.halt_details = restart, None, None
    await state.save(update_fields=["scanned_height", "halted_at", "halt_details"])
    logger.warning("deposits: the watcher of %s resumed from height %d after %s", network_id, restart,
                   details.get("reason"))
    return {"network": network_id, "resumed": True, "scanned_height": restart, "halt": details}


async def watch_states() -> list[dict[str, object]]:
    """Every network's watcher state, for operators (``custody watch``): height, halted or not."""
    return [{"network": state.network, "scanned_height": int(state.scanned_height),
             "halted_at": state.halted_at.isoformat() if state.halted_at else None, "halt": state.halt_details}
            for state in await ChainWatchState.all().order_by("network")]


async def scan_addresses(*, state: ChainWatchState, adapter: NetworkAdapter) -> ScannedBlock | None:
    """One batch of an address-watched network (Solana): the accounts not yet read up to the
    current final height, each from its cursor (``read_account``), their deposits recorded.

    Rules, in order: every wallet address of the network and the token accounts of its open
    token wallets (``watched_accounts``) have a cursor (a new one starts at the account's first
    transaction: deposits already credited, by ``credit_history`` or before, are skipped by their
    ``chain_ref``); the accounts the final height moved ``params.watch_poll_slots`` past since
    their last read, least recently read first, :data:`ACCOUNTS_PER_SCAN` a unit; a
    cursor only moves past final transactions, so one in a slot not final yet is read again next
    time, or never if the cluster abandoned its slot; ``scanned_height`` is the height every
    account has been read up to (what ``credit_history`` reads history to).
    """
    network_id = state.network
    final = await final_height(adapter)
    await _ensure_cursors(network_id, adapter)
    # An account is read again once the final height moved ``watch_poll_slots`` past its last
    # read: on a cluster whose slots never stop (2.5 a second) this keeps one account to about
    # one read per poll interval, instead of one per unit of work.
    poll_slots = int(registry().network(network_id).params.get("watch_poll_slots", 0))
    due = await ChainAddressCursor.filter(network=network_id, checked_height__lt=final - poll_slots) \
        .order_by("checked_height", "account").limit(ACCOUNTS_PER_SCAN)
    if not due:
        return None
    recorded: list[Transaction] = []
    for cursor in due:
        read = await adapter.read_account(  # type: ignore[attr-defined]
            account=cursor.account, owner=cursor.owner, since=cursor.last_signature, up_to_height=final)
        for block in read.blocks:
            recorded += await record_block_deposits(adapter=adapter, block=block)
        if read.cursor != cursor.last_signature:
            cursor.last_signature, cursor.last_slot = read.cursor, read.cursor_height
        cursor.checked_height = final
        await cursor.save(update_fields=["last_signature", "last_slot", "checked_height"])
    lowest = await ChainAddressCursor.filter(network=network_id).order_by("checked_height").first()
    state.scanned_height = int(lowest.checked_height) if lowest is not None else final
    await state.save(update_fields=["scanned_height"])
    return ScannedBlock(network_id, final, recorded)


#: Per network, the (addresses, wallets, cursors) counts after this process last made cursors: the
#: full pass below runs again only when one of them changed (a wallet address or a wallet added,
#: cursors deleted) or in a new process, not on every unit of work.
_cursors_made_for: dict[str, tuple[int, int, int]] = {}


async def _ensure_cursors(network_id: str, adapter: NetworkAdapter) -> None:
    """A cursor for every account the network's wallet addresses are watched through."""
    counts = (await WalletAddress.filter(network=network_id).count(),
              await Wallet.filter(address__network=network_id).count(),
              await ChainAddressCursor.filter(network=network_id).count())
    if _cursors_made_for.get(network_id) == counts:
        return
    addresses = await WalletAddress.filter(network=network_id).values_list("id", "address")
    if not addresses:
        return
    currencies: dict[object, list[str]] = {}
    for address_id, currency_id in await Wallet.filter(
            address_id__in=[a for a, _ in addresses]).values_list("address_id", "currency_id"):
        currencies.setdefault(address_id, []).append(currency_id)
    rows = []
    for address_id, address in addresses:
        watched = adapter.watched_accounts(  # type: ignore[attr-defined]
            address=address, currencies=[registry().currency(c) for c in sorted(currencies.get(address_id, []))])
        rows += [(account, address) for account in watched]
    known = set(await ChainAddressCursor.filter(network=network_id).values_list("account", flat=True))
    for account, owner in rows:
        if account not in known:
            known.add(account)
            await connections.get("default").execute_query(
                "INSERT INTO chain_address_cursors (id, network, account, owner, checked_height, created_at, "
                "updated_at) VALUES ($1, $2, $3, $4, 0, $5, $5) ON CONFLICT (network, account) DO NOTHING",
                [uuid.uuid4(), network_id, account, owner, clock.now()])
    _cursors_made_for[network_id] = (*counts[:2], await ChainAddressCursor.filter(network=network_id).count())


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
    wallets = {(w.address_id, w.currency_id): w for w in await Wallet.filter(
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
    matched = [m for m, ref in zip(matched, refs) if ref not in known]  # type: ignore[comparison-overlap]  # flat values_list
    if not matched:
        return []
    locked = await balances.lock_wallets(w.id for _, _, w in matched)
    vaults = {v.id: v for v in await Vault.filter(id__in={w.vault_id for w in locked.values()})}
    workspaces = {w.id: w for w in await Workspace.filter(id__in={w.workspace_id for w in locked.values()})}
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
                    workspace_id=wallet.workspace_id, vault_id=wallet.vault_id, wallet_id=wallet.id,
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
        internal_sender = sender is not None and sender.workspace_id == wallet.workspace_id
        workspace_id = wallet.workspace_id
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
        vault = vaults[wallet.vault_id]
        workspace = workspaces[wallet.workspace_id]
        from_side = transactions.external_side(address=transfer.from_address, block_height=block.height)
        if internal_sender and sender is not None:
            # A transfer between vaults of the workspace: name the sending vault (its balance
            # change belongs to its own outgoing transaction).
            sending_vault = await Vault.get(id=sender.vault_id)
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
        await autofuel.request_refuel_check(workspace_id=tx.workspace_id, vault_id=tx.vault_id,
                                            currency=registry().currency(tx.currency_id), reason="token_deposit")
    for screened in screenings:
        await aml_screening.announce_deposit(screened)
    return recorded
