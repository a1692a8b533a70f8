from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ApprovalRequirement")


@_attrs_define
class ApprovalRequirement:
    """
    Attributes:
        approver_user_ids (list[str]):
        group_id (None | str):
        threshold (int):
        source (str): <check>:<rule id>
        approvals (int):
        declines (int):
        reached (bool):
        initiator_excluded (bool | Unset): The rule named the withdrawal's initiator, who is left out (four eyes):
            approver_user_ids are the others. Default: False.
    """

    approver_user_ids: list[str]
    group_id: None | str
    threshold: int
    source: str
    approvals: int
    declines: int
    reached: bool
    initiator_excluded: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        approver_user_ids = self.approver_user_ids

        group_id: None | str
        group_id = self.group_id

        threshold = self.threshold

        source = self.source

        approvals = self.approvals

        declines = self.declines

        reached = self.reached

        initiator_excluded = self.initiator_excluded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "approver_user_ids": approver_user_ids,
                "group_id": group_id,
                "threshold": threshold,
                "source": source,
                "approvals": approvals,
                "declines": declines,
                "reached": reached,
            }
        )
        if initiator_excluded is not UNSET:
            field_dict["initiator_excluded"] = initiator_excluded

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        approver_user_ids = cast(list[str], d.pop("approver_user_ids"))

        def _parse_group_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        group_id = _parse_group_id(d.pop("group_id"))

        threshold = d.pop("threshold")

        source = d.pop("source")

        approvals = d.pop("approvals")

        declines = d.pop("declines")

        reached = d.pop("reached")

        initiator_excluded = d.pop("initiator_excluded", UNSET)

        approval_requirement = cls(
            approver_user_ids=approver_user_ids,
            group_id=group_id,
            threshold=threshold,
            source=source,
            approvals=approvals,
            declines=declines,
            reached=reached,
            initiator_excluded=initiator_excluded,
        )

        approval_requirement.additional_properties = d
        return approval_requirement

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
