"""The development account, the test ERC-20 and the faucet of a local EVM: evm-local's py-evm node
(:mod:`domain.networks.evm_local`) or anvil, over JSON-RPC alike.

Both chains fund anvil's first development account at genesis (its key is public: it holds
value on local chains only). It deploys the test ERC-20 (``contracts/TestToken.vy``) as its first
transaction, so the token has the same address on every fresh chain (:data:`TOKEN_ADDRESS`, the
registry's ``USDC_ETH_LOCAL``), mints it, and pays the faucet (``custody faucet --network
evm-local``). Nothing here imports py-evm: the faucet of another shell talks to custody dev's
chain over HTTP.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from eth_abi import encode as abi_encode
from eth_utils import keccak, to_checksum_address

from config import CONTRACTS_DIR
from domain.networks.evm_rpc import EvmRpc, RpcError, quantity, to_int

#: anvil's first development account (mnemonic "test test ... junk", m/44'/60'/0'/0/0): its key is
#: public, so it holds value on local chains only. The faucet pays from it and it mints the token.
DEV_ACCOUNT_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
DEV_ACCOUNT = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
DEV_BALANCE = 10**6 * 10**18
#: The test token's address: the development account's first contract (nonce 0).
TOKEN_ADDRESS = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
TOKEN_NAME, TOKEN_SYMBOL, TOKEN_DECIMALS = "Local USD Coin", "lUSDC", 6
#: What the development account tips (anvil's 1 gwei; evm-local's eth_maxPriorityFeePerGas).
PRIORITY_FEE = 10**9
TRANSFER_TOPIC = "0x" + keccak(text="Transfer(address,address,uint256)").hex()


def token_artifact() -> dict[str, Any]:
    """ABI and bytecode of the test ERC-20 (compiled by scripts/compile_contracts)."""
    return json.loads((CONTRACTS_DIR / "TestToken.json").read_text())


def _hex(data: bytes) -> str:
    return "0x" + bytes(data).hex()


def dev_transaction(*, nonce: int, chain_id: int, base_fee: int, to: str | None, data: bytes = b"", value: int = 0,
                     gas: int) -> str:
    """A transaction of the development account, signed (EIP-1559, eth-account)."""
    # Imported here: eth-account loads eth-keyfile and py_ecc's BLS tables (seconds), and every
    # custody command imports this module through the faucet; only a faucet call signs.
    from eth_account import Account

    transaction: dict[str, Any] = {"type": 2, "chainId": chain_id, "nonce": nonce, "value": value, "gas": gas,
                                   "maxPriorityFeePerGas": PRIORITY_FEE, "maxFeePerGas": 2 * base_fee + PRIORITY_FEE,
                                   "data": data}
    if to is not None:
        transaction["to"] = to
    return "0x" + bytes(Account.sign_transaction(transaction, DEV_ACCOUNT_KEY).raw_transaction).hex()


async def _send_from_dev(rpc: EvmRpc, *, to: str | None, data: bytes = b"", value: int = 0) -> str:
    chain_id = to_int(await rpc.request("eth_chainId"))
    nonce = to_int(await rpc.request("eth_getTransactionCount", [DEV_ACCOUNT, "pending"]))
    head = await rpc.request("eth_getBlockByNumber", ["latest", False])
    call = {"from": DEV_ACCOUNT, "value": quantity(value), "data": _hex(data)}
    if to is not None:
        call["to"] = to
    gas = to_int(await rpc.request("eth_estimateGas", [call])) * 12 // 10
    raw = dev_transaction(nonce=nonce, chain_id=chain_id, base_fee=to_int(head["baseFeePerGas"]), to=to, data=data,
                           value=value, gas=gas)
    return str(await rpc.request("eth_sendRawTransaction", [raw]))


def deployment_data() -> bytes:
    artifact = token_artifact()
    constructor = abi_encode(["string", "string", "uint8"], [TOKEN_NAME, TOKEN_SYMBOL, TOKEN_DECIMALS])
    return bytes.fromhex(artifact["bytecode"].removeprefix("0x")) + constructor


async def deploy_test_token(rpc: EvmRpc) -> str:
    """Deploy the test ERC-20 from the development account at :data:`TOKEN_ADDRESS` (its first
    transaction), unless it is there already; mines it. Refuses a chain where the development
    account already sent other transactions (the token would land elsewhere)."""
    if (await rpc.request("eth_getCode", [TOKEN_ADDRESS, "latest"])) not in (None, "0x", ""):
        return TOKEN_ADDRESS
    if to_int(await rpc.request("eth_getTransactionCount", [DEV_ACCOUNT, "pending"])) != 0:
        raise RpcError(-32000, f"the development account has sent transactions: the token would not be at "
                               f"{TOKEN_ADDRESS}")
    tx_hash = await _send_from_dev(rpc, to=None, data=deployment_data())
    await _mined(rpc, tx_hash)
    return TOKEN_ADDRESS


async def _mined(rpc: EvmRpc, tx_hash: str, *, attempts: int = 50) -> dict[str, Any]:
    for _ in range(attempts):
        receipt = await rpc.request("eth_getTransactionReceipt", [tx_hash])
        if receipt is not None:
            return dict(receipt)
        try:
            await rpc.request("evm_mine", [])
        except RpcError:
            await asyncio.sleep(0.2)  # a node without evm_mine mines by itself
    raise RpcError(-32000, f"{tx_hash} was not mined")


async def faucet(rpc: EvmRpc, *, address: str, amount: int, token: str | None = None, mine: bool = True) -> str:
    """Credit ``address`` from the development account: ETH by a transfer, the test token by
    ``mint`` (its minter is the development account). Returns the transaction hash."""
    recipient = to_checksum_address(address)
    if token is None:
        tx_hash = await _send_from_dev(rpc, to=recipient, value=amount)
    else:
        selector = keccak(text="mint(address,uint256)")[:4]
        tx_hash = await _send_from_dev(rpc, to=to_checksum_address(token),
                                       data=selector + abi_encode(["address", "uint256"], [recipient, amount]))
    if mine:
        receipt = await _mined(rpc, tx_hash)
        if to_int(receipt.get("status")) != 1:
            raise RpcError(-32000, f"the faucet transaction {tx_hash} reverted")
    return tx_hash


