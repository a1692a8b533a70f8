from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.exposure import Exposure


T = TypeVar("T", bound="AddressExposure")


@_attrs_define
class AddressExposure:
    """
    Attributes:
        network_id (str):
        address (str):
        exposures (list[Exposure]):
        note (None | str | Unset):
    """

    network_id: str
    address: str
    exposures: list[Exposure]
    note: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        network_id = self.network_id

        address = self.address

        exposures = []
        for exposures_item_data in self.exposures:
            exposures_item = exposures_item_data.to_dict()
            exposures.append(exposures_item)

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "network_id": network_id,
                "address": address,
                "exposures": exposures,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.exposure import Exposure  # noqa: PLC0415

        d = dict(src_dict)
        network_id = d.pop("network_id")

        address = d.pop("address")

        exposures = []
        _exposures = d.pop("exposures")
        for exposures_item_data in _exposures:
            exposures_item = Exposure.from_dict(exposures_item_data)

            exposures.append(exposures_item)

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        address_exposure = cls(
            network_id=network_id,
            address=address,
            exposures=exposures,
            note=note,
        )

        return address_exposure
