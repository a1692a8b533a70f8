"""What the Solana adapter needs from a cluster, and the in-process cluster: LiteSVM.

:class:`SolanaChain` is the interface :class:`~domain.networks.solana.SolanaAdapter` is built
over. It has two implementations:

* :class:`LiteSvmChain` (here): ``solders.litesvm``, the Solana runtime in process (the real
  System, SPL Token and Associated Token Account programs, signature verification and fees),
  for tests, benchmarks and single-process development (``SOLANA_LOCAL_CHAIN``);
* :class:`~domain.networks.solana_rpc.RpcSolanaChain`: a real cluster over JSON-RPC
  (solana-py's ``AsyncClient``).

LiteSVM executes each transaction at once and has no blocks. This chain gives it a ledger of
its own: every accepted transaction is one slot (its account balances read before and after, as
an RPC node's ``getBlock`` reports them in ``meta``), and :meth:`LiteSvmChain.advance` produces
empty slots, so deposits and confirmations read exactly as on a cluster; it answers
``getSignaturesForAddress`` and ``getTransaction`` from that ledger with the cluster's semantics
(a slot is ``finalized`` once :data:`FINALIZED_DEPTH` slots deep). It also holds a faucet
(a funded key) that credits SOL and mints tokens with real, recorded transactions.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from solders.account import Account
from solders.hash import Hash
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.message import Message
from solders.pubkey import Pubkey
from solders.system_program import TransferParams, transfer
from solders.token.associated import get_associated_token_address
from solders.token.state import Mint, TokenAccount
from solders.transaction import Transaction
from solders.transaction_metadata import FailedTransactionMetadata
from spl.token.constants import TOKEN_PROGRAM_ID
from spl.token.instructions import create_idempotent_associated_token_account, mint_to_checked
from spl.token.models import MintToCheckedParams

from core import clock
from domain.networks.base import InsufficientFunds, InvalidSignature, TransferRejected

#: Size of an SPL token account (the rent-exempt minimum of an associated token account).
TOKEN_ACCOUNT_SIZE = 165
MINT_SIZE = 82
#: The ledger's ``finalized`` commitment: a slot this many slots deep (itself included), as a
#: cluster roots a slot about 32 slots after it was confirmed.
FINALIZED_DEPTH = 32


@dataclass(frozen=True)
class TokenBalance:
    """A token account's balance in a transaction's ``meta`` (pre or post)."""

    account_index: int
    mint: str
    owner: str
    amount: int


@dataclass(frozen=True)
class SlotTransaction:
    """One transaction of a block, as ``getBlock`` reports it (balances in lamports / atomic units)."""

    signature: str
    fee: int
    #: None when it succeeded; the runtime's error otherwise (it still paid its fee).
    error: str | None
    account_keys: list[str]
    pre_balances: list[int]
    post_balances: list[int]
    pre_token_balances: list[TokenBalance] = field(default_factory=list)
    post_token_balances: list[TokenBalance] = field(default_factory=list)


@dataclass(frozen=True)
class SlotBlock:
    slot: int
    blockhash: str
    parent_blockhash: str
    time: datetime
    transactions: list[SlotTransaction]


@dataclass(frozen=True)
class SignatureStatus:
    slot: int
    error: str | None


@dataclass(frozen=True)
class SignatureInfo:
    """One entry of ``getSignaturesForAddress``: a transaction that named the address."""

    signature: str
    slot: int
    #: None when it succeeded; the runtime's error otherwise.
    error: str | None
    block_time: datetime | None
    #: ``confirmed`` or ``finalized``.
    confirmation_status: str


@dataclass(frozen=True)
class ConfirmedTransaction:
    """``getTransaction``: a transaction with its slot, block time and balances."""

    slot: int
    time: datetime
    transaction: SlotTransaction


#: The most signatures ``getSignaturesForAddress`` answers in one call (and its default).
SIGNATURES_LIMIT = 1000
#: The commitments ``getSignaturesForAddress`` and ``getTransaction`` accept (not ``processed``).
COMMITMENTS = ("confirmed", "finalized")


class SolanaChain(Protocol):
    """A Solana cluster as the adapter uses it (all amounts in lamports or token atomic units)."""

    async def latest_blockhash(self) -> Hash:
        """A recent blockhash for a new message (valid for about 150 slots on a cluster)."""

    async def slot(self) -> int:
        """The newest slot (confirmed commitment on a cluster)."""

    async def block(self, slot: int) -> SlotBlock | None:
        """The block of ``slot``; an empty block for a skipped slot; None if not produced yet."""

    async def account(self, address: Pubkey) -> Account | None:
        """The account at ``address``, or None when it does not exist."""

    async def minimum_balance_for_rent_exemption(self, size: int) -> int:
        """Lamports an account of ``size`` data bytes must hold to exist."""

    async def fee_for_message(self, message: Message) -> int:
        """The network fee of ``message`` (signatures and priority fee), in lamports."""

    async def send(self, transaction: Transaction) -> str:
        """Submit a signed transaction; its base58 signature, or raises TransferRejected."""

    async def signature_status(self, signature: str) -> SignatureStatus | None:
        """Where a submitted transaction landed, or None while it is unknown."""

    async def history(self, address: Pubkey, *, until_slot: int) -> list[SlotBlock]:
        """The blocks up to ``until_slot`` with a successful transaction that touched ``address``,
        oldest first, each with only those transactions."""

    async def signatures_for_address(self, address: Pubkey, *, before: str | None = None, until: str | None = None,
                                     limit: int = SIGNATURES_LIMIT,
                                     commitment: str = "finalized") -> list[SignatureInfo]:
        """``getSignaturesForAddress``: the transactions that name ``address`` among their account
        keys, **newest first** (by slot, then by position in the slot), starting after ``before``
        (exclusive; from the newest when None) and stopping at ``until`` (exclusive; to the oldest
        the node keeps when None), at most ``limit`` (1 to 1000); ``commitment`` ``confirmed`` or
        ``finalized`` (the default, as on a cluster; ``processed`` is refused)."""

    async def transaction(self, signature: str, *, commitment: str = "finalized") -> ConfirmedTransaction | None:
        """``getTransaction``: the transaction with its slot and balances, or None when the node
        does not know it at that commitment."""


def token_balances(keys: list[Pubkey], accounts: list[Account | None]) -> list[TokenBalance]:
    """The SPL token accounts among ``accounts`` (indexed like ``keys``), decoded."""
    balances = []
    for index, account in enumerate(accounts):
        if account is None or account.owner != TOKEN_PROGRAM_ID or len(account.data) != TOKEN_ACCOUNT_SIZE:
            continue
        state = TokenAccount.from_bytes(bytes(account.data))
        balances.append(TokenBalance(index, str(state.mint), str(state.owner), int(state.amount)))
    return balances


class LiteSvmChain:
    """An in-process Solana chain on LiteSVM, with a slot ledger and a faucet (see the module).

    Thread-safe: one lock around the runtime (LiteSVM is not re-entrant). Its state lives as
    long as the object: it is for tests, benchmarks and single-process development.
    """

    #: Lamports the faucet starts with (it pays for airdrops and token accounts).
    FAUCET_LAMPORTS = 10**18

    def __init__(self, *, slot_seconds: float = 0.4) -> None:
        self.svm = LiteSVM()
        self.faucet = Keypair()
        self.svm.set_account(self.faucet.pubkey(), Account(lamports=self.FAUCET_LAMPORTS, data=b"",
                                                           owner=Pubkey.default(), executable=False))
        self._lock = threading.Lock()
        self._slot_seconds = slot_seconds
        self._genesis = clock.now()
        self._hashes: dict[int, str] = {0: str(Hash.default())}
        self._blocks: dict[int, list[SlotTransaction]] = {}
        self._statuses: dict[str, SignatureStatus] = {}
        self._slot = 0

    # --- the SolanaChain interface -------------------------------------------------------------

    async def latest_blockhash(self) -> Hash:
        with self._lock:
            return self.svm.latest_blockhash()

    async def slot(self) -> int:
        return self._slot

    async def block(self, slot: int) -> SlotBlock | None:
        with self._lock:
            if slot < 1 or slot > self._slot:
                return None
            return SlotBlock(slot=slot, blockhash=self._hashes[slot], parent_blockhash=self._hashes[slot - 1],
                             time=self._genesis + timedelta(seconds=slot * self._slot_seconds),
                             transactions=list(self._blocks.get(slot, [])))

    async def account(self, address: Pubkey) -> Account | None:
        with self._lock:
            account = self.svm.get_account(address)
        return account if account is not None and account.lamports > 0 else None

    async def minimum_balance_for_rent_exemption(self, size: int) -> int:
        return int(self.svm.minimum_balance_for_rent_exemption(size))

    async def fee_for_message(self, message: Message) -> int:
        # LiteSVM charges the cluster's default: 5000 lamports per signature (priority fees are
        # not charged by LiteSVM; a cluster charges them on top).
        return 5000 * message.header.num_required_signatures

    async def send(self, transaction: Transaction) -> str:
        with self._lock:
            return self._execute(transaction)

    async def signature_status(self, signature: str) -> SignatureStatus | None:
        return self._statuses.get(signature)

    async def history(self, address: Pubkey, *, until_slot: int) -> list[SlotBlock]:
        key = str(address)
        with self._lock:
            found = []
            for slot in sorted(self._blocks):
                touched = [t for t in self._blocks[slot] if key in t.account_keys and t.error is None]
                if slot <= until_slot and touched:
                    found.append(SlotBlock(slot=slot, blockhash=self._hashes[slot],
                                           parent_blockhash=self._hashes[slot - 1],
                                           time=self._genesis + timedelta(seconds=slot * self._slot_seconds),
                                           transactions=touched))
            return found

    def _finalized_slot(self) -> int:
        return self._slot - FINALIZED_DEPTH + 1

    def _time_of(self, slot: int) -> datetime:
        return self._genesis + timedelta(seconds=slot * self._slot_seconds)

    async def signatures_for_address(self, address: Pubkey, *, before: str | None = None, until: str | None = None,
                                     limit: int = SIGNATURES_LIMIT,
                                     commitment: str = "finalized") -> list[SignatureInfo]:
        """The ledger's ``getSignaturesForAddress`` (see :class:`SolanaChain`): a slot is
        ``finalized`` once ``FINALIZED_DEPTH`` slots deep, ``confirmed`` as soon as it exists."""
        if commitment not in COMMITMENTS:
            raise ValueError(f"getSignaturesForAddress does not support commitment {commitment!r} "
                             "(only confirmed and finalized)")
        if not 1 <= limit <= SIGNATURES_LIMIT:
            raise ValueError(f"Invalid limit; max {SIGNATURES_LIMIT}")
        key = str(address)
        with self._lock:
            finalized = self._finalized_slot()
            newest = finalized if commitment == "finalized" else self._slot
            found: list[SignatureInfo] = []
            started = before is None
            for slot in sorted((s for s in self._blocks if s <= newest), reverse=True):
                for tx in reversed(self._blocks[slot]):
                    if not started:
                        started = tx.signature == before
                        continue
                    if tx.signature == until or len(found) == limit:
                        return found
                    if key in tx.account_keys:
                        found.append(SignatureInfo(signature=tx.signature, slot=slot, error=tx.error,
                                                   block_time=self._time_of(slot),
                                                   confirmation_status="finalized" if slot <= finalized
                                                   else "confirmed"))
            return found

    async def transaction(self, signature: str, *, commitment: str = "finalized") -> ConfirmedTransaction | None:
        if commitment not in COMMITMENTS:
            raise ValueError(f"getTransaction does not support commitment {commitment!r}")
        with self._lock:
            status = self._statuses.get(signature)
            if status is None or (commitment == "finalized" and status.slot > self._finalized_slot()):
                return None
            for tx in self._blocks.get(status.slot, []):
                if tx.signature == signature:
                    return ConfirmedTransaction(slot=status.slot, time=self._time_of(status.slot), transaction=tx)
            return None

    # --- the chain -----------------------------------------------------------------------------

    def advance(self, slots: int = 1) -> int:
        """Produce ``slots`` empty slots (confirmations); returns the new slot."""
        with self._lock:
            for _ in range(slots):
                self._close_slot([])
            return self._slot

    def _close_slot(self, transactions: list[SlotTransaction]) -> None:
        slot = self._slot + 1
        digest = hashlib.sha256(self._hashes[self._slot].encode() + str(slot).encode()
                                + b"".join(t.signature.encode() for t in transactions)).digest()
        self._hashes[slot] = str(Hash(digest))
        if transactions:
            self._blocks[slot] = transactions
        self._slot = slot
        self.svm.warp_to_slot(slot)

    def _execute(self, transaction: Transaction) -> str:
        keys = list(transaction.message.account_keys)
        before = [self.svm.get_account(k) for k in keys]
        result = self.svm.send_transaction(transaction)
        if isinstance(result, FailedTransactionMetadata):
            error = str(result.err())
            if "BlockhashNotFound" in error:
                raise TransferRejected("the message's blockhash expired; build the transfer again",
                                       code="BLOCKHASH_EXPIRED")
            if "AlreadyProcessed" in error:
                raise TransferRejected("this transaction was already processed", code="ALREADY_PROCESSED")
            if "SignatureFailure" in error:
                raise InvalidSignature("the cluster refused the signature", details={"error": error})
            if "InsufficientFunds" in error or "insufficient" in error.lower() or "Rent" in error:
                raise InsufficientFunds("the sender cannot pay amount plus fee", details={"error": error})
            raise TransferRejected(f"the transaction failed: {error}", code="TRANSACTION_FAILED",
                                   details={"error": error})
        after = [self.svm.get_account(k) for k in keys]
        signature = str(transaction.signatures[0])
        record = SlotTransaction(
            signature=signature, fee=int(result.fee()), error=None, account_keys=[str(k) for k in keys],
            pre_balances=[a.lamports if a else 0 for a in before], post_balances=[a.lamports if a else 0 for a in after],
            pre_token_balances=token_balances(keys, before), post_token_balances=token_balances(keys, after),
        )
        self._close_slot([record])
        self._statuses[signature] = SignatureStatus(self._slot, None)
        return signature

    # --- the faucet ----------------------------------------------------------------------------

    def _faucet_send(self, instructions: list) -> str:
        with self._lock:
            for _ in range(2):
                message = Message.new_with_blockhash(instructions, self.faucet.pubkey(), self.svm.latest_blockhash())
                transaction = Transaction.populate(message, [self.faucet.sign_message(bytes(message))])
                try:
                    return self._execute(transaction)
                except TransferRejected as exc:
                    if exc.code != "ALREADY_PROCESSED":
                        raise
                    # The same credit twice under one blockhash is one transaction: a new blockhash
                    # makes it another (messages built under the old one must then be built again).
                    self.svm.expire_blockhash()
            raise AssertionError("unreachable: a new blockhash makes the transaction new")

    def airdrop(self, address: Pubkey, lamports: int) -> str:
        """Credit SOL with a transfer from the faucet (a recorded transaction)."""
        return self._faucet_send([transfer(TransferParams(from_pubkey=self.faucet.pubkey(), to_pubkey=address,
                                                          lamports=lamports))])

    def ensure_mint(self, mint: Pubkey, *, decimals: int) -> None:
        """Create the SPL mint ``mint`` with the faucet as its mint authority (a registry token)."""
        with self._lock:
            if self.svm.get_account(mint) is not None:
                return
            state = Mint(mint_authority=self.faucet.pubkey(), supply=0, decimals=decimals, is_initialized=True,
                         freeze_authority=None)
            self.svm.set_account(mint, Account(lamports=self.svm.minimum_balance_for_rent_exemption(MINT_SIZE),
                                               data=bytes(state), owner=TOKEN_PROGRAM_ID, executable=False))

    def mint_tokens(self, owner: Pubkey, mint: Pubkey, amount: int, *, decimals: int,
                    create_account: bool = True) -> str:
        """Mint ``amount`` of ``mint`` to the associated token account of ``owner`` (created if
        missing; with ``create_account`` False it must exist, and the transaction names only the
        token account, not ``owner``, as a token transfer from elsewhere does)."""
        self.ensure_mint(mint, decimals=decimals)
        destination = get_associated_token_address(owner, mint)
        create = [create_idempotent_associated_token_account(self.faucet.pubkey(), owner, mint)] if create_account \
            else []
        return self._faucet_send([
            *create,
            mint_to_checked(MintToCheckedParams(program_id=TOKEN_PROGRAM_ID, mint=mint, dest=destination,
                                                mint_authority=self.faucet.pubkey(), amount=amount,
                                                decimals=decimals)),
        ])


_local_chains: dict[str, LiteSvmChain] = {}
_local_lock = threading.Lock()


def local_chain(network_id: str) -> LiteSvmChain:
    """This process's LiteSVM chain of ``network_id`` (``SOLANA_LOCAL_CHAIN``), created on first use."""
    with _local_lock:
        chain = _local_chains.get(network_id)
        if chain is None:
            chain = _local_chains[network_id] = LiteSvmChain()
        return chain
