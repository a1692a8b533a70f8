from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="OwnershipTransferStart")


@_attrs_define
class OwnershipTransferStart:
    """
    Attributes:
        new_owner_id (UUID): The member who is to become owner; they must accept.
    """

    new_owner_id: UUID

    def to_dict(self) -> dict[str, Any]:
        new_owner_id = str(self.new_owner_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "new_owner_id": new_owner_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        new_owner_id = UUID(d.pop("new_owner_id"))

        ownership_transfer_start = cls(
            new_owner_id=new_owner_id,
        )

        return ownership_transfer_start
