"""A real Solana cluster over JSON-RPC (solana-py's ``AsyncClient``): the production
implementation of :class:`~domain.networks.solana_chain.SolanaChain`.

Reads use the ``confirmed`` commitment; the registry's ``confirmations`` (32 slots) on top of a
confirmed slot gives what ``finalized`` gives, and the deposit watcher reads only transactions
that old: per watched address, ``getSignaturesForAddress`` then ``getTransaction``
(:meth:`RpcSolanaChain.signatures_for_address`, :meth:`RpcSolanaChain.transaction`), never every
block. ``getBlock`` is asked for ``json`` encoding with versioned transactions (version 0): the
account keys of a transaction are its static keys, then the writable and read-only keys its
address lookup tables loaded (``meta.loadedAddresses``), the order of ``pre/postBalances``.

A slot the leader skipped answers error -32007 / -32009 (``getBlock``): it is an empty block,
not a missing one, so the watcher moves past it.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Awaitable, Callable

from solana.exceptions import SolanaRpcException
from solana.rpc.async_api import AsyncClient
from solana.rpc.commitment import Commitment, Confirmed
from solana.rpc.core import RPCException
from solana.rpc.models import TxOpts
from solders.account import Account
from solders.hash import Hash
from solders.message import Message, MessageV0
from solders.pubkey import Pubkey
from solders.signature import Signature
from solders.transaction import Transaction

from domain.networks.base import InsufficientFunds, InvalidSignature, NetworkUnavailable, TransferRejected
from domain.networks.solana_chain import (
    COMMITMENTS,
    SIGNATURES_LIMIT,
    ConfirmedTransaction,
    SignatureInfo,
    SignatureStatus,
    SlotBlock,
    SlotTransaction,
    TokenBalance,
)

#: ``getBlock`` errors that mean "this slot has no block, and never will".
SKIPPED_SLOT_ERRORS = ("-32007", "-32009", "skipped", "missing in long-term storage")
#: ``getBlock`` errors that mean "not produced or not confirmed yet".
NOT_YET_ERRORS = ("-32004", "not available", "-32014")


def _token_balances(items: list | None) -> list[TokenBalance]:
    return [TokenBalance(int(b.account_index), str(b.mint), str(b.owner) if b.owner else "",
                         int(b.ui_token_amount.amount)) for b in items or []]


def _slot_transaction(item: Any) -> SlotTransaction | None:
    """A transaction with its ``meta`` (``getBlock``'s or ``getTransaction``'s, json encoding)."""
    meta, tx = item.meta, item.transaction
    if meta is None:
        return None
    keys = [str(k) for k in tx.message.account_keys]
    loaded = meta.loaded_addresses
    if loaded is not None:
        keys += [str(k) for k in loaded.writable] + [str(k) for k in loaded.readonly]
    return SlotTransaction(
        signature=str(tx.signatures[0]), fee=int(meta.fee), error=None if meta.err is None else str(meta.err),
        account_keys=keys, pre_balances=list(meta.pre_balances), post_balances=list(meta.post_balances),
        pre_token_balances=_token_balances(meta.pre_token_balances),
        post_token_balances=_token_balances(meta.post_token_balances),
    )


#: ``getSignaturesForAddress`` answers at most this many signatures a call.
SIGNATURES_PAGE = SIGNATURES_LIMIT


def _status_name(status: Any) -> str:
    """``confirmed`` / ``finalized`` from solders' TransactionConfirmationStatus (or its text)."""
    text = str(status or "confirmed").rsplit(".", 1)[-1].lower()
    return "finalized" if text == "finalized" else "confirmed"


class RpcSolanaChain:
    """A cluster at ``url`` (``NETWORK_RPC_URLS`` or the registry's ``params.rpc_url``)."""

    def __init__(self, url: str, *, timeout: float = 15.0) -> None:
        self.url = url
        self.client = AsyncClient(url, commitment=Confirmed, timeout=timeout)

    async def _call(self, method: Callable[..., Awaitable[Any]], *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except (SolanaRpcException, OSError) as exc:
            raise NetworkUnavailable("the Solana cluster cannot be reached", details={"error": type(exc).__name__}) \
                from exc

    async def latest_blockhash(self) -> Hash:
        return (await self._call(self.client.get_latest_blockhash)).value.blockhash

    async def slot(self) -> int:
        return int((await self._call(self.client.get_slot)).value)

    async def block(self, slot: int) -> SlotBlock | None:
        try:
            response = await self._call(self.client.get_block, slot, encoding="json",
                                        max_supported_transaction_version=0)
        except RPCException as exc:
            text = str(exc)
            if any(marker in text for marker in SKIPPED_SLOT_ERRORS):
                return SlotBlock(slot=slot, blockhash="", parent_blockhash="",
                                 time=datetime.fromtimestamp(0, tz=timezone.utc), transactions=[])
            if any(marker in text for marker in NOT_YET_ERRORS):
                return None
            raise
        block = response.value
        if block is None:
            return None
        transactions = [tx for tx in (_slot_transaction(item) for item in block.transactions or []) if tx is not None]
        when = datetime.fromtimestamp(block.block_time or 0, tz=timezone.utc)
        return SlotBlock(slot=slot, blockhash=str(block.blockhash), parent_blockhash=str(block.previous_blockhash),
                         time=when, transactions=transactions)

    async def history(self, address: Pubkey, *, until_slot: int) -> list[SlotBlock]:
        """The successful transactions that touched ``address`` up to ``until_slot``, by slot
        (``getSignaturesForAddress``, newest first and paged, then ``getTransaction`` each). A
        node keeps this history as long as its ledger (an RPC provider's: from genesis)."""
        found: list[tuple[int, Signature]] = []
        before: Signature | None = None
        while True:
            page = (await self._call(self.client.get_signatures_for_address, address, before=before,
                                     limit=SIGNATURES_PAGE)).value
            found += [(int(item.slot), item.signature) for item in page
                      if item.err is None and int(item.slot) <= until_slot]
            if len(page) < SIGNATURES_PAGE:
                break
            before = page[-1].signature
        blocks: dict[int, SlotBlock] = {}
        for slot, signature in sorted(found, key=lambda item: item[0]):
            answer = (await self._call(self.client.get_transaction, signature, encoding="json",
                                       max_supported_transaction_version=0)).value
            transaction = None if answer is None else _slot_transaction(answer.transaction)
            if answer is None or transaction is None:
                continue
            block = blocks.get(slot) or SlotBlock(
                slot=slot, blockhash="", parent_blockhash="",
                time=datetime.fromtimestamp(answer.block_time or 0, tz=timezone.utc), transactions=[])
            block.transactions.append(transaction)
            blocks[slot] = block
        return [blocks[slot] for slot in sorted(blocks)]

    async def signatures_for_address(self, address: Pubkey, *, before: str | None = None, until: str | None = None,
                                     limit: int = SIGNATURES_LIMIT,
                                     commitment: str = "finalized") -> list[SignatureInfo]:
        """``getSignaturesForAddress`` as the cluster answers it (newest first; see SolanaChain)."""
        if commitment not in COMMITMENTS or not 1 <= limit <= SIGNATURES_LIMIT:
            raise ValueError("commitment confirmed or finalized, limit 1 to 1000")
        response = await self._call(
            self.client.get_signatures_for_address, address,
            before=None if before is None else Signature.from_string(before),
            until=None if until is None else Signature.from_string(until), limit=limit,
            commitment=Commitment(commitment))
        return [SignatureInfo(signature=str(item.signature), slot=int(item.slot),
                              error=None if item.err is None else str(item.err),
                              block_time=None if item.block_time is None
                              else datetime.fromtimestamp(item.block_time, tz=timezone.utc),
                              confirmation_status=_status_name(item.confirmation_status))
                for item in response.value]

    async def transaction(self, signature: str, *, commitment: str = "finalized") -> ConfirmedTransaction | None:
        """``getTransaction`` (json, versioned transactions up to version 0)."""
        answer = (await self._call(self.client.get_transaction, Signature.from_string(signature), encoding="json",
                                   commitment=Commitment(commitment), max_supported_transaction_version=0)).value
        transaction = None if answer is None else _slot_transaction(answer.transaction)
        if answer is None or transaction is None:
            return None
        return ConfirmedTransaction(slot=int(answer.slot),
                                    time=datetime.fromtimestamp(answer.block_time or 0, tz=timezone.utc),
                                    transaction=transaction)

    async def account(self, address: Pubkey) -> Account | None:
        return (await self._call(self.client.get_account_info, address)).value

    async def minimum_balance_for_rent_exemption(self, size: int) -> int:
        return int((await self._call(self.client.get_minimum_balance_for_rent_exemption, size)).value)

    async def fee_for_message(self, message: Message) -> int:
        v0 = MessageV0(message.header, message.account_keys, message.recent_blockhash, message.instructions, [])
        fee = (await self._call(self.client.get_fee_for_message, v0)).value
        if fee is None:
            raise TransferRejected("the message's blockhash expired; build the transfer again",
                                   code="BLOCKHASH_EXPIRED")
        return int(fee)

    async def send(self, transaction: Transaction) -> str:
        try:
            response = await self._call(self.client.send_raw_transaction, bytes(transaction),
                                        opts=TxOpts(skip_preflight=False, preflight_commitment=Confirmed))
        except RPCException as exc:
            text = str(exc)
            if "signature" in text.lower() and "verif" in text.lower():
                raise InvalidSignature("the cluster refused the signature", details={"error": text[:300]}) from None
            if "BlockhashNotFound" in text or "Blockhash not found" in text:
                raise TransferRejected("the message's blockhash expired; build the transfer again",
                                       code="BLOCKHASH_EXPIRED") from None
            if "insufficient" in text.lower():
                raise InsufficientFunds("the sender cannot pay amount plus fee", details={"error": text[:300]}) \
                    from None
            raise TransferRejected("the cluster refused the transaction", code="TRANSACTION_FAILED",
                                   details={"error": text[:300]}) from None
        return str(response.value)

    async def signature_status(self, signature: str) -> SignatureStatus | None:
        response = await self._call(self.client.get_signature_statuses, [Signature.from_string(signature)],
                                    search_transaction_history=True)
        status = response.value[0]
        if status is None:
            return None
        return SignatureStatus(int(status.slot), None if status.err is None else str(status.err))
