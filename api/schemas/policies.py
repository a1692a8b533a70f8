"""Policies (Transfer and AML), explain, and transaction approvals (docs/policies.md).

The rule objects are validated by domain.policies.rules (400 INVALID_POLICY_RULE naming the
field, e.g. ``rules[2].source.tag_ids``); their schema is documented in docs/policies.md.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import Field

from api.schemas.common import QueryParams, RequestBody, Resource, Timestamp
from api.schemas.whitelist import Address
from api.schemas.withdrawals import AtomicAmountIn
from domain.policies import rules as R
from domain.policies.service import Explanation
from models.policies import PolicyVersion as PolicyVersionRow

RULES_DOC = ("The ordered rules (docs/policies.md: source, destination, asset, initiator, amount, window, action, "
             "approval; AML rules: direction, min_risk_level, min_risk_score, categories). The first matching rule "
             "decides.")


class PolicyPublish(RequestBody):
    rules: list[dict[str, Any]] = Field(description=RULES_DOC, max_length=R.MAX_RULES)
    no_match_action: Literal["block", "allow"] = Field(
        "block", description="What happens when no rule matches: block (fail closed, the default) or allow.")


class PolicyRollback(RequestBody):
    version: int = Field(ge=1, le=2**31 - 1, description="The version to publish a copy of.")


class PolicyVersion(Resource):
    """One published version of a workspace's policy."""

    workspace_id: uuid.UUID
    policy_type: str = Field(description="transfer or aml")
    policy_type_name: str = Field(description="Transfer policy or AML policy")
    version: int
    version_published_at: Timestamp
    published_by: uuid.UUID | None
    copied_from_version: int | None = Field(description="A rollback: the version this one copies.")
    no_match_action: str
    rules: list[dict[str, Any]]

    @classmethod
    def of(cls, row: PolicyVersionRow) -> "PolicyVersion":
        return cls(workspace_id=row.workspace_id, policy_type=row.policy_type,
                   policy_type_name=R.POLICY_TYPE_NAMES[row.policy_type], version=row.version,
                   version_published_at=row.published_at, published_by=row.published_by,
                   copied_from_version=row.copied_from_version, no_match_action=row.no_match_action, rules=row.rules)


class PolicyState(Resource):
    """A policy type and its published version (null before the first publish)."""

    policy_type: str
    policy_type_name: str
    published: PolicyVersion | None


class PolicyList(Resource):
    policies: list[PolicyState]


class PolicyVersionPage(Resource):
    items: list[PolicyVersion] = Field(description="Newest first.")
    total: int
    limit: int
    offset: int


class PolicyVersionQuery(QueryParams):
    limit: int = Field(100, ge=1, le=1000)
    offset: int = Field(0, ge=0, le=2**63 - 1)


class HypotheticalWithdrawal(RequestBody):
    amount: AtomicAmountIn = Field(description="Atomic units of the source wallet's currency.")
    source_wallet_id: uuid.UUID
    target_address: Address
    target_wallet_id: uuid.UUID | None = None
    target_whitelisted_asset_id: uuid.UUID | None = None
    initiator_user_id: uuid.UUID | None = Field(None, description="Who would create it (default: the caller).")


class ExplainRequest(RequestBody):
    withdrawal: HypotheticalWithdrawal
    rules: list[dict[str, Any]] | None = Field(None, max_length=R.MAX_RULES,
                                               description="A draft to evaluate instead of the published policy.")
    no_match_action: Literal["block", "allow"] | None = Field(None, description="The draft's no-match action.")


class RuleVerdict(Resource):
    index: int
    rule_id: str
    name: str
    action: str
    matched: bool
    reason: str
    conditions: list[dict[str, Any]] = Field(description="Each condition: condition, matched, detail.")
    window: dict[str, Any] | None = Field(description="Window usage: used, with_this, limits, over.")


class Explain(Resource):
    policy_type: str
    version: int | None = Field(description="The published version evaluated; null for a draft.")
    draft: bool
    action: str = Field(description="allow, require_approval or block")
    reason: str
    matched_rule: RuleVerdict | None
    rules: list[RuleVerdict] = Field(description="Every rule's verdict, in order.")
    destination_type: str
    amount_usd: str | None
    approval: dict[str, Any] | None = Field(description=(
        "The approval requirement the decision would create, as the withdrawal's approval request would hold "
        "it: approver_user_ids without the initiator (four eyes), group_id, threshold, source, "
        "initiator_excluded (the rule named the initiator) and meetable (the approvers left can reach the "
        "threshold; a withdrawal whose requirement cannot is declined)."))

    @classmethod
    def of(cls, e: Explanation) -> "Explain":
        d = e.decision
        verdicts = [RuleVerdict(**v.to_dict()) for v in d.verdicts]
        matched = verdicts[d.rule.index] if d.rule is not None else None
        return cls(policy_type=d.policy_type, version=None if e.draft else d.version, draft=e.draft,
                   action=d.action, reason=d.reason, matched_rule=matched, rules=verdicts,
                   destination_type=e.destination_type,
                   amount_usd=str(e.facts.amount_usd) if e.facts.amount_usd is not None else None,
                   approval=e.approval)
