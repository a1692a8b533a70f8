from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.converted_balances import ConvertedBalances
    from ..models.symbol_balance import SymbolBalance


T = TypeVar("T", bound="WorkspaceBalances")


@_attrs_define
class WorkspaceBalances:
    """
    Attributes:
        converted_balances (ConvertedBalances): The fiat value of a balance (from the price table, as of
            ``relevant_on``).
        symbol_balances (list[SymbolBalance]):
    """

    converted_balances: ConvertedBalances
    symbol_balances: list[SymbolBalance]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        converted_balances = self.converted_balances.to_dict()

        symbol_balances = []
        for symbol_balances_item_data in self.symbol_balances:
            symbol_balances_item = symbol_balances_item_data.to_dict()
            symbol_balances.append(symbol_balances_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "converted_balances": converted_balances,
                "symbol_balances": symbol_balances,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.converted_balances import ConvertedBalances  # noqa: PLC0415
        from ..models.symbol_balance import SymbolBalance  # noqa: PLC0415

        d = dict(src_dict)
        converted_balances = ConvertedBalances.from_dict(d.pop("converted_balances"))

        symbol_balances = []
        _symbol_balances = d.pop("symbol_balances")
        for symbol_balances_item_data in _symbol_balances:
            symbol_balances_item = SymbolBalance.from_dict(symbol_balances_item_data)

            symbol_balances.append(symbol_balances_item)

        workspace_balances = cls(
            converted_balances=converted_balances,
            symbol_balances=symbol_balances,
        )

        workspace_balances.additional_properties = d
        return workspace_balances

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
