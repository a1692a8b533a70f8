from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ApprovalVote")


@_attrs_define
class ApprovalVote:
    """
    Attributes:
        user_id (UUID):
        device_id (UUID):
        vote (str):
        reason (None | str):
        created_at (datetime.datetime):
    """

    user_id: UUID
    device_id: UUID
    vote: str
    reason: None | str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user_id = str(self.user_id)

        device_id = str(self.device_id)

        vote = self.vote

        reason: None | str
        reason = self.reason

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user_id": user_id,
                "device_id": device_id,
                "vote": vote,
                "reason": reason,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_id = UUID(d.pop("user_id"))

        device_id = UUID(d.pop("device_id"))

        vote = d.pop("vote")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        approval_vote = cls(
            user_id=user_id,
            device_id=device_id,
            vote=vote,
            reason=reason,
            created_at=created_at,
        )

        approval_vote.additional_properties = d
        return approval_vote

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
