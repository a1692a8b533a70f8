from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.explain_request_no_match_action import (
    ExplainRequestNoMatchAction,
    check_explain_request_no_match_action,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.explain_request_rules_type_0_item import ExplainRequestRulesType0Item
    from ..models.hypothetical_withdrawal import HypotheticalWithdrawal


T = TypeVar("T", bound="ExplainRequest")


@_attrs_define
class ExplainRequest:
    """
    Attributes:
        withdrawal (HypotheticalWithdrawal):
        rules (list[ExplainRequestRulesType0Item] | None | Unset): A draft to evaluate instead of the published policy.
        no_match_action (ExplainRequestNoMatchAction | None | Unset): The draft's no-match action.
    """

    withdrawal: HypotheticalWithdrawal
    rules: list[ExplainRequestRulesType0Item] | None | Unset = UNSET
    no_match_action: ExplainRequestNoMatchAction | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        withdrawal = self.withdrawal.to_dict()

        rules: list[dict[str, Any]] | None | Unset
        if isinstance(self.rules, Unset):
            rules = UNSET
        elif isinstance(self.rules, list):
            rules = []
            for rules_type_0_item_data in self.rules:
                rules_type_0_item = rules_type_0_item_data.to_dict()
                rules.append(rules_type_0_item)

        else:
            rules = self.rules

        no_match_action: None | str | Unset
        if isinstance(self.no_match_action, Unset):
            no_match_action = UNSET
        elif isinstance(self.no_match_action, str):
            no_match_action = self.no_match_action
        else:
            no_match_action = self.no_match_action

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "withdrawal": withdrawal,
            }
        )
        if rules is not UNSET:
            field_dict["rules"] = rules
        if no_match_action is not UNSET:
            field_dict["no_match_action"] = no_match_action

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.explain_request_rules_type_0_item import (
            ExplainRequestRulesType0Item,  # noqa: PLC0415
        )
        from ..models.hypothetical_withdrawal import HypotheticalWithdrawal  # noqa: PLC0415

        d = dict(src_dict)
        withdrawal = HypotheticalWithdrawal.from_dict(d.pop("withdrawal"))

        def _parse_rules(data: object) -> list[ExplainRequestRulesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                rules_type_0 = []
                _rules_type_0 = data
                for rules_type_0_item_data in _rules_type_0:
                    rules_type_0_item = ExplainRequestRulesType0Item.from_dict(rules_type_0_item_data)

                    rules_type_0.append(rules_type_0_item)

                return rules_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ExplainRequestRulesType0Item] | None | Unset, data)

        rules = _parse_rules(d.pop("rules", UNSET))

        def _parse_no_match_action(data: object) -> ExplainRequestNoMatchAction | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                no_match_action_type_1 = check_explain_request_no_match_action(data)

                return no_match_action_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ExplainRequestNoMatchAction | None | Unset, data)

        no_match_action = _parse_no_match_action(d.pop("no_match_action", UNSET))

        explain_request = cls(
            withdrawal=withdrawal,
            rules=rules,
            no_match_action=no_match_action,
        )

        return explain_request
