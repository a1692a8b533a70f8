from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.aml_screening_direction import (
    AmlScreeningDirection,
    check_aml_screening_direction,
)
from ..models.aml_screening_post_screening_action import (
    AmlScreeningPostScreeningAction,
    check_aml_screening_post_screening_action,
)
from ..models.aml_screening_pre_screening_action import (
    AmlScreeningPreScreeningAction,
    check_aml_screening_pre_screening_action,
)
from ..models.aml_screening_risk_level import (
    AmlScreeningRiskLevel,
    check_aml_screening_risk_level,
)
from ..models.aml_screening_status import AmlScreeningStatus, check_aml_screening_status

if TYPE_CHECKING:
    from ..models.aml_screening_update import AmlScreeningUpdate
    from ..models.matched_risk import MatchedRisk


T = TypeVar("T", bound="AmlScreening")


@_attrs_define
class AmlScreening:
    """One transfer's AML screening (the spec's fields, and what decided).

    Attributes:
        id (UUID):
        transaction_id (UUID):
        direction (AmlScreeningDirection):
        status (AmlScreeningStatus): pending: the provider has not answered; bypassed: not screened (own vaults);
            cancelled: the withdrawal ended before the result.
        risk_level (AmlScreeningRiskLevel | None):
        risk_score (float | None): 0 to 100 (null while pending or bypassed).
        matched_risks (list[MatchedRisk]):
        pre_screening_action (AmlScreeningPreScreeningAction): Whether the transfer was screened (Fireblocks' pre-
            screening policy).
        post_screening_action (AmlScreeningPostScreeningAction | None): What the result led to (null while pending). For
            a deposit, any action but allow freezes it.
        provider (str):
        provider_ref (None | str):
        counterparty_address (None | str): The destination of a withdrawal; the sender of a deposit.
        decision_source (None | str): aml:<rule id> of the workspace's AML policy, aml:default, or aml:bypass.
        decision_reason (None | str):
        funds_frozen (bool): A deposit whose amount is in the wallet's frozen part now.
        released_at (None | str):
        released_by (None | UUID):
        screened_at (None | str):
        updates (list[AmlScreeningUpdate]): Later results from the provider (re-screening), oldest first; the risk
            fields above are the latest.
        created_at (str):
        updated_at (str):
    """

    id: UUID
    transaction_id: UUID
    direction: AmlScreeningDirection
    status: AmlScreeningStatus
    risk_level: AmlScreeningRiskLevel | None
    risk_score: float | None
    matched_risks: list[MatchedRisk]
    pre_screening_action: AmlScreeningPreScreeningAction
    post_screening_action: AmlScreeningPostScreeningAction | None
    provider: str
    provider_ref: None | str
    counterparty_address: None | str
    decision_source: None | str
    decision_reason: None | str
    funds_frozen: bool
    released_at: None | str
    released_by: None | UUID
    screened_at: None | str
    updates: list[AmlScreeningUpdate]
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        transaction_id = str(self.transaction_id)

        direction: str = self.direction

        status: str = self.status

        risk_level: None | str
        if isinstance(self.risk_level, str):
            risk_level = self.risk_level
        else:
            risk_level = self.risk_level

        risk_score: float | None
        risk_score = self.risk_score

        matched_risks = []
        for matched_risks_item_data in self.matched_risks:
            matched_risks_item = matched_risks_item_data.to_dict()
            matched_risks.append(matched_risks_item)

        pre_screening_action: str = self.pre_screening_action

        post_screening_action: None | str
        if isinstance(self.post_screening_action, str):
            post_screening_action = self.post_screening_action
        else:
            post_screening_action = self.post_screening_action

        provider = self.provider

        provider_ref: None | str
        provider_ref = self.provider_ref

        counterparty_address: None | str
        counterparty_address = self.counterparty_address

        decision_source: None | str
        decision_source = self.decision_source

        decision_reason: None | str
        decision_reason = self.decision_reason

        funds_frozen = self.funds_frozen

        released_at: None | str
        released_at = self.released_at

        released_by: None | str
        if isinstance(self.released_by, UUID):
            released_by = str(self.released_by)
        else:
            released_by = self.released_by

        screened_at: None | str
        screened_at = self.screened_at

        updates = []
        for updates_item_data in self.updates:
            updates_item = updates_item_data.to_dict()
            updates.append(updates_item)

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "transaction_id": transaction_id,
                "direction": direction,
                "status": status,
                "risk_level": risk_level,
                "risk_score": risk_score,
                "matched_risks": matched_risks,
                "pre_screening_action": pre_screening_action,
                "post_screening_action": post_screening_action,
                "provider": provider,
                "provider_ref": provider_ref,
                "counterparty_address": counterparty_address,
                "decision_source": decision_source,
                "decision_reason": decision_reason,
                "funds_frozen": funds_frozen,
                "released_at": released_at,
                "released_by": released_by,
                "screened_at": screened_at,
                "updates": updates,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.aml_screening_update import AmlScreeningUpdate  # noqa: PLC0415
        from ..models.matched_risk import MatchedRisk  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        transaction_id = UUID(d.pop("transaction_id"))

        direction = check_aml_screening_direction(d.pop("direction"))

        status = check_aml_screening_status(d.pop("status"))

        def _parse_risk_level(data: object) -> AmlScreeningRiskLevel | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                risk_level_type_1 = check_aml_screening_risk_level(data)

                return risk_level_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AmlScreeningRiskLevel | None, data)

        risk_level = _parse_risk_level(d.pop("risk_level"))

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

        pre_screening_action = check_aml_screening_pre_screening_action(d.pop("pre_screening_action"))

        def _parse_post_screening_action(data: object) -> AmlScreeningPostScreeningAction | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                post_screening_action_type_1 = check_aml_screening_post_screening_action(data)

                return post_screening_action_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AmlScreeningPostScreeningAction | None, data)

        post_screening_action = _parse_post_screening_action(d.pop("post_screening_action"))

        provider = d.pop("provider")

        def _parse_provider_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        provider_ref = _parse_provider_ref(d.pop("provider_ref"))

        def _parse_counterparty_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        counterparty_address = _parse_counterparty_address(d.pop("counterparty_address"))

        def _parse_decision_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decision_source = _parse_decision_source(d.pop("decision_source"))

        def _parse_decision_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        decision_reason = _parse_decision_reason(d.pop("decision_reason"))

        funds_frozen = d.pop("funds_frozen")

        def _parse_released_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        released_at = _parse_released_at(d.pop("released_at"))

        def _parse_released_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                released_by_type_0 = UUID(data)

                return released_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        released_by = _parse_released_by(d.pop("released_by"))

        def _parse_screened_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        screened_at = _parse_screened_at(d.pop("screened_at"))

        updates = []
        _updates = d.pop("updates")
        for updates_item_data in _updates:
            updates_item = AmlScreeningUpdate.from_dict(updates_item_data)

            updates.append(updates_item)

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        aml_screening = cls(
            id=id,
            transaction_id=transaction_id,
            direction=direction,
            status=status,
            risk_level=risk_level,
            risk_score=risk_score,
            matched_risks=matched_risks,
            pre_screening_action=pre_screening_action,
            post_screening_action=post_screening_action,
            provider=provider,
            provider_ref=provider_ref,
            counterparty_address=counterparty_address,
            decision_source=decision_source,
            decision_reason=decision_reason,
            funds_frozen=funds_frozen,
            released_at=released_at,
            released_by=released_by,
            screened_at=screened_at,
            updates=updates,
            created_at=created_at,
            updated_at=updated_at,
        )

        aml_screening.additional_properties = d
        return aml_screening

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
