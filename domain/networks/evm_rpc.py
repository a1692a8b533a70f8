"""Ethereum JSON-RPC, the one way the EVM adapter talks to a node: a real one (mainnet, Sepolia,
anvil) over HTTP, or the py-evm node of :mod:`domain.networks.evm_local` in this process.

Both clients have the one coroutine ``request(method, params)``, which answers the JSON-RPC
``result`` or raises :class:`RpcError` with the node's ``code``, ``message`` and ``data`` (a
refused transaction, a reverted call); a node that cannot be reached raises
:class:`~domain.networks.base.NetworkUnavailable` (a step is retried, not failed).
Quantities travel as ``0x`` hex (:func:`quantity`, :func:`to_int`).
"""

from __future__ import annotations

import itertools
from typing import Any, Protocol

import aiohttp

from domain.networks.base import NetworkUnavailable


class RpcError(Exception):
    """A JSON-RPC error answer: the node understood the call and refused it."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        self.code, self.message, self.data = code, message, data
        super().__init__(f"{code}: {message}")


class EvmRpc(Protocol):
    async def request(self, method: str, params: list[Any] | None = None) -> Any:
        """The ``result`` of one JSON-RPC call (raises :class:`RpcError`, NetworkUnavailable)."""


def quantity(value: int) -> str:
    """A JSON-RPC quantity: ``0x`` hex without leading zeros."""
    return hex(int(value))


def to_int(value: Any) -> int:
    """A JSON-RPC quantity (or an integer) as an integer; None and ``0x`` are 0."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    text = str(value)
    if text in ("", "0x"):
        return 0
    return int(text, 16) if text.startswith("0x") else int(text)


class HttpEvmRpc:
    """JSON-RPC 2.0 over HTTP (a node's URL may hold credentials: it is never logged)."""

    def __init__(self, url: str, *, timeout: float = 30.0) -> None:
        self._url = url
        self._timeout = aiohttp.ClientTimeout(total=timeout)
        self._ids = itertools.count(1)

    def __repr__(self) -> str:
        return "<HttpEvmRpc>"

    async def request(self, method: str, params: list[Any] | None = None) -> Any:
        payload = {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params or []}
        try:
            async with aiohttp.ClientSession(timeout=self._timeout) as session:
                async with session.post(self._url, json=payload) as response:
                    body = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise NetworkUnavailable("the EVM node cannot be reached", details={"error": type(exc).__name__}) from exc
        if not isinstance(body, dict):
            raise NetworkUnavailable("the EVM node answered something that is not JSON-RPC")
        error = body.get("error")
        if error:
            raise RpcError(int(error.get("code", -32000)), str(error.get("message", "")), error.get("data"))
        return body.get("result")
