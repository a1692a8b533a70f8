from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="OwnerEnrollmentCancel")


@_attrs_define
class OwnerEnrollmentCancel:
    """
    Attributes:
        tenant_uuid (UUID): The workspace whose pending owner enrollments end.
    """

    tenant_uuid: UUID

    def to_dict(self) -> dict[str, Any]:
        tenant_uuid = str(self.tenant_uuid)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tenant_uuid": tenant_uuid,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_uuid = UUID(d.pop("tenant_uuid"))

        owner_enrollment_cancel = cls(
            tenant_uuid=tenant_uuid,
        )

        return owner_enrollment_cancel
