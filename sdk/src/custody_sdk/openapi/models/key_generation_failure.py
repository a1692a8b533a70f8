from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.key_generation_failure_status import (
    KeyGenerationFailureStatus,
    check_key_generation_failure_status,
)

T = TypeVar("T", bound="KeyGenerationFailure")


@_attrs_define
class KeyGenerationFailure:
    """The key generation after a complaint: failed, naming the participant.

    Attributes:
        key_set_id (UUID):
        status (KeyGenerationFailureStatus):
        failed_participant (int | None):
        failure_reason (None | str):
    """

    key_set_id: UUID
    status: KeyGenerationFailureStatus
    failed_participant: int | None
    failure_reason: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key_set_id = str(self.key_set_id)

        status: str = self.status

        failed_participant: int | None
        failed_participant = self.failed_participant

        failure_reason: None | str
        failure_reason = self.failure_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key_set_id": key_set_id,
                "status": status,
                "failed_participant": failed_participant,
                "failure_reason": failure_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key_set_id = UUID(d.pop("key_set_id"))

        status = check_key_generation_failure_status(d.pop("status"))

        def _parse_failed_participant(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        failed_participant = _parse_failed_participant(d.pop("failed_participant"))

        def _parse_failure_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason"))

        key_generation_failure = cls(
            key_set_id=key_set_id,
            status=status,
            failed_participant=failed_participant,
            failure_reason=failure_reason,
        )

        key_generation_failure.additional_properties = d
        return key_generation_failure

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
