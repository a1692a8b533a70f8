from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.balance_amounts import BalanceAmounts


T = TypeVar("T", bound="WalletBalance")


@_attrs_define
class WalletBalance:
    """
    Attributes:
        wallet_id (UUID):
        vault_id (UUID):
        currency_id (str):
        network_id (str):
        address (str):
        balance_version (int):
        balance (BalanceAmounts): available, frozen, held and total, each in whole units and in atomic units (strings).

            ``frozen`` is the frozen part, ``held`` the sum of outgoing transactions in flight;
            ``available`` is already reduced by both.
        block_height (int | None):
    """

    wallet_id: UUID
    vault_id: UUID
    currency_id: str
    network_id: str
    address: str
    balance_version: int
    balance: BalanceAmounts
    block_height: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        wallet_id = str(self.wallet_id)

        vault_id = str(self.vault_id)

        currency_id = self.currency_id

        network_id = self.network_id

        address = self.address

        balance_version = self.balance_version

        balance = self.balance.to_dict()

        block_height: int | None
        block_height = self.block_height

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "wallet_id": wallet_id,
                "vault_id": vault_id,
                "currency_id": currency_id,
                "network_id": network_id,
                "address": address,
                "balance_version": balance_version,
                "balance": balance,
                "block_height": block_height,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balance_amounts import BalanceAmounts  # noqa: PLC0415

        d = dict(src_dict)
        wallet_id = UUID(d.pop("wallet_id"))

        vault_id = UUID(d.pop("vault_id"))

        currency_id = d.pop("currency_id")

        network_id = d.pop("network_id")

        address = d.pop("address")

        balance_version = d.pop("balance_version")

        balance = BalanceAmounts.from_dict(d.pop("balance"))

        def _parse_block_height(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        block_height = _parse_block_height(d.pop("block_height"))

        wallet_balance = cls(
            wallet_id=wallet_id,
            vault_id=vault_id,
            currency_id=currency_id,
            network_id=network_id,
            address=address,
            balance_version=balance_version,
            balance=balance,
            block_height=block_height,
        )

        wallet_balance.additional_properties = d
        return wallet_balance

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
