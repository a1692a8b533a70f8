"""The test ERC-20 (contracts/TestToken.vy): its committed ABI and bytecode are what its source
compiles to, and it behaves as an ERC-20 on the local EVM (py-evm). Given / When / Then."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from eth_abi import decode, encode
from eth_account import Account
from eth_utils import keccak

from domain.networks.evm_dev import (
    DEV_ACCOUNT,
    DEV_ACCOUNT_KEY,
    TOKEN_ADDRESS,
    TOKEN_DECIMALS,
    TRANSFER_TOPIC,
    token_artifact,
)
from domain.networks.evm_local import LocalEvm, deploy_test_token_sync
from domain.networks.evm_rpc import RpcError, to_int

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_artifact_is_what_the_source_compiles_to() -> None:
    # When the compile script checks the committed artifacts against a fresh compilation
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "compile_contracts"), "--check"],
                            capture_output=True, text=True, timeout=120)
    # Then they are identical (a changed source without a recompile fails here)
    assert result.returncode == 0, result.stderr
    artifact = token_artifact()
    assert artifact["source"] == "contracts/TestToken.vy" and artifact["compiler"].startswith("vyper ")
    names = {entry.get("name") for entry in artifact["abi"]}
    assert {"transfer", "transferFrom", "approve", "balanceOf", "allowance", "totalSupply", "decimals",
            "Transfer", "Approval", "mint"} <= names


def _call(node: LocalEvm, sender_key: str, data: bytes, *, nonce: int) -> str:
    head = node.request("eth_getBlockByNumber", ["latest", False])
    transaction = {"type": 2, "chainId": node.chain_id, "nonce": nonce, "to": TOKEN_ADDRESS, "value": 0,
                   "data": data, "gas": 200_000, "maxPriorityFeePerGas": 10**9,
                   "maxFeePerGas": 2 * to_int(head["baseFeePerGas"]) + 10**9}
    raw = Account.sign_transaction(transaction, sender_key).raw_transaction
    return str(node.request("eth_sendRawTransaction", ["0x" + bytes(raw).hex()]))


def _balance(node: LocalEvm, owner: str) -> int:
    data = keccak(text="balanceOf(address)")[:4] + encode(["address"], [owner])
    answer = node.request("eth_call", [{"to": TOKEN_ADDRESS, "data": "0x" + data.hex()}])
    return int(decode(["uint256"], bytes.fromhex(answer[2:]))[0])


def test_the_token_is_an_erc20_that_only_its_minter_mints() -> None:
    # Given a fresh local chain, where the development account deploys the token first
    node = LocalEvm()
    assert deploy_test_token_sync(node) == TOKEN_ADDRESS
    assert node.request("eth_getCode", [TOKEN_ADDRESS]) not in ("0x", "")
    decimals = node.request("eth_call", [{"to": TOKEN_ADDRESS, "data": "0x" + keccak(text="decimals()")[:4].hex()}])
    assert to_int(decimals) == TOKEN_DECIMALS
    alice, bob = Account.create(), Account.create()
    # When the minter mints 100 to Alice and Alice (funded with gas) sends 30 to Bob
    mint = keccak(text="mint(address,uint256)")[:4] + encode(["address", "uint256"], [alice.address, 100])
    _call(node, DEV_ACCOUNT_KEY, mint, nonce=1)
    fund = {"type": 2, "chainId": node.chain_id, "nonce": 2, "to": alice.address, "value": 10**18, "gas": 21000,
            "maxPriorityFeePerGas": 10**9, "maxFeePerGas": 10**11}
    node.request("eth_sendRawTransaction", ["0x" + bytes(Account.sign_transaction(fund, DEV_ACCOUNT_KEY)
                                                         .raw_transaction).hex()])
    send = keccak(text="transfer(address,uint256)")[:4] + encode(["address", "uint256"], [bob.address, 30])
    tx_hash = _call(node, alice.key, send, nonce=0)
    # Then balances moved and the Transfer log names both sides
    assert (_balance(node, alice.address), _balance(node, bob.address)) == (70, 30)
    receipt = node.request("eth_getTransactionReceipt", [tx_hash])
    (log,) = receipt["logs"]
    assert log["topics"][0] == TRANSFER_TOPIC and log["address"].lower() == TOKEN_ADDRESS.lower()
    assert [t[-40:] for t in log["topics"][1:]] == [alice.address[2:].lower(), bob.address[2:].lower()]
    # And a transfer above the balance reverts (estimate refused), and nobody else mints
    too_much = keccak(text="transfer(address,uint256)")[:4] + encode(["address", "uint256"], [bob.address, 71])
    with pytest.raises(RpcError, match="exceeds balance"):
        node.request("eth_estimateGas", [{"from": alice.address, "to": TOKEN_ADDRESS, "data": "0x" + too_much.hex()}])
    with pytest.raises(RpcError, match="only the minter"):
        node.request("eth_call", [{"from": alice.address, "to": TOKEN_ADDRESS, "data": "0x" + mint.hex()}])
    assert DEV_ACCOUNT != alice.address
