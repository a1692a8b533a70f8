"""The built-in devnet: a local blockchain per registry network whose ``adapter`` is ``devnet``.

Its state lives in its own tables (:mod:`models.devnet`). Transactions wait in a mempool until
:func:`produce_block` (the scheduled ``devnet.produce_blocks`` actor, or a test) mines them in
submission order. Two families implement the adapter interface:

* :class:`~domain.networks.devnet_account.DevnetAccountAdapter` (EVM-like): balances per address
  and asset, per-address nonces, fee = gas used x gas price paid in the native coin;
* :class:`~domain.networks.devnet_utxo.DevnetUtxoAdapter` (BTC-like): outputs, fee by sat/vB,
  coin selection with change.

A signed transfer is accepted only when its body names a public key that derives the sending
address and the Ed25519 signature over :func:`signing_payload` verifies under that key (a FROST
group signature is a plain Ed25519 signature). :func:`faucet` credits any address from nowhere,
for development and tests.

This module holds what both adapter families share; :mod:`domain.networks.devnet_chain` runs
the chains (block production, the faucet).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey
from tortoise import connections

from domain.currencies import Currency
from domain.networks.base import Block, InvalidSignature, TransferRejected, TransferStatus
from models.devnet import DevnetChain

#: Domain separation of the bytes a devnet transfer signature covers.
PAYLOAD_TAG = b"custody-devnet-transfer:v1:"
#: Seed of the faucet's sending address (an address nobody holds a key for).
FAUCET_SEED = hashlib.sha256(b"custody-devnet-faucet").digest()


def canonical_json(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def signing_payload(network_id: str, body: dict[str, Any]) -> bytes:
    """What the sender's key signs: tag, network id and the canonical JSON of the body."""
    return PAYLOAD_TAG + network_id.encode() + b":" + canonical_json(body)


def transaction_hash(network_id: str, payload: bytes, signature: bytes, *, prefix: str = "") -> str:
    return prefix + hashlib.sha256(network_id.encode() + payload + signature).hexdigest()


def malformed(reason: str) -> TransferRejected:
    return TransferRejected(f"malformed transfer: {reason}", code="MALFORMED_TRANSFER", details={"reason": reason})


def verify_sender(adapter: Any, body: dict[str, Any], signature: bytes) -> bytes:
    """Check that ``body['public_key']`` derives ``body['from']`` and signed the body; returns the payload."""
    raw = body.get("public_key")
    try:
        public_key = bytes.fromhex(raw) if isinstance(raw, str) else b""
    except ValueError:
        public_key = b""
    if len(public_key) != 32:
        raise malformed("public_key must be 32 bytes of hex")
    if not isinstance(signature, (bytes, bytearray)) or len(signature) != 64:
        raise InvalidSignature("the signature must be 64 bytes (Ed25519)")
    if adapter.address_from_public_key(public_key) != body.get("from"):
        raise InvalidSignature("the public key does not belong to the sending address",
                               details={"from": body.get("from")})
    payload = signing_payload(adapter.network.id, body)
    try:
        VerifyKey(public_key).verify(payload, bytes(signature))
    except (BadSignatureError, ValueError):
        raise InvalidSignature("the signature does not verify under the sending address's key") from None
    return payload


def amount_field(body: dict[str, Any], name: str, *, minimum: int = 0) -> int:
    value = body.get(name)
    if not isinstance(value, str) or not value.isdigit() or len(value) > 78:
        raise malformed(f"{name} must be a decimal integer string")
    number = int(value)
    if number < minimum:
        raise malformed(f"{name} must be at least {minimum}")
    return number


def int_field(body: dict[str, Any], name: str, *, minimum: int = 0) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise malformed(f"{name} must be an integer of at least {minimum}")
    return value


async def lock_chain(network_id: str) -> DevnetChain:
    """The network's head row, created on first use and locked for this transaction."""
    await connections.get("default").execute_query(
        "INSERT INTO devnet_chains (network, height, head_hash, last_nonempty_height) VALUES ($1, 0, $2, 0) "
        "ON CONFLICT (network) DO NOTHING",
        [network_id, "0" * 64],
    )
    chain = await DevnetChain.filter(network=network_id).select_for_update().first()
    assert chain is not None
    return chain


async def latest_height(network_id: str) -> int:
    chain = await DevnetChain.get_or_none(network=network_id)
    return chain.height if chain else 0


#: A devnet transaction's state with the time of the block holding it, in one statement.
_TRANSFER_STATUS_SQL = """
SELECT t.status, t.block_height, t.fee, t.error, b.produced_at
FROM devnet_transactions t
LEFT JOIN devnet_blocks b ON b.network = t.network AND b.height = t.block_height
WHERE t.network = $1 AND t.tx_hash = $2
"""


async def transfer_status(network_id: str, tx_hash: str) -> TransferStatus:
    """A devnet transaction's state: mempool (pending), mined (confirmed / failed, with its
    block's time) or dropped."""
    rows = await connections.get("default").execute_query_dict(_TRANSFER_STATUS_SQL, [network_id, tx_hash])
    if not rows:
        return TransferStatus(tx_hash=tx_hash, state="unknown")
    tx = rows[0]
    if tx["status"] == "pending":
        return TransferStatus(tx_hash=tx_hash, state="pending")
    if tx["status"] == "dropped":
        return TransferStatus(tx_hash=tx_hash, state="dropped", reason_code="DROPPED", reason=tx["error"])
    failed = tx["status"] == "failed"
    return TransferStatus(tx_hash=tx_hash, state="included", block_height=tx["block_height"], success=not failed,
                          fee=int(tx["fee"]), reason_code="EXECUTION_FAILED" if failed else None,
                          reason=tx["error"] if failed else None, block_time=tx["produced_at"])


async def blocks_received(adapter: Any, heights: list[int], address: str, currency: Currency) -> list[Block]:
    """The blocks at ``heights`` (``read_block``), each with only its transfers of ``currency`` to
    ``address``: a devnet adapter's ``incoming_transfers`` (domain.networks.base)."""
    blocks = []
    for height in heights:
        block = await adapter.read_block(height)
        if block is not None:
            blocks.append(replace(block, transfers=[t for t in block.transfers
                                                    if t.to_address == address and t.currency_id == currency.id]))
    return blocks


def faucet_address(adapter: Any) -> str:
    return adapter.address_from_public_key(FAUCET_SEED)
