from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.address import Address
    from ..models.balances import Balances
    from ..models.converted_balance import ConvertedBalance
    from ..models.converted_balances import ConvertedBalances
    from ..models.currency import Currency


T = TypeVar("T", bound="Asset")


@_attrs_define
class Asset:
    """A wallet: one currency in one vault, its receiving address and its balance.

    Attributes:
        id (UUID):
        vault_id (UUID):
        workspace_id (UUID):
        currency (Currency): CurrencyView, plus the network it lives on and its token contract.
        decimals (int):
        status (str):
        primary_address (Address):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        balances (Balances): A wallet's balance with the block height it reflects.
        converted_balances (ConvertedBalances | None): Fiat value; null without a price.
        balance (str): Earlier form: the total balance.
        balance_atomic (str):
        converted_balance (ConvertedBalance | None):
    """

    id: UUID
    vault_id: UUID
    workspace_id: UUID
    currency: Currency
    decimals: int
    status: str
    primary_address: Address
    created_at: datetime.datetime
    updated_at: datetime.datetime
    balances: Balances
    converted_balances: ConvertedBalances | None
    balance: str
    balance_atomic: str
    converted_balance: ConvertedBalance | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.converted_balance import ConvertedBalance  # noqa: PLC0415
        from ..models.converted_balances import ConvertedBalances  # noqa: PLC0415

        id = str(self.id)

        vault_id = str(self.vault_id)

        workspace_id = str(self.workspace_id)

        currency = self.currency.to_dict()

        decimals = self.decimals

        status = self.status

        primary_address = self.primary_address.to_dict()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        balances = self.balances.to_dict()

        converted_balances: dict[str, Any] | None
        if isinstance(self.converted_balances, ConvertedBalances):
            converted_balances = self.converted_balances.to_dict()
        else:
            converted_balances = self.converted_balances

        balance = self.balance

        balance_atomic = self.balance_atomic

        converted_balance: dict[str, Any] | None
        if isinstance(self.converted_balance, ConvertedBalance):
            converted_balance = self.converted_balance.to_dict()
        else:
            converted_balance = self.converted_balance

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "vault_id": vault_id,
                "workspace_id": workspace_id,
                "currency": currency,
                "decimals": decimals,
                "status": status,
                "primary_address": primary_address,
                "created_at": created_at,
                "updated_at": updated_at,
                "balances": balances,
                "converted_balances": converted_balances,
                "balance": balance,
                "balance_atomic": balance_atomic,
                "converted_balance": converted_balance,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.address import Address  # noqa: PLC0415
        from ..models.balances import Balances  # noqa: PLC0415
        from ..models.converted_balance import ConvertedBalance  # noqa: PLC0415
        from ..models.converted_balances import ConvertedBalances  # noqa: PLC0415
        from ..models.currency import Currency  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        vault_id = UUID(d.pop("vault_id"))

        workspace_id = UUID(d.pop("workspace_id"))

        currency = Currency.from_dict(d.pop("currency"))

        decimals = d.pop("decimals")

        status = d.pop("status")

        primary_address = Address.from_dict(d.pop("primary_address"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        balances = Balances.from_dict(d.pop("balances"))

        def _parse_converted_balances(data: object) -> ConvertedBalances | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                converted_balances_type_1 = ConvertedBalances.from_dict(data)

                return converted_balances_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConvertedBalances | None, data)

        converted_balances = _parse_converted_balances(d.pop("converted_balances"))

        balance = d.pop("balance")

        balance_atomic = d.pop("balance_atomic")

        def _parse_converted_balance(data: object) -> ConvertedBalance | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                converted_balance_type_1 = ConvertedBalance.from_dict(data)

                return converted_balance_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ConvertedBalance | None, data)

        converted_balance = _parse_converted_balance(d.pop("converted_balance"))

        asset = cls(
            id=id,
            vault_id=vault_id,
            workspace_id=workspace_id,
            currency=currency,
            decimals=decimals,
            status=status,
            primary_address=primary_address,
            created_at=created_at,
            updated_at=updated_at,
            balances=balances,
            converted_balances=converted_balances,
            balance=balance,
            balance_atomic=balance_atomic,
            converted_balance=converted_balance,
        )

        asset.additional_properties = d
        return asset

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
