from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AssetConfigurationUpdate")


@_attrs_define
class AssetConfigurationUpdate:
    """A partial update: a field left out (or null) stays as it is.

    Attributes:
        cap (None | str | Unset): Target balance: a refuel adds cap minus the current balance. cap >= threshold > 0.
        threshold (None | str | Unset): A refuel starts when the available gas balance at an address falls below it.
        max_gas_price (None | str | Unset): The highest network fee one refuel may cost: -1 no limit, 0 no fee allowed,
            n refuel only if the fee is at most n (else the refuel waits and is retried later).
        daily_budget (None | str | Unset): Beyond the spec: the most the station sends of this asset per rolling 24
            hours; -1 no budget. 0 is refused.
    """

    cap: None | str | Unset = UNSET
    threshold: None | str | Unset = UNSET
    max_gas_price: None | str | Unset = UNSET
    daily_budget: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        cap: None | str | Unset
        if isinstance(self.cap, Unset):
            cap = UNSET
        else:
            cap = self.cap

        threshold: None | str | Unset
        if isinstance(self.threshold, Unset):
            threshold = UNSET
        else:
            threshold = self.threshold

        max_gas_price: None | str | Unset
        if isinstance(self.max_gas_price, Unset):
            max_gas_price = UNSET
        else:
            max_gas_price = self.max_gas_price

        daily_budget: None | str | Unset
        if isinstance(self.daily_budget, Unset):
            daily_budget = UNSET
        else:
            daily_budget = self.daily_budget

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if cap is not UNSET:
            field_dict["cap"] = cap
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if max_gas_price is not UNSET:
            field_dict["max_gas_price"] = max_gas_price
        if daily_budget is not UNSET:
            field_dict["daily_budget"] = daily_budget

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_cap(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cap = _parse_cap(d.pop("cap", UNSET))

        def _parse_threshold(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        threshold = _parse_threshold(d.pop("threshold", UNSET))

        def _parse_max_gas_price(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        max_gas_price = _parse_max_gas_price(d.pop("max_gas_price", UNSET))

        def _parse_daily_budget(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        daily_budget = _parse_daily_budget(d.pop("daily_budget", UNSET))

        asset_configuration_update = cls(
            cap=cap,
            threshold=threshold,
            max_gas_price=max_gas_price,
            daily_budget=daily_budget,
        )

        return asset_configuration_update
