from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.policy_version_rules_item import PolicyVersionRulesItem


T = TypeVar("T", bound="PolicyVersion")


@_attrs_define
class PolicyVersion:
    """One published version of a workspace's policy.

    Attributes:
        workspace_id (UUID):
        policy_type (str): transfer or aml
        policy_type_name (str): Transfer policy or AML policy
        version (int):
        version_published_at (datetime.datetime):
        published_by (None | UUID):
        copied_from_version (int | None): A rollback: the version this one copies.
        no_match_action (str):
        rules (list[PolicyVersionRulesItem]):
    """

    workspace_id: UUID
    policy_type: str
    policy_type_name: str
    version: int
    version_published_at: datetime.datetime
    published_by: None | UUID
    copied_from_version: int | None
    no_match_action: str
    rules: list[PolicyVersionRulesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id = str(self.workspace_id)

        policy_type = self.policy_type

        policy_type_name = self.policy_type_name

        version = self.version

        version_published_at = self.version_published_at.isoformat()

        published_by: None | str
        if isinstance(self.published_by, UUID):
            published_by = str(self.published_by)
        else:
            published_by = self.published_by

        copied_from_version: int | None
        copied_from_version = self.copied_from_version

        no_match_action = self.no_match_action

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace_id": workspace_id,
                "policy_type": policy_type,
                "policy_type_name": policy_type_name,
                "version": version,
                "version_published_at": version_published_at,
                "published_by": published_by,
                "copied_from_version": copied_from_version,
                "no_match_action": no_match_action,
                "rules": rules,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.policy_version_rules_item import PolicyVersionRulesItem  # noqa: PLC0415

        d = dict(src_dict)
        workspace_id = UUID(d.pop("workspace_id"))

        policy_type = d.pop("policy_type")

        policy_type_name = d.pop("policy_type_name")

        version = d.pop("version")

        version_published_at = datetime.datetime.fromisoformat(d.pop("version_published_at"))

        def _parse_published_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                published_by_type_0 = UUID(data)

                return published_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        published_by = _parse_published_by(d.pop("published_by"))

        def _parse_copied_from_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        copied_from_version = _parse_copied_from_version(d.pop("copied_from_version"))

        no_match_action = d.pop("no_match_action")

        rules = []
        _rules = d.pop("rules")
        for rules_item_data in _rules:
            rules_item = PolicyVersionRulesItem.from_dict(rules_item_data)

            rules.append(rules_item)

        policy_version = cls(
            workspace_id=workspace_id,
            policy_type=policy_type,
            policy_type_name=policy_type_name,
            version=version,
            version_published_at=version_published_at,
            published_by=published_by,
            copied_from_version=copied_from_version,
            no_match_action=no_match_action,
            rules=rules,
        )

        policy_version.additional_properties = d
        return policy_version

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
