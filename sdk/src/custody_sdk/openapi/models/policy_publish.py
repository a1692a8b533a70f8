from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.policy_publish_no_match_action import (
    PolicyPublishNoMatchAction,
    check_policy_publish_no_match_action,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.policy_publish_rules_item import PolicyPublishRulesItem


T = TypeVar("T", bound="PolicyPublish")


@_attrs_define
class PolicyPublish:
    """
    Attributes:
        rules (list[PolicyPublishRulesItem]): The ordered rules (docs/policies.md: source, destination, asset,
            initiator, amount, window, action, approval; AML rules: direction, min_risk_level, min_risk_score, categories).
            The first matching rule decides.
        no_match_action (PolicyPublishNoMatchAction | Unset): What happens when no rule matches: block (fail closed, the
            default) or allow. Default: 'block'.
    """

    rules: list[PolicyPublishRulesItem]
    no_match_action: PolicyPublishNoMatchAction | Unset = "block"

    def to_dict(self) -> dict[str, Any]:
        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)

        no_match_action: str | Unset = UNSET
        if not isinstance(self.no_match_action, Unset):
            no_match_action = self.no_match_action

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "rules": rules,
            }
        )
        if no_match_action is not UNSET:
            field_dict["no_match_action"] = no_match_action

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.policy_publish_rules_item import PolicyPublishRulesItem  # noqa: PLC0415

        d = dict(src_dict)
        rules = []
        _rules = d.pop("rules")
        for rules_item_data in _rules:
            rules_item = PolicyPublishRulesItem.from_dict(rules_item_data)

            rules.append(rules_item)

        _no_match_action = d.pop("no_match_action", UNSET)
        no_match_action: PolicyPublishNoMatchAction | Unset
        if isinstance(_no_match_action, Unset):
            no_match_action = UNSET
        else:
            no_match_action = check_policy_publish_no_match_action(_no_match_action)

        policy_publish = cls(
            rules=rules,
            no_match_action=no_match_action,
        )

        return policy_publish
