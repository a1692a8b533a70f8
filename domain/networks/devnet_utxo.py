"""The devnet's UTXO family (BTC-like): outputs, fee by sat/vB, coin selection and change.

Transfer body (what is signed, see :func:`domain.networks.devnet.signing_payload`)::

    {"type": "utxo-transfer", "network": id, "from": addr,
     "inputs": [{"tx_hash": h, "index": i, "amount": "<sat>"}, ...],
     "outputs": [{"address": addr, "amount": "<sat>"}, ...],      # recipient first, change last
     "fee_rate": int (sat/vB), "public_key": "<hex of the 32-byte group key>"}

Size model (P2WPKH-like): ``vsize = 11 + 68 x inputs + 31 x outputs`` virtual bytes; the fee is
``sum(inputs) - sum(outputs)`` and must be at least ``vsize x min_fee_rate_sat_per_vb``.

Coin selection (:meth:`DevnetUtxoAdapter.select_coins`): the sender's unreserved outputs,
largest first, until they cover amount plus the fee of a transaction with a change output;
change below the dust limit (546 sat) is not created but left to the fee. Every input must
belong to the signing address; an input already reserved by a mempool transaction is refused
(no double spend).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from tortoise.functions import Sum

from domain.currencies import Currency, Network
from domain.networks import addresses
from domain.networks.base import (
    Block,
    FeeEstimate,
    InsufficientFunds,
    Transfer,
    TransferRejected,
    TransferStatus,
    UnsignedTransfer,
)
from domain.networks.devnet import (
    amount_field,
    blocks_received,
    faucet_address,
    int_field,
    latest_height,
    malformed,
    signing_payload,
    transaction_hash,
    transfer_status,
    verify_sender,
)
from models.devnet import DevnetBlock, DevnetTransaction, DevnetUtxo

TX_OVERHEAD_VBYTES = 11
INPUT_VBYTES = 68
OUTPUT_VBYTES = 31
MAX_INPUTS = 500


def vsize(inputs: int, outputs: int) -> int:
    return TX_OVERHEAD_VBYTES + INPUT_VBYTES * inputs + OUTPUT_VBYTES * outputs


@dataclass(frozen=True)
class Selection:
    inputs: list[DevnetUtxo]
    change: int
    fee: int
    vsize: int


class DevnetUtxoAdapter:
    family = "utxo"

    def __init__(self, network: Network) -> None:
        self.network = network
        params = network.params
        self.hrp = str(params.get("hrp", "tdvb" if network.testnet else "dvb"))
        self.fee_rate = int(params.get("fee_rate_sat_per_vb", 2))
        self.min_fee_rate = int(params.get("min_fee_rate_sat_per_vb", 1))
        self.dust_limit = int(params.get("dust_limit", 546))

    # --- addresses -----------------------------------------------------------------------------

    def address_from_public_key(self, public_key: bytes) -> str:
        return addresses.utxo_address(public_key, hrp=self.hrp)

    def normalize_address(self, address: str) -> str:
        return addresses.normalize_utxo_address(address, hrp=self.hrp)

    def confirmations_required(self) -> int:
        return self.network.confirmations

    def _check_currency(self, currency: Currency) -> None:
        if currency.network.id != self.network.id:
            raise TransferRejected(f"{currency.id} is not a currency of {self.network.id}", code="WRONG_NETWORK")

    # --- coin selection and fees ---------------------------------------------------------------

    async def spendable(self, address: str) -> list[DevnetUtxo]:
        return await DevnetUtxo.filter(network=self.network.id, address=address, spent_by__isnull=True).order_by(
            "-amount", "id"
        )

    def select_coins(self, utxos: list[DevnetUtxo], amount: int, fee_rate: int) -> Selection:
        """Largest first until amount + fee is covered; change only when it is not dust."""
        selected: list[DevnetUtxo] = []
        total = 0
        for utxo in utxos[:MAX_INPUTS]:
            selected.append(utxo)
            total += int(utxo.amount)
            with_change = vsize(len(selected), 2) * fee_rate
            if total >= amount + with_change and total - amount - with_change >= self.dust_limit:
                return Selection(selected, total - amount - with_change, with_change, vsize(len(selected), 2))
            without_change = vsize(len(selected), 1) * fee_rate
            if total >= amount + without_change:
                # What is left is too small for a change output: it goes to the fee.
                return Selection(selected, 0, total - amount, vsize(len(selected), 1))
        raise InsufficientFunds("the address's outputs do not cover amount plus fee",
                                details={"available": str(total), "amount": str(amount)})

    async def estimate_fee(self, *, currency: Currency, amount: int | None = None,
                           from_address: str | None = None, fee_rate: int | None = None) -> FeeEstimate:
        self._check_currency(currency)
        rate = fee_rate or self.fee_rate
        if from_address is not None and amount:
            selection = self.select_coins(await self.spendable(self.normalize_address(from_address)), amount, rate)
            return FeeEstimate(fee=selection.fee, fee_currency_id=currency.id, fee_rate_sat_per_vb=rate,
                               vsize=selection.vsize)
        size = vsize(1, 2)
        return FeeEstimate(fee=size * rate, fee_currency_id=currency.id, fee_rate_sat_per_vb=rate, vsize=size)

    async def build_transfer(self, *, currency: Currency, from_address: str, public_key: bytes,
                             to_address: str, amount: int, fee_rate: int | None = None) -> UnsignedTransfer:
        self._check_currency(currency)
        sender = self.normalize_address(from_address)
        if self.address_from_public_key(public_key) != sender:
            raise TransferRejected("the public key does not belong to the sending address", code="INVALID_SENDER")
        if amount < self.dust_limit:
            raise TransferRejected(f"amount must be at least the dust limit {self.dust_limit}", code="AMOUNT_BELOW_DUST")
        rate = fee_rate or self.fee_rate
        if rate < self.min_fee_rate:
            raise TransferRejected(f"fee rate must be at least {self.min_fee_rate} sat/vB", code="FEE_RATE_TOO_LOW")
        selection = self.select_coins(await self.spendable(sender), amount, rate)
        outputs = [{"address": self.normalize_address(to_address), "amount": str(amount)}]
        if selection.change:
            outputs.append({"address": sender, "amount": str(selection.change)})
        body = {
            "type": "utxo-transfer", "network": self.network.id, "from": sender,
            "inputs": [{"tx_hash": u.tx_hash, "index": u.output_index, "amount": str(int(u.amount))}
                       for u in selection.inputs],
            "outputs": outputs, "fee_rate": rate, "public_key": bytes(public_key).hex(),
        }
        return UnsignedTransfer(network_id=self.network.id, body=body,
                                signing_payload=signing_payload(self.network.id, body), amount=amount,
                                fee_limit=selection.fee, fee_currency_id=currency.id)

    # --- submitting ----------------------------------------------------------------------------

    def transaction_hash(self, *, body: dict[str, Any], signature: bytes) -> str:
        return transaction_hash(self.network.id, signing_payload(self.network.id, body), bytes(signature))

    async def transfer_status(self, tx_hash: str) -> TransferStatus:
        return await transfer_status(self.network.id, tx_hash)

    async def submit_transfer(self, *, body: dict[str, Any], signature: bytes) -> str:
        if not isinstance(body, dict) or body.get("type") != "utxo-transfer" or body.get("network") != self.network.id:
            raise malformed(f"type must be utxo-transfer on {self.network.id}")
        sender = body.get("from")
        try:
            if self.normalize_address(sender) != sender:  # type: ignore[arg-type]  # checked above
                raise malformed("from must be a lowercase address")
        except addresses.InvalidAddress:
            raise malformed("from is not an address of this network") from None
        inputs, outputs = body.get("inputs"), body.get("outputs")
        if not isinstance(inputs, list) or not 1 <= len(inputs) <= MAX_INPUTS:
            raise malformed(f"inputs must be a list of 1 to {MAX_INPUTS}")
        if not isinstance(outputs, list) or not 1 <= len(outputs) <= 100:
            raise malformed("outputs must be a list of 1 to 100")
        int_field(body, "fee_rate")
        refs: list[tuple[str, int, int]] = []
        for item in inputs:
            if not isinstance(item, dict) or not isinstance(item.get("tx_hash"), str):
                raise malformed("each input names tx_hash, index and amount")
            refs.append((item["tx_hash"], int_field(item, "index"), amount_field(item, "amount")))
        if len(set((h, i) for h, i, _ in refs)) != len(refs):
            raise malformed("an input is listed twice")
        paid: list[tuple[str, int]] = []
        for item in outputs:
            if not isinstance(item, dict):
                raise malformed("each output names address and amount")
            try:
                address = self.normalize_address(item.get("address"))  # type: ignore[arg-type]  # checked above
            except addresses.InvalidAddress:
                raise malformed("an output address is not an address of this network") from None
            value = amount_field(item, "amount", minimum=1)
            if value < self.dust_limit:
                raise TransferRejected(f"outputs must be at least the dust limit {self.dust_limit}",
                                       code="AMOUNT_BELOW_DUST")
            paid.append((address, value))
        payload = verify_sender(self, body, signature)
        tx_hash = transaction_hash(self.network.id, payload, bytes(signature))
        if await DevnetTransaction.exists(network=self.network.id, tx_hash=tx_hash):
            return tx_hash
        total_in = 0
        for ref_hash, ref_index, ref_amount in refs:
            utxo = await DevnetUtxo.filter(network=self.network.id, tx_hash=ref_hash,
                                           output_index=ref_index).select_for_update().first()
            if utxo is None or utxo.address != sender or int(utxo.amount) != ref_amount:
                raise TransferRejected("an input does not exist or does not belong to the sender",
                                       code="UNKNOWN_INPUT", details={"tx_hash": ref_hash, "index": ref_index})
            if utxo.spent_by is not None:
                raise TransferRejected("an input is already spent", code="DOUBLE_SPEND",
                                       details={"tx_hash": ref_hash, "index": ref_index})
            total_in += ref_amount
        total_out = sum(value for _, value in paid)
        fee = total_in - total_out
        minimum = vsize(len(refs), len(paid)) * self.min_fee_rate
        if fee < minimum:
            raise InsufficientFunds(f"inputs minus outputs must pay a fee of at least {minimum}",
                                    code="FEE_TOO_LOW" if total_in >= total_out else "INSUFFICIENT_FUNDS",
                                    details={"fee": str(fee), "minimum_fee": str(minimum)})
        for ref_hash, ref_index, _ in refs:
            await DevnetUtxo.filter(network=self.network.id, tx_hash=ref_hash, output_index=ref_index).update(
                spent_by=tx_hash)
        recipients = [(a, v) for a, v in paid if a != sender] or paid
        await DevnetTransaction.create(
            network=self.network.id, tx_hash=tx_hash, kind="transfer", from_address=sender,
            to_address=recipients[0][0], amount=sum(v for _, v in recipients), fee=fee, body=body,
            signature=bytes(signature),
        )
        return tx_hash

    async def faucet_transaction(self, *, to_address: str, currency: Currency, amount: int, salt: bytes) -> str:
        self._check_currency(currency)
        if amount < self.dust_limit:
            raise TransferRejected(f"amount must be at least the dust limit {self.dust_limit}", code="AMOUNT_BELOW_DUST")
        tx_hash = hashlib.sha256(b"faucet" + self.network.id.encode() + to_address.encode() + salt).hexdigest()
        await DevnetTransaction.create(
            network=self.network.id, tx_hash=tx_hash, kind="faucet", from_address=faucet_address(self),
            to_address=to_address, amount=amount, fee=0,
            body={"type": "faucet", "outputs": [{"address": to_address, "amount": str(amount)}]},
        )
        return tx_hash

    # --- mining --------------------------------------------------------------------------------

    async def apply(self, tx: DevnetTransaction, *, height: int) -> bool:
        """Create the outputs and settle the reserved inputs (inputs were checked at submission)."""
        for index, output in enumerate(tx.body["outputs"]):
            await DevnetUtxo.create(network=self.network.id, tx_hash=tx.tx_hash, output_index=index,
                                    address=output["address"], amount=int(output["amount"]), created_height=height)
        if tx.kind == "transfer":
            await DevnetUtxo.filter(network=self.network.id, spent_by=tx.tx_hash).update(spent_height=height)
        tx.status = "confirmed"
        return True

    # --- reading -------------------------------------------------------------------------------

    async def latest_height(self) -> int:
        return await latest_height(self.network.id)

    async def read_block(self, height: int) -> Block | None:
        block = await DevnetBlock.get_or_none(network=self.network.id, height=height)
        if block is None:
            return None
        transfers: list[Transfer] = []
        currency_id = self.network.native_currency_id
        for tx in await DevnetTransaction.filter(network=self.network.id, block_height=height).order_by("block_index"):
            # One transfer per recipient address; outputs back to the sender are change, not a transfer.
            per_address: dict[str, int] = {}
            for output in tx.body["outputs"]:
                if output["address"] != tx.from_address:
                    per_address[output["address"]] = per_address.get(output["address"], 0) + int(output["amount"])
            for address, amount in per_address.items():
                transfers.append(Transfer(
                    tx_hash=tx.tx_hash, index=len(transfers), from_address=tx.from_address, to_address=address,
                    currency_id=currency_id, amount=amount, fee=int(tx.fee), fee_currency_id=currency_id,
                ))
        return Block(network_id=self.network.id, height=height, hash=block.hash, parent_hash=block.parent_hash,
                     time=block.produced_at, transfers=transfers)

    async def incoming_transfers(self, *, address: str, currency: Currency, up_to_height: int) -> list[Block]:
        """The blocks up to ``up_to_height`` with outputs to ``address`` (change excluded, as
        ``read_block`` excludes it), each with only its transfers to ``address``."""
        self._check_currency(currency)
        address = self.normalize_address(address)
        heights = await DevnetUtxo.filter(network=self.network.id, address=address,
                                          created_height__lte=up_to_height).distinct().values_list(
            "created_height", flat=True)
        return await blocks_received(self, sorted({int(h) for h in heights}), address, currency)  # type: ignore[call-overload]  # flat values_list

    async def balance_of(self, *, address: str, currency: Currency) -> int:
        self._check_currency(currency)
        result = await DevnetUtxo.filter(network=self.network.id, address=self.normalize_address(address),
                                         spent_height__isnull=True).annotate(total=Sum("amount")).first().values("total")
        return int(result["total"] or 0) if result else 0
