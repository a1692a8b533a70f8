from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cosigner_part_status import CosignerPartStatus, check_cosigner_part_status

T = TypeVar("T", bound="CosignerPart")


@_attrs_define
class CosignerPart:
    """
    Attributes:
        id (UUID):
        config (str): The config as registered (its key package encrypted under the co-signer's passphrase).
        device_id (UUID): The paired device; for a headless co-signer, its API user id.
        workspace_id (UUID):
        intent_id (UUID): The key set id.
        status (CosignerPartStatus):
        created_at (datetime.datetime):
        committed_at (datetime.datetime | None):
    """

    id: UUID
    config: str
    device_id: UUID
    workspace_id: UUID
    intent_id: UUID
    status: CosignerPartStatus
    created_at: datetime.datetime
    committed_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        config = self.config

        device_id = str(self.device_id)

        workspace_id = str(self.workspace_id)

        intent_id = str(self.intent_id)

        status: str = self.status

        created_at = self.created_at.isoformat()

        committed_at: None | str
        if isinstance(self.committed_at, datetime.datetime):
            committed_at = self.committed_at.isoformat()
        else:
            committed_at = self.committed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "config": config,
                "device_id": device_id,
                "workspace_id": workspace_id,
                "intent_id": intent_id,
                "status": status,
                "created_at": created_at,
                "committed_at": committed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        config = d.pop("config")

        device_id = UUID(d.pop("device_id"))

        workspace_id = UUID(d.pop("workspace_id"))

        intent_id = UUID(d.pop("intent_id"))

        status = check_cosigner_part_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_committed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                committed_at_type_0 = datetime.datetime.fromisoformat(data)

                return committed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        committed_at = _parse_committed_at(d.pop("committed_at"))

        cosigner_part = cls(
            id=id,
            config=config,
            device_id=device_id,
            workspace_id=workspace_id,
            intent_id=intent_id,
            status=status,
            created_at=created_at,
            committed_at=committed_at,
        )

        cosigner_part.additional_properties = d
        return cosigner_part

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
