"""Ethereum (mainnet, Sepolia) and ``evm-local``: ETH and ERC-20 tokens, signed by a vault's
threshold ECDSA key (:mod:`threshold.ecdsa`).

Rules, in the order the code applies them:

Addresses
    The key set's scheme is ``ECDSA-secp256k1-cait-sith-v1`` and its group key a 33-byte SEC1
    point; the address is the last 20 bytes of Keccak-256 of the uncompressed point, EIP-55
    checksummed (eth-keys). Input addresses may be all lower or all upper case; a mixed-case one
    must carry a valid EIP-55 checksum (a typo is refused, not sent).

The node
    JSON-RPC (:mod:`domain.networks.evm_rpc`): ``NETWORK_RPC_URLS`` or the registry's
    ``params.rpc_url``; a local network (``params.local``: ``evm-local``) uses custody dev's
    node (``EVM_LOCAL_URL``) or one in this process (:mod:`domain.networks.evm_local`). The
    node's ``eth_chainId`` must be the registry's ``params.chain_id`` before anything is signed
    for it (a misconfigured URL never receives a signature for another chain).

Building a transfer (``build_transfer``)
    1. the currency is the network's; the public key is the sender's; the recipient is an
       address; the amount is positive; a transfer to oneself is refused;
    2. the call: ETH is ``to = recipient, value = amount``; a token is ``transfer(recipient,
       amount)`` on its contract (ABI-encoded, eth-abi);
    3. gas: ``eth_estimateGas`` of that call from the sender (21,000 for ETH to an address
       without code), with 20% headroom for a contract call; a token transfer the token would
       refuse (the sender lacks it) is ``INSUFFICIENT_FUNDS``;
    4. fees (EIP-1559): ``maxPriorityFeePerGas`` from the node (``eth_maxPriorityFeePerGas``,
       else ``params.priority_fee_per_gas``), ``maxFeePerGas`` = the caller's ``fee_rate`` or
       twice the next block's base fee plus the tip; the **fee limit** is ``gas x maxFeePerGas``
       (what the withdrawal holds); the fee actually paid is ``gasUsed x effectiveGasPrice``
       from the receipt (:meth:`EvmAdapter.transfer_status`), reverted or not;
    5. the nonce (:func:`take_nonce`): from the adapter's own ledger (:mod:`models.evm`), under
       the address's row lock, held by the payment's ``intent_key``. Building again for the same
       payment (a retry, a replacement) reuses its nonce and, once an attempt reached the node,
       raises both fees to at least 110% of the last attempt's (a node refuses a smaller bump):
       two transactions of one payment can never both execute, and two payments never share a
       nonce. An attempt's fees count from when it is submitted (``_record_submission``), so a
       replacement built but never sent raises nothing; :meth:`EvmAdapter.build_replacement` is
       the withdrawal pipeline's way in (a cap on the max fee, ``FEE_CAP_REACHED``;
       domain.withdrawals.replacement). A new payment gets the lowest released nonce the chain has not used, else
       ``max(next_nonce, the count of the address's executed transactions)``;
    6. funds: the sender's ETH covers ``amount + fee limit`` (ETH) or the fee limit (a token:
       ``INSUFFICIENT_GAS`` without it), and its token balance the amount;
    7. the result: an EIP-1559 (type 2) transaction whose **signing payload is its Keccak-256
       signing hash** (eth-account's ``TypedTransaction.hash()``), one
       :class:`~domain.networks.base.SigningPayload` with the ECDSA scheme: what the vault's key
       set of that scheme signs, as every network asks for its signatures.

Submitting (``submit_transfer``)
    The signature is 64 bytes ``r || s`` (low s, as threshold.ecdsa makes them; a 65th byte, the
    recovery id, is accepted too). The recovery id is found by recovering the sender's address
    from the signing hash (the threshold signature's R parity does not give it), which also
    checks the signature (``INVALID_SIGNATURE`` otherwise). The signed bytes are eth-account's
    encoding; the transaction hash is their Keccak-256, known before submitting. Submitting the
    same signed transaction again returns its hash and changes nothing (a node that knows it,
    or mined it). The hash is recorded with its nonce before it is sent, and forgotten again if
    the node refuses the bytes (they can never execute then, so the nonce can be released).

Where a transfer stands (``transfer_status``)
    A receipt: ``included`` at its block, ``success`` from its status, ``fee`` = gasUsed x
    effectiveGasPrice (a reverted transaction pays it too: ``EXECUTION_REVERTED``). No receipt
    but the node knows it: ``pending``. Neither, and the sender's nonce has moved past the
    transaction's: ``dropped`` (``REPLACED``: another transaction with that nonce executed,
    typically a replacement of this payment). Otherwise ``pending`` (the node forgot it; the
    signed bytes can be submitted again).

Deposits (``read_block``)
    The block by number (with its transactions); ETH: every transaction with a value to a wallet
    address of this network, its receipt giving success and fee; tokens: the ERC-20 ``Transfer``
    logs of the registry's contracts in that block (``eth_getLogs`` by block hash, so the logs
    belong to the block read) whose recipient is a wallet address. Several transfers of one
    transaction to one address in one currency are one deposit of their sum. ETH moved by a
    contract's internal call is not seen (it needs a tracing node). The deposit watcher reads a
    block only once it has the network's confirmations, so a reorg below that depth (a block
    replaced before it was final) never credits the replaced block's transfers; ``block_hash``
    lets it check that the blocks it read are still the chain's (a deeper reorg halts it:
    domain.deposits).
"""

from __future__ import annotations

import functools
import uuid
from datetime import datetime, timezone
from typing import Any

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_keys import keys as eth_keys
from eth_keys.exceptions import BadSignature
from eth_utils import is_checksum_address, keccak, to_checksum_address
from tortoise import connections

from core import clock
from core.settings import get_settings
from domain.currencies import Currency, Network, registry
from domain.networks.addresses import InvalidAddress
from domain.networks.base import (
    Block,
    FeeEstimate,
    InsufficientFunds,
    InsufficientGas,
    InvalidSignature,
    NetworkUnavailable,
    SigningPayload,
    Transfer,
    TransferRejected,
    TransferStatus,
    UnsignedTransfer,
)
from domain.networks.evm_rpc import EvmRpc, HttpEvmRpc, RpcError, quantity, to_int
from models.evm import EvmAccount, EvmNonce
from models.wallets import WalletAddress
from threshold.scheme import ECDSA_SCHEME

#: ERC-20 ``Transfer(address,address,uint256)`` event topic.
TRANSFER_TOPIC = "0x" + keccak(text="Transfer(address,address,uint256)").hex()
TRANSFER_SELECTOR = keccak(text="transfer(address,uint256)")[:4]
BALANCE_OF_SELECTOR = keccak(text="balanceOf(address)")[:4]
NATIVE_TRANSFER_GAS = 21_000
#: Gas a token transfer is estimated at before its sender is known (fee limits at creation).
DEFAULT_TOKEN_TRANSFER_GAS = 100_000
#: A replacement raises both fees to at least this share of the last attempt's (geth's 10%).
REPLACEMENT_BUMP = (110, 100)
#: Headroom over eth_estimateGas for a contract call (numerator, denominator).
CALL_GAS_HEADROOM = (12, 10)


@functools.cache
def _typed_transaction() -> Any:
    """eth-account's ``TypedTransaction``: EIP-2718 / EIP-1559 encoding and signing hash.

    Imported on first use: importing eth-account loads eth-keyfile and py_ecc's BLS tables
    (seconds), which every process that imports the adapters (web, workers) would pay for
    nothing; only the processes that build or submit an EVM transfer need it."""
    from eth_account.typed_transactions import TypedTransaction

    return TypedTransaction


def _malformed(reason: str) -> TransferRejected:
    return TransferRejected(f"malformed transfer: {reason}", code="MALFORMED_TRANSFER", details={"reason": reason})


def parse_address(address: str) -> str:
    """The EIP-55 form of an address; lower or upper case is accepted, mixed case must be a
    valid checksum (:class:`~domain.networks.addresses.InvalidAddress` otherwise)."""
    if not isinstance(address, str):
        raise InvalidAddress("an address is a string")
    text = address.strip()
    body = text[2:]
    if not text.startswith("0x") or len(body) != 40 or any(c not in "0123456789abcdefABCDEF" for c in body):
        raise InvalidAddress("an Ethereum address is 0x followed by 40 hex digits")
    if body != body.lower() and body != body.upper() and not is_checksum_address(text):
        raise InvalidAddress("the address's letter case is not its EIP-55 checksum (a typo?)")
    return to_checksum_address(text)


def address_of_key(public_key: bytes) -> str:
    """The EIP-55 address of a 33-byte SEC1 secp256k1 key."""
    if len(public_key) != 33 or public_key[0] not in (2, 3):
        raise ValueError("an Ethereum address derives from a 33-byte secp256k1 group key (SEC1 compressed)")
    return eth_keys.PublicKey.from_compressed_bytes(bytes(public_key)).to_checksum_address()


def default_rpc(network: Network) -> EvmRpc:
    """The node of ``network``: custody dev's evm-local (``EVM_LOCAL_URL``) or one of this process
    for a local network, else ``NETWORK_RPC_URLS`` / ``params.rpc_url``."""
    settings = get_settings()
    if network.params.get("local") is True:
        if settings.evm_local_url:
            return HttpEvmRpc(settings.evm_local_url)
        # py-evm takes seconds to import: only a process that uses the local chain pays for it.
        from domain.networks.evm_local import InProcessEvmRpc, local_node

        return InProcessEvmRpc(local_node(network.id))
    url = settings.network_rpc_urls.get(network.id) or str(network.params.get("rpc_url", ""))
    if not url:
        raise LookupError(f"no rpc_url for {network.id} (NETWORK_RPC_URLS or the registry's params.rpc_url)")
    return HttpEvmRpc(url)


def _bumped(previous: int, wanted: int) -> int:
    numerator, denominator = REPLACEMENT_BUMP
    return max(wanted, -(-previous * numerator // denominator))


# --------------------------------------------------------------------------------------------
# The nonce ledger
# --------------------------------------------------------------------------------------------


async def _lock_account(network_id: str, address: str) -> EvmAccount:
    await connections.get("default").execute_query(
        "INSERT INTO evm_accounts (id, network, address, next_nonce, created_at, updated_at) "
        "VALUES ($1, $2, $3, 0, $4, $4) ON CONFLICT (network, address) DO NOTHING",
        [uuid.uuid4(), network_id, address, clock.now()],
    )
    account = await EvmAccount.filter(network=network_id, address=address).select_for_update().first()
    assert account is not None
    return account


async def take_nonce(*, network_id: str, address: str, intent_key: str, chain_nonce: int) -> EvmNonce:
    """The nonce of payment ``intent_key`` from ``address`` (see the module, rule 5), in the
    caller's transaction: its own if it holds one, else a released one the chain has not used
    (``chain_nonce``: the node's count of executed transactions), else the next."""
    account = await _lock_account(network_id, address)
    held = await EvmNonce.get_or_none(network=network_id, intent_key=intent_key)
    if held is not None:
        return held
    free = await EvmNonce.filter(network=network_id, address=address, intent_key__isnull=True,
                                 nonce__gte=chain_nonce).order_by("nonce").first()
    if free is not None:
        free.intent_key, free.max_fee_per_gas, free.max_priority_fee_per_gas = intent_key, None, None
        await free.save(update_fields=["intent_key", "max_fee_per_gas", "max_priority_fee_per_gas"])
        return free
    nonce = max(int(account.next_nonce), chain_nonce)
    account.next_nonce = nonce + 1
    await account.save(update_fields=["next_nonce"])
    return await EvmNonce.create(network=network_id, address=address, nonce=nonce, intent_key=intent_key)


async def release_nonce(*, network_id: str, intent_key: str, chain_nonce_of: Any) -> bool:
    """Give back the nonce of a payment given up, unless the node accepted a transaction with it
    (it may still execute) or the chain used it. Returns whether it was released."""
    held = await EvmNonce.get_or_none(network=network_id, intent_key=intent_key)
    if held is None:
        return False
    await _lock_account(network_id, held.address)
    held = await EvmNonce.get(id=held.id)
    if held.tx_hashes or int(held.nonce) < await chain_nonce_of(held.address):
        return False
    held.intent_key = None
    await held.save(update_fields=["intent_key"])
    return True


# --------------------------------------------------------------------------------------------
# The adapter
# --------------------------------------------------------------------------------------------


class EvmAdapter:
    """The :class:`~domain.networks.base.NetworkAdapter` of an EVM network (see the module)."""

    family = "account"
    key_scheme = ECDSA_SCHEME

    def __init__(self, network: Network, rpc: EvmRpc | None = None) -> None:
        self.network = network
        self.rpc = rpc if rpc is not None else default_rpc(network)
        self.chain_id = int(network.params["chain_id"])
        self.priority_fee = int(network.params.get("priority_fee_per_gas", 10**9))
        self.token_gas = int(network.params.get("token_transfer_gas", DEFAULT_TOKEN_TRANSFER_GAS))
        self._chain_checked = False

    # --- addresses -----------------------------------------------------------------------------

    def address_from_public_key(self, public_key: bytes) -> str:
        return address_of_key(bytes(public_key))

    def normalize_address(self, address: str) -> str:
        return parse_address(address)

    def confirmations_required(self) -> int:
        return self.network.confirmations

    # --- the node ------------------------------------------------------------------------------

    async def _call(self, method: str, *params: Any) -> Any:
        if not self._chain_checked:
            served = to_int(await self._request("eth_chainId"))
            if served != self.chain_id:
                raise NetworkUnavailable(f"the node configured for {self.network.id} serves chain {served}, "
                                         f"not {self.chain_id}: nothing is signed for it",
                                         details={"chain_id": str(served), "expected": str(self.chain_id)})
            self._chain_checked = True
        return await self._request(method, *params)

    async def _request(self, method: str, *params: Any) -> Any:
        try:
            return await self.rpc.request(method, list(params))
        except RpcError as exc:
            if method in ("eth_sendRawTransaction", "eth_estimateGas", "eth_call"):
                raise
            raise NetworkUnavailable(f"the EVM node refused {method}: {exc.message}",
                                     details={"code": str(exc.code)}) from None

    def _currency(self, currency: Currency) -> Currency:
        if currency.network.id != self.network.id:
            raise TransferRejected(f"{currency.id} is not a currency of {self.network.id}", code="WRONG_NETWORK")
        return currency

    async def _native_balance(self, address: str) -> int:
        return to_int(await self._call("eth_getBalance", address, "latest"))

    async def _token_balance(self, contract: str, address: str) -> int:
        data = "0x" + (BALANCE_OF_SELECTOR + abi_encode(["address"], [address])).hex()
        answer = await self._call("eth_call", {"to": to_checksum_address(contract), "data": data}, "latest")
        raw = bytes.fromhex(str(answer)[2:])
        return int(abi_decode(["uint256"], raw)[0]) if len(raw) >= 32 else 0

    async def chain_nonce(self, address: str) -> int:
        """How many transactions of ``address`` the chain executed (``latest``)."""
        return to_int(await self._call("eth_getTransactionCount", address, "latest"))

    async def _fees(self, fee_rate: int | None) -> tuple[int, int, int]:
        """(next base fee, tip, max fee per gas)."""
        history = await self._call("eth_feeHistory", quantity(1), "latest", [])
        base_fees = history.get("baseFeePerGas") or []
        if base_fees:
            base_fee = to_int(base_fees[-1])
        else:
            head = await self._call("eth_getBlockByNumber", "latest", False)
            base_fee = to_int(head.get("baseFeePerGas"))
        try:
            tip = to_int(await self._request("eth_maxPriorityFeePerGas"))
        except NetworkUnavailable:
            tip = self.priority_fee
        max_fee = int(fee_rate) if fee_rate else 2 * base_fee + tip
        return base_fee, min(tip, max_fee), max_fee

    # --- fees ----------------------------------------------------------------------------------

    async def estimate_fee(self, *, currency: Currency, amount: int | None = None,
                           from_address: str | None = None, fee_rate: int | None = None) -> FeeEstimate:
        """``gas x maxFeePerGas`` (a limit): 21,000 gas for ETH, the network's token transfer gas
        (``params.token_transfer_gas``, 100,000) for a token; ``gas_price`` is maxFeePerGas."""
        self._currency(currency)
        _, _, max_fee = await self._fees(fee_rate)
        gas = NATIVE_TRANSFER_GAS if currency.is_native else self.token_gas
        return FeeEstimate(fee=gas * max_fee, fee_currency_id=self.network.native_currency_id, gas_limit=gas,
                           gas_price=max_fee)

    # --- building ------------------------------------------------------------------------------

    def _call_of(self, currency: Currency, recipient: str, amount: int) -> tuple[str, int, bytes]:
        if currency.is_native:
            return recipient, amount, b""
        data = TRANSFER_SELECTOR + abi_encode(["address", "uint256"], [recipient, amount])
        return to_checksum_address(str(currency.contract)), 0, data

    async def _gas(self, sender: str, to: str, value: int, data: bytes, *, token: bool,
                   block: str | None = None) -> int:
        call = {"from": sender, "to": to, "value": quantity(value), "data": "0x" + data.hex()}
        try:
            estimate = to_int(await self._call("eth_estimateGas", call, *([block] if block else [])))
        except RpcError as exc:
            if "insufficient funds" in exc.message.lower():
                error = InsufficientGas if token else InsufficientFunds
                raise error("the sender cannot pay amount plus fee in ETH", details={"reason": exc.message}) from None
            if token:
                raise InsufficientFunds(f"the token refuses the transfer: {exc.message}",
                                        details={"reason": exc.message}) from None
            raise TransferRejected(f"the network refuses the transfer: {exc.message}", code="TRANSFER_REJECTED",
                                   details={"reason": exc.message}) from None
        if estimate == NATIVE_TRANSFER_GAS and not data:
            return estimate
        numerator, denominator = CALL_GAS_HEADROOM
        return -(-estimate * numerator // denominator)

    async def build_transfer(self, *, currency: Currency, from_address: str, public_key: bytes, to_address: str,
                             amount: int, fee_rate: int | None = None, intent_key: str | None = None,
                             max_fee_cap: int | None = None, replaced_gas: int | None = None) -> UnsignedTransfer:
        return await self._build_transfer(currency=currency, from_address=from_address, public_key=public_key,
                                          to_address=to_address, amount=amount, fee_rate=fee_rate,
                                          intent_key=intent_key, max_fee_cap=max_fee_cap, replaced_gas=replaced_gas)

    async def _build_transfer(self, *, currency: Currency, from_address: str, public_key: bytes, to_address: str,
                              amount: int, fee_rate: int | None = None, intent_key: str | None = None,
                              max_fee_cap: int | None = None, replaced_gas: int | None = None,
                              chain_nonce: int | None = None) -> UnsignedTransfer:
        """:meth:`build_transfer`, with the node's nonce count when the caller read it already
        (``chain_nonce``: :meth:`build_replacement` does, one RPC fewer)."""
        self._currency(currency)
        sender = parse_address(from_address)
        if self.address_from_public_key(public_key) != sender:
            raise TransferRejected("the public key does not belong to the sending address", code="INVALID_SENDER")
        try:
            recipient = parse_address(to_address)
        except InvalidAddress as exc:
            raise _malformed(f"to: {exc}") from None
        if amount <= 0:
            raise _malformed("amount must be positive")
        if recipient == sender:
            raise TransferRejected("a transfer to the sending address itself moves nothing", code="SELF_TRANSFER")
        to, value, data = self._call_of(currency, recipient, amount)
        if not currency.is_native:
            held = await self._token_balance(to, sender)
            if held < amount:
                raise InsufficientFunds("the sender does not hold enough of the token",
                                        details={"available": str(held), "needed": str(amount)})
        if replaced_gas is None:
            gas = await self._gas(sender, to, value, data, token=not currency.is_native)
        else:
            # A replacement: estimated on the chain without the transaction it replaces (a node
            # may estimate on its pending block, where the replaced transfer already ran and the
            # recipient's token balance is no longer zero: cheaper), and never below that one.
            gas = max(await self._gas(sender, to, value, data, token=not currency.is_native, block="latest"),
                      int(replaced_gas))
        _, tip, max_fee = await self._fees(fee_rate)
        nonce = await take_nonce(network_id=self.network.id, address=sender,
                                 intent_key=intent_key or f"transfer:{uuid.uuid4()}",
                                 chain_nonce=await self.chain_nonce(sender) if chain_nonce is None else chain_nonce)
        replaces = bool(nonce.tx_hashes) and nonce.max_fee_per_gas is not None
        if replaces:  # an attempt of this payment reached the node: a replacement must outbid it
            max_fee = _bumped(int(nonce.max_fee_per_gas), max_fee)
            tip = min(_bumped(int(nonce.max_priority_fee_per_gas or 0), tip), max_fee)
        if max_fee_cap is not None and max_fee > max_fee_cap:
            raise TransferRejected(f"the max fee per gas would be {max_fee}, above the cap of {max_fee_cap}",
                                   code="FEE_CAP_REACHED",
                                   details={"max_fee_per_gas": str(max_fee), "cap": str(max_fee_cap)})
        fee_limit = gas * max_fee
        balance = await self._native_balance(sender)
        if balance < value + fee_limit:
            error = InsufficientFunds if currency.is_native else InsufficientGas
            raise error("the sender cannot pay amount plus fee limit in ETH" if currency.is_native else
                        "the sender cannot pay the fee limit in ETH",
                        details={"available": str(balance), "needed": str(value + fee_limit)})
        if not replaces:  # a replacement's fees count once it reaches the node (_record_submission)
            nonce.max_fee_per_gas, nonce.max_priority_fee_per_gas = max_fee, tip
            await nonce.save(update_fields=["max_fee_per_gas", "max_priority_fee_per_gas"])
        transaction = {"type": 2, "chainId": self.chain_id, "nonce": int(nonce.nonce), "to": to, "value": value,
                       "data": data, "gas": gas, "maxFeePerGas": max_fee, "maxPriorityFeePerGas": tip,
                       "accessList": []}
        digest = _typed_transaction().from_dict(transaction).hash()
        body = {
            "type": "evm-transfer", "network": self.network.id, "chain_id": self.chain_id, "from": sender,
            "to": recipient, "contract": None if currency.is_native else to, "amount": str(amount),
            "call_to": to, "value": str(value), "data": "0x" + data.hex(), "nonce": int(nonce.nonce), "gas": gas,
            "max_fee_per_gas": str(max_fee), "max_priority_fee_per_gas": str(tip), "fee": str(fee_limit),
            "intent_key": nonce.intent_key, "replacement": replaces, "public_key": bytes(public_key).hex(),
        }
        return UnsignedTransfer(network_id=self.network.id, body=body, signing_payload=digest, amount=amount,
                                fee_limit=fee_limit, fee_currency_id=self.network.native_currency_id,
                                payloads=(SigningPayload(digest, scheme=ECDSA_SCHEME),))

    async def build_replacement(self, *, currency: Currency, from_address: str, public_key: bytes,
                                to_address: str, amount: int, intent_key: str, max_fee_cap: int,
                                replaced_gas: int = 0) -> UnsignedTransfer:
        """The replacement of payment ``intent_key``'s transaction that waits unmined: its nonce,
        both fees at the current price and at least 110% of the last attempt's, no more than
        ``max_fee_cap`` per gas (``FEE_CAP_REACHED`` otherwise), gas estimated at ``latest`` and
        at least ``replaced_gas`` (the replaced attempt's). ``ALREADY_EXECUTED`` when the
        chain used the nonce already (an attempt was mined), ``NOTHING_TO_REPLACE`` when no
        attempt reached the node. Nothing is recorded until the replacement is submitted."""
        held = await EvmNonce.get_or_none(network=self.network.id, intent_key=intent_key)
        if held is None or not held.tx_hashes:
            raise TransferRejected("no transaction of this payment reached the node", code="NOTHING_TO_REPLACE")
        chain_nonce = await self.chain_nonce(held.address)
        if chain_nonce > int(held.nonce):
            raise TransferRejected("a transaction with this payment's nonce was mined already",
                                   code="ALREADY_EXECUTED", details={"nonce": str(held.nonce)})
        return await self._build_transfer(currency=currency, from_address=from_address, public_key=public_key,
                                          to_address=to_address, amount=amount, intent_key=intent_key,
                                          max_fee_cap=max_fee_cap, replaced_gas=replaced_gas,
                                          chain_nonce=chain_nonce)

    async def release_inputs(self, *, intent_key: str) -> int:
        """Give back the nonce of a payment given up before the node accepted it (1 if released)."""
        released = await release_nonce(network_id=self.network.id, intent_key=intent_key,
                                       chain_nonce_of=self.chain_nonce)
        return int(released)

    # --- signing and submitting ----------------------------------------------------------------

    @staticmethod
    def _transaction_of(body: dict[str, Any]) -> dict[str, Any]:
        try:
            return {"type": 2, "chainId": int(body["chain_id"]), "nonce": int(body["nonce"]),
                    "to": to_checksum_address(body["call_to"]), "value": int(body["value"]),
                    "data": bytes.fromhex(str(body["data"]).removeprefix("0x")), "gas": int(body["gas"]),
                    "maxFeePerGas": int(body["max_fee_per_gas"]),
                    "maxPriorityFeePerGas": int(body["max_priority_fee_per_gas"]), "accessList": []}
        except (KeyError, TypeError, ValueError):
            raise _malformed("the body is not an EVM transfer built by this adapter") from None

    def signing_hash(self, body: dict[str, Any]) -> bytes:
        """The Keccak-256 signing hash of the transfer in ``body`` (the signing payload)."""
        return bytes(_typed_transaction().from_dict(self._transaction_of(body)).hash())

    def _signed(self, body: dict[str, Any], signature: bytes) -> bytes:
        """The signed transaction's bytes; INVALID_SIGNATURE unless it recovers to the sender."""
        if str(body.get("chain_id")) != str(self.chain_id) or body.get("network") != self.network.id:
            raise _malformed("the transfer was built for another network")
        transaction = self._transaction_of(body)
        digest = bytes(_typed_transaction().from_dict(transaction).hash())
        if not isinstance(signature, (bytes, bytearray)) or len(signature) not in (64, 65):
            raise InvalidSignature("the signature must be 64 bytes (r || s) or 65 (r || s || v)")
        r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:64], "big")
        candidates = [signature[64]] if len(signature) == 65 else [0, 1]
        sender = str(body.get("from"))
        for v in candidates:
            try:
                recovered = eth_keys.Signature(vrs=(v, r, s)).recover_public_key_from_msg_hash(digest)
            except (BadSignature, ValueError):
                continue
            if recovered.to_checksum_address() == sender:
                return bytes(_typed_transaction().from_dict({**transaction, "v": v, "r": r, "s": s}).encode())
        raise InvalidSignature("the signature does not recover to the sending address")

    def transaction_hash(self, *, body: dict[str, Any], signature: bytes) -> str:
        return "0x" + keccak(self._signed(body, signature)).hex()

    async def submit_transfer(self, *, body: dict[str, Any], signature: bytes) -> str:
        raw = self._signed(body, signature)
        tx_hash = "0x" + keccak(raw).hex()
        await self._record_submission(body, tx_hash)
        if await self._call("eth_getTransactionByHash", tx_hash) is not None:
            return tx_hash  # the same signed transaction again: the node has it (or mined it)
        try:
            await self._call("eth_sendRawTransaction", "0x" + raw.hex())
        except RpcError as exc:
            message = exc.message.lower()
            if "already known" in message or "known transaction" in message:
                return tx_hash
            if "nonce too low" in message:
                if await self._call("eth_getTransactionReceipt", tx_hash) is not None:
                    return tx_hash
                await self._forget_submission(body, tx_hash)
                raise TransferRejected("another transaction of the address already used this nonce",
                                       code="NONCE_USED", details={"nonce": str(body.get("nonce"))}) from None
            # Refused: the node never accepted these bytes, so they cannot execute and the nonce
            # may go back to the next payment when this one is given up.
            await self._forget_submission(body, tx_hash)
            if "insufficient funds" in message:
                raise InsufficientFunds(f"the network refuses the transfer: {exc.message}") from None
            if "underpriced" in message:
                raise TransferRejected(f"the network refuses the replacement: {exc.message}",
                                       code="REPLACEMENT_UNDERPRICED") from None
            raise TransferRejected(f"the network refuses the transfer: {exc.message}", code="TRANSFER_REJECTED",
                                   details={"reason": exc.message}) from None
        return tx_hash

    async def _forget_submission(self, body: dict[str, Any], tx_hash: str) -> None:
        """Undo :meth:`_record_submission` for bytes the node refused."""
        held = await EvmNonce.filter(network=self.network.id, address=str(body.get("from")),
                                     nonce=int(body.get("nonce", -1))).select_for_update().first()
        if held is not None and tx_hash in (held.tx_hashes or []):
            held.tx_hashes = [h for h in held.tx_hashes if h != tx_hash]
            await held.save(update_fields=["tx_hashes"])

    async def _record_submission(self, body: dict[str, Any], tx_hash: str) -> None:
        """Note ``tx_hash`` against its nonce before the node sees it: from then on the nonce is
        never handed to another payment (the transaction may execute)."""
        held = await EvmNonce.filter(network=self.network.id, address=str(body.get("from")),
                                     nonce=int(body.get("nonce", -1))).select_for_update().first()
        if held is not None and tx_hash not in (held.tx_hashes or []):
            # The fees a next replacement must outbid: this attempt's, or a higher earlier one's.
            first = not held.tx_hashes
            for field in ("max_fee_per_gas", "max_priority_fee_per_gas"):
                sent, recorded = int(body.get(field) or 0), getattr(held, field)
                if first or recorded is None or sent > int(recorded):
                    setattr(held, field, sent)
            held.tx_hashes = [*(held.tx_hashes or []), tx_hash]
            await held.save(update_fields=["tx_hashes", "max_fee_per_gas", "max_priority_fee_per_gas"])

    # --- where transfers stand -----------------------------------------------------------------

    async def transfer_status(self, tx_hash: str) -> TransferStatus:
        receipt = await self._call("eth_getTransactionReceipt", tx_hash)
        if receipt is not None and receipt.get("blockNumber") is not None:
            height = to_int(receipt["blockNumber"])
            fee = to_int(receipt.get("gasUsed")) * to_int(receipt.get("effectiveGasPrice"))
            if to_int(receipt.get("status")) == 1:
                return TransferStatus(tx_hash=tx_hash, state="included", block_height=height, fee=fee)
            return TransferStatus(tx_hash=tx_hash, state="included", block_height=height, success=False, fee=fee,
                                  reason_code="EXECUTION_REVERTED",
                                  reason="the transaction was included but reverted (its fee was paid)")
        if await self._call("eth_getTransactionByHash", tx_hash) is not None:
            return TransferStatus(tx_hash=tx_hash, state="pending")
        held = await EvmNonce.filter(network=self.network.id, tx_hashes__contains=[tx_hash]).first()
        if held is None:
            return TransferStatus(tx_hash=tx_hash, state="unknown")
        if await self.chain_nonce(held.address) > int(held.nonce):
            return TransferStatus(tx_hash=tx_hash, state="dropped", reason_code="REPLACED",
                                  reason="another transaction with the same nonce executed instead")
        return TransferStatus(tx_hash=tx_hash, state="pending")

    async def transaction_status(self, tx_hash: str) -> tuple[int, int] | None:
        """``(block height, confirmations)`` of a mined transaction, or None while it is not."""
        status = await self.transfer_status(tx_hash)
        if status.state != "included" or status.block_height is None:
            return None
        return status.block_height, max(0, await self.latest_height() - status.block_height + 1)

    # --- reading -------------------------------------------------------------------------------

    async def latest_height(self) -> int:
        return to_int(await self._call("eth_blockNumber"))

    async def block_hash(self, height: int) -> str | None:
        """The hash of the node's block at ``height`` now (the watcher's reorganization check)."""
        block = await self._call("eth_getBlockByNumber", quantity(height), False)
        return None if block is None else str(block["hash"])

    async def _watched(self, candidates: set[str]) -> set[str]:
        if not candidates:
            return set()
        rows = await WalletAddress.filter(network=self.network.id, address__in=sorted(candidates)).values_list(
            "address", flat=True)
        return set(rows)  # type: ignore[arg-type]  # flat values_list

    async def read_block(self, height: int) -> Block | None:
        block = await self._call("eth_getBlockByNumber", quantity(height), True)
        if block is None:
            return None
        native = self.network.native_currency_id
        tokens = {str(c.contract).lower(): c for c in registry().currencies.values()
                  if c.network.id == self.network.id and c.contract}
        logs = []
        if tokens:
            logs = await self._call("eth_getLogs", {"blockHash": block["hash"], "address": sorted(tokens),
                                                    "topics": [TRANSFER_TOPIC]})
        found: dict[tuple[str, str, str], dict[str, Any]] = {}

        def add(tx_hash: str, order: tuple[int, int], sender: str, recipient: str, currency_id: str,
                amount: int) -> None:
            entry = found.setdefault((tx_hash, recipient, currency_id), {"order": order, "from": sender, "amount": 0})
            entry["amount"] += amount

        value_transfers = [t for t in block.get("transactions", []) if isinstance(t, dict) and t.get("to")
                           and to_int(t.get("value")) > 0]
        log_recipients = {to_checksum_address("0x" + str(log["topics"][2])[-40:]) for log in logs
                          if len(log.get("topics", [])) == 3}
        ours = await self._watched({to_checksum_address(t["to"]) for t in value_transfers} | log_recipients)
        receipts: dict[str, dict[str, Any]] = {}
        for tx in value_transfers:
            recipient = to_checksum_address(tx["to"])
            if recipient in ours:
                receipt = receipts[tx["hash"]] = await self._call("eth_getTransactionReceipt", tx["hash"]) or {}
                if to_int(receipt.get("status")) == 1:
                    add(tx["hash"], (to_int(tx.get("transactionIndex")), -1), to_checksum_address(tx["from"]),
                        recipient, native, to_int(tx["value"]))
        for log in logs:
            topics = log.get("topics", [])
            if len(topics) != 3 or log.get("removed"):
                continue  # not an ERC-20 Transfer (ERC-721 indexes the amount too)
            recipient = to_checksum_address("0x" + str(topics[2])[-40:])
            currency = tokens.get(str(log["address"]).lower())
            if currency is None or recipient not in ours:
                continue
            amount = to_int(log.get("data")) if log.get("data") not in (None, "0x") else 0
            add(log["transactionHash"], (to_int(log.get("transactionIndex")), to_int(log.get("logIndex"))),
                to_checksum_address("0x" + str(topics[1])[-40:]), recipient, currency.id, amount)
        transfers: list[Transfer] = []
        for (tx_hash, to_address, currency_id), entry in sorted(found.items(), key=lambda item: item[1]["order"]):
            if entry["amount"] <= 0:
                continue
            receipt = receipts.get(tx_hash)
            if receipt is None:
                receipt = receipts[tx_hash] = await self._call("eth_getTransactionReceipt", tx_hash) or {}
            fee = to_int(receipt.get("gasUsed")) * to_int(receipt.get("effectiveGasPrice"))
            transfers.append(Transfer(tx_hash=tx_hash, index=len(transfers), from_address=entry["from"],
                                      to_address=to_address, currency_id=currency_id, amount=entry["amount"], fee=fee,
                                      fee_currency_id=native))
        return Block(network_id=self.network.id, height=height, hash=block["hash"], parent_hash=block["parentHash"],
                     time=_block_time(block), transfers=transfers)

    async def balance_of(self, *, address: str, currency: Currency) -> int:
        self._currency(currency)
        owner = parse_address(address)
        if currency.is_native:
            return await self._native_balance(owner)
        return await self._token_balance(str(currency.contract), owner)


def _block_time(block: dict[str, Any]) -> datetime:
    return datetime.fromtimestamp(to_int(block.get("timestamp")), tz=timezone.utc)
