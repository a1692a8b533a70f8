from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.quorum_rule_fixed_mode import (
    QuorumRuleFixedMode,
    check_quorum_rule_fixed_mode,
)
from ..models.quorum_rule_mode import QuorumRuleMode, check_quorum_rule_mode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.settings_set import SettingsSet


T = TypeVar("T", bound="QuorumRule")


@_attrs_define
class QuorumRule:
    """
    Attributes:
        action (str):
        action_display_name (str):
        enabled (bool):
        mode (QuorumRuleMode):
        owner_confirmation (bool):
        approver_sets (list[SettingsSet]):
        reachable (bool):
        fixed_mode (None | QuorumRuleFixedMode | Unset):
        group_uuid (None | Unset | UUID):
        group_name (None | str | Unset):
    """

    action: str
    action_display_name: str
    enabled: bool
    mode: QuorumRuleMode
    owner_confirmation: bool
    approver_sets: list[SettingsSet]
    reachable: bool
    fixed_mode: None | QuorumRuleFixedMode | Unset = UNSET
    group_uuid: None | Unset | UUID = UNSET
    group_name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        action_display_name = self.action_display_name

        enabled = self.enabled

        mode: str = self.mode

        owner_confirmation = self.owner_confirmation

        approver_sets = []
        for approver_sets_item_data in self.approver_sets:
            approver_sets_item = approver_sets_item_data.to_dict()
            approver_sets.append(approver_sets_item)

        reachable = self.reachable

        fixed_mode: None | str | Unset
        if isinstance(self.fixed_mode, Unset):
            fixed_mode = UNSET
        elif isinstance(self.fixed_mode, str):
            fixed_mode = self.fixed_mode
        else:
            fixed_mode = self.fixed_mode

        group_uuid: None | str | Unset
        if isinstance(self.group_uuid, Unset):
            group_uuid = UNSET
        elif isinstance(self.group_uuid, UUID):
            group_uuid = str(self.group_uuid)
        else:
            group_uuid = self.group_uuid

        group_name: None | str | Unset
        if isinstance(self.group_name, Unset):
            group_name = UNSET
        else:
            group_name = self.group_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "action_display_name": action_display_name,
                "enabled": enabled,
                "mode": mode,
                "owner_confirmation": owner_confirmation,
                "approver_sets": approver_sets,
                "reachable": reachable,
            }
        )
        if fixed_mode is not UNSET:
            field_dict["fixed_mode"] = fixed_mode
        if group_uuid is not UNSET:
            field_dict["group_uuid"] = group_uuid
        if group_name is not UNSET:
            field_dict["group_name"] = group_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.settings_set import SettingsSet  # noqa: PLC0415

        d = dict(src_dict)
        action = d.pop("action")

        action_display_name = d.pop("action_display_name")

        enabled = d.pop("enabled")

        mode = check_quorum_rule_mode(d.pop("mode"))

        owner_confirmation = d.pop("owner_confirmation")

        approver_sets = []
        _approver_sets = d.pop("approver_sets")
        for approver_sets_item_data in _approver_sets:
            approver_sets_item = SettingsSet.from_dict(approver_sets_item_data)

            approver_sets.append(approver_sets_item)

        reachable = d.pop("reachable")

        def _parse_fixed_mode(data: object) -> None | QuorumRuleFixedMode | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fixed_mode_type_1 = check_quorum_rule_fixed_mode(data)

                return fixed_mode_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuorumRuleFixedMode | Unset, data)

        fixed_mode = _parse_fixed_mode(d.pop("fixed_mode", UNSET))

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

        def _parse_group_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        group_name = _parse_group_name(d.pop("group_name", UNSET))

        quorum_rule = cls(
            action=action,
            action_display_name=action_display_name,
            enabled=enabled,
            mode=mode,
            owner_confirmation=owner_confirmation,
            approver_sets=approver_sets,
            reachable=reachable,
            fixed_mode=fixed_mode,
            group_uuid=group_uuid,
            group_name=group_name,
        )

        quorum_rule.additional_properties = d
        return quorum_rule

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
