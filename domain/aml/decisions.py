"""From risk to action: the workspace's AML policy when it has one, else the built-in default.

The policy engine (the ``policies`` work) owns the AML policy's rules, versions and explain. It
plugs in here through one hook, a fixed contract between the two pieces:

    register_policy_evaluator(fn)    fn: async (AmlFacts) -> AmlDecision | None

``fn`` answers the decision of the workspace's published AML policy, or None when the workspace
has no published AML policy. Then (and with no evaluator registered) :func:`default_decision`
applies:

=========  =================================  ====================================
risk       outgoing (withdrawal)              incoming (deposit)
=========  =================================  ====================================
low        allow                              allow
medium     allow (the record is the alert)    allow (the record is the alert)
high       freeze (a person looks first)      freeze (counts in ``frozen``)
severe     block (declined, never signed)     freeze (counts in ``frozen``)
=========  =================================  ====================================

Why: this is what KYT users configure first. A severe result is a sanctioned or otherwise
prohibited counterparty: paying it is what the sanctions rules forbid, so the withdrawal is
declined outright (Fireblocks' REJECT), while a received transfer cannot be sent back by the
service on its own and is "blocked property" to be held, so it is frozen until a compliance
officer releases (or reports) it. A high result is often a false positive (exposure through an
exchange's commingled funds): it must not go out or be spent before someone has looked, but must
not be lost either, so both directions freeze; an officer unfreezes the withdrawal or releases
the deposit. Medium is alerted (the screening record, its audit entry and the ``aml.screened``
event) without stopping business, as KYT's default alerting does.

A decision ``require_approval`` carries ``approval``: ``{approver_user_ids, group_id, threshold,
source}``; the default names every active member whose role grants APPROVE_TRANSACTION, one of
them enough. For a deposit, ``block`` and ``require_approval`` mean freeze (a deposit cannot be
refused or voted on: its funds are held until released).

An evaluator that raises decides **freeze** (source ``aml:error``): failing closed without
stopping the chain watcher (a deposit must still be recorded) or letting a withdrawal through.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Awaitable, Callable

from domain.aml.providers import HIGH, MEDIUM, SEVERE
from domain.permissions import Permission, WorkspaceRole, permissions_of
from models.users import WorkspaceMember

logger = logging.getLogger(__name__)

OUTGOING, INCOMING = "outgoing", "incoming"
ALLOW, REQUIRE_APPROVAL, BLOCK, FREEZE = "allow", "require_approval", "block", "freeze"
ACTIONS = (ALLOW, REQUIRE_APPROVAL, BLOCK, FREEZE)
DEFAULT_SOURCE = "aml:default"


@dataclass(frozen=True)
class AmlFacts:
    """What the AML policy decides on (one screened transfer)."""

    workspace_id: uuid.UUID
    direction: str
    vault_id: uuid.UUID
    currency_id: str
    amount: int
    amount_usdt: Decimal | None
    counterparty_address: str | None
    risk_level: str
    risk_score: Decimal | None
    #: ``(category, exposure_percent)`` pairs.
    matched_risks: list[tuple[str, Decimal]] = field(default_factory=list)


@dataclass(frozen=True)
class AmlDecision:
    action: str
    #: The AML policy rule that decided (None for the built-in default).
    rule_id: str | None = None
    reason: str | None = None
    #: ``require_approval``: ``{approver_user_ids, group_id, threshold, source}``.
    approval: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown AML action {self.action!r}")

    @property
    def source(self) -> str:
        return f"aml:{self.rule_id}" if self.rule_id else DEFAULT_SOURCE


PolicyEvaluator = Callable[[AmlFacts], Awaitable[AmlDecision | None]]

_evaluator: PolicyEvaluator | None = None


def register_policy_evaluator(fn: PolicyEvaluator | None) -> None:
    """Install the AML policy's evaluator (the policy engine calls this once; None removes it)."""
    global _evaluator
    _evaluator = fn


def policy_evaluator() -> PolicyEvaluator | None:
    return _evaluator


def default_decision(facts: AmlFacts) -> AmlDecision:
    """The built-in mapping of the module docstring."""
    level = facts.risk_level
    if level == SEVERE:
        if facts.direction == OUTGOING:
            return AmlDecision(BLOCK, reason="severe AML risk: the counterparty is sanctioned or prohibited")
        return AmlDecision(FREEZE, reason="severe AML risk: the received funds are frozen until released")
    if level == HIGH:
        return AmlDecision(FREEZE, reason="high AML risk: frozen until a compliance officer releases it")
    if level == MEDIUM:
        return AmlDecision(ALLOW, reason="medium AML risk: allowed and alerted")
    return AmlDecision(ALLOW, reason=f"{level} AML risk")


async def default_approvers(workspace_id: uuid.UUID) -> list[str]:
    """Active members whose role grants APPROVE_TRANSACTION (oldest membership first)."""
    roles = [r.value for r in WorkspaceRole if Permission.APPROVE_TRANSACTION in permissions_of(r)]
    members = await WorkspaceMember.filter(workspace_id=workspace_id, role__in=roles,
                                           role_status="ROLE_STATUS_ACTIVE").order_by("created_at").values_list(
        "user_id", flat=True)
    return [str(m) for m in members]


async def decide(facts: AmlFacts) -> AmlDecision:
    """The workspace's AML policy decision, or the default (see the module docstring).

    A ``require_approval`` always leaves with a complete ``approval`` (the default approvers
    fill in what a policy rule left out), so the approvals work can count votes on it.
    """
    try:
        decision = await _evaluator(facts) if _evaluator is not None else None
    except Exception:  # noqa: BLE001 - a failing policy must not stop deposits or let a transfer through
        logger.exception("AML policy evaluation failed for %s %s; freezing", facts.direction, facts.workspace_id)
        return AmlDecision(FREEZE, rule_id="error", reason="the AML policy could not be evaluated: frozen until "
                                                              "a person releases it (fail closed)")
    if decision is None:
        decision = default_decision(facts)
    if decision.action == REQUIRE_APPROVAL:
        approval = dict(decision.approval or {})
        if not approval.get("approver_user_ids") and approval.get("group_id") is None:
            approval["approver_user_ids"] = await default_approvers(facts.workspace_id)
        approval.setdefault("approver_user_ids", [])
        approval.setdefault("group_id", None)
        approval["threshold"] = int(approval.get("threshold") or 1)
        approval["source"] = decision.source
        decision = AmlDecision(decision.action, decision.rule_id, decision.reason, approval)
    return decision
