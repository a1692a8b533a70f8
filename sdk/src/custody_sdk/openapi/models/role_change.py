from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.role_change_role import RoleChangeRole, check_role_change_role

T = TypeVar("T", bound="RoleChange")


@_attrs_define
class RoleChange:
    """
    Attributes:
        role (RoleChangeRole): A role whose permissions are a subset of the caller's; never OWNER, which passes only by
            an ownership transfer (403 ROLE_NOT_GRANTABLE otherwise). The member's current role must be such a subset too;
            the owner's role changes only by a transfer.
    """

    role: RoleChangeRole

    def to_dict(self) -> dict[str, Any]:
        role: str = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = check_role_change_role(d.pop("role"))

        role_change = cls(
            role=role,
        )

        return role_change
