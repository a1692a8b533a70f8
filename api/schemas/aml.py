"""AML screening records, the workspace's screener settings, and the release of a frozen deposit."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from api.schemas.common import NO_CONTROL_CHARACTERS, QueryParams, RequestBody, Resource, Timestamp, text
from domain.aml import settings as aml_settings
from domain.aml.providers import RISK_LEVELS
from models.aml import AmlScreening as AmlScreeningRow

RiskLevel = Literal[RISK_LEVELS]
Action = Literal["allow", "require_approval", "block", "freeze"]
Address = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200,
                                           pattern=NO_CONTROL_CHARACTERS)]
NetworkId = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]
CategoryId = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")]
Note = text(min_length=0, max_length=255)
#: A percentage or a score: 0 to 100, at most two decimals (a JSON number or a decimal string).
Percent = Annotated[float | str, Field(description="0 to 100, at most two decimals.")]


class MatchedRisk(Resource):
    category: str
    category_label: str
    exposure_percent: float = Field(description="Share of the counterparty's funds from this category, 0-100.")


class AmlScreeningUpdate(Resource):
    at: str
    risk_level: RiskLevel
    risk_score: float | None
    matched_risks: list[MatchedRisk]


class AmlScreening(Resource):
    """One transfer's AML screening (the spec's fields, and what decided)."""

    id: uuid.UUID
    transaction_id: uuid.UUID
    direction: Literal["outgoing", "incoming"]
    status: Literal["pending", "completed", "bypassed", "cancelled"] = Field(
        description="pending: the provider has not answered; bypassed: not screened (own vaults); cancelled: the "
                    "withdrawal ended before the result.")
    risk_level: RiskLevel | None
    risk_score: float | None = Field(description="0 to 100 (null while pending or bypassed).")
    matched_risks: list[MatchedRisk]
    pre_screening_action: Literal["screen", "bypass"] = Field(
        description="Whether the transfer was screened (Fireblocks' pre-screening policy).")
    post_screening_action: Action | None = Field(
        description="What the result led to (null while pending). For a deposit, any action but allow freezes it.")
    provider: str
    provider_ref: str | None
    counterparty_address: str | None = Field(description="The destination of a withdrawal; the sender of a deposit.")
    decision_source: str | None = Field(description="aml:<rule id> of the workspace's AML policy, aml:default, "
                                        "or aml:bypass.")
    decision_reason: str | None
    funds_frozen: bool = Field(description="A deposit whose amount is in the wallet's frozen part now.")
    released_at: str | None
    released_by: uuid.UUID | None
    screened_at: str | None
    updates: list[AmlScreeningUpdate] = Field(description="Later results from the provider (re-screening), oldest "
                                              "first; the risk fields above are the latest.")
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, row: AmlScreeningRow) -> "AmlScreening":
        from domain.aml.screening import to_resource

        return cls.model_validate(to_resource(row))


class AmlScreeningQuery(QueryParams):
    direction: Literal["outgoing", "incoming"] | None = None
    risk_level: RiskLevel | None = None
    status: Literal["pending", "completed", "bypassed", "cancelled"] | None = None
    transaction_id: uuid.UUID | None = None
    funds_frozen: bool | None = Field(None, description="true: deposits frozen now.")
    limit: int = Field(100, ge=1, le=1000, description="Page size, 1 to 1000.")
    offset: int = Field(0, ge=0, le=2**63 - 1)


class AmlScreeningPage(Resource):
    items: list[AmlScreening] = Field(description="Newest first.")
    total: int
    limit: int
    offset: int


# --- settings ----------------------------------------------------------------------------------


class BlockedAddress(RequestBody):
    network_id: NetworkId
    address: Address
    category: CategoryId = Field("sanctions", description="The risk category it stands for (100 % exposure).")
    note: Note | None = None


class TrustedAddress(RequestBody):
    network_id: NetworkId
    address: Address
    note: Note | None = None


class Exposure(RequestBody):
    category: CategoryId
    exposure_percent: Percent


class AddressExposure(RequestBody):
    network_id: NetworkId
    address: Address
    exposures: list[Exposure] = Field(min_length=1, max_length=aml_settings.MAX_EXPOSURES_PER_ADDRESS)
    note: Note | None = None


class RiskCategory(RequestBody):
    category: CategoryId
    label: text(max_length=100)
    weight: Percent = Field(description="The score a 100 % exposure to the category gives, 0 to 100.")


class Thresholds(RequestBody):
    medium: Percent
    high: Percent
    severe: Percent


class AmlSettingsUpdate(RequestBody):
    enabled: bool = Field(description="Whether transfers are screened.")
    provider: Annotated[str, StringConstraints(min_length=1, max_length=40)] = Field(
        "builtin", description="The screener: builtin (rule-based, configured here).")
    blocked_addresses: list[BlockedAddress] = Field(default_factory=list, max_length=aml_settings.MAX_ADDRESSES)
    trusted_addresses: list[TrustedAddress] = Field(default_factory=list, max_length=aml_settings.MAX_ADDRESSES)
    address_exposures: list[AddressExposure] = Field(default_factory=list, max_length=aml_settings.MAX_ADDRESSES)
    categories: list[RiskCategory] | None = Field(None, max_length=aml_settings.MAX_CATEGORIES,
                                                  description="Absent: the default categories.")
    thresholds: Thresholds | None = Field(None, description="Absent: medium 25, high 50, severe 80.")

    def config(self) -> dict[str, Any]:
        return self.model_dump(exclude={"enabled", "provider"}, mode="python")


class AmlSettings(Resource):
    workspace_id: uuid.UUID
    enabled: bool
    provider: str
    blocked_addresses: list[dict[str, Any]]
    trusted_addresses: list[dict[str, Any]]
    address_exposures: list[dict[str, Any]]
    categories: list[dict[str, Any]]
    thresholds: dict[str, str]
    updated_by: uuid.UUID | None
    updated_at: Timestamp | None

    @classmethod
    def of(cls, current: aml_settings.Settings) -> "AmlSettings":
        return cls(workspace_id=current.workspace_id, enabled=current.enabled, provider=current.provider,
                   updated_by=current.updated_by, updated_at=current.updated_at, **current.config)


class ReleaseRequest(RequestBody):
    reason: text(max_length=500) | None = Field(None, description="Why (kept in the audit log).")
