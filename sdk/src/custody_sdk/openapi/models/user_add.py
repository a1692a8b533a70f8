from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.user_add_role import UserAddRole, check_user_add_role
from ..types import UNSET, Unset

T = TypeVar("T", bound="UserAdd")


@_attrs_define
class UserAdd:
    """An invitation: the secret goes to ``email``; the answer echoes only what was sent.

    Attributes:
        email (str): The person's email (lowercased). The invitation's secret is emailed there.
        role (UserAddRole): A role whose permissions are a subset of the caller's; never OWNER, which passes only by an
            ownership transfer (403 ROLE_NOT_GRANTABLE otherwise).
        first_name (None | str | Unset):
        last_name (None | str | Unset):
    """

    email: str
    role: UserAddRole
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role: str = self.role

        first_name: None | str | Unset
        if isinstance(self.first_name, Unset):
            first_name = UNSET
        else:
            first_name = self.first_name

        last_name: None | str | Unset
        if isinstance(self.last_name, Unset):
            last_name = UNSET
        else:
            last_name = self.last_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "role": role,
            }
        )
        if first_name is not UNSET:
            field_dict["first_name"] = first_name
        if last_name is not UNSET:
            field_dict["last_name"] = last_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        email = d.pop("email")

        role = check_user_add_role(d.pop("role"))

        def _parse_first_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        first_name = _parse_first_name(d.pop("first_name", UNSET))

        def _parse_last_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_name = _parse_last_name(d.pop("last_name", UNSET))

        user_add = cls(
            email=email,
            role=role,
            first_name=first_name,
            last_name=last_name,
        )

        return user_add
