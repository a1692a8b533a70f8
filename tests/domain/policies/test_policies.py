"""Policies (domain/policies): versions, validation (tag rule 8), evaluation order and every
condition, fail-closed prices, tags, and the AML policy's verdicts."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from core.unit_of_work import unit_of_work
from domain import groups, prices, tags
from domain.errors import DomainError
from domain.policies import evaluate_aml_policy, service
from domain.withdrawals import pipeline
from models.audit import AuditEntry
from models.transactions import Transaction
from tests.support.approvals import make_person
from tests.support.callers import make_principal
from tests.support.policies import FixedPrices, protected_tag, publish
from tests.support.wallets import address_of, open_wallet, vault_with_key, workspace
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, allow_one_time_addresses, funded_wallet, step, withdraw


@pytest.fixture
def usd_prices():
    prices.set_price_source(FixedPrices(DETH_TEST="2000"))
    yield
    prices.set_price_source(None)


@pytest.fixture
def no_prices():
    prices.set_price_source(FixedPrices())
    yield
    prices.set_price_source(None)


async def _setup(broker):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", 10 * ETH)
    return ws, tv, wallet


async def _checked(ws, wallet, amount=1000, to=ELSEWHERE_EVM, **kw) -> Transaction:
    created = await withdraw(ws, wallet, to, amount, **kw)
    return await step(pipeline.run_checks, created.transaction)


def _policy_result(tx: Transaction) -> dict:
    return next(r for r in tx.checks if r["check"] == "policy")


async def _refused(coro) -> DomainError:
    with pytest.raises(DomainError) as caught:
        async with unit_of_work():
            await coro
    return caught.value


# --- versions ---------------------------------------------------------------------------------


async def test_publishing_adds_versions_and_rollback_publishes_a_copy(broker):
    ws = await workspace()
    first = await publish(ws.id, [{"id": "r1", "name": "Allow all", "action": "allow"}])
    second = await publish(ws.id, [{"id": "r2", "name": "Block all", "action": "block"}], no_match_action="allow")
    assert (first.version, second.version) == (1, 2)
    async with unit_of_work():
        rolled = await service.rollback_policy(principal=None, workspace_id=ws.id, policy_type="transfer", version=1)
    assert (rolled.version, rolled.copied_from_version, rolled.rules, rolled.no_match_action) == (
        3, 1, first.rules, "block")
    versions, total = await service.list_versions(principal=None, workspace_id=ws.id, policy_type="transfer",
                                                  limit=10, offset=0)
    assert [v.version for v in versions] == [3, 2, 1] and total == 3
    actions = await AuditEntry.filter(workspace_id=ws.id, object_type="policy").order_by("created_at").values_list(
        "action", flat=True)
    assert list(actions) == ["policy.published", "policy.published", "policy.rolled_back"]


async def test_no_published_policy_allows_and_no_match_fails_closed_unless_the_workspace_allows(broker):
    ws, tv, wallet = await _setup(broker)
    assert (await _checked(ws, wallet)).status == "approved"
    await publish(ws.id, [{"name": "Only big", "action": "allow", "asset": {"currency_ids": ["DETH_TEST"]},
                           "amount": {"min": str(ETH)}}])
    small = await _checked(ws, wallet, 1000)
    assert (small.status, small.error_code) == ("declined", "POLICY_BLOCKED")
    assert "no rule matched" in small.error_message
    await publish(ws.id, [{"name": "Only big", "action": "block", "asset": {"currency_ids": ["DETH_TEST"]},
                           "amount": {"min": str(ETH)}}], no_match_action="allow")
    assert (await _checked(ws, wallet, 1000)).status == "approved"


async def test_the_first_matching_rule_decides_and_the_transaction_records_why(broker):
    ws, tv, wallet = await _setup(broker)
    await publish(ws.id, [
        {"id": "big", "name": "Big ones blocked", "action": "block", "amount": {"min": "5000"},
         "asset": {"currency_ids": ["DETH_TEST"]}},
        {"id": "rest", "name": "The rest", "action": "allow"},
        {"id": "never", "name": "Never reached", "action": "block"},
    ])
    allowed = await _checked(ws, wallet, 1000)
    result = _policy_result(allowed)
    assert allowed.status == "approved"
    assert result["details"]["policy"]["rule_id"] == "rest" and result["details"]["policy"]["version"] == 1
    blocked = await _checked(ws, wallet, 6000)
    assert (blocked.status, _policy_result(blocked)["details"]["policy"]["rule_id"]) == ("declined", "big")
    assert "amount 6000 atomic units within [5000, -)" in blocked.error_message


async def test_source_destination_asset_and_initiator_conditions(broker):
    ws, tv, wallet = await _setup(broker)
    other = await vault_with_key(ws, name="Other")
    other_wallet = await open_wallet(other, "DETH_TEST")
    signer = await make_principal(role="SIGNER", workspace_id=ws.id)
    await publish(ws.id, [
        {"id": "internal", "name": "Internal from treasury", "action": "allow",
         "source": {"type": "vaults", "vault_ids": [str(tv.vault.id)]}, "destination": {"type": "internal"}},
        {"id": "signer", "name": "Signers to one-time", "action": "block", "initiator": {"roles": ["SIGNER"]},
         "destination": {"type": "one_time"}},
        {"id": "wallet", "name": "This wallet, DETH", "action": "allow",
         "source": {"type": "wallets", "wallet_ids": [str(wallet.id)]}, "asset": {"currency_ids": ["DETH_TEST"]}},
    ])
    internal = await _checked(ws, wallet, 1000, to=await address_of(other_wallet))
    assert _policy_result(internal)["details"]["policy"]["rule_id"] == "internal"
    by_signer = await _checked(ws, wallet, 1000, principal=signer)
    assert (by_signer.status, _policy_result(by_signer)["details"]["policy"]["rule_id"]) == ("declined", "signer")
    by_system = await _checked(ws, wallet, 1000)
    assert _policy_result(by_system)["details"]["policy"]["rule_id"] == "wallet"


async def test_a_usd_condition_without_a_price_fails_closed(broker, no_prices):
    ws, tv, wallet = await _setup(broker)
    await publish(ws.id, [{"name": "Small in USD", "action": "allow", "amount": {"max_usd": "100"}}],
                  no_match_action="allow")
    tx = await _checked(ws, wallet, 1000)
    assert (tx.status, tx.error_code) == ("declined", "POLICY_BLOCKED")
    assert "no USD price" in tx.error_message


async def test_usd_amounts_use_the_price_table(broker, usd_prices):
    ws, tv, wallet = await _setup(broker)
    await publish(ws.id, [{"id": "usd", "name": "Under 1000 USD", "action": "allow", "amount": {"max_usd": "1000"}}])
    assert (await _checked(ws, wallet, ETH // 4)).status == "approved"  # 500 USD
    assert (await _checked(ws, wallet, ETH)).status == "declined"  # 2000 USD


# --- tags ---------------------------------------------------------------------------------------


async def test_tag_rule_8_shapes_are_refused(broker):
    ws = await workspace()
    tag = await protected_tag(ws.id, "VIP")
    cases = [
        ({"type": "any", "tag_ids": [str(tag.id)], "tag_match_mode": "any"}, "rules[0].source.tag_ids"),
        ({"type": "vaults", "vault_ids": [str(uuid.uuid4())], "tag_ids": [str(tag.id)], "tag_match_mode": "all"},
         "rules[0].source.tag_ids"),
        ({"type": "tags", "tag_ids": [str(tag.id)]}, "rules[0].source.tag_match_mode"),
        ({"type": "tags", "tag_match_mode": "any"}, "rules[0].source.tag_ids"),
    ]
    for source, field in cases:
        error = await _refused(service.publish_policy(principal=None, workspace_id=ws.id, policy_type="transfer",
                                                      rules=[{"name": "x", "action": "block", "source": source}]))
        assert (error.code, error.details["field"]) == ("INVALID_POLICY_RULE", field), source
    # AML: outgoing allows a tag only as source, incoming only as destination
    tagged = {"type": "tags", "tag_ids": [str(tag.id)], "tag_match_mode": "any"}
    for direction, side in (("outgoing", "destination"), ("incoming", "source")):
        error = await _refused(service.publish_policy(
            principal=None, workspace_id=ws.id, policy_type="aml",
            rules=[{"name": "x", "action": "block", "direction": direction, side: tagged}]))
        assert error.code == "INVALID_POLICY_RULE" and error.details["field"].startswith(f"rules[0].{side}")
    await publish(ws.id, [{"name": "ok", "action": "block", "direction": "outgoing", "source": tagged}],
                  policy_type="aml")


async def test_only_protected_tags_match_and_a_referenced_tag_cannot_be_deleted(broker):
    ws, tv, wallet = await _setup(broker)
    vip = await protected_tag(ws.id, "VIP", vaults=[tv.vault.id])
    plain = await protected_tag(ws.id, "Plain", vaults=[tv.vault.id], protected=False)
    await publish(ws.id, [
        {"id": "plain", "name": "Unprotected never matches", "action": "block",
         "source": {"type": "tags", "tag_ids": [str(plain.id)], "tag_match_mode": "any"}},
        {"id": "vip", "name": "VIP", "action": "allow",
         "source": {"type": "tags", "tag_ids": [str(vip.id)], "tag_match_mode": "all"}},
    ])
    tx = await _checked(ws, wallet)
    assert (tx.status, _policy_result(tx)["details"]["policy"]["rule_id"]) == ("approved", "vip")
    async with unit_of_work():
        await tags.change_vault_tags(principal=None, workspace_id=ws.id,
                                     change=tags.VaultTagsChange(vault_ids=(tv.vault.id,), detach=(vip.id, plain.id)))
    for tag in (vip, plain):
        error = await _refused(tags.delete_tag(principal=None, workspace_id=ws.id,
                                               deletion=tags.TagDeletion(tag_id=tag.id)))
        assert error.code == "TAG_IS_USED_IN_POLICY_RULE"
    error = await _refused(tags.set_protected(principal=None, workspace_id=ws.id, tag_id=vip.id, protected=False))
    assert error.code == "TAG_IS_USED_IN_POLICY_RULE"
    # A newer version without them frees the tags (history versions hold none)
    await publish(ws.id, [{"name": "all", "action": "allow"}])
    async with unit_of_work():
        await tags.delete_tag(principal=None, workspace_id=ws.id, deletion=tags.TagDeletion(tag_id=plain.id))
    # and a rollback to the version naming the deleted tag is refused
    error = await _refused(service.rollback_policy(principal=None, workspace_id=ws.id, policy_type="transfer",
                                                   version=1))
    assert error.code == "INVALID_POLICY_RULE"


# --- approvers and groups -----------------------------------------------------------------------


async def test_a_group_must_be_the_workspaces_and_approvers_must_be_members(broker):
    ws = await workspace()
    rule = {"name": "g", "action": "require_approval", "approval": {"group_id": str(uuid.uuid4()), "threshold": 1}}
    # Given a group the workspace does not have, Then the rule is refused
    error = await _refused(service.publish_policy(principal=None, workspace_id=ws.id, policy_type="transfer",
                                                  rules=[rule]))
    assert (error.code, error.status) == ("INVALID_POLICY_RULE", 400)
    # Given a real group of the workspace with one approver (a person: API users have no device)
    member = await make_person(workspace_id=str(ws.id), role="APPROVER")
    async with unit_of_work():
        group = await groups.create_group(principal=None, workspace_id=ws.id, name="Treasury approvers",
                                          member_ids=[uuid.UUID(member.person_id)])
    rule["approval"]["group_id"] = str(group.group.id)
    # When the rule names it, Then it is published, and the group resolves to its member
    version = await publish(ws.id, [rule])
    assert version.rules[0]["approval"]["group_id"] == str(group.group.id)
    assert await service.resolve_group(ws.id, str(group.group.id)) == [uuid.UUID(member.person_id)]
    stranger = str(uuid.uuid4())
    error = await _refused(service.publish_policy(
        principal=None, workspace_id=ws.id, policy_type="transfer",
        rules=[{"name": "u", "action": "require_approval", "approval": {"approver_user_ids": [stranger]}}]))
    assert error.code == "INVALID_POLICY_RULE" and stranger in error.message


# --- AML policy ----------------------------------------------------------------------------------


async def test_aml_policy_verdicts(broker):
    ws, tv, wallet = await _setup(broker)
    vip = await protected_tag(ws.id, "Cold", vaults=[tv.vault.id])
    approver = await make_principal(role="APPROVER", workspace_id=ws.id)
    common = {"workspace_id": ws.id, "vault_id": tv.vault.id, "currency_id": "DETH_TEST", "amount": 1000,
              "amount_usdt": Decimal("10"), "counterparty_address": ELSEWHERE_EVM}
    assert await evaluate_aml_policy(direction="outgoing", risk_level="low", risk_score=None, matched_risks=[],
                                     **common) is None
    await publish(ws.id, [
        {"id": "sanctions", "name": "Sanctions exposure", "action": "freeze", "direction": "incoming",
         "categories": [{"category": "sanctions", "min_exposure_percent": "5"}]},
        {"id": "severe", "name": "Severe out of cold", "action": "block", "direction": "outgoing",
         "min_risk_level": "high", "source": {"type": "tags", "tag_ids": [str(vip.id)], "tag_match_mode": "any"}},
        {"id": "score", "name": "Scored", "action": "require_approval", "min_risk_score": "50",
         "approval": {"approver_user_ids": [str(approver.user.id)], "threshold": 1}},
        {"id": "rest", "name": "Rest", "action": "allow"},
    ], policy_type="aml")
    frozen = await evaluate_aml_policy(direction="incoming", risk_level="medium", risk_score=Decimal("10"),
                                       matched_risks=[("sanctions", Decimal("7.5"))], **common)
    assert (frozen.action, frozen.rule_id) == ("freeze", "sanctions")
    blocked = await evaluate_aml_policy(direction="outgoing", risk_level="severe", risk_score=None,
                                        matched_risks=[("sanctions", Decimal("7.5"))], **common)
    assert (blocked.action, blocked.rule_id) == ("block", "severe")
    held = await evaluate_aml_policy(direction="incoming", risk_level="low", risk_score=Decimal("75"),
                                     matched_risks=[], **common)
    assert (held.action, held.rule_id) == ("require_approval", "score")
    assert held.approval == {"approver_user_ids": [str(approver.user.id)], "group_id": None, "threshold": 1,
                             "source": "aml:score"}
    allowed = await evaluate_aml_policy(direction="outgoing", risk_level="low", risk_score=Decimal("1"),
                                        matched_risks=[], **common)
    assert (allowed.action, allowed.rule_id, allowed.approval) == ("allow", "rest", None)
