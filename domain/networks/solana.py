"""Solana: SOL and SPL tokens, signed by a vault's FROST(Ed25519) group key.

A FROST(Ed25519) group signature is a plain Ed25519 signature, and a Solana address is the
base58 of an Ed25519 public key: the group key *is* the vault's Solana account, with no
derivation (:meth:`SolanaAdapter.address_from_public_key`).

Transfers are legacy Solana messages with one signer, the sender, who also pays the fee:

* SOL: a System Program ``transfer``;
* an SPL token: the Associated Token Account program's ``CreateIdempotent`` for the recipient's
  associated token account when it does not exist yet (the sender pays its rent-exempt minimum,
  reported as ``account_creation_fee``), then SPL Token ``TransferChecked`` (the mint's decimals
  are checked by the program) between the two associated token accounts;
* with ``fee_rate`` (micro-lamports per compute unit), Compute Budget instructions set a unit
  limit and price first: a priority fee.

The unsigned transfer's ``signing_payload`` is the serialized message, exactly what Solana
verifies; its ``body`` carries the message (base64) and a readable summary::

    {"type": "solana-transfer", "network": id, "from": addr, "to": addr, "mint": null | mint,
     "amount": "<atomic>", "fee": "<lamports>", "account_creation_fee": "<lamports>",
     "message": "<base64 of the message>", "public_key": "<hex of the group key>"}

A message names a recent blockhash and expires with it (about 150 slots, a minute or so): build
right before signing; an expired one is refused as ``BLOCKHASH_EXPIRED`` and is built again (a
new attempt of the same withdrawal; the old one can never land once its blockhash expired).

Deposits are found **per watched address**, never by reading every slot (a mainnet node does
not serve ``getBlock`` at Solana's block rate): the deposit watcher asks, for each wallet
address and each of its associated token accounts (:meth:`SolanaAdapter.watched_accounts`),
``getSignaturesForAddress`` with ``until`` = the newest final signature it read before, paging
back with ``before`` (newest first, 1000 a page), keeps the signatures of final slots (the
registry's ``confirmations`` on top of the ``confirmed`` commitment; the newer ones are read
again next time, and a transaction of a slot the cluster abandoned is then simply gone), and
reads each with ``getTransaction`` (:meth:`SolanaAdapter.read_account`). A transaction's balance
changes (``pre/postBalances``, ``pre/postTokenBalances``) give one
:class:`~domain.networks.base.Transfer` per account that gained SOL, or per token owner that
gained a token, whatever instruction or program moved it; only those to the watched address
count. ``read_block`` reads a whole block the same way (withdrawals read their block's time).
The chain behind the adapter is a :class:`~domain.networks.solana_chain.SolanaChain`:
JSON-RPC for a cluster, LiteSVM in process (``SOLANA_LOCAL_CHAIN``, tests).
"""

from __future__ import annotations

import base64
from typing import Any, Iterable

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey
from solders.compute_budget import set_compute_unit_limit, set_compute_unit_price
from solders.instruction import Instruction
from solders.message import Message
from solders.pubkey import Pubkey
from solders.signature import Signature
from solders.system_program import TransferParams, transfer
from solders.token.associated import get_associated_token_address
from solders.token.state import TokenAccount
from solders.transaction import Transaction
from spl.token.constants import TOKEN_PROGRAM_ID
from spl.token.instructions import create_idempotent_associated_token_account, transfer_checked
from spl.token.models import TransferCheckedParams

from core.settings import get_settings
from domain.currencies import Currency, Network, registry
from domain.networks.addresses import InvalidAddress
from domain.networks.base import (
    AccountRead,
    Block,
    FeeEstimate,
    InsufficientFunds,
    InsufficientGas,
    InvalidSignature,
    NetworkUnavailable,
    Transfer,
    TransferRejected,
    TransferStatus,
    UnsignedTransfer,
)
from domain.networks.solana_chain import (
    SIGNATURES_LIMIT,
    TOKEN_ACCOUNT_SIZE,
    SignatureInfo,
    SlotTransaction,
    SolanaChain,
    local_chain,
)
from domain.networks.solana_rpc import RpcSolanaChain
from threshold.scheme import ED25519_SCHEME

#: Lamports per signature, the cluster's base fee (a transfer has one signature).
BASE_FEE_LAMPORTS = 5000
#: Compute units a priority-fee transfer reserves (the unit price applies to the limit).
SOL_TRANSFER_COMPUTE_UNITS = 1_000
TOKEN_TRANSFER_COMPUTE_UNITS = 10_000
TOKEN_TRANSFER_WITH_ACCOUNT_COMPUTE_UNITS = 40_000


def parse_address(address: str) -> Pubkey:
    """A Solana address (base58 of 32 bytes, canonical form) as a Pubkey."""
    if not isinstance(address, str):
        raise InvalidAddress("an address is a string")
    text = address.strip()
    try:
        key = Pubkey.from_string(text) if 32 <= len(text) <= 44 else None
    except ValueError:
        key = None
    if key is None or str(key) != text:
        raise InvalidAddress("a Solana address is the base58 of 32 bytes")
    return key


def _malformed(reason: str) -> TransferRejected:
    return TransferRejected(f"malformed transfer: {reason}", code="MALFORMED_TRANSFER", details={"reason": reason})


def default_chain(network: Network) -> SolanaChain:
    """The chain the service uses for ``network``: LiteSVM with SOLANA_LOCAL_CHAIN or for a local
    network (``params.local``: ``solana-local``, a chain of this process), else JSON-RPC."""
    settings = get_settings()
    if settings.solana_local_chain or network.params.get("local") is True:
        if settings.solana_local_url:
            # custody dev: the one chain of its solana-local process, shared by every process
            from domain.networks.solana_local import RemoteLiteSvmChain

            return RemoteLiteSvmChain(settings.solana_local_url)
        return local_chain(network.id)
    url = settings.network_rpc_urls.get(network.id) or str(network.params.get("rpc_url", ""))
    if not url:
        raise LookupError(f"no rpc_url for {network.id} (NETWORK_RPC_URLS or the registry's params.rpc_url)")
    return RpcSolanaChain(url)


class SolanaAdapter:
    """The :class:`~domain.networks.base.NetworkAdapter` of a Solana cluster (see the module)."""

    family = "account"
    key_scheme = ED25519_SCHEME

    def __init__(self, network: Network, chain: SolanaChain | None = None) -> None:
        self.network = network
        self.chain = chain if chain is not None else default_chain(network)

    # --- addresses -----------------------------------------------------------------------------

    def address_from_public_key(self, public_key: bytes) -> str:
        if len(public_key) != 32:
            raise ValueError("a Solana address is a 32-byte Ed25519 public key")
        return str(Pubkey.from_bytes(bytes(public_key)))

    def normalize_address(self, address: str) -> str:
        return str(parse_address(address))

    def confirmations_required(self) -> int:
        return self.network.confirmations

    # --- currencies ----------------------------------------------------------------------------

    def _mint_of(self, currency: Currency) -> Pubkey | None:
        if currency.network.id != self.network.id:
            raise TransferRejected(f"{currency.id} is not a currency of {self.network.id}", code="WRONG_NETWORK")
        return None if currency.is_native else Pubkey.from_string(currency.contract)  # type: ignore[arg-type]  # a token has a contract

    def _currency_of_mint(self, mint: str) -> Currency | None:
        return registry().currency_by_contract(self.network.id, mint)

    # --- fees ----------------------------------------------------------------------------------

    @staticmethod
    def _priority_fee(compute_units: int, fee_rate: int | None) -> int:
        return -(-compute_units * fee_rate // 1_000_000) if fee_rate else 0

    @staticmethod
    def _compute_units(mint: Pubkey | None, creates_account: bool) -> int:
        if mint is None:
            return SOL_TRANSFER_COMPUTE_UNITS
        return TOKEN_TRANSFER_WITH_ACCOUNT_COMPUTE_UNITS if creates_account else TOKEN_TRANSFER_COMPUTE_UNITS

    async def estimate_fee(self, *, currency: Currency, amount: int | None = None,
                           from_address: str | None = None, fee_rate: int | None = None) -> FeeEstimate:
        """Base fee plus the priority fee of ``fee_rate`` micro-lamports per compute unit.

        Without a recipient the estimate cannot know whether its token account exists: for a
        token it reports the worst case, ``account_creation_fee`` for creating it.
        """
        mint = self._mint_of(currency)
        creation = await self.chain.minimum_balance_for_rent_exemption(TOKEN_ACCOUNT_SIZE) if mint else 0
        units = self._compute_units(mint, bool(creation))
        fee = BASE_FEE_LAMPORTS + self._priority_fee(units, fee_rate)
        return FeeEstimate(fee=fee + creation, fee_currency_id=self.network.native_currency_id,
                           gas_limit=units if fee_rate else None, gas_price=fee_rate,
                           account_creation_fee=creation)

    # --- building ------------------------------------------------------------------------------

    async def _lamports(self, address: Pubkey) -> int:
        account = await self.chain.account(address)
        return account.lamports if account else 0

    async def _token_amount(self, token_account: Pubkey) -> int | None:
        account = await self.chain.account(token_account)
        if account is None or account.owner != TOKEN_PROGRAM_ID or len(account.data) != TOKEN_ACCOUNT_SIZE:
            return None
        return int(TokenAccount.from_bytes(bytes(account.data)).amount)

    async def build_transfer(self, *, currency: Currency, from_address: str, public_key: bytes,
                             to_address: str, amount: int, fee_rate: int | None = None) -> UnsignedTransfer:
        mint = self._mint_of(currency)
        sender = parse_address(from_address)
        if self.address_from_public_key(public_key) != str(sender):
            raise TransferRejected("the public key does not belong to the sending address", code="INVALID_SENDER")
        try:
            recipient = parse_address(to_address)
        except InvalidAddress as exc:
            raise _malformed(f"to: {exc}") from None
        if amount <= 0:
            raise _malformed("amount must be positive")
        if recipient == sender:
            raise TransferRejected("a transfer to the sending address itself moves nothing", code="SELF_TRANSFER")
        recipient_account = await self.chain.account(recipient)
        instructions: list[Instruction] = []
        creation = 0
        if mint is None:
            rent_minimum = await self.chain.minimum_balance_for_rent_exemption(0)
            if recipient_account is None and amount < rent_minimum:
                raise TransferRejected(
                    f"the recipient has no account yet: the first transfer must be at least {rent_minimum} lamports",
                    code="AMOUNT_BELOW_RENT_EXEMPT_MINIMUM", details={"minimum": str(rent_minimum)})
            instructions.append(transfer(TransferParams(from_pubkey=sender, to_pubkey=recipient, lamports=amount)))
        else:
            if recipient_account is not None and recipient_account.owner == TOKEN_PROGRAM_ID:
                raise TransferRejected("the recipient is a token account; send to its owner's address",
                                       code="RECIPIENT_IS_TOKEN_ACCOUNT")
            source = get_associated_token_address(sender, mint)
            destination = get_associated_token_address(recipient, mint)
            held = await self._token_amount(source) or 0
            if held < amount:
                raise InsufficientFunds("the sender does not hold enough of the token",
                                        details={"available": str(held), "needed": str(amount)})
            if await self._token_amount(destination) is None:
                creation = await self.chain.minimum_balance_for_rent_exemption(TOKEN_ACCOUNT_SIZE)
                instructions.append(create_idempotent_associated_token_account(sender, recipient, mint))
            instructions.append(transfer_checked(TransferCheckedParams(
                program_id=TOKEN_PROGRAM_ID, source=source, mint=mint, dest=destination, owner=sender,
                amount=amount, decimals=currency.decimals)))
        units = self._compute_units(mint, bool(creation))
        if fee_rate:
            instructions[:0] = [set_compute_unit_limit(units), set_compute_unit_price(fee_rate)]
        message = Message.new_with_blockhash(instructions, sender, await self.chain.latest_blockhash())
        fee = await self.chain.fee_for_message(message) + self._priority_fee(units, fee_rate)
        await self._check_native_funds(sender, amount if mint is None else 0, fee + creation)
        body = {
            "type": "solana-transfer", "network": self.network.id, "from": str(sender), "to": str(recipient),
            "mint": None if mint is None else str(mint), "amount": str(amount), "fee": str(fee),
            "account_creation_fee": str(creation), "message": base64.b64encode(bytes(message)).decode(),
            "public_key": bytes(public_key).hex(),
        }
        return UnsignedTransfer(network_id=self.network.id, body=body, signing_payload=bytes(message), amount=amount,
                                fee_limit=fee + creation, fee_currency_id=self.network.native_currency_id,
                                account_creation_fee=creation)

    async def _check_native_funds(self, sender: Pubkey, amount: int, costs: int) -> None:
        """The sender pays ``amount + costs`` and keeps either nothing or a rent-exempt balance."""
        balance = await self._lamports(sender)
        needed = amount + costs
        if needed > balance:
            error = InsufficientFunds if amount else InsufficientGas
            raise error("the sender cannot pay amount plus fee in SOL",
                        details={"available": str(balance), "needed": str(needed)})
        left = balance - needed
        rent_minimum = await self.chain.minimum_balance_for_rent_exemption(0)
        if 0 < left < rent_minimum:
            raise InsufficientFunds(
                f"the sender would keep {left} lamports, below the rent-exempt minimum {rent_minimum}: "
                "send everything or keep at least the minimum",
                code="RENT_EXEMPT_MINIMUM", details={"left": str(left), "minimum": str(rent_minimum)})

    # --- submitting ----------------------------------------------------------------------------

    def transaction_hash(self, *, body: dict[str, Any], signature: bytes) -> str:
        """A Solana transaction is named by its first signature: the fee payer's (base58)."""
        if not isinstance(signature, (bytes, bytearray)) or len(signature) != 64:
            raise InvalidSignature("the signature must be 64 bytes (Ed25519)")
        return str(Signature.from_bytes(bytes(signature)))

    async def transfer_status(self, tx_hash: str) -> TransferStatus:
        """Landed (``included``, failed ones with ``success`` False) or not seen yet (``pending``:
        a Solana transaction either lands before its blockhash expires or never)."""
        status = await self.chain.signature_status(tx_hash)
        if status is None:
            return TransferStatus(tx_hash=tx_hash, state="pending")
        if status.error is not None:
            return TransferStatus(tx_hash=tx_hash, state="included", block_height=status.slot, success=False,
                                  reason_code="TRANSACTION_FAILED", reason=str(status.error))
        return TransferStatus(tx_hash=tx_hash, state="included", block_height=status.slot)

    async def submit_transfer(self, *, body: dict[str, Any], signature: bytes) -> str:
        if not isinstance(body, dict) or body.get("type") != "solana-transfer" or body.get("network") != self.network.id:
            raise _malformed(f"type must be solana-transfer on {self.network.id}")
        try:
            message = Message.from_bytes(base64.b64decode(str(body.get("message")), validate=True))
            sender = parse_address(str(body.get("from")))
        except (ValueError, InvalidAddress):
            raise _malformed("message must be a base64 Solana message from a Solana address") from None
        keys = list(message.account_keys)
        if message.header.num_required_signatures != 1 or not keys or keys[0] != sender:
            raise _malformed("the message must have one signer, the sender, who pays the fee")
        if not isinstance(signature, (bytes, bytearray)) or len(signature) != 64:
            raise InvalidSignature("the signature must be 64 bytes (Ed25519)")
        try:
            VerifyKey(bytes(sender)).verify(bytes(message), bytes(signature))
        except (BadSignatureError, ValueError):
            raise InvalidSignature("the signature does not verify under the sending address's key") from None
        transaction = Transaction.populate(message, [Signature.from_bytes(bytes(signature))])
        status = await self.chain.signature_status(str(transaction.signatures[0]))
        if status is not None and status.error is None:
            return str(transaction.signatures[0])  # the same signed transfer again: idempotent
        return await self.chain.send(transaction)

    async def transaction_status(self, tx_hash: str) -> tuple[int, int] | None:
        """``(slot, confirmations)`` of a submitted transaction, or None while it has not landed."""
        status = await self.chain.signature_status(tx_hash)
        if status is None:
            return None
        if status.error is not None:
            raise TransferRejected(f"the transaction failed on chain: {status.error}", code="TRANSACTION_FAILED",
                                   details={"error": status.error})
        return status.slot, max(0, await self.chain.slot() - status.slot + 1)

    # --- reading -------------------------------------------------------------------------------

    async def latest_height(self) -> int:
        return await self.chain.slot()

    def transfers_of(self, tx: SlotTransaction, *, first_index: int) -> list[Transfer]:
        """The value a transaction moved, from its balance changes (see the module docstring)."""
        if tx.error is not None or not tx.account_keys:
            return []
        native = self.network.native_currency_id
        payer = tx.account_keys[0]
        transfers: list[Transfer] = []

        def add(to: str, currency_id: str, amount: int) -> None:
            transfers.append(Transfer(tx_hash=tx.signature, index=first_index + len(transfers), from_address=payer,
                                      to_address=to, currency_id=currency_id, amount=amount, fee=tx.fee,
                                      fee_currency_id=native))

        for index, key in enumerate(tx.account_keys[1:], start=1):
            if index < len(tx.pre_balances) and index < len(tx.post_balances):
                gained = tx.post_balances[index] - tx.pre_balances[index]
                if gained > 0:
                    add(key, native, gained)
        before = {(b.owner, b.mint): 0 for b in tx.post_token_balances}
        for balance in tx.pre_token_balances:
            before[(balance.owner, balance.mint)] = before.get((balance.owner, balance.mint), 0) + balance.amount
        after: dict[tuple[str, str], int] = {}
        for balance in tx.post_token_balances:
            after[(balance.owner, balance.mint)] = after.get((balance.owner, balance.mint), 0) + balance.amount
        for (owner, mint), amount in after.items():
            currency = self._currency_of_mint(mint)
            gained = amount - before.get((owner, mint), 0)
            if currency is not None and gained > 0 and owner:
                add(owner, currency.id, gained)
        return transfers

    async def read_block(self, height: int) -> Block | None:
        block = await self.chain.block(height)
        if block is None:
            return None
        transfers: list[Transfer] = []
        for tx in block.transactions:
            transfers += self.transfers_of(tx, first_index=len(transfers))
        return Block(network_id=self.network.id, height=height, hash=block.blockhash,
                     parent_hash=block.parent_blockhash, time=block.time, transfers=transfers)

    # --- watching addresses ---------------------------------------------------------------------

    def watched_accounts(self, *, address: str, currencies: Iterable[Currency]) -> list[str]:
        """The accounts whose history holds ``address``'s deposits: the address itself (SOL, and
        any transaction naming it) and the associated token account of each token in
        ``currencies`` (a ``TransferChecked`` to it does not name the owner)."""
        owner = parse_address(address)
        accounts = [str(owner)]
        for currency in currencies:
            mint = self._mint_of(currency)
            if mint is not None:
                accounts.append(str(get_associated_token_address(owner, mint)))
        return accounts

    async def read_account(self, *, account: str, owner: str, since: str | None, up_to_height: int) -> AccountRead:
        """What ``owner`` received in the transactions naming ``account`` after signature ``since``
        and in slots up to ``up_to_height`` (see the module): ``getSignaturesForAddress`` newest
        first, paged with ``before`` down to ``until`` = ``since``, then ``getTransaction`` for each
        final, successful one, oldest first."""
        final: list[SignatureInfo] = []
        before: str | None = None
        key = parse_address(account)
        while True:
            page = await self.chain.signatures_for_address(key, before=before, until=since, limit=SIGNATURES_LIMIT,
                                                           commitment="confirmed")
            final += [info for info in page if info.slot <= up_to_height]
            if len(page) < SIGNATURES_LIMIT:
                break
            before = page[-1].signature
        if not final:
            return AccountRead(blocks=[], cursor=since, cursor_height=None)
        blocks: dict[int, Block] = {}
        for info in reversed(final):  # oldest first
            if info.error is not None:
                continue  # failed: it moved nothing (its fee is the payer's business)
            confirmed = await self.chain.transaction(info.signature, commitment="confirmed")
            if confirmed is None:
                # Listed as final but not served yet: stop here, the cursor stays before it.
                raise NetworkUnavailable(f"the node lists transaction {info.signature} but does not serve it")
            block = blocks.get(confirmed.slot) or Block(network_id=self.network.id, height=confirmed.slot, hash="",
                                                        parent_hash="", time=confirmed.time)
            first = len(block.transfers)
            block.transfers.extend(t for t in self.transfers_of(confirmed.transaction, first_index=first)
                                   if t.to_address == owner)
            blocks[confirmed.slot] = block
        return AccountRead(blocks=[blocks[slot] for slot in sorted(blocks) if blocks[slot].transfers],
                           cursor=final[0].signature, cursor_height=final[0].slot)

    async def incoming_transfers(self, *, address: str, currency: Currency, up_to_height: int) -> list[Block]:
        """What ``address`` received in ``currency`` up to slot ``up_to_height``: the history of
        its associated token account (of the address itself for SOL), read as ``read_block``
        reads a block (balance changes), each block with only the transfers to ``address``."""
        mint = self._mint_of(currency)
        owner = parse_address(address)
        account = owner if mint is None else get_associated_token_address(owner, mint)
        blocks = []
        for block in await self.chain.history(account, until_slot=up_to_height):
            transfers: list[Transfer] = []
            for tx in block.transactions:
                transfers += [t for t in self.transfers_of(tx, first_index=len(transfers))
                              if t.to_address == str(owner) and t.currency_id == currency.id]
            if transfers:
                blocks.append(Block(network_id=self.network.id, height=block.slot, hash=block.blockhash,
                                    parent_hash=block.parent_blockhash, time=block.time, transfers=transfers))
        return blocks

    async def balance_of(self, *, address: str, currency: Currency) -> int:
        mint = self._mint_of(currency)
        owner = parse_address(address)
        if mint is None:
            return await self._lamports(owner)
        return await self._token_amount(get_associated_token_address(owner, mint)) or 0
