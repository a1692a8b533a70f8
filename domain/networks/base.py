"""The network adapter interface: everything the service needs from a blockchain.

An adapter builds unsigned transfers (the bytes the vault's threshold key signs), submits
signed ones and reports where they stand, estimates fees, reads blocks and says how many
confirmations make a transfer final.
The devnet (:mod:`domain.networks.devnet`) implements it over its own tables; a real node
adapter implements the same methods over RPC and is registered in :mod:`domain.networks` under
its registry ``adapter`` name, without touching wallets, deposits or balances.

Adapter methods run in the caller's database transaction (the devnet's state is in PostgreSQL)
and never commit.

What a network family may add (docs/networks.md; every addition is optional, so an adapter
written for the first interface, such as the devnet's, keeps working unchanged):

- ``key_scheme``: the threshold scheme (:mod:`threshold.scheme`) of the key its addresses derive
  from and its transfers are signed with; :func:`key_scheme_of` defaults to FROST(Ed25519);
- ``UnsignedTransfer.payloads``: several signing payloads for one transfer (one per Bitcoin
  input), each naming the scheme and Taproot tweak to sign with (:func:`signing_payloads`);
  :func:`submit_signed` hands all signatures back (``submit_signatures``);
- ``FeeEstimate.account_creation_fee`` / ``UnsignedTransfer.account_creation_fee``: what the
  sender pays to create the recipient's account (Solana's rent-exempt token account);
- ``UnsignedTransfer.inputs``: the outputs a UTXO transfer spends (:class:`SpentOutput`), so a
  retry of the same payment can reuse exactly them;
- ``incoming_transfers(address=..., currency=..., up_to_height=...)``: the transfers of a
  currency an address received up to a height, as blocks holding only those transfers (the same
  :class:`Transfer` the block's ``read_block`` gives). A wallet opened on an address that
  already holds the currency is credited from it (domain.deposits.credit_history): the devnet
  reads its ledger, Solana the associated token account's history; an EVM network would read
  the ERC-20's ``Transfer`` logs to the address. Without it (:func:`incoming_history`), only
  what arrives after the wallet opened is credited;
- ``watched_accounts(address=..., currencies=...)`` and ``read_account(account=..., owner=...,
  since=..., up_to_height=...)``: a network whose deposits are found **per watched address**
  instead of by reading every block (Solana: no node serves every block at its block rate).
  The watcher (domain.deposits) reads, for every wallet address of the network, each account
  ``watched_accounts`` names (the address and its token accounts) from a cursor kept per
  account: what arrived since the cursor, up to the final height, as blocks
  (:class:`AccountRead`);
- ``block_hash(height)``: the hash of the block the node has at a height now, without reading
  the block; the watcher checks with it that the newest block it read is still in the chain
  (a reorganization deeper than the confirmations stops the network's watcher instead of
  crediting or missing deposits silently: docs/networks.md, "Watching deposits and
  reorganizations");
- ``rewind(height)``: forget what the adapter derived from blocks above ``height`` (Bitcoin:
  its UTXO index), when an operator resumes a watcher stopped by such a reorganization.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, Sequence, runtime_checkable

from domain.currencies import Currency, Network
from domain.errors import Conflict, ValidationFailed
from threshold.scheme import ED25519_SCHEME


class TransferRejected(ValidationFailed):
    """The network refuses the transfer (bad signature, funds, nonce, inputs ...); ``code`` says why."""

    code = "TRANSFER_REJECTED"


class InsufficientFunds(TransferRejected):
    code = "INSUFFICIENT_FUNDS"


class InsufficientGas(TransferRejected):
    """A token transfer whose sender cannot pay the network fee in the native coin."""

    code = "INSUFFICIENT_GAS"


class InvalidSignature(TransferRejected):
    code = "INVALID_SIGNATURE"


class NetworkUnavailable(Conflict):
    code = "NETWORK_UNAVAILABLE"


@dataclass(frozen=True)
class FeeEstimate:
    """What a transfer of ``currency`` would cost, paid in ``fee_currency_id`` (atomic units)."""

    fee: int
    fee_currency_id: str
    #: Account family: gas units and price; UTXO family: sat/vB and the estimated virtual size.
    gas_limit: int | None = None
    gas_price: int | None = None
    fee_rate_sat_per_vb: int | None = None
    vsize: int | None = None
    #: Paid once, on top of ``fee``, to create the recipient's account (Solana: the rent-exempt
    #: minimum of an associated token account the recipient does not have yet).
    account_creation_fee: int = 0


@dataclass(frozen=True)
class SigningPayload:
    """One message the vault's key signs for a transfer, and how.

    ``scheme`` is the threshold scheme (:mod:`threshold.scheme`); ``merkle_root`` is the
    Taproot tweak of ``threshold.taproot.TAPROOT.for_output`` (``b""``: a key-path-only output;
    ``None`` for every other scheme). ``input_index`` names the Bitcoin input it authorizes.
    """

    message: bytes
    scheme: str = ED25519_SCHEME
    merkle_root: bytes | None = None
    input_index: int | None = None


@dataclass(frozen=True)
class SpentOutput:
    """An output a UTXO transfer spends: outpoint, value and the script it is locked by (hex)."""

    tx_hash: str
    index: int
    amount: int
    script_pubkey: str


@dataclass(frozen=True)
class UnsignedTransfer:
    """A transfer ready to be signed: ``signing_payload`` is what the group key signs.

    ``body`` is the family-specific, JSON-serializable transfer (it names the sender's public
    key); submit it unchanged with the signature.
    """

    network_id: str
    body: dict[str, Any]
    signing_payload: bytes
    amount: int
    #: The most the transfer can cost (fee limit); the actual fee may be lower (gas refund).
    fee_limit: int
    fee_currency_id: str
    #: Every payload to sign, in order, when there are several or they need another scheme than
    #: FROST(Ed25519); empty means just ``signing_payload`` with FROST(Ed25519).
    payloads: tuple[SigningPayload, ...] = ()
    #: Part of ``fee_limit`` that creates the recipient's account (see FeeEstimate).
    account_creation_fee: int = 0
    #: The outputs a UTXO transfer spends, in input order (empty for account networks).
    inputs: tuple[SpentOutput, ...] = ()


@dataclass(frozen=True)
class Transfer:
    """One movement of value read from a block: ``amount`` of ``currency_id`` to ``to_address``.

    ``success`` is False for a transfer included but reverted (it moved no value; it may still
    have paid its fee). ``index`` orders transfers inside the block; ``(tx_hash, to_address,
    currency_id)`` identifies a transfer on its network.
    """

    tx_hash: str
    index: int
    from_address: str
    to_address: str
    currency_id: str
    amount: int
    fee: int
    fee_currency_id: str
    success: bool = True


@dataclass(frozen=True)
class TransferStatus:
    """Where a submitted transfer stands on the network (what a withdrawal's tracker asks).

    ``state``: ``pending`` (in the mempool), ``included`` (in block ``block_height``; ``success``
    False when it reverted: it moved nothing but may have paid ``fee``), ``dropped`` (left the
    mempool without a block; nothing moved), ``unknown`` (the network has never seen it).
    ``reason_code``/``reason`` carry the network's word for a revert or a drop. ``block_time``:
    the time of that block where the network gives it with the status (the tracker then reads
    no block for it; None: the tracker reads it with ``read_block``).
    """

    tx_hash: str
    state: Literal["pending", "included", "dropped", "unknown"]
    block_height: int | None = None
    success: bool = True
    fee: int = 0
    reason_code: str | None = None
    reason: str | None = None
    block_time: datetime | None = None


@dataclass(frozen=True)
class Block:
    network_id: str
    height: int
    hash: str
    parent_hash: str
    time: datetime
    transfers: list[Transfer] = field(default_factory=list)


@dataclass(frozen=True)
class AccountRead:
    """What one watched account received since its cursor (``read_account``).

    ``blocks``: oldest first, each with the final transfers to the account's owner address it
    holds (as ``read_block`` would give them). ``cursor`` / ``cursor_height``: the newest final
    transaction read and its height, where the next read continues; the old cursor when nothing
    new was final.
    """

    blocks: list[Block]
    cursor: str | None
    cursor_height: int | None


def watches_addresses(adapter: Any) -> bool:
    """Whether the network's deposits are found per watched address (``read_account``) rather
    than by reading every block."""
    return getattr(adapter, "read_account", None) is not None


async def incoming_history(adapter: Any, *, address: str, currency: Currency, up_to_height: int) -> list[Block]:
    """What ``address`` received in ``currency`` up to ``up_to_height``, oldest block first: the
    adapter's ``incoming_transfers``, or nothing for an adapter without it."""
    history = getattr(adapter, "incoming_transfers", None)
    if history is None:
        return []
    blocks: list[Block] = await history(address=address, currency=currency, up_to_height=up_to_height)
    return sorted(blocks, key=lambda block: block.height)


def key_scheme_of(adapter: Any) -> str:
    """The scheme of the key an adapter's addresses derive from (FROST(Ed25519) unless it says)."""
    return getattr(adapter, "key_scheme", ED25519_SCHEME)


def signing_payloads(unsigned: UnsignedTransfer) -> tuple[SigningPayload, ...]:
    """What the vault's key signs for ``unsigned``, in order: one signature per payload."""
    return unsigned.payloads or (SigningPayload(unsigned.signing_payload),)


async def submit_signed(adapter: Any, *, body: dict[str, Any], signatures: Sequence[bytes]) -> str:
    """Submit a transfer with one signature per payload (:func:`signing_payloads`), in order.

    Adapters with several payloads per transfer implement ``submit_signatures``; the others
    take their one signature through ``submit_transfer``.
    """
    submit_many = getattr(adapter, "submit_signatures", None)
    if submit_many is not None:
        return await submit_many(body=body, signatures=list(signatures))
    if len(signatures) != 1:
        raise InvalidSignature("this network takes exactly one signature per transfer",
                               details={"signatures": len(signatures)})
    return await adapter.submit_transfer(body=body, signature=signatures[0])


@runtime_checkable
class NetworkAdapter(Protocol):
    """One blockchain network (a registry entry), as the service uses it."""

    network: Network

    def address_from_public_key(self, public_key: bytes) -> str:
        """The receiving address of a group public key on this network: a 32-byte Ed25519 key,
        or for ``key_scheme`` secp256k1 networks the 33-byte SEC1 key of the key set."""

    def normalize_address(self, address: str) -> str:
        """The canonical form of ``address``; raises addresses.InvalidAddress if it is not one."""

    def confirmations_required(self) -> int:
        """Blocks (including the one holding it) after which a transfer is final."""

    async def estimate_fee(self, *, currency: Currency, amount: int | None = None,
                           from_address: str | None = None, fee_rate: int | None = None) -> FeeEstimate:
        """The fee of a transfer of ``currency`` (``fee_rate``: gas price or sat/vB override)."""

    async def build_transfer(self, *, currency: Currency, from_address: str, public_key: bytes,
                             to_address: str, amount: int, fee_rate: int | None = None) -> UnsignedTransfer:
        """An unsigned transfer of ``amount`` from the address of ``public_key``."""

    def transaction_hash(self, *, body: dict[str, Any], signature: bytes) -> str:
        """The hash the signed transfer will have on the network, known before it is submitted
        (a withdrawal records it first, so a crash right after submitting loses nothing)."""

    async def submit_transfer(self, *, body: dict[str, Any], signature: bytes) -> str:
        """Submit a signed transfer; returns its transaction hash or raises TransferRejected.

        Submitting the same signed transfer again must return the same hash and change nothing
        (a withdrawal retried after a crash re-submits exactly the bytes it submitted before).
        """

    async def transfer_status(self, tx_hash: str) -> TransferStatus:
        """Where the transfer ``tx_hash`` stands (mempool, block, dropped or unknown)."""

    async def latest_height(self) -> int:
        """Height of the newest block (0 before the first one)."""

    async def read_block(self, height: int) -> Block | None:
        """The block at ``height`` with its transfers, or None if it does not exist yet."""

    async def balance_of(self, *, address: str, currency: Currency) -> int:
        """The confirmed on-chain balance of ``address`` in ``currency`` (atomic units)."""
