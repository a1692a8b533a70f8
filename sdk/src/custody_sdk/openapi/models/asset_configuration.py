from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AssetConfiguration")


@_attrs_define
class AssetConfiguration:
    """Per-asset configuration of the gas station (spec: currency_id, gas_station_id, threshold,
    cap, max_gas_price, is_default).

        Attributes:
            currency_id (str):
            gas_station_id (UUID):
            threshold (None | str): null while the platform has no default and none was set: the asset is not refuelled
                until cap and threshold are set.
            cap (None | str): null while unset (see threshold).
            max_gas_price (str): -1: no limit; 0: no fee allowed; n: the highest fee of one refuel.
            daily_budget (str): Beyond the spec: most sent per rolling 24 hours; -1: no budget.
            is_default (bool): true while the platform's default parameters are in use.
    """

    currency_id: str
    gas_station_id: UUID
    threshold: None | str
    cap: None | str
    max_gas_price: str
    daily_budget: str
    is_default: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency_id = self.currency_id

        gas_station_id = str(self.gas_station_id)

        threshold: None | str
        threshold = self.threshold

        cap: None | str
        cap = self.cap

        max_gas_price = self.max_gas_price

        daily_budget = self.daily_budget

        is_default = self.is_default

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency_id": currency_id,
                "gas_station_id": gas_station_id,
                "threshold": threshold,
                "cap": cap,
                "max_gas_price": max_gas_price,
                "daily_budget": daily_budget,
                "is_default": is_default,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        currency_id = d.pop("currency_id")

        gas_station_id = UUID(d.pop("gas_station_id"))

        def _parse_threshold(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        threshold = _parse_threshold(d.pop("threshold"))

        def _parse_cap(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cap = _parse_cap(d.pop("cap"))

        max_gas_price = d.pop("max_gas_price")

        daily_budget = d.pop("daily_budget")

        is_default = d.pop("is_default")

        asset_configuration = cls(
            currency_id=currency_id,
            gas_station_id=gas_station_id,
            threshold=threshold,
            cap=cap,
            max_gas_price=max_gas_price,
            daily_budget=daily_budget,
            is_default=is_default,
        )

        asset_configuration.additional_properties = d
        return asset_configuration

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
