"""What the Bitcoin adapter needs from a node, and Bitcoin Core's JSON-RPC as the implementation.

:class:`BitcoinNode` is small on purpose: raw blocks by height, broadcast, a fee-rate estimate,
and the hash of the block at a height (the deposit watcher's reorganization check).
Everything else (addresses, coin selection, sighashes, witnesses, the UTXO index) is the
adapter's, so any node that serves these four calls fits: ``bitcoind`` (or ``litecoind``, same
RPC and Taproot rules) through :class:`RpcBitcoinNode`, or an in-process chain on Bitcoin Core's
consensus engine (the tests' ``tests/support/bitcoin_kernel.py``).
"""

from __future__ import annotations

import itertools
from typing import Any, Protocol

import aiohttp
from yarl import URL

from domain.networks.base import InsufficientFunds, NetworkUnavailable, TransferRejected


class BitcoinNode(Protocol):
    async def height(self) -> int:
        """Height of the best block (0: only the genesis block)."""

    async def block(self, height: int) -> bytes | None:
        """The serialized block at ``height`` of the best chain, or None above the tip."""

    async def block_hash(self, height: int) -> str | None:
        """The hash (display order, hex) of the block at ``height`` of the best chain, or None above the tip."""

    async def broadcast(self, raw_transaction: bytes) -> str:
        """Submit a signed transaction to the mempool; its txid, or raises TransferRejected."""

    async def fee_rate(self, target_blocks: int) -> int | None:
        """Estimated sat/vB for confirmation within ``target_blocks``; None without an estimate."""


class RpcBitcoinNode:
    """Bitcoin Core's JSON-RPC at ``url`` (``http://user:password@host:port``; NETWORK_RPC_URLS)."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        parsed = URL(url)
        self._auth = aiohttp.BasicAuth(parsed.user or "", parsed.password or "") if parsed.user else None
        self._url = str(parsed.with_user(None))
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._ids = itertools.count(1)

    async def call(self, method: str, *params: Any) -> Any:
        payload = {"jsonrpc": "1.0", "id": next(self._ids), "method": method, "params": list(params)}
        try:
            async with aiohttp.ClientSession(timeout=self._timeout, auth=self._auth) as session:
                async with session.post(self._url, json=payload) as response:
                    if response.status == 401:
                        raise NetworkUnavailable("the Bitcoin node refused the RPC credentials")
                    body = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise NetworkUnavailable("the Bitcoin node cannot be reached", details={"error": type(exc).__name__}) \
                from exc
        error = body.get("error") if isinstance(body, dict) else {"message": "not a JSON-RPC answer"}
        if error:
            raise RpcError(int(error.get("code", 0)), str(error.get("message", "")))
        return body["result"]

    async def height(self) -> int:
        return int(await self.call("getblockcount"))

    async def block_hash(self, height: int) -> str | None:
        try:
            return str(await self.call("getblockhash", height))
        except RpcError as exc:
            if exc.code == -8:  # block height out of range
                return None
            raise

    async def block(self, height: int) -> bytes | None:
        block_hash = await self.block_hash(height)
        if block_hash is None:
            return None
        return bytes.fromhex(await self.call("getblock", block_hash, 0))

    async def broadcast(self, raw_transaction: bytes) -> str:
        try:
            return str(await self.call("sendrawtransaction", raw_transaction.hex()))
        except RpcError as exc:
            # -27: already in the chain; the same signed transaction again is not an error.
            if exc.code == -27 or "already in" in exc.message:
                raise AlreadyKnown(exc.message) from None
            if "insufficient" in exc.message or "missingorspent" in exc.message or exc.code == -25:
                raise InsufficientFunds("the node refused the inputs (missing or already spent)",
                                        code="INPUTS_MISSING_OR_SPENT", details={"error": exc.message}) from None
            raise TransferRejected(f"the node refused the transaction: {exc.message}", code="TRANSACTION_REJECTED",
                                   details={"error": exc.message}) from None

    async def fee_rate(self, target_blocks: int) -> int | None:
        try:
            estimate = await self.call("estimatesmartfee", target_blocks)
        except RpcError:
            return None
        rate = estimate.get("feerate")  # BTC per kvB
        return None if rate is None else max(1, -(-int(round(float(rate) * 1e8)) // 1000))


class RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class AlreadyKnown(Exception):
    """The node already has this exact transaction (mempool or chain)."""
