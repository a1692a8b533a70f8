from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TagCreate")


@_attrs_define
class TagCreate:
    """
    Attributes:
        label (str): 2 to 32 characters: Latin or Cyrillic letters, digits, underscore, hyphen and spaces (surrounding
            spaces are trimmed); unique in the workspace, ignoring case.
        description (None | str | Unset): 1 to 255 characters, trimmed; an empty string is refused. Leave it out for
            none.
        color (None | str | Unset): Hex color #rrggbb; answered in lower case. An empty string is refused. Leave it out
            for none.
        is_protected (bool | None | Unset): Ignored: every tag is created unprotected (the owner protects it with POST
            /tags/{tag_id}/protect).
    """

    label: str
    description: None | str | Unset = UNSET
    color: None | str | Unset = UNSET
    is_protected: bool | None | Unset = UNSET

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

        is_protected: bool | None | Unset
        if isinstance(self.is_protected, Unset):
            is_protected = UNSET
        else:
            is_protected = self.is_protected

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "label": label,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if color is not UNSET:
            field_dict["color"] = color
        if is_protected is not UNSET:
            field_dict["is_protected"] = is_protected

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        label = d.pop("label")

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

        def _parse_is_protected(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_protected = _parse_is_protected(d.pop("is_protected", UNSET))

        tag_create = cls(
            label=label,
            description=description,
            color=color,
            is_protected=is_protected,
        )

        return tag_create
