from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aml_screening_update_risk_level import (
    AmlScreeningUpdateRiskLevel,
    check_aml_screening_update_risk_level,
)

if TYPE_CHECKING:
    from ..models.matched_risk import MatchedRisk


T = TypeVar("T", bound="AmlScreeningUpdate")


@_attrs_define
class AmlScreeningUpdate:
    """
    Attributes:
        at (str):
        risk_level (AmlScreeningUpdateRiskLevel):
        risk_score (float | None):
        matched_risks (list[MatchedRisk]):
    """

    at: str
    risk_level: AmlScreeningUpdateRiskLevel
    risk_score: float | None
    matched_risks: list[MatchedRisk]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        risk_level: str = self.risk_level

        risk_score: float | None
        risk_score = self.risk_score

        matched_risks = []
        for matched_risks_item_data in self.matched_risks:
            matched_risks_item = matched_risks_item_data.to_dict()
            matched_risks.append(matched_risks_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "risk_level": risk_level,
                "risk_score": risk_score,
                "matched_risks": matched_risks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.matched_risk import MatchedRisk  # noqa: PLC0415

        d = dict(src_dict)
        at = d.pop("at")

        risk_level = check_aml_screening_update_risk_level(d.pop("risk_level"))

        def _parse_risk_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        risk_score = _parse_risk_score(d.pop("risk_score"))

        matched_risks = []
        _matched_risks = d.pop("matched_risks")
        for matched_risks_item_data in _matched_risks:
            matched_risks_item = MatchedRisk.from_dict(matched_risks_item_data)

            matched_risks.append(matched_risks_item)

        aml_screening_update = cls(
            at=at,
            risk_level=risk_level,
            risk_score=risk_score,
            matched_risks=matched_risks,
        )

        aml_screening_update.additional_properties = d
        return aml_screening_update

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
