from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.quorum_rule import QuorumRule


T = TypeVar("T", bound="QuorumRuleAnswer")


@_attrs_define
class QuorumRuleAnswer:
    """
    Attributes:
        rule (QuorumRule):
    """

    rule: QuorumRule
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rule = self.rule.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rule": rule,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quorum_rule import QuorumRule  # noqa: PLC0415

        d = dict(src_dict)
        rule = QuorumRule.from_dict(d.pop("rule"))

        quorum_rule_answer = cls(
            rule=rule,
        )

        quorum_rule_answer.additional_properties = d
        return quorum_rule_answer

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
