"""Bitcoin (mainnet, testnet4, regtest): Taproot key-path spends signed by a vault's FROST(secp256k1) key.

Addresses
---------
A vault's secp256k1 key set (scheme ``FROST-secp256k1-SHA256-TR-v1``) has a group key ``P``
(33-byte SEC1). Its address is the P2TR (BIP-341, witness v1, bech32m) output of the key-path-only
tweak: ``Q = lift_x(P) + hash_TapTweak(x(P))G`` (:func:`threshold.taproot.output_key` with an
empty merkle root), so no script path can have been hidden in the key by any participant of its
DKG. The adapter refuses a 32-byte (Ed25519) key: it never derives a Bitcoin address from a key
that cannot sign for it.

Transfers
---------
``build_transfer`` selects coins from the adapter's UTXO index (:mod:`models.utxos`), builds a
version-2 transaction (inputs signal RBF, locktime 0; the recipient's output first, change back
to the sending address last) and gives **one signing payload per input**: the BIP-341 sighash
(``SIGHASH_DEFAULT``, committing to every input's amount and script), each to be signed by the
vault's key through ``TAPROOT.for_output(b"")``. ``submit_signatures`` checks every signature
against the input's output key (BIP-340), puts each in its input's witness, broadcasts and records
the spend. Fees are ``vsize x fee_rate`` (sat/vB; the withdrawal's ``fee_rate_sat_per_vb``),
``vsize`` measured on the transaction with its 64-byte witnesses.

Coin selection (deterministic): confirmed, unspent outputs of the sending address that no other
payment reserved, largest first (ties by outpoint), until amount plus fee is covered; change
below the dust limit is left to the fee. The inputs are then *reserved* under the payment's
``intent_key`` (the withdrawal pipeline's X-Utxo-Intent-Key, or its transaction id): building
again with the same key (a retry, a new attempt after a refused broadcast) starts from exactly the
inputs it holds, so an equivalent payment spends the same coins and two attempts of one payment
can never both confirm. ``release_inputs(intent_key)`` frees them when the payment is given up.

Deposits and the UTXO index
---------------------------
``read_block`` parses the raw block: every output paying a wallet address of the network is a
:class:`~domain.networks.base.Transfer` (outputs back to the address that funded the transaction
are change, not transfers) and enters the UTXO index with its height; every input spending an
indexed output marks it spent at that height. The deposit watcher reads only final blocks
(``confirmations``), so the index follows the final chain. The node behind the adapter is a
:class:`~domain.networks.bitcoin_node.BitcoinNode` (Bitcoin Core's JSON-RPC).

Reorganizations
---------------
A reorganization shallower than ``confirmations`` replaces blocks the watcher has not read yet:
their outputs never enter the index nor become deposits, and the replacing blocks are read once
final. The watcher checks, with ``block_hash`` (``getblockhash``), that the newest block it read
is still the chain's; a deeper reorganization halts it (domain.deposits), and when an operator
resumes it from the fork point, ``rewind`` first forgets the index's view of the replaced blocks:
their outputs lose their height (unconfirmed: never selected) and their spends their height,
until the new branch is read and sets them again where it holds them.
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from embit import compact
from embit.networks import NETWORKS
from embit.script import Script, Witness, address_to_scriptpubkey
from embit.transaction import Transaction, TransactionInput, TransactionOutput
from tortoise import connections
from tortoise.expressions import Q
from tortoise.functions import Sum

from core import clock
from core.settings import get_settings
from domain.currencies import Currency, Network
from domain.networks.addresses import InvalidAddress
from domain.networks.base import (
    Block,
    FeeEstimate,
    InsufficientFunds,
    InvalidSignature,
    SigningPayload,
    SpentOutput,
    Transfer,
    TransferRejected,
    TransferStatus,
    UnsignedTransfer,
)
from domain.networks.bitcoin_node import AlreadyKnown, BitcoinNode, RpcBitcoinNode
from models.utxos import ChainUtxo
from models.wallets import WalletAddress
from threshold.scheme import TAPROOT_SCHEME
from threshold.taproot import output_key, verify_bip340

#: BIP-341 SIGHASH_DEFAULT: signs every input and output (64-byte signatures, no sighash byte).
SIGHASH_DEFAULT = 0
#: nSequence of every input: final for locktime purposes, signalling replace-by-fee (BIP-125).
SEQUENCE_RBF = 0xFFFFFFFD
MAX_INPUTS = 500
#: The key-path-only Taproot tweak every vault address uses (``TAPROOT.for_output(b"")``).
KEY_PATH_MERKLE_ROOT = b""
_CHAINS = {"main": "main", "testnet": "test", "testnet4": "test", "signet": "signet", "regtest": "regtest"}


def p2tr_script(x_only_key: bytes) -> bytes:
    """``OP_1 <32-byte output key>``: the witness v1 (Taproot) locking script."""
    return b"\x51\x20" + x_only_key


def vsize_of(tx: Transaction) -> int:
    """Virtual size (BIP-141): ceil(weight / 4), weight = 3 x stripped size + total size."""
    stripped = Transaction(version=tx.version, locktime=tx.locktime, vout=tx.vout,
                           vin=[TransactionInput(i.txid, i.vout, sequence=i.sequence) for i in tx.vin])
    return math.ceil((3 * len(stripped.serialize()) + len(tx.serialize())) / 4)


@dataclass(frozen=True)
class Selection:
    inputs: list[ChainUtxo]
    change: int
    fee: int
    vsize: int


def _malformed(reason: str) -> TransferRejected:
    return TransferRejected(f"malformed transfer: {reason}", code="MALFORMED_TRANSFER", details={"reason": reason})


def default_node(network: Network) -> BitcoinNode:
    url = get_settings().network_rpc_urls.get(network.id) or str(network.params.get("rpc_url", ""))
    if not url:
        raise LookupError(f"no rpc_url for {network.id} (NETWORK_RPC_URLS or the registry's params.rpc_url)")
    return RpcBitcoinNode(url)


class BitcoinAdapter:
    """The :class:`~domain.networks.base.NetworkAdapter` of a Bitcoin network (see the module)."""

    family = "utxo"
    key_scheme = TAPROOT_SCHEME

    def __init__(self, network: Network, node: BitcoinNode | None = None) -> None:
        self.network = network
        self.node = node if node is not None else default_node(network)
        params = network.params
        base = dict(NETWORKS[_CHAINS[str(params.get("chain", "main"))]])
        base["bech32"] = str(params.get("hrp", base["bech32"]))
        for prefix in ("p2pkh", "p2sh"):  # base58 version bytes, hex (another chain's, e.g. Litecoin's)
            if prefix in params:
                base[prefix] = bytes.fromhex(str(params[prefix]))
        self.chain_params = base
        self.fee_rate = int(params.get("fee_rate_sat_per_vb", 2))
        self.min_fee_rate = int(params.get("min_fee_rate_sat_per_vb", 1))
        self.fee_target_blocks = int(params.get("fee_target_blocks", 6))
        self.dust_limit = int(params.get("dust_limit", 330))

    # --- addresses -----------------------------------------------------------------------------

    def address_from_public_key(self, public_key: bytes) -> str:
        if len(public_key) != 33 or public_key[0] not in (2, 3):
            raise ValueError("a Bitcoin address derives from a 33-byte secp256k1 group key (SEC1 compressed)")
        x_only, _ = output_key(bytes(public_key), KEY_PATH_MERKLE_ROOT)
        return Script(p2tr_script(x_only)).address(self.chain_params)

    def script_of(self, address: str) -> bytes:
        """The locking script of an address of this network (P2TR, P2WPKH, P2WSH, P2PKH or P2SH)."""
        if not isinstance(address, str) or not address.strip():
            raise InvalidAddress("an address is a non-empty string")
        text = address.strip()
        if text.lower().startswith(self.chain_params["bech32"] + "1"):
            text = text.lower()  # bech32 is case-insensitive, kept lowercase
        try:
            script = address_to_scriptpubkey(text)
            canonical = script.address(self.chain_params)
        except Exception:  # noqa: BLE001 - embit raises several types for bad input
            raise InvalidAddress("not a Bitcoin address (checksum, encoding or witness version)") from None
        if canonical != text:
            raise InvalidAddress(f"not an address of {self.network.id}")
        return script.data

    def normalize_address(self, address: str) -> str:
        return Script(self.script_of(address)).address(self.chain_params)

    def confirmations_required(self) -> int:
        return self.network.confirmations

    def _check_currency(self, currency: Currency) -> None:
        if currency.network.id != self.network.id:
            raise TransferRejected(f"{currency.id} is not a currency of {self.network.id}", code="WRONG_NETWORK")

    # --- coin selection and fees ---------------------------------------------------------------

    async def _candidates(self, address: str, intent_key: str | None) -> list[ChainUtxo]:
        """Spendable outputs of ``address``: those ``intent_key`` holds first, then unreserved ones."""
        free = Q(reserved_by__isnull=True) | Q(reserved_by=intent_key) if intent_key else Q(reserved_by__isnull=True)
        rows = await ChainUtxo.filter(free, network=self.network.id, address=address, spent_by__isnull=True,
                                      block_height__isnull=False).order_by("-amount", "tx_hash", "output_index")
        return sorted(rows, key=lambda u: u.reserved_by is None)  # stable: held ones first, each largest first

    def _draft(self, inputs: list[ChainUtxo], outputs: list[tuple[bytes, int]]) -> Transaction:
        return Transaction(
            version=2, locktime=0,
            vin=[TransactionInput(bytes.fromhex(u.tx_hash), u.output_index, sequence=SEQUENCE_RBF) for u in inputs],
            vout=[TransactionOutput(value, Script(script)) for script, value in outputs],
        )

    def _vsize(self, inputs: list[ChainUtxo], outputs: list[tuple[bytes, int]]) -> int:
        draft = self._draft(inputs, outputs)
        for item in draft.vin:
            item.witness = Witness([bytes(64)])  # a key-path spend's witness: one 64-byte signature
        return vsize_of(draft)

    def select_coins(self, utxos: list[ChainUtxo], *, amount: int, fee_rate: int, recipient: bytes,
                     change: bytes) -> Selection:
        """In order until amount + fee is covered; change only when it is not dust (see the module)."""
        selected: list[ChainUtxo] = []
        total = 0
        for utxo in utxos[:MAX_INPUTS]:
            selected.append(utxo)
            total += int(utxo.amount)
            size = self._vsize(selected, [(recipient, amount), (change, self.dust_limit)])
            if total - amount - size * fee_rate >= self.dust_limit:
                return Selection(list(selected), total - amount - size * fee_rate, size * fee_rate, size)
            size = self._vsize(selected, [(recipient, amount)])
            if total >= amount + size * fee_rate:
                return Selection(list(selected), 0, total - amount, size)  # the rest is too small: fee
        raise InsufficientFunds("the address's confirmed outputs do not cover amount plus fee",
                                details={"available": str(total), "amount": str(amount)})

    async def _rate(self, fee_rate: int | None) -> int:
        rate = fee_rate or await self.node.fee_rate(self.fee_target_blocks) or self.fee_rate
        if rate < self.min_fee_rate:
            raise TransferRejected(f"fee rate must be at least {self.min_fee_rate} sat/vB", code="FEE_RATE_TOO_LOW")
        return rate

    async def estimate_fee(self, *, currency: Currency, amount: int | None = None,
                           from_address: str | None = None, fee_rate: int | None = None) -> FeeEstimate:
        """With an address and amount, the fee of the coins selection would pick; else one input, two outputs."""
        self._check_currency(currency)
        rate = await self._rate(fee_rate)
        if from_address is not None and amount:
            sender = self.script_of(from_address)
            selection = self.select_coins(await self._candidates(self.normalize_address(from_address), None),
                                          amount=amount, fee_rate=rate, recipient=sender, change=sender)
            return FeeEstimate(fee=selection.fee, fee_currency_id=currency.id, fee_rate_sat_per_vb=rate,
                               vsize=selection.vsize)
        model = p2tr_script(bytes(32))
        placeholder = ChainUtxo(tx_hash="00" * 32, output_index=0, amount=0)
        size = self._vsize([placeholder], [(model, self.dust_limit), (model, self.dust_limit)])
        return FeeEstimate(fee=size * rate, fee_currency_id=currency.id, fee_rate_sat_per_vb=rate, vsize=size)

    # --- building ------------------------------------------------------------------------------

    async def build_transfer(self, *, currency: Currency, from_address: str, public_key: bytes,
                             to_address: str, amount: int, fee_rate: int | None = None,
                             intent_key: str | None = None) -> UnsignedTransfer:
        """The unsigned spend and one BIP-341 sighash per input (see the module); reserves its inputs
        under ``intent_key`` (default: ``tx:<txid>``, returned in the body)."""
        self._check_currency(currency)
        sender = self.normalize_address(from_address)
        if self.address_from_public_key(public_key) != sender:
            raise TransferRejected("the public key does not belong to the sending address", code="INVALID_SENDER")
        try:
            recipient_script = self.script_of(to_address)
        except InvalidAddress as exc:
            raise _malformed(f"to: {exc}") from None
        if amount < self.dust_limit:
            raise TransferRejected(f"amount must be at least the dust limit {self.dust_limit}", code="AMOUNT_BELOW_DUST")
        if intent_key is not None and not 1 <= len(intent_key) <= 100:
            raise _malformed("intent_key must be 1 to 100 characters")
        rate = await self._rate(fee_rate)
        change_script = self.script_of(sender)
        await self._lock_address(sender)
        selection = self.select_coins(await self._candidates(sender, intent_key), amount=amount, fee_rate=rate,
                                      recipient=recipient_script, change=change_script)
        outputs = [(recipient_script, amount)] + ([(change_script, selection.change)] if selection.change else [])
        tx = self._draft(selection.inputs, outputs)
        intent = intent_key or f"tx:{tx.txid().hex()}"
        await self._reserve(intent, selection.inputs)
        spent = tuple(SpentOutput(u.tx_hash, u.output_index, int(u.amount), u.script_pubkey) for u in selection.inputs)
        payloads = self.signing_payloads(tx, spent)
        body = {
            "type": "bitcoin-transfer", "network": self.network.id, "from": sender,
            "to": Script(recipient_script).address(self.chain_params), "amount": str(amount),
            "fee": str(selection.fee), "fee_rate": rate, "vsize": selection.vsize, "intent_key": intent,
            "inputs": [{"tx_hash": s.tx_hash, "index": s.index, "amount": str(s.amount),
                        "script_pubkey": s.script_pubkey} for s in spent],
            "outputs": [{"address": Script(script).address(self.chain_params), "amount": str(value)}
                        for script, value in outputs],
            "unsigned_tx": tx.serialize().hex(), "public_key": bytes(public_key).hex(),
        }
        return UnsignedTransfer(network_id=self.network.id, body=body, signing_payload=payloads[0].message,
                                amount=amount, fee_limit=selection.fee, fee_currency_id=currency.id,
                                payloads=payloads, inputs=spent)

    @staticmethod
    def signing_payloads(tx: Transaction, spent: tuple[SpentOutput, ...]) -> tuple[SigningPayload, ...]:
        """BIP-341 SIGHASH_DEFAULT message of every input, to sign with ``TAPROOT.for_output(b"")``."""
        scripts = [Script(bytes.fromhex(s.script_pubkey)) for s in spent]
        values = [s.amount for s in spent]
        return tuple(SigningPayload(tx.sighash_taproot(i, scripts, values, SIGHASH_DEFAULT), scheme=TAPROOT_SCHEME,
                                    merkle_root=KEY_PATH_MERKLE_ROOT, input_index=i) for i in range(len(spent)))

    async def _lock_address(self, address: str) -> None:
        """Serialize coin selection of one address (a transaction-scoped advisory lock)."""
        key = int.from_bytes(hashlib.sha256(f"utxo:{self.network.id}:{address}".encode()).digest()[:8], "big",
                             signed=True)
        await connections.get("default").execute_query("SELECT pg_advisory_xact_lock($1)", [key])

    async def _reserve(self, intent_key: str, inputs: list[ChainUtxo]) -> None:
        ids = [u.id for u in inputs]
        await ChainUtxo.filter(network=self.network.id, reserved_by=intent_key, spent_by__isnull=True) \
            .exclude(id__in=ids).update(reserved_by=None, reserved_at=None)
        await ChainUtxo.filter(id__in=ids).update(reserved_by=intent_key, reserved_at=clock.now())

    async def release_inputs(self, *, intent_key: str) -> int:
        """Free the unspent outputs a payment reserved (it was given up); returns how many."""
        return await ChainUtxo.filter(network=self.network.id, reserved_by=intent_key, spent_by__isnull=True) \
            .update(reserved_by=None, reserved_at=None)

    # --- submitting ----------------------------------------------------------------------------

    def _parse_signed_body(self, body: dict[str, Any]) -> tuple[Transaction, tuple[SpentOutput, ...], bytes]:
        if not isinstance(body, dict) or body.get("type") != "bitcoin-transfer" or body.get("network") != self.network.id:
            raise _malformed(f"type must be bitcoin-transfer on {self.network.id}")
        try:
            tx = Transaction.parse(bytes.fromhex(str(body["unsigned_tx"])))
            spent = tuple(SpentOutput(str(i["tx_hash"]), int(i["index"]), int(i["amount"]), str(i["script_pubkey"]))
                          for i in body["inputs"])
            sender_script = self.script_of(str(body["from"]))
        except (KeyError, TypeError, ValueError, InvalidAddress):
            raise _malformed("unsigned_tx, inputs and from must describe a transaction of this network") from None
        if len(tx.vin) != len(spent) or not spent:
            raise _malformed("inputs must list every input of the transaction")
        for item, prevout in zip(tx.vin, spent):
            if (item.txid.hex(), item.vout) != (prevout.tx_hash, prevout.index):
                raise _malformed("inputs must be the transaction's inputs, in order")
            if prevout.script_pubkey != sender_script.hex():
                raise _malformed("every input must spend an output of the sending address")
        return tx, spent, sender_script

    def transaction_hash(self, *, body: dict[str, Any], signature: bytes) -> str:
        """The txid: a Taproot spend's witnesses are not part of it, so it is known before signing."""
        tx, _, _ = self._parse_signed_body(body)
        return tx.txid().hex()

    async def transfer_status(self, tx_hash: str) -> TransferStatus:
        """``included`` once a block the watcher read holds the spend, ``pending`` until then (a
        Taproot key-path spend of confirmed inputs cannot revert once mined)."""
        status = await self.transaction_status(tx_hash)
        if status is None:
            return TransferStatus(tx_hash=tx_hash, state="pending")
        return TransferStatus(tx_hash=tx_hash, state="included", block_height=status[0])

    async def submit_transfer(self, *, body: dict[str, Any], signature: bytes) -> str:
        """A one-input transfer with its one signature (see :meth:`submit_signatures`)."""
        return await self.submit_signatures(body=body, signatures=[signature])

    async def submit_signatures(self, *, body: dict[str, Any], signatures: list[bytes]) -> str:
        """Check one BIP-340 signature per input, assemble the witnesses, broadcast, record the spend."""
        tx, spent, sender_script = self._parse_signed_body(body)
        if len(signatures) != len(spent):
            raise InvalidSignature(f"one signature per input: {len(spent)} expected",
                                   details={"expected": len(spent), "given": len(signatures)})
        output_key = sender_script[2:]
        for payload, signature in zip(self.signing_payloads(tx, spent), signatures):
            if not isinstance(signature, (bytes, bytearray)) or len(signature) != 64 \
                    or not verify_bip340(output_key, payload.message, bytes(signature)):
                raise InvalidSignature("a signature does not verify for its input (BIP-340, Taproot output key)",
                                       details={"input_index": payload.input_index})
            tx.vin[payload.input_index].witness = Witness([bytes(signature)])
        txid = tx.txid().hex()
        try:
            await self.node.broadcast(tx.serialize())
        except AlreadyKnown:
            pass  # the same signed transaction again: idempotent
        await self._record_spend(tx, txid, spent, sender_script)
        return txid

    async def _record_spend(self, tx: Transaction, txid: str, spent: tuple[SpentOutput, ...],
                            sender_script: bytes) -> None:
        for prevout in spent:
            await ChainUtxo.filter(network=self.network.id, tx_hash=prevout.tx_hash, output_index=prevout.index,
                                   spent_by__isnull=True).update(spent_by=txid)
        sender = Script(sender_script).address(self.chain_params)
        for index, output in enumerate(tx.vout):
            if output.script_pubkey.data == sender_script:  # our change: indexed now, spendable once confirmed
                await self._index_output(txid, index, sender, output, height=None)

    async def _index_output(self, txid: str, index: int, address: str, output: TransactionOutput,
                            *, height: int | None) -> None:
        await connections.get("default").execute_query(
            "INSERT INTO chain_utxos (network, tx_hash, output_index, address, amount, script_pubkey, block_height, "
            "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (network, tx_hash, output_index) "
            "DO UPDATE SET block_height = COALESCE(EXCLUDED.block_height, chain_utxos.block_height)",
            [self.network.id, txid, index, address, output.value, output.script_pubkey.data.hex(), height, clock.now()],
        )

    async def transaction_status(self, tx_hash: str) -> tuple[int, int] | None:
        """``(height, confirmations)`` of a transaction we submitted, once a read block holds it."""
        row = await ChainUtxo.filter(network=self.network.id, spent_by=tx_hash, spent_height__isnull=False).first()
        if row is None:
            return None
        return int(row.spent_height), max(0, await self.latest_height() - int(row.spent_height) + 1)

    # --- reading -------------------------------------------------------------------------------

    async def latest_height(self) -> int:
        return await self.node.height()

    async def block_hash(self, height: int) -> str | None:
        """The hash of the node's block at ``height`` now (the watcher's reorganization check)."""
        ask = getattr(self.node, "block_hash", None)
        if ask is not None:
            return await ask(height)
        raw = await self.node.block(height)
        return None if raw is None else hashlib.sha256(hashlib.sha256(raw[:80]).digest()).digest()[::-1].hex()

    async def rewind(self, height: int) -> None:
        """Forget what the index took from blocks above ``height`` (see the module)."""
        await ChainUtxo.filter(network=self.network.id, block_height__gt=height).update(block_height=None)
        await ChainUtxo.filter(network=self.network.id, spent_height__gt=height).update(spent_height=None)

    @staticmethod
    def parse_block(raw: bytes) -> tuple[str, str, datetime, list[Transaction]]:
        """Hash, parent hash, time and transactions of a serialized block."""
        header = raw[:80]
        block_hash = hashlib.sha256(hashlib.sha256(header).digest()).digest()[::-1].hex()
        stream = io.BytesIO(raw[80:])
        transactions = [Transaction.read_from(stream) for _ in range(compact.read_from(stream))]
        time = datetime.fromtimestamp(int.from_bytes(header[68:72], "little"), tz=timezone.utc)
        return block_hash, header[4:36][::-1].hex(), time, transactions

    def _address_of(self, script: Script) -> str | None:
        try:
            return script.address(self.chain_params)
        except Exception:  # noqa: BLE001 - OP_RETURN and non-standard scripts have no address
            return None

    async def read_block(self, height: int) -> Block | None:
        raw = await self.node.block(height)
        if raw is None:
            return None
        block_hash, parent, time, transactions = self.parse_block(raw)
        per_tx = [(tx, tx.txid().hex(), [self._address_of(o.script_pubkey) for o in tx.vout]) for tx in transactions]
        candidates = sorted({a for _, _, addresses in per_tx for a in addresses if a})
        watched = set(await WalletAddress.filter(network=self.network.id, address__in=candidates)
                      .values_list("address", flat=True)) if candidates else set()
        transfers: list[Transfer] = []
        currency_id = self.network.native_currency_id
        for position, (tx, txid, addresses) in enumerate(per_tx):
            funding = await self._spend_inputs(tx, txid, height, coinbase=position == 0)
            received: dict[str, int] = {}
            for index, (output, address) in enumerate(zip(tx.vout, addresses)):
                if address is not None and address in watched:  # type: ignore[comparison-overlap]  # flat values_list
                    await self._index_output(txid, index, address, output, height=height)
                    if address not in funding:  # outputs back to a funding address are change
                        received[address] = received.get(address, 0) + output.value
            sender = sorted(funding)[0] if funding else ""
            for address, amount in received.items():
                transfers.append(Transfer(tx_hash=txid, index=len(transfers), from_address=sender, to_address=address,
                                          currency_id=currency_id, amount=amount, fee=0, fee_currency_id=currency_id))
        return Block(network_id=self.network.id, height=height, hash=block_hash, parent_hash=parent, time=time,
                     transfers=transfers)

    async def _spend_inputs(self, tx: Transaction, txid: str, height: int, *, coinbase: bool) -> set[str]:
        """Mark indexed outputs the transaction spends; the addresses that funded it (when indexed)."""
        if coinbase:
            return set()
        funding: set[str] = set()
        for item in tx.vin:
            row = await ChainUtxo.get_or_none(network=self.network.id, tx_hash=item.txid.hex(), output_index=item.vout)
            if row is not None:
                funding.add(row.address)
                row.spent_by, row.spent_height = txid, height
                await row.save(update_fields=["spent_by", "spent_height"])
        return funding

    async def balance_of(self, *, address: str, currency: Currency) -> int:
        """Confirmed outputs of ``address`` no block has spent yet (satoshis)."""
        self._check_currency(currency)
        result = await ChainUtxo.filter(network=self.network.id, address=self.normalize_address(address),
                                        block_height__isnull=False, spent_height__isnull=True) \
            .annotate(total=Sum("amount")).first().values("total")
        return int(result["total"] or 0) if result else 0
