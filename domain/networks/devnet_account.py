"""The devnet's account family (EVM-like): balances per address and asset, nonces, gas.

Transfer body (what is signed, see :func:`domain.networks.devnet.signing_payload`)::

    {"type": "account-transfer", "chain_id": int, "from": addr, "to": addr,
     "asset": "" (native coin) | "<token contract>", "amount": "<atomic>",
     "nonce": int, "gas_limit": int, "gas_price": "<atomic native per gas>",
     "public_key": "<hex of the 32-byte group key>"}

Rules: the nonce must be the sender's next one (mempool included); the gas limit must cover the
transfer (``native_transfer_gas`` / ``token_transfer_gas``) and the gas price the network's; the
sender must afford ``amount`` plus ``gas_limit x gas_price`` in the native coin for a native
transfer, and ``gas_limit x gas_price`` native plus ``amount`` of the token for a token
transfer: a token transfer without native gas is refused (INSUFFICIENT_GAS). When mined, the
fee is ``gas_used x gas_price`` (the unused limit is not charged).
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

from tortoise import connections

from core import clock
from domain.currencies import Currency, Network, registry
from domain.networks import addresses
from domain.networks.base import (
    Block,
    FeeEstimate,
    InsufficientFunds,
    InsufficientGas,
    Transfer,
    TransferRejected,
    TransferStatus,
    UnsignedTransfer,
)
from domain.networks.devnet import (
    amount_field,
    blocks_received,
    faucet_address,
    int_field,
    latest_height,
    malformed,
    signing_payload,
    transaction_hash,
    transfer_status,
    verify_sender,
)
from models.devnet import DevnetAccount, DevnetBalance, DevnetBlock, DevnetTransaction

NATIVE = ""

#: The sender's account row, locked (DevnetAccountAdapter._lock_account).
_LOCK_ACCOUNT = "SELECT id, network, address, nonce FROM devnet_accounts WHERE network = $1 AND address = $2 FOR UPDATE"
#: A submitted transfer into the mempool (``pending``; the serial id is its place there).
_INSERT_TRANSFER = (
    "INSERT INTO devnet_transactions (network, tx_hash, kind, status, from_address, to_address, asset, amount, fee, "
    "nonce, gas_limit, gas_price, body, signature, submitted_at) "
    "VALUES ($1, $2, 'transfer', 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)")
#: How the body column is written (tortoise's JSON field, as DevnetTransaction.create writes it).
_BODY = DevnetTransaction._meta.fields_map["body"]  # noqa: SLF001

#: The next nonce of $2 on network $1: the account's nonce plus its transfers waiting in the
#: mempool (one expression, so a block mined meanwhile is never seen half).
_NEXT_NONCE = ("coalesce((SELECT nonce FROM devnet_accounts WHERE network = $1 AND address = $2), 0) + "
               "(SELECT count(*) FROM devnet_transactions WHERE network = $1 AND from_address = $2 "
               "AND kind = 'transfer' AND status = 'pending')")

#: A submission's checks, read in one statement (DevnetAccountAdapter._sender_state): $1 network,
#: $2 sender, $3 the transfer's hash, $4 its asset, $5 the native coin's asset ("").
_SENDER_STATE = f"""
WITH pending AS (
    SELECT asset, amount, fee FROM devnet_transactions
    WHERE network = $1 AND from_address = $2 AND kind = 'transfer' AND status = 'pending'
)
SELECT EXISTS (SELECT 1 FROM devnet_transactions WHERE network = $1 AND tx_hash = $3) AS known,
       {_NEXT_NONCE} AS next_nonce,
       (SELECT coalesce(sum(fee), 0) + coalesce(sum(amount) FILTER (WHERE asset = $5), 0) FROM pending)
         AS pending_native,
       (SELECT coalesce(sum(amount), 0) FROM pending WHERE asset = $4) AS pending_asset,
       coalesce((SELECT balance FROM devnet_balances WHERE network = $1 AND address = $2 AND asset = $5), 0)
         AS native_balance,
       coalesce((SELECT balance FROM devnet_balances WHERE network = $1 AND address = $2 AND asset = $4), 0)
         AS asset_balance
"""


class DevnetAccountAdapter:
    family = "account"

    def __init__(self, network: Network) -> None:
        self.network = network
        params = network.params
        self.chain_id = int(params.get("chain_id", 1337))
        self.gas_price = int(params.get("gas_price", 1_000_000_000))
        self.native_transfer_gas = int(params.get("native_transfer_gas", 21_000))
        self.token_transfer_gas = int(params.get("token_transfer_gas", 65_000))

    # --- addresses -----------------------------------------------------------------------------

    def address_from_public_key(self, public_key: bytes) -> str:
        return addresses.account_address(public_key)

    def normalize_address(self, address: str) -> str:
        return addresses.normalize_account_address(address)

    def confirmations_required(self) -> int:
        return self.network.confirmations

    # --- fees and building ---------------------------------------------------------------------

    def _asset_of(self, currency: Currency) -> str:
        if currency.network.id != self.network.id:
            raise TransferRejected(f"{currency.id} is not a currency of {self.network.id}", code="WRONG_NETWORK")
        return NATIVE if currency.is_native else currency.contract  # type: ignore[return-value]  # a token has a contract

    def gas_for(self, asset: str) -> int:
        return self.native_transfer_gas if asset == NATIVE else self.token_transfer_gas

    async def estimate_fee(self, *, currency: Currency, amount: int | None = None,
                           from_address: str | None = None, fee_rate: int | None = None) -> FeeEstimate:
        gas_limit = self.gas_for(self._asset_of(currency))
        gas_price = fee_rate or self.gas_price
        return FeeEstimate(fee=gas_limit * gas_price, fee_currency_id=self.network.native_currency_id,
                           gas_limit=gas_limit, gas_price=gas_price)

    async def next_nonce(self, address: str) -> int:
        """The account's nonce plus its transfers waiting in the mempool, read in one statement: a
        block mined meanwhile moves both at once, so they are never seen from two moments."""
        rows = await connections.get("default").execute_query_dict(f"SELECT {_NEXT_NONCE} AS next_nonce",
                                                                    [self.network.id, address])
        return int(rows[0]["next_nonce"])

    async def build_transfer(self, *, currency: Currency, from_address: str, public_key: bytes,
                             to_address: str, amount: int, fee_rate: int | None = None) -> UnsignedTransfer:
        asset = self._asset_of(currency)
        sender = self.normalize_address(from_address)
        if self.address_from_public_key(public_key) != sender:
            raise TransferRejected("the public key does not belong to the sending address", code="INVALID_SENDER")
        if amount <= 0:
            raise malformed("amount must be positive")
        fee = await self.estimate_fee(currency=currency, fee_rate=fee_rate)
        body = {
            "type": "account-transfer", "chain_id": self.chain_id, "from": sender,
            "to": self.normalize_address(to_address), "asset": asset, "amount": str(amount),
            "nonce": await self.next_nonce(sender), "gas_limit": fee.gas_limit, "gas_price": str(fee.gas_price),
            "public_key": bytes(public_key).hex(),
        }
        return UnsignedTransfer(network_id=self.network.id, body=body,
                                signing_payload=signing_payload(self.network.id, body), amount=amount,
                                fee_limit=fee.fee, fee_currency_id=self.network.native_currency_id)

    # --- state helpers -------------------------------------------------------------------------

    async def _lock_account(self, address: str) -> DevnetAccount:
        """The sender's account row, locked (made first when the address never sent anything)."""
        db = connections.get("default")
        _, rows = await db.execute_query(_LOCK_ACCOUNT, [self.network.id, address])
        if not rows:
            await db.execute_query(
                "INSERT INTO devnet_accounts (network, address, nonce) VALUES ($1, $2, 0) "
                "ON CONFLICT (network, address) DO NOTHING",
                [self.network.id, address],
            )
            _, rows = await db.execute_query(_LOCK_ACCOUNT, [self.network.id, address])
        return DevnetAccount._init_from_db(**rows[0])  # noqa: SLF001  (tortoise's own row -> model)

    async def _balance(self, address: str, asset: str) -> int:
        row = await DevnetBalance.get_or_none(network=self.network.id, address=address, asset=asset)
        return int(row.balance) if row else 0

    async def _add(self, address: str, asset: str, delta: int) -> None:
        await connections.get("default").execute_query(
            "INSERT INTO devnet_balances (network, address, asset, balance) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (network, address, asset) DO UPDATE SET balance = devnet_balances.balance + EXCLUDED.balance",
            [self.network.id, address, asset, Decimal(delta)],
        )

    async def _sender_state(self, address: str, asset: str, tx_hash: str) -> dict[str, Any]:
        """What a submission checks, in one statement (the sender's account locked): whether the
        network has ``tx_hash`` already (``known``), the sender's next nonce (:meth:`next_nonce`),
        what the mempool already promised of the native coin (amounts plus every pending
        transfer's fee limit) and of ``asset``, and the balances of both."""
        rows = await connections.get("default").execute_query_dict(_SENDER_STATE, [self.network.id, address, tx_hash,
                                                                                    asset, NATIVE])
        return {name: value if name == "known" else int(value) for name, value in rows[0].items()}

    # --- submitting ----------------------------------------------------------------------------

    def transaction_hash(self, *, body: dict[str, Any], signature: bytes) -> str:
        return transaction_hash(self.network.id, signing_payload(self.network.id, body), bytes(signature), prefix="0x")

    async def transfer_status(self, tx_hash: str) -> TransferStatus:
        return await transfer_status(self.network.id, tx_hash)

    async def submit_transfer(self, *, body: dict[str, Any], signature: bytes) -> str:
        if not isinstance(body, dict) or body.get("type") != "account-transfer":
            raise malformed("type must be account-transfer")
        if body.get("chain_id") != self.chain_id:
            raise malformed(f"chain_id must be {self.chain_id}")
        for name in ("from", "to"):
            try:
                if self.normalize_address(body.get(name)) != body.get(name):  # type: ignore[arg-type]  # checked above
                    raise malformed(f"{name} must be a lowercase account address")
            except addresses.InvalidAddress:
                raise malformed(f"{name} is not an account address") from None
        asset = body.get("asset")
        if asset != NATIVE and registry().currency_by_contract(self.network.id, asset) is None:
            raise TransferRejected("the asset is not a token of this network", code="UNKNOWN_ASSET")
        amount = amount_field(body, "amount", minimum=1)
        nonce = int_field(body, "nonce")
        gas_limit = int_field(body, "gas_limit")
        gas_price = amount_field(body, "gas_price")
        payload = verify_sender(self, body, signature)
        tx_hash = transaction_hash(self.network.id, payload, bytes(signature), prefix="0x")
        sender = body["from"]
        await self._lock_account(sender)  # serializes this sender's submissions (nonce, funds)
        state = await self._sender_state(sender, asset, tx_hash)  # type: ignore[arg-type]  # checked above
        if state["known"]:
            return tx_hash  # the same signed transfer again: idempotent
        expected = state["next_nonce"]
        if nonce != expected:
            raise TransferRejected(f"nonce must be {expected}", code="NONCE_MISMATCH",
                                   details={"expected_nonce": expected, "nonce": nonce})
        if gas_limit < self.gas_for(asset):  # type: ignore[arg-type]  # checked above
            raise TransferRejected(f"gas_limit must be at least {self.gas_for(asset)}", code="GAS_LIMIT_TOO_LOW")  # type: ignore[arg-type]  # checked above
        if gas_price < self.gas_price:
            raise TransferRejected(f"gas_price must be at least {self.gas_price}", code="GAS_PRICE_TOO_LOW")
        max_fee = gas_limit * gas_price
        native_available = state["native_balance"] - state["pending_native"]
        if asset == NATIVE:
            if amount + max_fee > native_available:
                raise InsufficientFunds("the sender cannot pay amount plus fee",
                                        details={"available": str(native_available), "needed": str(amount + max_fee)})
        else:
            if max_fee > native_available:
                raise InsufficientGas("a token transfer needs native coin for gas",
                                      details={"available_gas": str(native_available), "needed": str(max_fee)})
            token_available = state["asset_balance"] - state["pending_asset"]
            if amount > token_available:
                raise InsufficientFunds("the sender does not hold enough of the token",
                                        details={"available": str(token_available), "needed": str(amount)})
        await connections.get("default").execute_query(_INSERT_TRANSFER, [
            self.network.id, tx_hash, sender, body["to"], asset, Decimal(amount), Decimal(max_fee), nonce, gas_limit,
            Decimal(gas_price), _BODY.to_db_value(body, DevnetTransaction), bytes(signature), clock.now()])
        return tx_hash

    async def faucet_transaction(self, *, to_address: str, currency: Currency, amount: int, salt: bytes) -> str:
        asset = self._asset_of(currency)
        tx_hash = "0x" + hashlib.sha256(b"faucet" + self.network.id.encode() + to_address.encode() + salt).hexdigest()
        await DevnetTransaction.create(network=self.network.id, tx_hash=tx_hash, kind="faucet",
                                       from_address=faucet_address(self), to_address=to_address, asset=asset,
                                       amount=amount, fee=0, body={"type": "faucet", "to": to_address,
                                                                    "asset": asset, "amount": str(amount)})
        return tx_hash

    # --- mining --------------------------------------------------------------------------------

    async def apply(self, tx: DevnetTransaction, *, height: int) -> bool:
        """Execute a mempool transaction in block ``height``; False when it is dropped instead."""
        amount = int(tx.amount)
        if tx.kind == "faucet":
            await self._add(tx.to_address, tx.asset, amount)
            tx.status = "confirmed"
            return True
        account = await self._lock_account(tx.from_address)
        gas_used = self.gas_for(tx.asset)
        fee = gas_used * int(tx.gas_price)
        native = await self._balance(tx.from_address, NATIVE)
        if tx.nonce != account.nonce or native < fee:
            tx.status, tx.error = "dropped", "nonce or gas no longer valid"
            return False
        await self._add(tx.from_address, NATIVE, -fee)
        balance = native - fee if tx.asset == NATIVE else await self._balance(tx.from_address, tx.asset)
        if balance >= amount:
            await self._add(tx.from_address, tx.asset, -amount)
            await self._add(tx.to_address, tx.asset, amount)
            tx.status = "confirmed"
        else:
            tx.status, tx.error = "failed", "insufficient funds at execution"
        account.nonce += 1
        await account.save()
        tx.fee, tx.gas_used = fee, gas_used
        return True

    # --- reading -------------------------------------------------------------------------------

    async def latest_height(self) -> int:
        return await latest_height(self.network.id)

    async def read_block(self, height: int) -> Block | None:
        block = await DevnetBlock.get_or_none(network=self.network.id, height=height)
        if block is None:
            return None
        transfers = []
        native_id = self.network.native_currency_id
        for tx in await DevnetTransaction.filter(network=self.network.id, block_height=height).order_by("block_index"):
            currency = registry().currency_by_contract(self.network.id, tx.asset or None)
            if currency is None:
                continue
            transfers.append(Transfer(
                tx_hash=tx.tx_hash, index=tx.block_index or 0, from_address=tx.from_address, to_address=tx.to_address,
                currency_id=currency.id, amount=int(tx.amount), fee=int(tx.fee), fee_currency_id=native_id,
                success=tx.status == "confirmed",
            ))
        return Block(network_id=self.network.id, height=height, hash=block.hash, parent_hash=block.parent_hash,
                     time=block.produced_at, transfers=transfers)

    async def balance_of(self, *, address: str, currency: Currency) -> int:
        return await self._balance(self.normalize_address(address), self._asset_of(currency))

    async def incoming_transfers(self, *, address: str, currency: Currency, up_to_height: int) -> list[Block]:
        """The blocks up to ``up_to_height`` in which ``address`` received ``currency``, read from
        the ledger, each with only those transfers (what ``read_block`` gives for them)."""
        address = self.normalize_address(address)
        heights = await DevnetTransaction.filter(
            network=self.network.id, to_address=address, asset=self._asset_of(currency), status="confirmed",
            block_height__lte=up_to_height).distinct().values_list("block_height", flat=True)
        return await blocks_received(self, sorted({int(h) for h in heights if h is not None}), address, currency)  # type: ignore[call-overload]  # flat values_list
