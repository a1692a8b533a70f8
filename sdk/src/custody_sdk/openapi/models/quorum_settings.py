from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.participant import Participant
    from ..models.quorum_group import QuorumGroup
    from ..models.quorum_rule import QuorumRule


T = TypeVar("T", bound="QuorumSettings")


@_attrs_define
class QuorumSettings:
    """
    Attributes:
        tenant_uuid (UUID):
        admin_threshold (int):
        owner_approvers (list[Participant]):
        admin_quorum_approvers (list[Participant]):
        rules (list[QuorumRule]):
        groups (list[QuorumGroup]):
    """

    tenant_uuid: UUID
    admin_threshold: int
    owner_approvers: list[Participant]
    admin_quorum_approvers: list[Participant]
    rules: list[QuorumRule]
    groups: list[QuorumGroup]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_uuid = str(self.tenant_uuid)

        admin_threshold = self.admin_threshold

        owner_approvers = []
        for owner_approvers_item_data in self.owner_approvers:
            owner_approvers_item = owner_approvers_item_data.to_dict()
            owner_approvers.append(owner_approvers_item)

        admin_quorum_approvers = []
        for admin_quorum_approvers_item_data in self.admin_quorum_approvers:
            admin_quorum_approvers_item = admin_quorum_approvers_item_data.to_dict()
            admin_quorum_approvers.append(admin_quorum_approvers_item)

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)

        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_uuid": tenant_uuid,
                "admin_threshold": admin_threshold,
                "owner_approvers": owner_approvers,
                "admin_quorum_approvers": admin_quorum_approvers,
                "rules": rules,
                "groups": groups,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.participant import Participant  # noqa: PLC0415
        from ..models.quorum_group import QuorumGroup  # noqa: PLC0415
        from ..models.quorum_rule import QuorumRule  # noqa: PLC0415

        d = dict(src_dict)
        tenant_uuid = UUID(d.pop("tenant_uuid"))

        admin_threshold = d.pop("admin_threshold")

        owner_approvers = []
        _owner_approvers = d.pop("owner_approvers")
        for owner_approvers_item_data in _owner_approvers:
            owner_approvers_item = Participant.from_dict(owner_approvers_item_data)

            owner_approvers.append(owner_approvers_item)

        admin_quorum_approvers = []
        _admin_quorum_approvers = d.pop("admin_quorum_approvers")
        for admin_quorum_approvers_item_data in _admin_quorum_approvers:
            admin_quorum_approvers_item = Participant.from_dict(admin_quorum_approvers_item_data)

            admin_quorum_approvers.append(admin_quorum_approvers_item)

        rules = []
        _rules = d.pop("rules")
        for rules_item_data in _rules:
            rules_item = QuorumRule.from_dict(rules_item_data)

            rules.append(rules_item)

        groups = []
        _groups = d.pop("groups")
        for groups_item_data in _groups:
            groups_item = QuorumGroup.from_dict(groups_item_data)

            groups.append(groups_item)

        quorum_settings = cls(
            tenant_uuid=tenant_uuid,
            admin_threshold=admin_threshold,
            owner_approvers=owner_approvers,
            admin_quorum_approvers=admin_quorum_approvers,
            rules=rules,
            groups=groups,
        )

        quorum_settings.additional_properties = d
        return quorum_settings

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
