from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.quorum_action_fixed_mode import (
    QuorumActionFixedMode,
    check_quorum_action_fixed_mode,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="QuorumAction")


@_attrs_define
class QuorumAction:
    """
    Attributes:
        key (str):
        display_name (str):
        operations (list[str]):
        fixed_mode (None | QuorumActionFixedMode | Unset):
    """

    key: str
    display_name: str
    operations: list[str]
    fixed_mode: None | QuorumActionFixedMode | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        display_name = self.display_name

        operations = self.operations

        fixed_mode: None | str | Unset
        if isinstance(self.fixed_mode, Unset):
            fixed_mode = UNSET
        elif isinstance(self.fixed_mode, str):
            fixed_mode = self.fixed_mode
        else:
            fixed_mode = self.fixed_mode

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key": key,
                "display_name": display_name,
                "operations": operations,
            }
        )
        if fixed_mode is not UNSET:
            field_dict["fixed_mode"] = fixed_mode

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        display_name = d.pop("display_name")

        operations = cast(list[str], d.pop("operations"))

        def _parse_fixed_mode(data: object) -> None | QuorumActionFixedMode | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fixed_mode_type_1 = check_quorum_action_fixed_mode(data)

                return fixed_mode_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuorumActionFixedMode | Unset, data)

        fixed_mode = _parse_fixed_mode(d.pop("fixed_mode", UNSET))

        quorum_action = cls(
            key=key,
            display_name=display_name,
            operations=operations,
            fixed_mode=fixed_mode,
        )

        quorum_action.additional_properties = d
        return quorum_action

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
