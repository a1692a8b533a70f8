from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HypotheticalWithdrawal")


@_attrs_define
class HypotheticalWithdrawal:
    """
    Attributes:
        amount (str): Atomic units of the source wallet's currency.
        source_wallet_id (UUID):
        target_address (str):
        target_wallet_id (None | Unset | UUID):
        target_whitelisted_asset_id (None | Unset | UUID):
        initiator_user_id (None | Unset | UUID): Who would create it (default: the caller).
    """

    amount: str
    source_wallet_id: UUID
    target_address: str
    target_wallet_id: None | Unset | UUID = UNSET
    target_whitelisted_asset_id: None | Unset | UUID = UNSET
    initiator_user_id: None | Unset | UUID = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        source_wallet_id = str(self.source_wallet_id)

        target_address = self.target_address

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

        initiator_user_id: None | str | Unset
        if isinstance(self.initiator_user_id, Unset):
            initiator_user_id = UNSET
        elif isinstance(self.initiator_user_id, UUID):
            initiator_user_id = str(self.initiator_user_id)
        else:
            initiator_user_id = self.initiator_user_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "source_wallet_id": source_wallet_id,
                "target_address": target_address,
            }
        )
        if target_wallet_id is not UNSET:
            field_dict["target_wallet_id"] = target_wallet_id
        if target_whitelisted_asset_id is not UNSET:
            field_dict["target_whitelisted_asset_id"] = target_whitelisted_asset_id
        if initiator_user_id is not UNSET:
            field_dict["initiator_user_id"] = initiator_user_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        source_wallet_id = UUID(d.pop("source_wallet_id"))

        target_address = d.pop("target_address")

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

        def _parse_initiator_user_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                initiator_user_id_type_0 = UUID(data)

                return initiator_user_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        initiator_user_id = _parse_initiator_user_id(d.pop("initiator_user_id", UNSET))

        hypothetical_withdrawal = cls(
            amount=amount,
            source_wallet_id=source_wallet_id,
            target_address=target_address,
            target_wallet_id=target_wallet_id,
            target_whitelisted_asset_id=target_whitelisted_asset_id,
            initiator_user_id=initiator_user_id,
        )

        return hypothetical_withdrawal
