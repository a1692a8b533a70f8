from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookAttempt")


@_attrs_define
class WebhookAttempt:
    """
    Attributes:
        attempt (int):
        started_at (datetime.datetime):
        duration_ms (int):
        response_status_code (int | None):
        response_body (None | str): First 4 KB of the response body (invalid UTF-8 replaced).
        error (None | str):
        succeeded (bool):
    """

    attempt: int
    started_at: datetime.datetime
    duration_ms: int
    response_status_code: int | None
    response_body: None | str
    error: None | str
    succeeded: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        started_at = self.started_at.isoformat()

        duration_ms = self.duration_ms

        response_status_code: int | None
        response_status_code = self.response_status_code

        response_body: None | str
        response_body = self.response_body

        error: None | str
        error = self.error

        succeeded = self.succeeded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt": attempt,
                "started_at": started_at,
                "duration_ms": duration_ms,
                "response_status_code": response_status_code,
                "response_body": response_body,
                "error": error,
                "succeeded": succeeded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        duration_ms = d.pop("duration_ms")

        def _parse_response_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status_code = _parse_response_status_code(d.pop("response_status_code"))

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("response_body"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        succeeded = d.pop("succeeded")

        webhook_attempt = cls(
            attempt=attempt,
            started_at=started_at,
            duration_ms=duration_ms,
            response_status_code=response_status_code,
            response_body=response_body,
            error=error,
            succeeded=succeeded,
        )

        webhook_attempt.additional_properties = d
        return webhook_attempt

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
