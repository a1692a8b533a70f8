"""evm-local's node (py-evm through eth-tester) behind JSON-RPC over HTTP, as custody dev serves it:
the calls the adapter makes, a node's pool rules, mining and snapshots. Given / When / Then."""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator

import aiohttp
import pytest
from eth_account import Account

from domain.networks.evm_dev import DEV_ACCOUNT, TOKEN_ADDRESS, faucet
from domain.networks.evm_local import CHAIN_ID, serve
from domain.networks.evm_rpc import HttpEvmRpc, RpcError, to_int

OTHER = "0x000000000000000000000000000000000000dEaD"


@pytest.fixture
async def node_url() -> AsyncIterator[str]:
    """``custody evm-local``'s server on a free loopback port, mining only on demand."""
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve("127.0.0.1", 0, ready=ready.set_result, block_interval=0))
    try:
        yield await asyncio.wait_for(ready, 60)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def _transfer(account: Any, *, nonce: int, max_fee: int, tip: int, value: int = 1, chain_id: int = CHAIN_ID) -> str:
    transaction = {"type": 2, "chainId": chain_id, "nonce": nonce, "to": OTHER, "value": value, "gas": 21000,
                   "maxFeePerGas": max_fee, "maxPriorityFeePerGas": tip}
    return "0x" + bytes(Account.sign_transaction(transaction, account.key).raw_transaction).hex()


async def test_the_node_answers_json_rpc_over_http_with_the_token_deployed(node_url: str) -> None:
    rpc = HttpEvmRpc(node_url)
    # Then it is chain 31337, with blocks, the token's code and a funded development account
    assert to_int(await rpc.request("eth_chainId")) == CHAIN_ID
    head = await rpc.request("eth_getBlockByNumber", ["latest", True])
    assert to_int(head["number"]) == to_int(await rpc.request("eth_blockNumber")) >= 1
    assert head["transactions"][0]["from"].lower() == DEV_ACCOUNT.lower()
    assert (await rpc.request("eth_getCode", [TOKEN_ADDRESS, "latest"])) not in ("0x", "", None)
    assert to_int(await rpc.request("eth_getBalance", [DEV_ACCOUNT, "latest"])) > 10**21
    finalized = await rpc.request("eth_getBlockByNumber", ["finalized", False])
    assert finalized["hash"] == head["hash"]  # a local chain is final at once
    history = await rpc.request("eth_feeHistory", ["0x2", "latest", [50]])
    assert len(history["baseFeePerGas"]) == len(history["gasUsedRatio"]) + 1
    assert to_int(await rpc.request("eth_maxPriorityFeePerGas")) > 0
    # And a batch is answered in order, and an unknown method is a JSON-RPC error
    async with aiohttp.ClientSession() as session:
        async with session.post(node_url, json=[{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"},
                                                {"jsonrpc": "2.0", "id": 2, "method": "eth_nothing"}]) as response:
            batch = await response.json()
    assert batch[0]["result"] == hex(CHAIN_ID) and batch[1]["error"]["code"] == -32601
    with pytest.raises(RpcError, match="does not exist"):
        await rpc.request("eth_nothing")


async def test_the_pool_refuses_what_a_node_refuses(node_url: str) -> None:
    rpc = HttpEvmRpc(node_url)
    account = Account.create()
    await faucet(rpc, address=account.address, amount=10**18)
    base_fee = to_int((await rpc.request("eth_getBlockByNumber", ["latest", False]))["baseFeePerGas"])
    # Given an account's transaction waiting in the pool (automine off)
    await rpc.request("evm_setAutomine", [False])
    first = _transfer(account, nonce=0, max_fee=3 * base_fee, tip=10**9)
    tx_hash = await rpc.request("eth_sendRawTransaction", [first])
    assert (await rpc.request("eth_getTransactionByHash", [tx_hash]))["blockNumber"] is None
    assert to_int(await rpc.request("eth_getTransactionCount", [account.address, "pending"])) == 1
    # Then the same bytes again, a replacement raising fees by less than 10%, another chain's
    # transaction and more than the balance are refused
    refusals = {
        "already known": first,
        "replacement transaction underpriced": _transfer(account, nonce=0, max_fee=3 * base_fee + 1, tip=10**9 + 1),
        "invalid chain id": _transfer(account, nonce=1, max_fee=3 * base_fee, tip=10**9, chain_id=1),
        "insufficient funds": _transfer(account, nonce=1, max_fee=3 * base_fee, tip=10**9, value=10**19),
    }
    for message, raw in refusals.items():
        with pytest.raises(RpcError, match=message):
            await rpc.request("eth_sendRawTransaction", [raw])
    # When it is mined, a transaction with its nonce is too low
    await rpc.request("evm_mine", [])
    receipt = await rpc.request("eth_getTransactionReceipt", [tx_hash])
    assert to_int(receipt["status"]) == 1 and to_int(receipt["gasUsed"]) == 21000
    with pytest.raises(RpcError, match="nonce too low"):
        await rpc.request("eth_sendRawTransaction", [_transfer(account, nonce=0, max_fee=9 * base_fee, tip=10**9)])


async def test_a_snapshot_reverts_blocks_and_their_transactions(node_url: str) -> None:
    rpc = HttpEvmRpc(node_url)
    # Given a snapshot, then a faucet transfer mined two blocks later
    snapshot = await rpc.request("evm_snapshot")
    height = to_int(await rpc.request("eth_blockNumber"))
    tx_hash = await faucet(rpc, address=OTHER, amount=5)
    await rpc.request("evm_mine", [])
    assert to_int(await rpc.request("eth_getBalance", [OTHER, "latest"])) == 5
    # When the chain reverts to the snapshot
    assert await rpc.request("evm_revert", [snapshot]) is True
    # Then the blocks and the transfer are gone: no receipt, no balance, the old height
    assert to_int(await rpc.request("eth_blockNumber")) == height
    assert await rpc.request("eth_getTransactionReceipt", [tx_hash]) is None
    assert await rpc.request("eth_getTransactionByHash", [tx_hash]) is None
    assert to_int(await rpc.request("eth_getBalance", [OTHER, "latest"])) == 0
