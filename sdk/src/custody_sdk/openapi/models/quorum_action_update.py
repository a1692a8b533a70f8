from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.quorum_action_update_mode import (
    QuorumActionUpdateMode,
    check_quorum_action_update_mode,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="QuorumActionUpdate")


@_attrs_define
class QuorumActionUpdate:
    """A rule: on or off, its mode, the group (group mode), owner confirmation on top.

    Attributes:
        enabled (bool):
        mode (None | QuorumActionUpdateMode | Unset): Default: the action's fixed mode, else OWNER_ONLY.
        group_uuid (None | Unset | UUID): Group mode only: the group whose members confirm.
        owner_confirmation (bool | Unset): The owner confirms on top of the quorum or the group. Default: False.
    """

    enabled: bool
    mode: None | QuorumActionUpdateMode | Unset = UNSET
    group_uuid: None | Unset | UUID = UNSET
    owner_confirmation: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        elif isinstance(self.mode, str):
            mode = self.mode
        else:
            mode = self.mode

        group_uuid: None | str | Unset
        if isinstance(self.group_uuid, Unset):
            group_uuid = UNSET
        elif isinstance(self.group_uuid, UUID):
            group_uuid = str(self.group_uuid)
        else:
            group_uuid = self.group_uuid

        owner_confirmation = self.owner_confirmation

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
            }
        )
        if mode is not UNSET:
            field_dict["mode"] = mode
        if group_uuid is not UNSET:
            field_dict["group_uuid"] = group_uuid
        if owner_confirmation is not UNSET:
            field_dict["owner_confirmation"] = owner_confirmation

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        def _parse_mode(data: object) -> None | QuorumActionUpdateMode | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_1 = check_quorum_action_update_mode(data)

                return mode_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuorumActionUpdateMode | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))

        def _parse_group_uuid(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                group_uuid_type_0 = UUID(data)

                return group_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        group_uuid = _parse_group_uuid(d.pop("group_uuid", UNSET))

        owner_confirmation = d.pop("owner_confirmation", UNSET)

        quorum_action_update = cls(
            enabled=enabled,
            mode=mode,
            group_uuid=group_uuid,
            owner_confirmation=owner_confirmation,
        )

        return quorum_action_update
