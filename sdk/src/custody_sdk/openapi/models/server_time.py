from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ServerTime")


@_attrs_define
class ServerTime:
    """
    Attributes:
        unix_milliseconds (str): Server time in unix milliseconds (a string).
        unix_seconds (str): Server time in unix seconds (a string); sign token requests with it.
    """

    unix_milliseconds: str
    unix_seconds: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        unix_milliseconds = self.unix_milliseconds

        unix_seconds = self.unix_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "unix_milliseconds": unix_milliseconds,
                "unix_seconds": unix_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        unix_milliseconds = d.pop("unix_milliseconds")

        unix_seconds = d.pop("unix_seconds")

        server_time = cls(
            unix_milliseconds=unix_milliseconds,
            unix_seconds=unix_seconds,
        )

        server_time.additional_properties = d
        return server_time

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
