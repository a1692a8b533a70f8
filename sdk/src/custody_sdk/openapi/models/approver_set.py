from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.set_approver import SetApprover


T = TypeVar("T", bound="ApproverSet")


@_attrs_define
class ApproverSet:
    """
    Attributes:
        external_id (str):
        kind (str):
        threshold (int):
        status (str):
        approvers (list[SetApprover]):
    """

    external_id: str
    kind: str
    threshold: int
    status: str
    approvers: list[SetApprover]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        external_id = self.external_id

        kind = self.kind

        threshold = self.threshold

        status = self.status

        approvers = []
        for approvers_item_data in self.approvers:
            approvers_item = approvers_item_data.to_dict()
            approvers.append(approvers_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "external_id": external_id,
                "kind": kind,
                "threshold": threshold,
                "status": status,
                "approvers": approvers,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.set_approver import SetApprover  # noqa: PLC0415

        d = dict(src_dict)
        external_id = d.pop("external_id")

        kind = d.pop("kind")

        threshold = d.pop("threshold")

        status = d.pop("status")

        approvers = []
        _approvers = d.pop("approvers")
        for approvers_item_data in _approvers:
            approvers_item = SetApprover.from_dict(approvers_item_data)

            approvers.append(approvers_item)

        approver_set = cls(
            external_id=external_id,
            kind=kind,
            threshold=threshold,
            status=status,
            approvers=approvers,
        )

        approver_set.additional_properties = d
        return approver_set

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
