from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.company_application_status import (
    CompanyApplicationStatus,
    check_company_application_status,
)

T = TypeVar("T", bound="CompanyApplication")


@_attrs_define
class CompanyApplication:
    """
    Attributes:
        id (UUID):
        status (CompanyApplicationStatus): submitted, then in_review once taken up.
        created_at (datetime.datetime):
    """

    id: UUID
    status: CompanyApplicationStatus
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        status: str = self.status

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = check_company_application_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        company_application = cls(
            id=id,
            status=status,
            created_at=created_at,
        )

        company_application.additional_properties = d
        return company_application

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
