"""Screening records (domain/aml/screening.py): withdrawals screened in the check stage (allowed,
blocked, frozen and released by unfreeze, deferred then screened), deposits screened as recorded
(frozen part, release), the asynchronous provider, updates, and workspace scoping."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Iterator

import pytest

from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import balances
from domain.aml import decisions, providers, screening
from domain.aml.decisions import AmlDecision, AmlFacts
from domain.errors import DomainError
from domain.withdrawals import lifecycle, pipeline
from domain.withdrawals.create import CHECK
from models.aml import AmlScreening
from models.audit import AuditEntry
from models.transactions import Transaction
from models.webhooks import WebhookEvent
from tests.support.aml import (
    RISKY,
    SANCTIONED,
    AsyncTestProvider,
    blocked,
    enable_aml,
    evm_faucet,
    exposed,
    install_async_provider,
    result,
)
from tests.support.approvals import make_person
from tests.support.checks import only_checks
from tests.support.policies import publish
from tests.support.statements import statements_sent
from tests.support.wallets import address_of, fund, open_wallet, reload, vault_with_key, watch, workspace
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, EVM, allow_one_time_addresses, funded_wallet, step, withdraw

FEE = 21_000 * 10**9


@pytest.fixture
def async_provider() -> Iterator[AsyncTestProvider]:
    provider = install_async_provider()
    yield provider
    providers.unregister_provider(provider.name)


@pytest.fixture(autouse=True)
def aml_check_alone() -> Iterator[None]:
    """These tests read the AML check's own results: the other checks of the stage (the policy
    engine's) are set aside for each test and put back afterwards."""
    with only_checks("aml"):
        yield


@pytest.fixture
def no_policy() -> Iterator[None]:
    previous = decisions.policy_evaluator()
    decisions.register_policy_evaluator(None)
    yield
    decisions.register_policy_evaluator(previous)


async def _funded(amount: int = ETH):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", amount)
    return ws, tv, wallet


async def _due() -> list:
    async with unit_of_work():
        return await screening.due_screenings()


async def _actions(tx) -> list[str]:
    return list(await AuditEntry.filter(object_id=str(tx.id)).order_by("created_at").values_list("action", flat=True))


async def _events(ws, event_type: str) -> list[dict]:
    payloads = await WebhookEvent.filter(workspace_id=ws.id, type=event_type).order_by("created_at").values_list(
        "payload", flat=True)
    return [json.loads(p)["data"] for p in payloads]


# --------------------------------------------------------------------------------------------
# Outgoing
# --------------------------------------------------------------------------------------------


async def test_a_withdrawal_to_an_unlisted_address_is_screened_low_and_allowed(broker, no_policy):
    # Given a workspace that screens with the built-in screener
    ws, _, wallet = await _funded()
    await enable_aml(ws.id)
    # When a withdrawal passes the check stage
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    row = await step(pipeline.run_checks, tx)
    # Then it is approved and carries its screening record
    assert row.status == "approved"
    record = await AmlScreening.get(transaction_id=tx.id)
    assert (record.direction, record.status, record.risk_level, record.risk_score, record.matched_risks,
            record.pre_screening_action, record.post_screening_action, record.decision_source) == (
        "outgoing", "completed", "low", 0, [], "screen", "allow", "aml:default")
    assert record.counterparty_address == row.to_address
    assert row.aml_screening["id"] == str(record.id) and row.aml_screening["post_screening_action"] == "allow"
    assert [c["check"] for c in row.checks] == ["aml"] and row.checks[0]["verdict"] == "allow"
    # And the decision is audited and announced
    assert "aml.screened" in await _actions(tx)
    (event,) = await _events(ws, "aml.screened")
    assert (event["transaction_id"], event["risk_level"]) == (str(tx.id), "low")


async def test_a_withdrawal_to_a_sanctioned_address_is_declined_and_released(broker, no_policy):
    ws, _, wallet = await _funded()
    await enable_aml(ws.id, blocked_addresses=[blocked(SANCTIONED)])
    tx = (await withdraw(ws, wallet, SANCTIONED.upper().replace("0X", "0x"), 1000)).transaction
    row = await step(pipeline.run_checks, tx)
    # A severe risk blocks an outgoing transfer by default: declined, nothing held any more
    assert (row.status, row.error_code, row.holding) == ("declined", "AML_BLOCKED", False)
    assert balances.parts_of(await reload(wallet)).held == 0
    screened = row.aml_screening
    assert (screened["risk_level"], screened["risk_score"], screened["post_screening_action"]) == (
        "severe", "100.00", "block")
    assert screened["matched_risks"] == [{"category": "sanctions", "category_label": "Sanctioned entity",
                                          "exposure_percent": "100.00"}]


async def test_a_high_risk_withdrawal_is_frozen_and_the_unfreeze_releases_it(broker, no_policy):
    # Given an address with 90 % exposure to mixing (weight 60: score 54, high)
    ws, _, wallet = await _funded()
    await enable_aml(ws.id, address_exposures=[exposed(RISKY, mixing="90")])
    tx = (await withdraw(ws, wallet, RISKY, 1000)).transaction
    # When it is screened: frozen by the system, its hold released
    row = await step(pipeline.run_checks, tx)
    assert (row.status, row.frozen_from, row.holding) == ("frozen", "approved", False)
    assert balances.parts_of(await reload(wallet)).held == 0
    assert (row.aml_screening["risk_level"], row.aml_screening["risk_score"],
            row.aml_screening["post_screening_action"]) == ("high", "54.00", "freeze")
    frozen = await AuditEntry.get(object_id=str(tx.id), action="withdrawal.frozen")
    assert (frozen.actor_type, frozen.details["reason"], frozen.details["frozen_by"]) == ("system", "AML_FROZEN", "aml")
    # When a compliance officer unfreezes it (the existing unfreeze): approved, held again, signing queued
    async with unit_of_work():
        await lifecycle.unfreeze(principal=None, workspace_id=ws.id, transaction_id=tx.id)
    row = await Transaction.get(id=tx.id)
    assert (row.status, row.holding) == ("approved", True)
    assert balances.parts_of(await reload(wallet)).held == 1000 + FEE
    assert await Command.filter(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(tx.id)}).exists()
    # And it was screened once: a check stage run again answers the stored decision
    assert (await _actions(tx)).count("aml.screened") == 1


async def test_a_pending_provider_defers_the_withdrawal_until_its_result(broker, no_policy, async_provider,
                                                                         frozen_clock):
    # Given a workspace screening with a provider that answers later
    ws, _, wallet = await _funded()
    await enable_aml(ws.id, provider="test_async")
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    # When the check stage runs: registered, pending, the stage deferred by the provider's hint
    row = await step(pipeline.run_checks, tx)
    assert row.status == "checks"
    record = await AmlScreening.get(transaction_id=tx.id)
    assert (record.status, record.risk_level, record.post_screening_action, record.provider_ref) == (
        "pending", None, None, AsyncTestProvider.ref_of(record.id))
    assert row.checks[0]["verdict"] == "defer" and row.aml_screening["status"] == "pending"
    assert await Command.filter(actor_name=CHECK, payload__contains={"transaction_id": str(tx.id)},
                                run_at=row.updated_at + timedelta(seconds=3)).exists()
    # Still pending at the poll: nothing happens
    async with unit_of_work():
        assert await screening.advance_pending(screening_id=record.id) is None
    # When the provider has its result, the poll runs the stage again at once
    async_provider.answer(record.id, result("medium", "30", gambling="100"))
    checks_queued = Command.filter(actor_name=CHECK, payload__contains={"transaction_id": str(tx.id)})
    before = await checks_queued.count()
    async with unit_of_work():
        assert await screening.advance_pending(screening_id=record.id) == "check"
    assert await checks_queued.count() == before + 1
    assert await _due() == [record.id]
    row = await step(pipeline.run_checks, tx)
    # Medium is allowed (and alerted) by default
    assert (row.status, row.aml_screening["risk_level"], row.aml_screening["post_screening_action"]) == (
        "approved", "medium", "allow")
    assert row.aml_screening["matched_risks"][0]["category"] == "gambling"
    assert await _due() == []
    # A withdrawal cancelled while its screening is pending: the record is closed, no longer polled
    other = (await withdraw(ws, wallet, ELSEWHERE_EVM, 2000)).transaction
    await step(pipeline.run_checks, other)
    assert len(await _due()) == 1
    async with unit_of_work():
        await lifecycle.cancel(principal=None, workspace_id=ws.id, transaction_id=other.id)
    assert await _due() == []
    closed = await Transaction.get(id=other.id)
    assert (closed.aml_screening["status"], closed.aml_screening["post_screening_action"]) == ("cancelled", None)


async def test_the_aml_policy_decides_when_published_and_approval_details_are_complete(broker, no_policy):
    ws, _, wallet = await _funded()
    await enable_aml(ws.id, address_exposures=[exposed(RISKY, gambling="100")])  # score 20: low
    seen: list[AmlFacts] = []

    async def policy(facts: AmlFacts) -> AmlDecision | None:
        seen.append(facts)
        if facts.amount >= 5000:
            return AmlDecision("require_approval", rule_id="r-7", reason="gambling exposure, large",
                               approval={"approver_user_ids": ["u-1", "u-2"], "threshold": 2})
        return None  # as if no AML policy were published for small amounts

    decisions.register_policy_evaluator(policy)
    large = (await withdraw(ws, wallet, RISKY, 5000)).transaction
    row = await step(pipeline.run_checks, large)
    assert row.status == "awaiting_approvals"
    (check,) = row.checks
    assert check["verdict"] == "require_approval"
    assert check["details"]["approval"] == {"approver_user_ids": ["u-1", "u-2"], "group_id": None, "threshold": 2,
                                            "source": "aml:r-7"}
    assert row.aml_screening["decision_source"] == "aml:r-7"
    facts = seen[0]
    assert (facts.direction, facts.vault_id, facts.currency_id, facts.amount, facts.risk_level,
            facts.counterparty_address) == ("outgoing", wallet.vault_id, "DETH_TEST", 5000, "low", row.to_address)
    assert [(c, str(p)) for c, p in facts.matched_risks] == [("gambling", "100.00")]
    # A small one: the policy answers None, the default applies
    small = (await withdraw(ws, wallet, RISKY, 1000)).transaction
    assert (await step(pipeline.run_checks, small)).aml_screening["decision_source"] == "aml:default"


async def test_internal_transfers_are_not_screened_and_screening_off_records_nothing(broker, no_policy):
    ws, tv, wallet = await _funded()
    other = await open_wallet(await vault_with_key(ws, name="Savings"), "DETH_TEST")
    # Screening off (the default): the aml check allows without a record
    tx = (await withdraw(ws, wallet, await address_of(other), 1000, target_wallet_id=other.id)).transaction
    row = await step(pipeline.run_checks, tx)
    assert (row.status, row.checks[0]["details"], row.aml_screening) == ("approved", {"screening": "off"}, None)
    assert not await AmlScreening.exists(transaction_id=tx.id)
    # Screening on: an internal transfer is bypassed (recorded, allowed)
    await enable_aml(ws.id, blocked_addresses=[blocked(await address_of(other))])
    tx = (await withdraw(ws, wallet, await address_of(other), 1000, target_wallet_id=other.id)).transaction
    row = await step(pipeline.run_checks, tx)
    assert (row.status, row.aml_screening["status"], row.aml_screening["pre_screening_action"],
            row.aml_screening["post_screening_action"]) == ("approved", "bypassed", "bypass", "allow")


# --------------------------------------------------------------------------------------------
# Incoming
# --------------------------------------------------------------------------------------------


async def test_a_deposit_from_a_sanctioned_sender_counts_in_frozen_until_released(broker, no_policy):
    # Given a workspace whose AML settings block the faucet's address
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await enable_aml(ws.id, blocked_addresses=[blocked(evm_faucet())])
    # When a deposit from it is detected
    await fund(EVM, await address_of(wallet), 2 * ETH)
    (deposit,) = await watch(EVM)
    # Then it is recorded (finished) but its amount is frozen, not available
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.frozen, parts.available) == (2 * ETH, 2 * ETH, 0)
    row = await Transaction.get(id=deposit.id)
    assert (row.status, row.aml_screening["direction"], row.aml_screening["post_screening_action"],
            row.aml_screening["funds_frozen"]) == ("finished", "incoming", "freeze", True)
    assert row.to_side["balance"]["frozen_atomic"] == str(2 * ETH)
    created = (await _events(ws, "transaction.created"))[0]
    assert created["aml_screening"]["risk_level"] == "severe"
    assert (await _events(ws, "aml.screened"))[0]["funds_frozen"] is True
    version, seq = row.balance_version, row.seq
    # When a compliance officer releases it
    async with unit_of_work():
        await screening.release_deposit(principal=None, workspace_id=ws.id, transaction_id=deposit.id,
                                        reason="reviewed: faucet")
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.frozen, parts.available) == (2 * ETH, 0, 2 * ETH)
    row = await Transaction.get(id=deposit.id)
    assert row.balance_version == version + 1 and row.seq > seq
    assert row.to_side["balance"]["available_atomic"] == str(2 * ETH)
    assert (row.aml_screening["funds_frozen"], row.aml_screening["released_at"] is not None) == (False, True)
    updated = await _events(ws, "transaction.updated")
    assert updated[-1]["id"] == str(deposit.id) and updated[-1]["to"]["balance"]["frozen_atomic"] == "0"
    assert (await _events(ws, "aml.released"))[0]["transaction_id"] == str(deposit.id)
    released = await AuditEntry.get(object_id=str(deposit.id), action="aml.released")
    assert released.details["reason"] == "reviewed: faucet"
    # Releasing again is refused; so is releasing a withdrawal (that is unfreeze)
    with pytest.raises(DomainError) as refused:
        async with unit_of_work():
            await screening.release_deposit(principal=None, workspace_id=ws.id, transaction_id=deposit.id)
    assert refused.value.code == "TRANSACTION_NOT_FROZEN"


async def test_an_unlisted_sender_leaves_the_deposit_available(broker, no_policy):
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await enable_aml(ws.id, address_exposures=[exposed(RISKY, scam="100")])
    await fund(EVM, await address_of(wallet), ETH)
    (deposit,) = await watch(EVM)
    assert balances.parts_of(await reload(wallet)).available == ETH
    assert (await Transaction.get(id=deposit.id)).aml_screening["post_screening_action"] == "allow"


async def test_an_asynchronous_provider_holds_deposits_frozen_until_its_result(broker, no_policy, async_provider):
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await enable_aml(ws.id, provider="test_async")
    address = await address_of(wallet)
    await fund(EVM, address, ETH, mine=False)
    await fund(EVM, address, 3 * ETH)
    first, second = sorted(await watch(EVM), key=lambda t: int(t.amount))
    # Detected while the provider has not screened them: frozen, pending, not yet registered
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.frozen) == (4 * ETH, 4 * ETH)
    records = {r.transaction_id: r for r in await AmlScreening.filter(workspace_id=ws.id)}
    assert {r.status for r in records.values()} == {"pending"} and not async_provider.registered
    # The poll registers them; still pending
    for record in records.values():
        async with unit_of_work():
            assert await screening.advance_pending(screening_id=record.id) is None
    assert len(async_provider.registered) == 2
    # The results: the first is low (released to available by itself), the second severe (stays frozen)
    async_provider.answer(records[first.id].id, result("low", "5"))
    async_provider.answer(records[second.id].id, result("severe", "95", stolen_funds="80"))
    for record in records.values():
        async with unit_of_work():
            assert await screening.advance_pending(screening_id=record.id) == "completed"
    parts = balances.parts_of(await reload(wallet))
    assert (parts.frozen, parts.available) == (3 * ETH, ETH)
    assert (await AuditEntry.get(object_id=str(first.id), action="aml.released")).actor_type == "system"
    row = await Transaction.get(id=second.id)
    assert (row.aml_screening["status"], row.aml_screening["post_screening_action"],
            row.aml_screening["funds_frozen"]) == ("completed", "freeze", True)


async def test_a_provider_update_changes_the_record_and_moves_no_money(broker, no_policy, async_provider):
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await enable_aml(ws.id, provider="test_async")
    await fund(EVM, await address_of(wallet), ETH)
    (deposit,) = await watch(EVM)
    record = await AmlScreening.get(transaction_id=deposit.id)
    async_provider.answer(record.id, result("low", "0"))
    for _ in range(2):  # registered, then answered
        async with unit_of_work():
            await screening.advance_pending(screening_id=record.id)
    assert balances.parts_of(await reload(wallet)).available == ETH
    # When the provider re-screens the sender as high risk
    async_provider.update(record.id, result("high", "65", darknet_market="81.25"))
    for provider, update in await screening.provider_updates():
        async with unit_of_work():
            assert await screening.apply_update(provider=provider, ref=update.ref, result=update.result)
    # Then the record shows the new risk and its history; the action and the balance stay
    row = await Transaction.get(id=deposit.id)
    assert (row.aml_screening["risk_level"], row.aml_screening["risk_score"],
            row.aml_screening["post_screening_action"]) == ("high", "65.00", "allow")
    assert [u["risk_level"] for u in row.aml_screening["updates"]] == ["high"]
    assert balances.parts_of(await reload(wallet)).available == ETH
    audit = await AuditEntry.get(object_id=str(deposit.id), action="aml.updated")
    assert audit.details["before"] == {"risk_level": "low", "risk_score": "0.00"}
    assert (await _events(ws, "aml.updated"))[0]["risk_level"] == "high"
    # An update for a reference nobody knows changes nothing
    async with unit_of_work():
        assert await screening.apply_update(provider="test_async", ref="t-unknown", result=result("low", "0")) is None


# --------------------------------------------------------------------------------------------
# Scoping
# --------------------------------------------------------------------------------------------


async def test_records_are_scoped_to_their_workspace(broker, no_policy):
    ws, _, wallet = await _funded()
    await enable_aml(ws.id)
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    await step(pipeline.run_checks, tx)
    other = await workspace()
    record = await AmlScreening.get(transaction_id=tx.id)
    assert (await screening.get_screening(principal=None, workspace_id=ws.id, screening_id=record.id)).id == record.id
    with pytest.raises(DomainError) as missing:
        await screening.get_screening(principal=None, workspace_id=other.id, screening_id=record.id)
    assert missing.value.code == "AML_SCREENING_NOT_FOUND"
    assert (await screening.list_screenings(principal=None, workspace_id=other.id)) == ([], 0)
    items, total = await screening.list_screenings(principal=None, workspace_id=ws.id, direction="outgoing")
    assert (total, items[0].id) == (1, record.id)
    with pytest.raises(DomainError) as missing:
        async with unit_of_work():
            await screening.release_deposit(principal=None, workspace_id=other.id, transaction_id=tx.id)
    assert missing.value.code == "TRANSACTION_NOT_FOUND"


async def test_the_published_aml_policy_decides_instead_of_the_default(broker):
    # Given a sanctioned counterparty (severe: blocked by default) and an AML policy that sends
    # severe outgoing transfers to an approver instead
    ws, _, wallet = await _funded()
    await enable_aml(ws.id, blocked_addresses=[blocked(SANCTIONED)])
    approver = await make_person(workspace_id=str(ws.id), role="APPROVER")
    await publish(ws.id, [
        {"id": "severe-out", "name": "Severe outgoing", "action": "require_approval", "direction": "outgoing",
         "min_risk_level": "severe", "approval": {"approver_user_ids": [approver.person_id], "threshold": 1}},
        {"id": "rest", "name": "Rest", "action": "allow"},
    ], policy_type="aml")
    # When a withdrawal to it passes the check stage
    tx = (await withdraw(ws, wallet, SANCTIONED, 1000)).transaction
    row = await step(pipeline.run_checks, tx)
    # Then the policy's rule decided (through the evaluator domain.policies registers), not the default
    assert row.status == "awaiting_approvals"
    assert row.aml_screening["decision_source"] == "aml:severe-out"
    (check,) = row.checks
    assert check["details"]["approval"] == {"approver_user_ids": [approver.person_id], "group_id": None,
                                            "threshold": 1, "source": "aml:severe-out"}


async def test_the_check_reads_the_screening_record_and_the_settings_in_one_statement(broker, no_policy):
    ws, _, wallet = await _funded()
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    # When the check stage runs for a workspace that does not screen
    with statements_sent() as sent:
        row = await step(pipeline.run_checks, tx)
    # Then one statement asked for the withdrawal's screening record and the settings: screening is off
    assert row.status == "approved" and row.checks[0]["details"] == {"screening": "off"}
    assert len([s for s in sent if "aml_screenings" in s or "aml_settings" in s]) == 1
