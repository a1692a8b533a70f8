from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TransactionCreate")


@_attrs_define
class TransactionCreate:
    """A withdrawal: ``amount`` of the source wallet's currency to ``target_address``.

    Attributes:
        amount (str): Required. The amount, an integer string of atomic units (the currency's smallest unit), e.g.
            "1500000" for 1.5 of a 6-decimal token; no sign, decimal point, exponent, spaces or leading zeros, and not a
            JSON number.
        source_wallet_id (UUID): Required. The wallet (of this workspace) to send from.
        target_address (str): Required. The destination address on the currency's network.
        fee (None | str | Unset): The most the network fee may be, in atomic units of the fee asset (gas networks: sets
            the gas price to fee // gas limit; UTXO: must cover the estimate). Default: the network's estimate (UTXO: plus
            half again).
        fee_rate_sat_per_vb (None | str | Unset): UTXO networks only: the fee rate in sat/vB (default: the network's).
        target_wallet_id (None | Unset | UUID): An internal transfer: the wallet of this workspace at target_address.
        target_whitelisted_asset_id (None | Unset | UUID): A whitelisted wallet at target_address.
    """

    amount: str
    source_wallet_id: UUID
    target_address: str
    fee: None | str | Unset = UNSET
    fee_rate_sat_per_vb: None | str | Unset = UNSET
    target_wallet_id: None | Unset | UUID = UNSET
    target_whitelisted_asset_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        source_wallet_id = str(self.source_wallet_id)

        target_address = self.target_address

        fee: None | str | Unset
        if isinstance(self.fee, Unset):
            fee = UNSET
        else:
            fee = self.fee

        fee_rate_sat_per_vb: None | str | Unset
        if isinstance(self.fee_rate_sat_per_vb, Unset):
            fee_rate_sat_per_vb = UNSET
        else:
            fee_rate_sat_per_vb = self.fee_rate_sat_per_vb

        target_wallet_id: None | str | Unset
        if isinstance(self.target_wallet_id, Unset):
            target_wallet_id = UNSET
        elif isinstance(self.target_wallet_id, UUID):
            target_wallet_id = str(self.target_wallet_id)
        else:
            target_wallet_id = self.target_wallet_id

        target_whitelisted_asset_id: None | str | Unset
        if isinstance(self.target_whitelisted_asset_id, Unset):
            target_whitelisted_asset_id = UNSET
        elif isinstance(self.target_whitelisted_asset_id, UUID):
            target_whitelisted_asset_id = str(self.target_whitelisted_asset_id)
        else:
            target_whitelisted_asset_id = self.target_whitelisted_asset_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "source_wallet_id": source_wallet_id,
                "target_address": target_address,
            }
        )
        if fee is not UNSET:
            field_dict["fee"] = fee
        if fee_rate_sat_per_vb is not UNSET:
            field_dict["fee_rate_sat_per_vb"] = fee_rate_sat_per_vb
        if target_wallet_id is not UNSET:
            field_dict["target_wallet_id"] = target_wallet_id
        if target_whitelisted_asset_id is not UNSET:
            field_dict["target_whitelisted_asset_id"] = target_whitelisted_asset_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        source_wallet_id = UUID(d.pop("source_wallet_id"))

        target_address = d.pop("target_address")

        def _parse_fee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fee = _parse_fee(d.pop("fee", UNSET))

        def _parse_fee_rate_sat_per_vb(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fee_rate_sat_per_vb = _parse_fee_rate_sat_per_vb(d.pop("fee_rate_sat_per_vb", UNSET))

        def _parse_target_wallet_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                target_wallet_id_type_0 = UUID(data)

                return target_wallet_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        target_wallet_id = _parse_target_wallet_id(d.pop("target_wallet_id", UNSET))

        def _parse_target_whitelisted_asset_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                target_whitelisted_asset_id_type_0 = UUID(data)

                return target_whitelisted_asset_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        target_whitelisted_asset_id = _parse_target_whitelisted_asset_id(d.pop("target_whitelisted_asset_id", UNSET))

        transaction_create = cls(
            amount=amount,
            source_wallet_id=source_wallet_id,
            target_address=target_address,
            fee=fee,
            fee_rate_sat_per_vb=fee_rate_sat_per_vb,
            target_wallet_id=target_wallet_id,
            target_whitelisted_asset_id=target_whitelisted_asset_id,
        )

        return transaction_create
