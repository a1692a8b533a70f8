from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="VaultTagsChange")


@_attrs_define
class VaultTagsChange:
    """
    Attributes:
        vault_ids (list[UUID]): 1 to 100 vaults (accounts).
        tag_ids_to_attach (list[UUID] | Unset): Up to 20 tags to attach to every vault named.
        tag_ids_to_detach (list[UUID] | Unset): Up to 20 tags to detach from every vault named; none may also be in
            tag_ids_to_attach (400 TAG_ATTACH_DETACH_CONFLICT).
    """

    vault_ids: list[UUID]
    tag_ids_to_attach: list[UUID] | Unset = UNSET
    tag_ids_to_detach: list[UUID] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        vault_ids = []
        for vault_ids_item_data in self.vault_ids:
            vault_ids_item = str(vault_ids_item_data)
            vault_ids.append(vault_ids_item)

        tag_ids_to_attach: list[str] | Unset = UNSET
        if not isinstance(self.tag_ids_to_attach, Unset):
            tag_ids_to_attach = []
            for tag_ids_to_attach_item_data in self.tag_ids_to_attach:
                tag_ids_to_attach_item = str(tag_ids_to_attach_item_data)
                tag_ids_to_attach.append(tag_ids_to_attach_item)

        tag_ids_to_detach: list[str] | Unset = UNSET
        if not isinstance(self.tag_ids_to_detach, Unset):
            tag_ids_to_detach = []
            for tag_ids_to_detach_item_data in self.tag_ids_to_detach:
                tag_ids_to_detach_item = str(tag_ids_to_detach_item_data)
                tag_ids_to_detach.append(tag_ids_to_detach_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "vault_ids": vault_ids,
            }
        )
        if tag_ids_to_attach is not UNSET:
            field_dict["tag_ids_to_attach"] = tag_ids_to_attach
        if tag_ids_to_detach is not UNSET:
            field_dict["tag_ids_to_detach"] = tag_ids_to_detach

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        vault_ids = []
        _vault_ids = d.pop("vault_ids")
        for vault_ids_item_data in _vault_ids:
            vault_ids_item = UUID(vault_ids_item_data)

            vault_ids.append(vault_ids_item)

        _tag_ids_to_attach = d.pop("tag_ids_to_attach", UNSET)
        tag_ids_to_attach: list[UUID] | Unset = UNSET
        if _tag_ids_to_attach is not UNSET:
            tag_ids_to_attach = []
            for tag_ids_to_attach_item_data in _tag_ids_to_attach:
                tag_ids_to_attach_item = UUID(tag_ids_to_attach_item_data)

                tag_ids_to_attach.append(tag_ids_to_attach_item)

        _tag_ids_to_detach = d.pop("tag_ids_to_detach", UNSET)
        tag_ids_to_detach: list[UUID] | Unset = UNSET
        if _tag_ids_to_detach is not UNSET:
            tag_ids_to_detach = []
            for tag_ids_to_detach_item_data in _tag_ids_to_detach:
                tag_ids_to_detach_item = UUID(tag_ids_to_detach_item_data)

                tag_ids_to_detach.append(tag_ids_to_detach_item)

        vault_tags_change = cls(
            vault_ids=vault_ids,
            tag_ids_to_attach=tag_ids_to_attach,
            tag_ids_to_detach=tag_ids_to_detach,
        )

        return vault_tags_change
