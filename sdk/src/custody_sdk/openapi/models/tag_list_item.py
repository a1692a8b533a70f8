from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.tag_vault import TagVault


T = TypeVar("T", bound="TagListItem")


@_attrs_define
class TagListItem:
    """
    Attributes:
        id (UUID):
        workspace_id (UUID):
        label (str):
        description (None | str):
        color (None | str): #rrggbb in lower case, or null.
        is_protected (bool): Read-only: protected tags take part in policy rules; only the owner turns it on or off.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        vaults (list[TagVault]): The 5 vaults that got the tag last (newest attachment first).
        vaults_total (int): How many vaults carry the tag.
    """

    id: UUID
    workspace_id: UUID
    label: str
    description: None | str
    color: None | str
    is_protected: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    vaults: list[TagVault]
    vaults_total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        label = self.label

        description: None | str
        description = self.description

        color: None | str
        color = self.color

        is_protected = self.is_protected

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        vaults = []
        for vaults_item_data in self.vaults:
            vaults_item = vaults_item_data.to_dict()
            vaults.append(vaults_item)

        vaults_total = self.vaults_total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspace_id": workspace_id,
                "label": label,
                "description": description,
                "color": color,
                "is_protected": is_protected,
                "created_at": created_at,
                "updated_at": updated_at,
                "vaults": vaults,
                "vaults_total": vaults_total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tag_vault import TagVault  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspace_id"))

        label = d.pop("label")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        color = _parse_color(d.pop("color"))

        is_protected = d.pop("is_protected")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        vaults = []
        _vaults = d.pop("vaults")
        for vaults_item_data in _vaults:
            vaults_item = TagVault.from_dict(vaults_item_data)

            vaults.append(vaults_item)

        vaults_total = d.pop("vaults_total")

        tag_list_item = cls(
            id=id,
            workspace_id=workspace_id,
            label=label,
            description=description,
            color=color,
            is_protected=is_protected,
            created_at=created_at,
            updated_at=updated_at,
            vaults=vaults,
            vaults_total=vaults_total,
        )

        tag_list_item.additional_properties = d
        return tag_list_item

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
