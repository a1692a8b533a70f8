from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="InvitationAccept")


@_attrs_define
class InvitationAccept:
    """
    Attributes:
        token (str): The invitation secret from the email.
        first_name (None | str | Unset): A new person's first name (default: the invitation's).
        last_name (None | str | Unset): A new person's last name (default: the invitation's).
    """

    token: str
    first_name: None | str | Unset = UNSET
    last_name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        token = self.token

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
                "token": token,
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
        token = d.pop("token")

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

        invitation_accept = cls(
            token=token,
            first_name=first_name,
            last_name=last_name,
        )

        return invitation_accept
