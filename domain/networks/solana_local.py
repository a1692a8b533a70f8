"""One LiteSVM chain shared by several processes: ``custody dev``'s local Solana network.

LiteSVM runs in a process; ``custody dev`` runs the API, the worker, the signers and the
scheduler apart, and ``custody faucet`` in yet another process. So ``custody dev`` starts one
owner process (``custody solana-local``, :func:`serve`) that keeps the chain (a
:class:`~domain.networks.solana_chain.LiteSvmChain`: runtime, slot ledger, faucet) and answers
on a loopback port, and hands its URL to its children as ``SOLANA_LOCAL_URL``; each of them
talks to it through :class:`RemoteLiteSvmChain`, the same
:class:`~domain.networks.solana_chain.SolanaChain` interface the adapter uses for LiteSVM and
JSON-RPC. Without ``SOLANA_LOCAL_URL`` the local network runs on a chain of the process itself
(tests, single-process tools).

Wire protocol (loopback only, no authentication: it is a development chain): ``POST /`` with
``{"method": name, "params": {...}}``, answered ``{"result": ...}`` or ``{"error": {"kind",
"code", "message", "details"}}`` (the adapter's errors, raised again on the client side).
Transactions and messages travel as base64 of their wire bytes, keys and hashes as base58.
Deposit watching uses Solana's own methods and parameters: ``getSignaturesForAddress``
(``{"address", "config": {"before", "until", "limit", "commitment"}}``, entries as the cluster
answers them: newest first, ``signature``, ``slot``, ``err``, ``blockTime``,
``confirmationStatus``) and ``getTransaction`` (``{"signature", "commitment"}``).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
from dataclasses import asdict
from datetime import datetime, timezone
from typing import Any

import aiohttp
from aiohttp import web
from solders.account import Account
from solders.hash import Hash
from solders.message import Message
from solders.pubkey import Pubkey
from solders.transaction import Transaction

from domain.networks.base import InsufficientFunds, InvalidSignature, NetworkUnavailable, TransferRejected
from domain.networks.solana_chain import (
    SIGNATURES_LIMIT,
    ConfirmedTransaction,
    LiteSvmChain,
    SignatureInfo,
    SignatureStatus,
    SlotBlock,
    SlotTransaction,
    TokenBalance,
)

#: The errors that cross the wire, by name.
ERRORS: dict[str, type[TransferRejected]] = {
    "TransferRejected": TransferRejected, "InsufficientFunds": InsufficientFunds, "InvalidSignature": InvalidSignature,
}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _account_to_json(account: Account | None) -> dict[str, Any] | None:
    if account is None:
        return None
    return {"lamports": account.lamports, "data": _b64(bytes(account.data)), "owner": str(account.owner),
            "executable": account.executable, "rent_epoch": account.rent_epoch}


def _account_from_json(data: dict[str, Any] | None) -> Account | None:
    if data is None:
        return None
    return Account(lamports=int(data["lamports"]), data=base64.b64decode(data["data"]),
                   owner=Pubkey.from_string(data["owner"]), executable=bool(data["executable"]),
                   rent_epoch=int(data["rent_epoch"]))


def _block_from_json(data: dict[str, Any] | None) -> SlotBlock | None:
    if data is None:
        return None
    transactions = [_transaction_from_json(t) for t in data["transactions"]]
    return SlotBlock(slot=int(data["slot"]), blockhash=data["blockhash"], parent_blockhash=data["parent_blockhash"],
                     time=datetime.fromisoformat(data["time"]), transactions=transactions)


def _transaction_from_json(data: dict[str, Any]) -> SlotTransaction:
    return SlotTransaction(**{**data, "pre_token_balances": [TokenBalance(**b) for b in data["pre_token_balances"]],
                              "post_token_balances": [TokenBalance(**b) for b in data["post_token_balances"]]})


def _signature_info_to_json(info: SignatureInfo) -> dict[str, Any]:
    """As ``getSignaturesForAddress`` answers an entry (blockTime in Unix seconds)."""
    return {"signature": info.signature, "slot": info.slot, "err": info.error,
            "blockTime": None if info.block_time is None else int(info.block_time.timestamp()),
            "confirmationStatus": info.confirmation_status}


def _signature_info_from_json(data: dict[str, Any]) -> SignatureInfo:
    return SignatureInfo(signature=data["signature"], slot=int(data["slot"]), error=data["err"],
                         block_time=None if data["blockTime"] is None
                         else datetime.fromtimestamp(int(data["blockTime"]), tz=timezone.utc),
                         confirmation_status=data["confirmationStatus"])


def _block_to_json(block: SlotBlock | None) -> dict[str, Any] | None:
    if block is None:
        return None
    data = asdict(block)
    data["time"] = block.time.isoformat()
    return data


# --------------------------------------------------------------------------------------------
# The owner process
# --------------------------------------------------------------------------------------------


class ChainServer:
    """Answers the wire protocol from one :class:`LiteSvmChain`."""

    def __init__(self, chain: LiteSvmChain | None = None) -> None:
        self.chain = chain or LiteSvmChain()

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        chain = self.chain
        if method == "latest_blockhash":
            return str(await chain.latest_blockhash())
        if method == "slot":
            return await chain.slot()
        if method == "block":
            return _block_to_json(await chain.block(int(params["slot"])))
        if method == "account":
            return _account_to_json(await chain.account(Pubkey.from_string(params["address"])))
        if method == "minimum_balance_for_rent_exemption":
            return await chain.minimum_balance_for_rent_exemption(int(params["size"]))
        if method == "fee_for_message":
            return await chain.fee_for_message(Message.from_bytes(base64.b64decode(params["message"])))
        if method == "send":
            return await chain.send(Transaction.from_bytes(base64.b64decode(params["transaction"])))
        if method == "signature_status":
            status = await chain.signature_status(params["signature"])
            return None if status is None else {"slot": status.slot, "error": status.error}
        if method == "history":
            return [_block_to_json(block) for block in
                    await chain.history(Pubkey.from_string(params["address"]), until_slot=int(params["until_slot"]))]
        if method == "getSignaturesForAddress":
            # Solana's own method name and parameters: [address, {before, until, limit, commitment}].
            address, config = params["address"], dict(params.get("config") or {})
            found = await chain.signatures_for_address(
                Pubkey.from_string(address), before=config.get("before"), until=config.get("until"),
                limit=int(config.get("limit", SIGNATURES_LIMIT)), commitment=str(config.get("commitment", "finalized")))
            return [_signature_info_to_json(info) for info in found]
        if method == "getTransaction":
            confirmed = await chain.transaction(params["signature"], commitment=str(params.get("commitment",
                                                                                                "finalized")))
            return None if confirmed is None else {"slot": confirmed.slot, "time": confirmed.time.isoformat(),
                                                   "transaction": asdict(confirmed.transaction)}
        if method == "advance":
            return chain.advance(int(params.get("slots", 1)))
        if method == "airdrop":
            return chain.airdrop(Pubkey.from_string(params["address"]), int(params["lamports"]))
        if method == "mint_tokens":
            return chain.mint_tokens(Pubkey.from_string(params["owner"]), Pubkey.from_string(params["mint"]),
                                     int(params["amount"]), decimals=int(params["decimals"]))
        raise KeyError(method)

    async def handle(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
            result = await self.call(str(body["method"]), dict(body.get("params") or {}))
        except TransferRejected as exc:
            return web.json_response({"error": {"kind": type(exc).__name__, "code": exc.code, "message": exc.message,
                                                "details": exc.details}})
        except (KeyError, ValueError, TypeError) as exc:
            return web.json_response({"error": {"kind": "BadRequest", "code": "BAD_REQUEST", "message": repr(exc),
                                                "details": {}}}, status=400)
        return web.json_response({"result": result})

    def app(self) -> web.Application:
        application = web.Application()
        application.router.add_post("/", self.handle)
        return application


async def serve(host: str = "127.0.0.1", port: int = 0, *, ready: Any = None) -> None:
    """Serve a fresh chain until cancelled; ``ready(url)`` is called once it listens."""
    runner = web.AppRunner(ChainServer().app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = site._server.sockets[0].getsockname()  # type: ignore[union-attr]  # the port chosen for 0
    if ready is not None:
        ready(f"http://{bound[0]}:{bound[1]}")
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


# --------------------------------------------------------------------------------------------
# The client (every other process)
# --------------------------------------------------------------------------------------------


class RemoteLiteSvmChain:
    """:class:`~domain.networks.solana_chain.SolanaChain` (and the faucet) of the owner process at ``url``."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        self.url = url
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._ids = itertools.count(1)

    async def _call(self, method: str, **params: Any) -> Any:
        try:
            async with aiohttp.ClientSession(timeout=self._timeout) as session:
                async with session.post(self.url, json={"method": method, "params": params}) as response:
                    body = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise NetworkUnavailable("the local Solana chain (custody dev's solana-local) cannot be reached",
                                     details={"error": type(exc).__name__}) from exc
        error = body.get("error")
        if error:
            kind = ERRORS.get(error.get("kind"))
            if kind is None:
                raise NetworkUnavailable(f"the local Solana chain refused the call: {error.get('message')}")
            raise kind(error.get("message", ""), code=error.get("code"), details=error.get("details") or {})
        return body["result"]

    async def latest_blockhash(self) -> Hash:
        return Hash.from_string(await self._call("latest_blockhash"))

    async def slot(self) -> int:
        return int(await self._call("slot"))

    async def block(self, slot: int) -> SlotBlock | None:
        return _block_from_json(await self._call("block", slot=slot))

    async def account(self, address: Pubkey) -> Account | None:
        return _account_from_json(await self._call("account", address=str(address)))

    async def minimum_balance_for_rent_exemption(self, size: int) -> int:
        return int(await self._call("minimum_balance_for_rent_exemption", size=size))

    async def fee_for_message(self, message: Message) -> int:
        return int(await self._call("fee_for_message", message=_b64(bytes(message))))

    async def send(self, transaction: Transaction) -> str:
        return str(await self._call("send", transaction=_b64(bytes(transaction))))

    async def signature_status(self, signature: str) -> SignatureStatus | None:
        status = await self._call("signature_status", signature=signature)
        return None if status is None else SignatureStatus(int(status["slot"]), status["error"])

    async def history(self, address: Pubkey, *, until_slot: int) -> list[SlotBlock]:
        blocks = [_block_from_json(block) for block in
                  await self._call("history", address=str(address), until_slot=until_slot)]
        return [block for block in blocks if block is not None]

    async def signatures_for_address(self, address: Pubkey, *, before: str | None = None, until: str | None = None,
                                     limit: int = SIGNATURES_LIMIT,
                                     commitment: str = "finalized") -> list[SignatureInfo]:
        config = {"limit": limit, "commitment": commitment, **({"before": before} if before else {}),
                  **({"until": until} if until else {})}
        return [_signature_info_from_json(item) for item in
                await self._call("getSignaturesForAddress", address=str(address), config=config)]

    async def transaction(self, signature: str, *, commitment: str = "finalized") -> ConfirmedTransaction | None:
        data = await self._call("getTransaction", signature=signature, commitment=commitment)
        if data is None:
            return None
        return ConfirmedTransaction(slot=int(data["slot"]), time=datetime.fromisoformat(data["time"]),
                                    transaction=_transaction_from_json(data["transaction"]))

    # --- the faucet and the clock of the chain (development) ------------------------------------

    async def advance(self, slots: int = 1) -> int:
        return int(await self._call("advance", slots=slots))

    async def airdrop(self, address: Pubkey, lamports: int) -> str:
        return str(await self._call("airdrop", address=str(address), lamports=lamports))

    async def mint_tokens(self, owner: Pubkey, mint: Pubkey, amount: int, *, decimals: int) -> str:
        return str(await self._call("mint_tokens", owner=str(owner), mint=str(mint), amount=amount,
                                    decimals=decimals))
