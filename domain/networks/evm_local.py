"""``evm-local``: a real EVM (py-evm through eth-tester) behind Ethereum JSON-RPC, for ``custody dev``
and the tests.

py-evm executes every transaction by the Ethereum rules (Prague): signatures, nonces, EIP-1559
base fee and tips, gas, reverts, logs. It runs inside a process, so ``custody dev`` starts one
owner process, ``custody evm-local`` (:func:`serve`), that keeps the chain and answers JSON-RPC on
a loopback port; its URL goes to every other child as ``EVM_LOCAL_URL`` (and into the data folder
for ``custody faucet``). The adapter talks to it with :class:`~domain.networks.evm_rpc.HttpEvmRpc`,
as it would to any node. Without ``EVM_LOCAL_URL`` (tests, single-process tools) the network runs
on a node of the process itself (:func:`local_node`, reached through :class:`InProcessEvmRpc`).

What :class:`LocalEvm` adds to eth-tester, so that it behaves like a node with a mempool:

* a **transaction pool**: ``eth_sendRawTransaction`` checks the chain id, the nonce (``nonce
  too low``), the balance for ``gas x maxFeePerGas + value``, and a replacement of a pending
  transaction (same sender and nonce) must raise both fees by 10% (geth's rule, ``replacement
  transaction underpriced``); a transaction whose ``maxFeePerGas`` is below the base fee, or
  behind a nonce gap, waits in the pool (stuck), as on mainnet;
* **mining**: with automine (the default, like anvil) a block is mined as soon as a pooled
  transaction can execute; ``evm_mine`` mines on demand; :func:`serve` also mines an empty block
  every ``block_interval`` seconds, so confirmations advance while nothing happens;
* **reorgs**: ``evm_snapshot`` / ``evm_revert`` (anvil's names) drop every block after the
  snapshot and empty the pool: what a reorg below finality does to a deposit in those blocks;
* a **development account** funded at genesis (anvil's first account, whose key is public), the
  faucet's source, and the **test ERC-20** (``contracts/TestToken.vy``) it deploys first, so the
  token has the same address on every fresh chain (and on anvil): :data:`TOKEN_ADDRESS`.

JSON-RPC methods: ``eth_chainId``, ``net_version``, ``eth_blockNumber``, ``eth_getBlockByNumber``
(``latest``, ``safe`` and ``finalized`` are the head: a local chain is final at once),
``eth_getBlockByHash``, ``eth_getBalance``, ``eth_getTransactionCount`` (``pending`` counts the
pool), ``eth_getCode``, ``eth_call``, ``eth_estimateGas``, ``eth_gasPrice``,
``eth_maxPriorityFeePerGas``, ``eth_feeHistory``, ``eth_sendRawTransaction``,
``eth_getTransactionByHash``, ``eth_getTransactionReceipt``, ``eth_getLogs``, ``evm_mine``,
``evm_snapshot``, ``evm_revert``, ``evm_setAutomine``.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Any, Callable

from aiohttp import web
from eth_abi import decode as abi_decode
from eth_tester import EthereumTester, PyEVMBackend
from eth_tester.exceptions import TransactionFailed
from eth_utils import ValidationError, keccak, to_canonical_address, to_checksum_address

from domain.networks.evm_dev import (
    DEV_ACCOUNT,
    DEV_BALANCE,
    PRIORITY_FEE,
    TOKEN_ADDRESS,
    TRANSFER_TOPIC,
    deploy_test_token,
    deployment_data,
    dev_transaction,
    faucet,
)
from domain.networks.evm_rpc import RpcError, quantity, to_int

__all__ = ["CHAIN_ID", "LocalEvm", "InProcessEvmRpc", "local_node", "reset_local_node", "deploy_test_token_sync",
           "serve", "app", "TOKEN_ADDRESS", "TRANSFER_TOPIC", "DEV_ACCOUNT", "deploy_test_token", "faucet"]

#: The chain id of evm-local (anvil's default, so anvil serves the same network unchanged).
CHAIN_ID = 31337
#: A replacement must raise both fees by this much (numerator, denominator): geth's 10%.
REPLACEMENT_BUMP = (110, 100)


def _hex(data: bytes | str | None) -> str:
    if data is None:
        return "0x"
    if isinstance(data, str):
        return data if data.startswith("0x") else "0x" + data
    return "0x" + bytes(data).hex()


def _topic(value: Any) -> str:
    raw = bytes.fromhex(value[2:]) if isinstance(value, str) else bytes(value)
    return "0x" + raw.rjust(32, b"\0").hex()


@dataclass
class _Pooled:
    raw: bytes
    hash: str
    sender: str
    nonce: int
    max_fee: int
    tip: int
    evm: Any


class LocalEvm:
    """A py-evm chain with a pool and a miner, answering JSON-RPC calls (:meth:`request`)."""

    def __init__(self, *, chain_id: int = CHAIN_ID, automine: bool = True) -> None:
        genesis = {to_canonical_address(DEV_ACCOUNT): {"balance": DEV_BALANCE, "storage": {}, "code": b"", "nonce": 0}}
        backend = PyEVMBackend(genesis_state=genesis)
        # setup_tester_chain makes a chain class per chain: its id is this chain's alone.
        type(backend.chain).chain_id = chain_id
        self.backend = backend
        self.tester = EthereumTester(backend=backend, auto_mine_transactions=False)
        self.chain_id = chain_id
        self.automine = automine
        self._pool: dict[tuple[str, int], _Pooled] = {}
        self._lock = threading.RLock()
        self._methods: dict[str, Callable[..., Any]] = {
            name[4:].replace("__", "_"): getattr(self, name) for name in dir(self) if name.startswith("rpc_")
        }

    # --- the dispatcher -------------------------------------------------------------------------

    def request(self, method: str, params: list[Any] | None = None) -> Any:
        """One JSON-RPC call: its result, or :class:`RpcError` as a node would answer."""
        handler = self._methods.get(method)
        if handler is None:
            raise RpcError(-32601, f"the method {method} does not exist/is not available")
        with self._lock:
            try:
                return handler(*(params or []))
            except RpcError:
                raise
            except ValidationError as exc:  # py-evm's refusal of a call or an estimate (funds, gas)
                text = str(exc)
                if "enough balance" in text or "cannot afford" in text:
                    raise RpcError(-32000, "insufficient funds for gas * price + value") from None
                raise RpcError(-32000, text) from None
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                raise RpcError(-32602, f"invalid params: {exc}") from None

    # --- blocks ---------------------------------------------------------------------------------

    def _head(self) -> int:
        return int(self.tester.get_block_by_number("latest")["number"])

    def _number(self, tag: Any) -> int | None:
        if tag in (None, "latest", "safe", "finalized", "pending"):
            return self._head()
        if tag == "earliest":
            return 0
        number = to_int(tag)
        return number if 0 <= number <= self._head() else None

    def _block_json(self, block: dict[str, Any], full: bool) -> dict[str, Any]:
        transactions = [self._tx_json(self.tester.get_transaction_by_hash(h)) if full else h
                        for h in block["transactions"]]
        return {
            "number": quantity(block["number"]), "hash": block["hash"], "parentHash": block["parent_hash"],
            "timestamp": quantity(block["timestamp"]), "baseFeePerGas": quantity(block["base_fee_per_gas"]),
            "gasLimit": quantity(block["gas_limit"]), "gasUsed": quantity(block["gas_used"]),
            "miner": block["coinbase"], "stateRoot": block["state_root"], "transactions": transactions,
        }

    def rpc_eth_chainId(self) -> str:  # noqa: N802 - JSON-RPC names
        return quantity(self.chain_id)

    def rpc_net_version(self) -> str:
        return str(self.chain_id)

    def rpc_eth_blockNumber(self) -> str:  # noqa: N802
        return quantity(self._head())

    def rpc_eth_getBlockByNumber(self, tag: Any, full: bool = False) -> dict[str, Any] | None:  # noqa: N802
        number = self._number(tag)
        if number is None:
            return None
        return self._block_json(self.tester.get_block_by_number(number), bool(full))

    def rpc_eth_getBlockByHash(self, block_hash: str, full: bool = False) -> dict[str, Any] | None:  # noqa: N802
        try:
            block = self.tester.get_block_by_hash(block_hash)
        except Exception:  # noqa: BLE001 - eth-tester raises BlockNotFound
            return None
        if block["number"] > self._head() or self.tester.get_block_by_number(block["number"])["hash"] != block["hash"]:
            return None  # not on the canonical chain (reverted)
        return self._block_json(block, bool(full))

    # --- accounts -------------------------------------------------------------------------------

    def _state_block(self, tag: Any) -> Any:
        number = self._number(tag)
        return "latest" if tag in (None, "latest", "safe", "finalized", "pending") or number is None else number

    def rpc_eth_getBalance(self, address: str, tag: Any = "latest") -> str:  # noqa: N802
        return quantity(self.tester.get_balance(to_checksum_address(address), self._state_block(tag)))

    def _pending_nonce(self, sender: str) -> int:
        nonce = int(self.tester.get_nonce(sender))
        while (sender, nonce) in self._pool:
            nonce += 1
        return nonce

    def rpc_eth_getTransactionCount(self, address: str, tag: Any = "latest") -> str:  # noqa: N802
        sender = to_checksum_address(address)
        if tag == "pending":
            return quantity(self._pending_nonce(sender))
        return quantity(self.tester.get_nonce(sender, self._state_block(tag)))

    def rpc_eth_getCode(self, address: str, tag: Any = "latest") -> str:  # noqa: N802
        return _hex(self.tester.get_code(to_checksum_address(address), self._state_block(tag)))

    # --- calls and gas --------------------------------------------------------------------------

    @staticmethod
    def _call_object(call: dict[str, Any], *, estimate: bool = False) -> dict[str, Any]:
        data = call.get("data") or call.get("input") or "0x"
        transaction: dict[str, Any] = {"from": to_checksum_address(call.get("from") or DEV_ACCOUNT), "data": data,
                                       "value": to_int(call.get("value"))}
        if call.get("to"):
            transaction["to"] = to_checksum_address(call["to"])
        if call.get("gas"):
            transaction["gas"] = to_int(call["gas"])
        if estimate and call.get("maxFeePerGas") is None and call.get("gasPrice") is None:
            # As geth: an estimate without fees pays none, so the sender's balance bounds only its
            # value (eth-tester would charge the block's gas limit at its default price, and refuse
            # an estimate from an address holding less than that: 0.03 ETH).
            transaction["gas_price"] = 0
        return transaction

    @staticmethod
    def _reverted(exc: TransactionFailed) -> RpcError:
        """geth's answer to a reverted call: code 3, the Error(string) reason in the message."""
        reason: Any = exc.args[0] if exc.args else ""
        if not isinstance(reason, (str, bytes)) and getattr(reason, "args", None):
            reason = reason.args[0]  # py-evm's Revert carries the return data
        if isinstance(reason, bytes):
            data = reason
            reason = ""
            if data[:4] == keccak(text="Error(string)")[:4]:
                try:
                    reason = str(abi_decode(["string"], data[4:])[0])
                except Exception:  # noqa: BLE001 - malformed revert data: no reason
                    reason = ""
        return RpcError(3, f"execution reverted{': ' + reason if reason else ''}")

    def rpc_eth_call(self, call: dict[str, Any], tag: Any = "latest") -> str:  # noqa: N802
        try:
            return _hex(self.tester.call(self._call_object(call), self._state_block(tag)))
        except TransactionFailed as exc:
            raise self._reverted(exc) from None

    def rpc_eth_estimateGas(self, call: dict[str, Any], tag: Any = "latest") -> str:  # noqa: N802
        try:
            return quantity(self.tester.estimate_gas(self._call_object(call, estimate=True), self._state_block(tag)))
        except TransactionFailed as exc:
            raise self._reverted(exc) from None

    def _next_base_fee(self) -> int:
        return int(self.backend.chain.get_block().header.base_fee_per_gas)

    def rpc_eth_gasPrice(self) -> str:  # noqa: N802
        return quantity(self._next_base_fee() + PRIORITY_FEE)

    def rpc_eth_maxPriorityFeePerGas(self) -> str:  # noqa: N802
        return quantity(PRIORITY_FEE)

    def rpc_eth_feeHistory(self, count: Any, newest: Any = "latest",  # noqa: N802
                           percentiles: list[float] | None = None) -> dict[str, Any]:
        last = self._number(newest) or 0
        first = max(0, last - to_int(count) + 1)
        blocks = [self.tester.get_block_by_number(n) for n in range(first, last + 1)]
        base_fees = [quantity(b["base_fee_per_gas"]) for b in blocks]
        base_fees.append(quantity(self._next_base_fee() if last == self._head() else
                                  self.tester.get_block_by_number(last + 1)["base_fee_per_gas"]))
        return {"oldestBlock": quantity(first), "baseFeePerGas": base_fees,
                "gasUsedRatio": [b["gas_used"] / b["gas_limit"] for b in blocks],
                "reward": [[quantity(PRIORITY_FEE) for _ in (percentiles or [])] for _ in blocks]}

    # --- transactions ---------------------------------------------------------------------------

    def _tx_json(self, tx: dict[str, Any]) -> dict[str, Any]:
        mined = tx.get("block_number") is not None
        return {
            "hash": tx["hash"], "nonce": quantity(tx["nonce"]), "from": tx["from"], "to": tx.get("to") or None,
            "value": quantity(tx["value"]), "gas": quantity(tx["gas"]), "input": _hex(tx.get("data")),
            "type": tx.get("type", "0x2"), "chainId": quantity(tx.get("chain_id") or self.chain_id),
            "maxFeePerGas": quantity(tx.get("max_fee_per_gas", tx.get("gas_price", 0))),
            "maxPriorityFeePerGas": quantity(tx.get("max_priority_fee_per_gas", tx.get("gas_price", 0))),
            "gasPrice": quantity(tx.get("gas_price", 0)),
            "blockHash": tx.get("block_hash") if mined else None,
            "blockNumber": quantity(tx["block_number"]) if mined else None,
            "transactionIndex": quantity(tx["transaction_index"]) if mined else None,
            "v": quantity(tx.get("v", 0)), "r": quantity(tx.get("r", 0)), "s": quantity(tx.get("s", 0)),
        }

    def _pooled_json(self, pooled: _Pooled) -> dict[str, Any]:
        evm = pooled.evm
        return {
            "hash": pooled.hash, "nonce": quantity(pooled.nonce), "from": pooled.sender,
            "to": to_checksum_address(evm.to) if evm.to else None, "value": quantity(evm.value),
            "gas": quantity(evm.gas), "input": _hex(evm.data), "type": quantity(getattr(evm, "type_id", 0) or 0),
            "chainId": quantity(self.chain_id), "maxFeePerGas": quantity(pooled.max_fee),
            "maxPriorityFeePerGas": quantity(pooled.tip), "gasPrice": quantity(pooled.max_fee),
            "blockHash": None, "blockNumber": None, "transactionIndex": None,
        }

    def _find_pooled(self, tx_hash: str) -> _Pooled | None:
        return next((p for p in self._pool.values() if p.hash == tx_hash.lower()), None)

    def _mined(self, tx_hash: str) -> dict[str, Any] | None:
        try:
            tx = self.tester.get_transaction_by_hash(tx_hash)
        except Exception:  # noqa: BLE001 - eth-tester raises TransactionNotFound
            return None
        return tx if tx.get("block_number") is not None and tx["block_number"] <= self._head() else None

    def rpc_eth_getTransactionByHash(self, tx_hash: str) -> dict[str, Any] | None:  # noqa: N802
        pooled = self._find_pooled(tx_hash)
        if pooled is not None:
            return self._pooled_json(pooled)
        mined = self._mined(tx_hash)
        return None if mined is None else self._tx_json(mined)

    def _log_json(self, log: dict[str, Any]) -> dict[str, Any]:
        return {"address": log["address"], "topics": [_topic(t) for t in log["topics"]], "data": _hex(log["data"]),
                "blockNumber": quantity(log["block_number"]), "blockHash": log["block_hash"],
                "transactionHash": log["transaction_hash"], "transactionIndex": quantity(log["transaction_index"]),
                "logIndex": quantity(log["log_index"]), "removed": False}

    def rpc_eth_getTransactionReceipt(self, tx_hash: str) -> dict[str, Any] | None:  # noqa: N802
        if self._mined(tx_hash) is None:
            return None
        receipt = self.tester.get_transaction_receipt(tx_hash)
        return {
            "transactionHash": receipt["transaction_hash"], "transactionIndex": quantity(receipt["transaction_index"]),
            "blockHash": receipt["block_hash"], "blockNumber": quantity(receipt["block_number"]),
            "from": receipt["from"], "to": receipt.get("to") or None,
            "cumulativeGasUsed": quantity(receipt["cumulative_gas_used"]), "gasUsed": quantity(receipt["gas_used"]),
            "effectiveGasPrice": quantity(receipt["effective_gas_price"]),
            "contractAddress": receipt.get("contract_address"), "status": quantity(receipt["status"]),
            "type": receipt.get("type", "0x2"), "logs": [self._log_json(log) for log in receipt["logs"]],
        }

    def rpc_eth_getLogs(self, query: dict[str, Any]) -> list[dict[str, Any]]:  # noqa: N802
        if query.get("blockHash"):
            block = self.rpc_eth_getBlockByHash(query["blockHash"])
            if block is None:
                raise RpcError(-32000, "unknown block")
            first = last = to_int(block["number"])
        else:
            first = self._number(query.get("fromBlock", "latest")) or 0
            to_block = self._number(query.get("toBlock", "latest"))
            last = self._head() if to_block is None else to_block
        addresses = query.get("address") or []
        wanted = {a.lower() for a in ([addresses] if isinstance(addresses, str) else addresses)}
        topics = query.get("topics") or []
        found = []
        for number in range(first, last + 1):
            for tx_hash in self.tester.get_block_by_number(number)["transactions"]:
                for log in self.tester.get_transaction_receipt(tx_hash)["logs"]:
                    entry = self._log_json(log)
                    if wanted and entry["address"].lower() not in wanted:
                        continue
                    if all(t is None or (entry["topics"][i] if i < len(entry["topics"]) else None) in
                           ([x.lower() for x in t] if isinstance(t, list) else [t.lower()])
                           for i, t in enumerate(topics)):
                        found.append(entry)
        return found

    def rpc_eth_sendRawTransaction(self, raw_hex: str) -> str:  # noqa: N802
        raw = bytes.fromhex(raw_hex[2:] if raw_hex.startswith("0x") else raw_hex)
        try:
            evm = self.backend.chain.get_vm().get_transaction_builder().decode(raw)
            sender = to_checksum_address(evm.sender)
        except Exception as exc:  # noqa: BLE001 - py-evm/rlp raise several types for bad bytes
            raise RpcError(-32000, f"invalid transaction: {exc}") from None
        tx_hash = "0x" + evm.hash.hex()
        chain_id = getattr(evm, "chain_id", None)
        if chain_id is not None and chain_id != self.chain_id:
            raise RpcError(-32000, f"invalid chain id {chain_id} (this chain is {self.chain_id})")
        if self._find_pooled(tx_hash) is not None:
            raise RpcError(-32000, "already known")
        if evm.nonce < int(self.tester.get_nonce(sender)):
            raise RpcError(-32000, "nonce too low")
        max_fee = int(getattr(evm, "max_fee_per_gas", None) or evm.gas_price)
        tip = int(getattr(evm, "max_priority_fee_per_gas", None) or evm.gas_price)
        if tip > max_fee:
            raise RpcError(-32000, "max priority fee per gas higher than max fee per gas")
        if int(evm.gas) > int(self.backend.chain.get_block().header.gas_limit):
            raise RpcError(-32000, "exceeds block gas limit")
        if int(self.tester.get_balance(sender)) < int(evm.gas) * max_fee + int(evm.value):
            raise RpcError(-32000, "insufficient funds for gas * price + value")
        pending = self._pool.get((sender, evm.nonce))
        if pending is not None:
            numerator, denominator = REPLACEMENT_BUMP
            if max_fee * denominator < pending.max_fee * numerator or tip * denominator < pending.tip * numerator:
                raise RpcError(-32000, "replacement transaction underpriced")
        self._pool[(sender, evm.nonce)] = _Pooled(raw, tx_hash, sender, int(evm.nonce), max_fee, tip, evm)
        if self.automine:
            self._mine_executable()
        return tx_hash

    # --- mining and snapshots -------------------------------------------------------------------

    def _executable(self) -> list[_Pooled]:
        base_fee = self._next_base_fee()
        chosen: list[_Pooled] = []
        for sender in sorted({s for s, _ in self._pool}):
            nonce = int(self.tester.get_nonce(sender))
            while (pooled := self._pool.get((sender, nonce))) is not None and pooled.max_fee >= base_fee:
                chosen.append(pooled)
                nonce += 1
        return chosen

    def _prune(self) -> None:
        for sender, nonce in list(self._pool):
            if nonce < int(self.tester.get_nonce(sender)):
                del self._pool[(sender, nonce)]

    def mine(self, blocks: int = 1) -> int:
        """Mine ``blocks`` blocks, each with the pool's transactions that can execute; the head."""
        for _ in range(max(1, blocks)):
            for pooled in self._executable():
                try:
                    self.backend.chain.apply_transaction(pooled.evm)
                except Exception:  # noqa: BLE001 - no longer valid (funds spent): dropped, as a node would
                    pass
                self._pool.pop((pooled.sender, pooled.nonce), None)
            self.tester.mine_block()
            self._prune()
        return self._head()

    def _mine_executable(self) -> None:
        if self._executable():
            self.mine(1)

    def rpc_evm_mine(self, blocks: Any = None) -> str:
        count = to_int(blocks.get("blocks", 1)) if isinstance(blocks, dict) else 1
        self.mine(count)
        return "0x0"

    def rpc_evm_setAutomine(self, enabled: bool) -> bool:  # noqa: N802
        self.automine = bool(enabled)
        if self.automine:
            self._mine_executable()
        return True

    def rpc_evm_snapshot(self) -> str:
        return quantity(self.tester.take_snapshot())

    def rpc_evm_revert(self, snapshot: Any) -> bool:
        try:
            self.tester.revert_to_snapshot(to_int(snapshot))
        except Exception:  # noqa: BLE001 - an unknown snapshot id
            return False
        self._pool.clear()  # the reverted blocks' transactions are gone with them
        return True


# --------------------------------------------------------------------------------------------
# In-process client, the node of this process, deployment and faucet
# --------------------------------------------------------------------------------------------


class InProcessEvmRpc:
    """:class:`~domain.networks.evm_rpc.EvmRpc` of a :class:`LocalEvm` of this process."""

    def __init__(self, node: LocalEvm) -> None:
        self.node = node

    async def request(self, method: str, params: list[Any] | None = None) -> Any:
        return self.node.request(method, params)


_nodes: dict[str, LocalEvm] = {}
_nodes_lock = threading.Lock()


def local_node(network_id: str) -> LocalEvm:
    """This process's node of a local EVM network, made on first use with the test token."""
    with _nodes_lock:
        node = _nodes.get(network_id)
        if node is None:
            node = _nodes[network_id] = LocalEvm()
            deploy_test_token_sync(node)
        return node


def reset_local_node(network_id: str) -> LocalEvm:
    """A fresh node for the network (tests): the old chain is forgotten."""
    with _nodes_lock:
        _nodes.pop(network_id, None)
    return local_node(network_id)


def deploy_test_token_sync(node: LocalEvm) -> str:
    """:func:`deploy_test_token` on a node of this process (no event loop needed)."""
    raw = dev_transaction(nonce=0, chain_id=node.chain_id, base_fee=node._next_base_fee(), to=None,
                           data=deployment_data(), gas=1_500_000)
    with node._lock:
        automine, node.automine = node.automine, True
        try:
            node.request("eth_sendRawTransaction", [raw])
        finally:
            node.automine = automine
    return TOKEN_ADDRESS


# --------------------------------------------------------------------------------------------
# The owner process (custody evm-local)
# --------------------------------------------------------------------------------------------


def _answer(node: LocalEvm, call: Any) -> dict[str, Any]:
    request_id = call.get("id") if isinstance(call, dict) else None
    try:
        if not isinstance(call, dict) or not isinstance(call.get("method"), str):
            raise RpcError(-32600, "invalid request")
        params = call.get("params") or []
        result = node.request(call["method"], params if isinstance(params, list) else [params])
    except RpcError as exc:
        error: dict[str, Any] = {"code": exc.code, "message": exc.message}
        if exc.data is not None:
            error["data"] = exc.data
        return {"jsonrpc": "2.0", "id": request_id, "error": error}
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def app(node: LocalEvm) -> web.Application:
    """The JSON-RPC endpoint (``POST /``, single calls and batches) of ``node``."""

    async def handle(request: web.Request) -> web.Response:
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
        if isinstance(body, list):
            return web.json_response([_answer(node, call) for call in body])
        return web.json_response(_answer(node, body))

    application = web.Application()
    application.router.add_post("/", handle)
    return application


async def serve(host: str = "127.0.0.1", port: int = 0, *, ready: Callable[[str], Any] | None = None,
                block_interval: float = 2.0) -> None:
    """Serve a fresh chain (the test token deployed) until cancelled; ``ready(url)`` once it
    listens. An empty block is mined every ``block_interval`` seconds (0: only on demand)."""
    node = LocalEvm()
    deploy_test_token_sync(node)
    runner = web.AppRunner(app(node), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = site._server.sockets[0].getsockname()  # type: ignore[union-attr]  # the port chosen for 0
    if ready is not None:
        ready(f"http://{bound[0]}:{bound[1]}")
    try:
        while True:
            if block_interval > 0:
                await asyncio.sleep(block_interval)
                node.request("evm_mine", [])
            else:
                await asyncio.Event().wait()
    finally:
        await runner.cleanup()
