from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rule_verdict_conditions_item import RuleVerdictConditionsItem
    from ..models.rule_verdict_window import RuleVerdictWindow


T = TypeVar("T", bound="RuleVerdict")


@_attrs_define
class RuleVerdict:
    """
    Attributes:
        index (int):
        rule_id (str):
        name (str):
        action (str):
        matched (bool):
        reason (str):
        conditions (list[RuleVerdictConditionsItem]): Each condition: condition, matched, detail.
        window (None | RuleVerdictWindow): Window usage: used, with_this, limits, over.
    """

    index: int
    rule_id: str
    name: str
    action: str
    matched: bool
    reason: str
    conditions: list[RuleVerdictConditionsItem]
    window: None | RuleVerdictWindow
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.rule_verdict_window import RuleVerdictWindow  # noqa: PLC0415

        index = self.index

        rule_id = self.rule_id

        name = self.name

        action = self.action

        matched = self.matched

        reason = self.reason

        conditions = []
        for conditions_item_data in self.conditions:
            conditions_item = conditions_item_data.to_dict()
            conditions.append(conditions_item)

        window: dict[str, Any] | None
        if isinstance(self.window, RuleVerdictWindow):
            window = self.window.to_dict()
        else:
            window = self.window

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "rule_id": rule_id,
                "name": name,
                "action": action,
                "matched": matched,
                "reason": reason,
                "conditions": conditions,
                "window": window,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rule_verdict_conditions_item import RuleVerdictConditionsItem  # noqa: PLC0415
        from ..models.rule_verdict_window import RuleVerdictWindow  # noqa: PLC0415

        d = dict(src_dict)
        index = d.pop("index")

        rule_id = d.pop("rule_id")

        name = d.pop("name")

        action = d.pop("action")

        matched = d.pop("matched")

        reason = d.pop("reason")

        conditions = []
        _conditions = d.pop("conditions")
        for conditions_item_data in _conditions:
            conditions_item = RuleVerdictConditionsItem.from_dict(conditions_item_data)

            conditions.append(conditions_item)

        def _parse_window(data: object) -> None | RuleVerdictWindow:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                window_type_0 = RuleVerdictWindow.from_dict(data)

                return window_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RuleVerdictWindow, data)

        window = _parse_window(d.pop("window"))

        rule_verdict = cls(
            index=index,
            rule_id=rule_id,
            name=name,
            action=action,
            matched=matched,
            reason=reason,
            conditions=conditions,
            window=window,
        )

        rule_verdict.additional_properties = d
        return rule_verdict

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
