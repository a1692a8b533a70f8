from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="WhitelistSettingsUpdate")


@_attrs_define
class WhitelistSettingsUpdate:
    """
    Attributes:
        one_time_addresses_allowed (bool): Whether withdrawals may go to an address that is neither internal nor
            whitelisted.
    """

    one_time_addresses_allowed: bool

    def to_dict(self) -> dict[str, Any]:
        one_time_addresses_allowed = self.one_time_addresses_allowed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "one_time_addresses_allowed": one_time_addresses_allowed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        one_time_addresses_allowed = d.pop("one_time_addresses_allowed")

        whitelist_settings_update = cls(
            one_time_addresses_allowed=one_time_addresses_allowed,
        )

        return whitelist_settings_update
