from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.gas_station import GasStation


T = TypeVar("T", bound="GasStationState")


@_attrs_define
class GasStationState:
    """
    Attributes:
        configured (bool):
        gas_station (GasStation | None | Unset): Present when configured.
    """

    configured: bool
    gas_station: GasStation | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.gas_station import GasStation  # noqa: PLC0415

        configured = self.configured

        gas_station: dict[str, Any] | None | Unset
        if isinstance(self.gas_station, Unset):
            gas_station = UNSET
        elif isinstance(self.gas_station, GasStation):
            gas_station = self.gas_station.to_dict()
        else:
            gas_station = self.gas_station

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "configured": configured,
            }
        )
        if gas_station is not UNSET:
            field_dict["gas_station"] = gas_station

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.gas_station import GasStation  # noqa: PLC0415

        d = dict(src_dict)
        configured = d.pop("configured")

        def _parse_gas_station(data: object) -> GasStation | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                gas_station_type_1 = GasStation.from_dict(data)

                return gas_station_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GasStation | None | Unset, data)

        gas_station = _parse_gas_station(d.pop("gas_station", UNSET))

        gas_station_state = cls(
            configured=configured,
            gas_station=gas_station,
        )

        gas_station_state.additional_properties = d
        return gas_station_state

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
