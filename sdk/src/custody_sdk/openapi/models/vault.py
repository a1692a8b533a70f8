from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.key_set_summary import KeySetSummary
    from ..models.tag import Tag


T = TypeVar("T", bound="Vault")


@_attrs_define
class Vault:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        name (str):
        is_frozen (bool):
        key_set (KeySetSummary | None): The vault's FROST(Ed25519) key set (its key in this API).
        key_sets (list[KeySetSummary]): The vault's newest key set of every scheme, Ed25519 first: also a FROST-
            secp256k1-SHA256-TR-v1 (Taproot) one when its workspace's networks include Bitcoin; a wallet needs its network's
            key set ready.
        tags (list[Tag]): The tags the vault carries, in label order (empty when none).
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: UUID
    workspace_id: UUID
    name: str
    is_frozen: bool
    key_set: KeySetSummary | None
    key_sets: list[KeySetSummary]
    tags: list[Tag]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.key_set_summary import KeySetSummary  # noqa: PLC0415

        id = str(self.id)

        workspace_id = str(self.workspace_id)

        name = self.name

        is_frozen = self.is_frozen

        key_set: dict[str, Any] | None
        if isinstance(self.key_set, KeySetSummary):
            key_set = self.key_set.to_dict()
        else:
            key_set = self.key_set

        key_sets = []
        for key_sets_item_data in self.key_sets:
            key_sets_item = key_sets_item_data.to_dict()
            key_sets.append(key_sets_item)

        tags = []
        for tags_item_data in self.tags:
            tags_item = tags_item_data.to_dict()
            tags.append(tags_item)

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspace_id": workspace_id,
                "name": name,
                "is_frozen": is_frozen,
                "key_set": key_set,
                "key_sets": key_sets,
                "tags": tags,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.key_set_summary import KeySetSummary  # noqa: PLC0415
        from ..models.tag import Tag  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspace_id"))

        name = d.pop("name")

        is_frozen = d.pop("is_frozen")

        def _parse_key_set(data: object) -> KeySetSummary | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                key_set_type_1 = KeySetSummary.from_dict(data)

                return key_set_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(KeySetSummary | None, data)

        key_set = _parse_key_set(d.pop("key_set"))

        key_sets = []
        _key_sets = d.pop("key_sets")
        for key_sets_item_data in _key_sets:
            key_sets_item = KeySetSummary.from_dict(key_sets_item_data)

            key_sets.append(key_sets_item)

        tags = []
        _tags = d.pop("tags")
        for tags_item_data in _tags:
            tags_item = Tag.from_dict(tags_item_data)

            tags.append(tags_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        vault = cls(
            id=id,
            workspace_id=workspace_id,
            name=name,
            is_frozen=is_frozen,
            key_set=key_set,
            key_sets=key_sets,
            tags=tags,
            created_at=created_at,
            updated_at=updated_at,
        )

        vault.additional_properties = d
        return vault

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
