from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.explain_approval import ExplainApproval
    from ..models.rule_verdict import RuleVerdict


T = TypeVar("T", bound="Explain")


@_attrs_define
class Explain:
    """
    Attributes:
        policy_type (str):
        version (int | None): The published version evaluated; null for a draft.
        draft (bool):
        action (str): allow, require_approval or block
        reason (str):
        matched_rule (None | RuleVerdict):
        rules (list[RuleVerdict]): Every rule's verdict, in order.
        destination_type (str):
        amount_usd (None | str):
        approval (ExplainApproval | None): The approval requirement the decision would create, as the withdrawal's
            approval request would hold it: approver_user_ids without the initiator (four eyes), group_id, threshold,
            source, initiator_excluded (the rule named the initiator) and meetable (the approvers left can reach the
            threshold; a withdrawal whose requirement cannot is declined).
    """

    policy_type: str
    version: int | None
    draft: bool
    action: str
    reason: str
    matched_rule: None | RuleVerdict
    rules: list[RuleVerdict]
    destination_type: str
    amount_usd: None | str
    approval: ExplainApproval | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.explain_approval import ExplainApproval  # noqa: PLC0415
        from ..models.rule_verdict import RuleVerdict  # noqa: PLC0415

        policy_type = self.policy_type

        version: int | None
        version = self.version

        draft = self.draft

        action = self.action

        reason = self.reason

        matched_rule: dict[str, Any] | None
        if isinstance(self.matched_rule, RuleVerdict):
            matched_rule = self.matched_rule.to_dict()
        else:
            matched_rule = self.matched_rule

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)

        destination_type = self.destination_type

        amount_usd: None | str
        amount_usd = self.amount_usd

        approval: dict[str, Any] | None
        if isinstance(self.approval, ExplainApproval):
            approval = self.approval.to_dict()
        else:
            approval = self.approval

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "policy_type": policy_type,
                "version": version,
                "draft": draft,
                "action": action,
                "reason": reason,
                "matched_rule": matched_rule,
                "rules": rules,
                "destination_type": destination_type,
                "amount_usd": amount_usd,
                "approval": approval,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.explain_approval import ExplainApproval  # noqa: PLC0415
        from ..models.rule_verdict import RuleVerdict  # noqa: PLC0415

        d = dict(src_dict)
        policy_type = d.pop("policy_type")

        def _parse_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        version = _parse_version(d.pop("version"))

        draft = d.pop("draft")

        action = d.pop("action")

        reason = d.pop("reason")

        def _parse_matched_rule(data: object) -> None | RuleVerdict:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                matched_rule_type_1 = RuleVerdict.from_dict(data)

                return matched_rule_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RuleVerdict, data)

        matched_rule = _parse_matched_rule(d.pop("matched_rule"))

        rules = []
        _rules = d.pop("rules")
        for rules_item_data in _rules:
            rules_item = RuleVerdict.from_dict(rules_item_data)

            rules.append(rules_item)

        destination_type = d.pop("destination_type")

        def _parse_amount_usd(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        amount_usd = _parse_amount_usd(d.pop("amount_usd"))

        def _parse_approval(data: object) -> ExplainApproval | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                approval_type_0 = ExplainApproval.from_dict(data)

                return approval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ExplainApproval | None, data)

        approval = _parse_approval(d.pop("approval"))

        explain = cls(
            policy_type=policy_type,
            version=version,
            draft=draft,
            action=action,
            reason=reason,
            matched_rule=matched_rule,
            rules=rules,
            destination_type=destination_type,
            amount_usd=amount_usd,
            approval=approval,
        )

        explain.additional_properties = d
        return explain

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
