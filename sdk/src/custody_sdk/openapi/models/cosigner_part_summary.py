from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cosigner_part_summary_status import (
    CosignerPartSummaryStatus,
    check_cosigner_part_summary_status,
)

T = TypeVar("T", bound="CosignerPartSummary")


@_attrs_define
class CosignerPartSummary:
    """
    Attributes:
        id (UUID):
        status (CosignerPartSummaryStatus):
    """

    id: UUID
    status: CosignerPartSummaryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        status: str = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = check_cosigner_part_summary_status(d.pop("status"))

        cosigner_part_summary = cls(
            id=id,
            status=status,
        )

        cosigner_part_summary.additional_properties = d
        return cosigner_part_summary

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
