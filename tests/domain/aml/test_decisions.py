"""From risk to action (domain/aml/decisions.py): the default, the policy hook, approvals."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Iterator

import pytest

from domain import auth
from domain.aml import decisions
from domain.aml.decisions import AmlDecision, AmlFacts
from tests.support.approvals import make_owner
from tests.support.callers import make_principal


@pytest.fixture(autouse=True)
def no_policy() -> Iterator[None]:
    previous = decisions.policy_evaluator()
    decisions.register_policy_evaluator(None)
    yield
    decisions.register_policy_evaluator(previous)


def _facts(level: str, direction: str = "outgoing", workspace_id: uuid.UUID | None = None) -> AmlFacts:
    return AmlFacts(workspace_id=workspace_id or uuid.uuid4(), direction=direction, vault_id=uuid.uuid4(),
                    currency_id="DETH_TEST", amount=1, amount_usdt=None, counterparty_address="0x",
                    risk_level=level, risk_score=Decimal(0), matched_risks=[])


@pytest.mark.parametrize(("level", "outgoing", "incoming"), [
    ("low", "allow", "allow"), ("medium", "allow", "allow"), ("high", "freeze", "freeze"),
    ("severe", "block", "freeze")])
async def test_the_default_maps_risk_to_action_per_direction(level, outgoing, incoming):
    assert (await decisions.decide(_facts(level))).action == outgoing
    decided = await decisions.decide(_facts(level, "incoming"))
    assert (decided.action, decided.source) == (incoming, "aml:default")


async def test_an_approval_without_approvers_names_the_members_who_may_approve(database):
    owner_device = await make_owner()
    owner = await auth.authenticate(owner_device.token)  # type: ignore[arg-type]
    workspace_id = next(iter(owner.accesses))
    await make_principal(role="APPROVER", workspace_id=workspace_id)
    await make_principal(role="VIEWER", workspace_id=workspace_id)

    async def policy(facts: AmlFacts) -> AmlDecision:
        return AmlDecision("require_approval", rule_id="r1")

    decisions.register_policy_evaluator(policy)
    decided = await decisions.decide(_facts("medium", workspace_id=workspace_id))
    approval = decided.approval
    assert approval is not None and (approval["group_id"], approval["threshold"], approval["source"]) == (
        None, 1, "aml:r1")
    assert len(approval["approver_user_ids"]) == 2 and str(owner.user.id) in approval["approver_user_ids"]


def test_an_unknown_action_is_refused():
    with pytest.raises(ValueError):
        AmlDecision("shrug")


async def test_a_failing_policy_freezes_both_directions():
    async def broken(facts: AmlFacts) -> AmlDecision:
        raise RuntimeError("rule store unreachable")

    decisions.register_policy_evaluator(broken)
    for direction in ("outgoing", "incoming"):
        decided = await decisions.decide(_facts("low", direction))
        assert (decided.action, decided.source) == ("freeze", "aml:error")
