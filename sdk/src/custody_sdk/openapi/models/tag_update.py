from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TagUpdate")


@_attrs_define
class TagUpdate:
    """Any of the fields; an absent field stays as it is, null clears description or color.

    Attributes:
        label (str | Unset): 2 to 32 characters: Latin or Cyrillic letters, digits, underscore, hyphen and spaces
            (surrounding spaces are trimmed); unique in the workspace, ignoring case.
        description (None | str | Unset): 1 to 255 characters, trimmed; an empty string is refused. null clears it.
        color (None | str | Unset): Hex color #rrggbb; answered in lower case. An empty string is refused. null clears
            it.
    """

    label: str | Unset = UNSET
    description: None | str | Unset = UNSET
    color: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        label = self.label

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        color: None | str | Unset
        if isinstance(self.color, Unset):
            color = UNSET
        else:
            color = self.color

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if label is not UNSET:
            field_dict["label"] = label
        if description is not UNSET:
            field_dict["description"] = description
        if color is not UNSET:
            field_dict["color"] = color

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        label = d.pop("label", UNSET)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        color = _parse_color(d.pop("color", UNSET))

        tag_update = cls(
            label=label,
            description=description,
            color=color,
        )

        return tag_update
