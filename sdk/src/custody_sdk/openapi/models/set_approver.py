from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.participant import Participant


T = TypeVar("T", bound="SetApprover")


@_attrs_define
class SetApprover:
    """
    Attributes:
        user_uuid (UUID):
        status (str):
        is_me (bool):
        user (Participant):
        voted_at (datetime.datetime | None | Unset):
    """

    user_uuid: UUID
    status: str
    is_me: bool
    user: Participant
    voted_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user_uuid = str(self.user_uuid)

        status = self.status

        is_me = self.is_me

        user = self.user.to_dict()

        voted_at: None | str | Unset
        if isinstance(self.voted_at, Unset):
            voted_at = UNSET
        elif isinstance(self.voted_at, datetime.datetime):
            voted_at = self.voted_at.isoformat()
        else:
            voted_at = self.voted_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user_uuid": user_uuid,
                "status": status,
                "is_me": is_me,
                "user": user,
            }
        )
        if voted_at is not UNSET:
            field_dict["voted_at"] = voted_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.participant import Participant  # noqa: PLC0415

        d = dict(src_dict)
        user_uuid = UUID(d.pop("user_uuid"))

        status = d.pop("status")

        is_me = d.pop("is_me")

        user = Participant.from_dict(d.pop("user"))

        def _parse_voted_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                voted_at_type_0 = datetime.datetime.fromisoformat(data)

                return voted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        voted_at = _parse_voted_at(d.pop("voted_at", UNSET))

        set_approver = cls(
            user_uuid=user_uuid,
            status=status,
            is_me=is_me,
            user=user,
            voted_at=voted_at,
        )

        set_approver.additional_properties = d
        return set_approver

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
