"""Screening records: a transfer registered with the provider, its result, the decision, later updates.

Outgoing (:func:`screen_withdrawal`, the ``aml`` check of the withdrawal check stage): the first
run creates the record and registers the withdrawal with the workspace's provider before anything
is signed. A result decides at once; *pending* answers DEFER (the stage runs again after the
provider's ``retry_after``, or sooner when the ``aml.poll`` job sees the result arrive). The
decision maps to the check's verdict: allow → ALLOW, require_approval → REQUIRE_APPROVAL (with
``details.approval``), block → BLOCK (``AML_BLOCKED``), freeze → FREEZE. A later run of the stage
answers the stored decision again (never a second registration). An internal transfer between
the workspace's own vaults is not screened (``pre_screening_action`` bypass; allowed).

Incoming (:func:`screen_deposit`, called by the chain watcher as it records a deposit): an
inline provider (the built-in screener) answers in the watcher's transaction, so a deposit to
freeze is credited straight into ``frozen`` (one balance change, one event). A provider that
screens asynchronously is registered by the ``aml.poll`` job; until its result the deposit's
amount waits in ``frozen`` (fail closed: unscreened funds cannot be spent) and is moved to
available when the result allows it. A frozen deposit stays frozen until someone with
APPROVE_TRANSACTION releases it (:func:`release_deposit`).

Updates (:func:`apply_update`): a provider's changed result for a transfer screened before
updates the record (risk, exposures, the history in ``updates``), is audited and announced
(``aml.updated``), and **moves no money**: a finished withdrawal is on the chain; a deposit that
is available may already be spent (and the alert is what the compliance team acts on: freeze the
vault, report); a frozen deposit stays frozen until released; a withdrawal keeps the decision it
was given (a person can still freeze it before signing).

Lock order, as for every writer of a transaction: the transaction row, then its record, then
wallets, then the change-log counter (the chain watcher creates records of new rows only).

Every decision, update and release is audited (``aml.screened``, ``aml.updated``,
``aml.released``) and sent as an event of the same name; the Transaction carries the record as
``aml_screening``.
"""

from __future__ import annotations

import functools
import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from tortoise import connections
from tortoise.models import Model

from core import clock
from core.clock import rfc3339
from core.outbox import add_command
from domain import audit, balances, transactions
from domain import transaction_statuses as statuses
from domain.aml import decisions
from domain.aml import settings as aml_settings
from domain.aml.decisions import INCOMING, OUTGOING, AmlDecision, AmlFacts
from domain.aml.providers import (
    AmlProvider,
    ScreeningAnswer,
    ScreeningResult,
    TransferToScreen,
    all_providers,
    get_provider,
)
from domain.auth import Principal
from domain.currencies import registry
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.permissions import Permission
from domain.webhooks import catalogue
from domain.webhooks.events import emit_event
from domain.withdrawals.checks import CheckResult, CheckSubject, Verdict
from domain.withdrawals.create import CHECK
from models.aml import AmlScreening, AmlSettings
from models.transactions import Transaction
from models.vaults import Vault
from models.workspaces import Workspace

logger = logging.getLogger(__name__)

CHECK_NAME = "aml"
PENDING, COMPLETED, BYPASSED, CANCELLED = "pending", "completed", "bypassed", "cancelled"
SCREEN, BYPASS = "screen", "bypass"
#: How long the check stage waits for a pending result when the provider gives no hint.
DEFAULT_RETRY_AFTER = timedelta(seconds=10)
#: Scheduled actor: register and poll pending screenings, apply providers' updates.
POLL = "aml.poll"
POLL_INTERVAL_SECONDS = 10


class NotReleasable(Conflict):
    code = "TRANSACTION_NOT_FROZEN"


class ScreeningNotFound(NotFound):
    code = "AML_SCREENING_NOT_FOUND"


# --------------------------------------------------------------------------------------------
# The record as the API shows it
# --------------------------------------------------------------------------------------------


def to_resource(rec: AmlScreening) -> dict[str, Any]:
    """The spec's AML screening fields (numbers as decimal strings here; numbers on the wire) and
    the service's own: what decided, the provider's reference, the deposit's freeze and release."""
    return {
        "id": str(rec.id),
        "transaction_id": str(rec.transaction_id),
        "direction": rec.direction,
        "status": rec.status,
        "risk_level": rec.risk_level,
        "risk_score": None if rec.risk_score is None else str(rec.risk_score),
        "matched_risks": list(rec.matched_risks or []),
        "pre_screening_action": rec.pre_screening_action,
        "post_screening_action": rec.post_screening_action,
        "provider": rec.provider,
        "provider_ref": rec.provider_ref,
        "counterparty_address": rec.counterparty_address,
        "decision_source": rec.decision_source,
        "decision_reason": rec.decision_reason,
        "funds_frozen": rec.funds_frozen,
        "released_at": rfc3339(rec.released_at) if rec.released_at else None,
        "released_by": None if rec.released_by is None else str(rec.released_by),
        "screened_at": rfc3339(rec.screened_at) if rec.screened_at else None,
        "updates": list(rec.updates or []),
        "created_at": rfc3339(rec.created_at),
        "updated_at": rfc3339(rec.updated_at),
    }


async def _save(rec: AmlScreening, tx: Transaction, *, tx_fields: bool = True) -> None:
    """Save the record and its copy on the transaction (same database transaction)."""
    await rec.save()
    tx.aml_screening = to_resource(rec)
    if tx_fields:
        await tx.save(update_fields=["aml_screening"])


async def _announce(event_type: str, rec: AmlScreening) -> None:
    await emit_event(workspace_id=rec.workspace_id, event_type=event_type, data=to_resource(rec))


def _transfer(rec: AmlScreening, tx: Transaction) -> TransferToScreen:
    return TransferToScreen(screening_id=str(rec.id), workspace_id=str(rec.workspace_id),
                            direction=rec.direction, network_id=rec.network, currency_id=rec.currency_id,
                            amount=int(rec.amount), counterparty_address=rec.counterparty_address or "",
                            tx_hash=tx.tx_hash)


def _facts(rec: AmlScreening, tx: Transaction, result: ScreeningResult) -> AmlFacts:
    return AmlFacts(
        workspace_id=rec.workspace_id, direction=rec.direction, vault_id=tx.vault_id,
        currency_id=rec.currency_id, amount=int(rec.amount),
        amount_usdt=Decimal(tx.amount_usdt) if tx.amount_usdt else None,
        counterparty_address=rec.counterparty_address, risk_level=result.risk_level, risk_score=result.risk_score,
        matched_risks=[(m.category, m.exposure_percent) for m in result.matched_risks])


_CENT = Decimal("0.01")


def _set_result(rec: AmlScreening, result: ScreeningResult) -> None:
    """Copy a provider's result onto the record (score and exposures to two decimals, as stored)."""
    rec.risk_level = result.risk_level
    rec.risk_score = None if result.risk_score is None else result.risk_score.quantize(_CENT)
    rec.matched_risks = [{**m.to_dict(), "exposure_percent": str(m.exposure_percent.quantize(_CENT))}
                         for m in result.matched_risks]


async def _decide(rec: AmlScreening, tx: Transaction, result: ScreeningResult) -> AmlDecision:
    """Store the result and the decision on the record (status completed) and audit it."""
    _set_result(rec, result)
    decision = await decisions.decide(_facts(rec, tx, result))
    rec.status, rec.screened_at = COMPLETED, clock.now()
    rec.post_screening_action = decision.action
    rec.decision_source, rec.decision_reason = decision.source, decision.reason  # type: ignore[assignment]  # nullable TextField
    rec.decision_approval = decision.approval
    await audit.record(action="aml.screened", object_type="transaction", object_id=tx.id, actor_id=None,
                       workspace_id=rec.workspace_id,
                       details={"screening_id": str(rec.id), "direction": rec.direction, "provider": rec.provider,
                                "risk_level": rec.risk_level, "risk_score": None if rec.risk_score is None
                                else str(rec.risk_score), "matched_risks": rec.matched_risks,
                                "action": decision.action, "source": decision.source, "reason": decision.reason})
    return decision


def _new_record(*, tx: Transaction, direction: str, provider: str, counterparty: str | None) -> AmlScreening:
    return AmlScreening(workspace_id=tx.workspace_id, transaction_id=tx.id, direction=direction,
                        status=PENDING, provider=provider, counterparty_address=counterparty,
                        currency_id=tx.currency_id, network=tx.network, amount=tx.amount,
                        pre_screening_action=SCREEN, matched_risks=[], updates=[])


async def _ask(provider: AmlProvider | None, rec: AmlScreening, tx: Transaction) -> ScreeningAnswer | None:
    """Register the transfer (first time) or ask for its result; None when the provider cannot
    be asked now (gone from the registry, or failing): the caller waits as for a pending answer."""
    if provider is None:
        logger.warning("AML screening %s: provider %r is not registered; waiting", rec.id, rec.provider)
        return None
    config = (await aml_settings.load(rec.workspace_id)).parsed
    try:
        if rec.provider_ref is None:
            return await provider.register_transfer(_transfer(rec, tx), config)
        return await provider.fetch_result(rec.provider_ref, _transfer(rec, tx), config)
    except Exception:  # noqa: BLE001 - a provider outage keeps the transfer waiting (fail closed)
        logger.exception("AML screening %s: provider %s failed; waiting", rec.id, rec.provider)
        return None


# --------------------------------------------------------------------------------------------
# Outgoing: the withdrawal check
# --------------------------------------------------------------------------------------------


def _verdict(rec: AmlScreening) -> CheckResult:
    """The check's answer for a decided record."""
    details: dict[str, Any] = {"screening_id": str(rec.id), "risk_level": rec.risk_level,
                               "risk_score": None if rec.risk_score is None else str(rec.risk_score),
                               "source": rec.decision_source}
    action = rec.post_screening_action
    if action == decisions.BLOCK:
        return CheckResult(Verdict.BLOCK, CHECK_NAME, code="AML_BLOCKED", reason=rec.decision_reason, details=details)
    if action == decisions.FREEZE:
        return CheckResult(Verdict.FREEZE, CHECK_NAME, code="AML_FROZEN", reason=rec.decision_reason, details=details)
    if action == decisions.REQUIRE_APPROVAL:
        return CheckResult(Verdict.REQUIRE_APPROVAL, CHECK_NAME, reason=rec.decision_reason,
                           details={**details, "approval": rec.decision_approval})
    return CheckResult(Verdict.ALLOW, CHECK_NAME, reason=rec.decision_reason, details=details)


@functools.cache
def _screening_and_settings_sql() -> str:
    """A withdrawal's screening record (locked) and its workspace's AML settings, either missing,
    in one statement (made on first use: tortoise knows every column once it is set up)."""
    def columns(model: type[Model], alias: str) -> str:
        return ", ".join(f'{alias}."{column}" AS "{alias}__{column}"'
                         for column in model._meta.fields_db_projection.values())  # noqa: SLF001

    return f"""
SELECT {columns(AmlScreening, "s")}, {columns(AmlSettings, "t")}
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (SELECT * FROM aml_screenings WHERE transaction_id = $1 FOR UPDATE) AS s ON true
LEFT JOIN aml_settings AS t ON t.workspace_id = $2
"""


async def _screening_and_settings(transaction_id: uuid.UUID,
                                  workspace_id: uuid.UUID) -> tuple[AmlScreening | None, aml_settings.Settings]:
    """(the withdrawal's screening record, locked, or None; the workspace's settings)."""
    (row,) = await connections.get("default").execute_query_dict(_screening_and_settings_sql(),
                                                                 [transaction_id, workspace_id])
    parts: dict[str, dict[str, Any]] = {"s": {}, "t": {}}
    for name, value in row.items():
        alias, _, column = name.partition("__")
        parts[alias][column] = value
    rec = AmlScreening._init_from_db(**parts["s"]) if parts["s"]["id"] is not None else None  # noqa: SLF001
    settings_row = AmlSettings._init_from_db(**parts["t"]) if parts["t"]["id"] is not None else None  # noqa: SLF001
    return rec, aml_settings.of_row(settings_row, workspace_id)


async def screen_withdrawal(subject: CheckSubject) -> CheckResult:
    """The ``aml`` check (see the module docstring); runs with the withdrawal row locked."""
    tx = subject.transaction
    rec, current = await _screening_and_settings(tx.id, subject.workspace_id)
    if rec is not None and rec.status != PENDING:
        return _verdict(rec)
    if rec is None:
        if not current.enabled:
            return CheckResult(Verdict.ALLOW, CHECK_NAME, reason="AML screening is off for the workspace",
                               details={"screening": "off"})
        rec = _new_record(tx=tx, direction=OUTGOING, provider=current.provider, counterparty=subject.target_address)
        if subject.destination_type == "internal":
            # Between the workspace's own vaults: nothing leaves the workspace's custody.
            rec.status, rec.pre_screening_action, rec.screened_at = BYPASSED, BYPASS, clock.now()
            rec.post_screening_action, rec.decision_source = decisions.ALLOW, "aml:bypass"
            rec.decision_reason = "internal transfer between the workspace's vaults: not screened"
            await _save(rec, tx)
            await audit.record(action="aml.screened", object_type="transaction", object_id=tx.id, actor_id=None,
                               workspace_id=subject.workspace_id,
                               details={"screening_id": str(rec.id), "direction": OUTGOING, "action": "allow",
                                        "pre_screening_action": BYPASS, "reason": rec.decision_reason})
            await _announce(catalogue.AML_SCREENED, rec)
            return _verdict(rec)
        await rec.save()
    answer = await _ask(get_provider(rec.provider), rec, tx)
    if answer is None or answer.pending:
        if answer is not None and answer.ref:
            rec.provider_ref = answer.ref
        await _save(rec, tx)
        return CheckResult(Verdict.DEFER, CHECK_NAME, reason="AML screening pending at the provider",
                           details={"screening_id": str(rec.id), "provider": rec.provider},
                           retry_after=(answer.retry_after if answer else None) or DEFAULT_RETRY_AFTER)
    rec.provider_ref = answer.ref or rec.provider_ref
    assert answer.result is not None
    await _decide(rec, tx, answer.result)
    await _save(rec, tx)
    await _announce(catalogue.AML_SCREENED, rec)
    return _verdict(rec)


class AmlCheck:
    """The withdrawal check stage's ``aml`` check (domain.withdrawals.checks)."""

    name = CHECK_NAME

    async def check(self, subject: CheckSubject) -> CheckResult:
        return await screen_withdrawal(subject)


def install() -> None:
    """Register the ``aml`` check with the check stage (once per process; actors/withdrawals.py)."""
    from domain.withdrawals import checks

    if not any(c.name == CHECK_NAME for c in checks.registered_checks()):
        checks.register_check(AmlCheck())


# --------------------------------------------------------------------------------------------
# Incoming: deposits
# --------------------------------------------------------------------------------------------


@dataclass
class DepositScreening:
    record: AmlScreening
    #: Whether the deposit's amount goes into ``frozen`` (decided freeze, or waiting for a result).
    freeze: bool


#: A deposit's decisions that hold its funds: a deposit cannot be refused or voted on.
_HOLDING = frozenset({decisions.FREEZE, decisions.BLOCK, decisions.REQUIRE_APPROVAL})


async def screen_deposit(*, tx: Transaction, settings: aml_settings.Settings,
                         internal_sender: bool) -> DepositScreening | None:
    """Screen a deposit the watcher is recording (before its balance moves); None when screening
    is off. The caller credits the amount into ``frozen`` when ``freeze`` is set, copies the record
    onto the transaction, and calls :func:`announce_deposit` after publishing the transaction."""
    if not settings.enabled:
        return None
    rec = _new_record(tx=tx, direction=INCOMING, provider=settings.provider, counterparty=tx.from_address)
    if internal_sender:
        rec.status, rec.pre_screening_action, rec.screened_at = BYPASSED, BYPASS, clock.now()
        rec.post_screening_action, rec.decision_source = decisions.ALLOW, "aml:bypass"
        rec.decision_reason = "sent from another vault of the workspace: not screened"
        await rec.save()
        await audit.record(action="aml.screened", object_type="transaction", object_id=tx.id, actor_id=None,
                           workspace_id=rec.workspace_id,
                           details={"screening_id": str(rec.id), "direction": INCOMING, "action": "allow",
                                    "pre_screening_action": BYPASS, "reason": rec.decision_reason})
        return DepositScreening(rec, freeze=False)
    provider = get_provider(settings.provider)
    await rec.save()
    if provider is not None and provider.inline:
        answer = await _ask(provider, rec, tx)
        if answer is not None and not answer.pending:
            assert answer.result is not None
            rec.provider_ref = answer.ref
            decision = await _decide(rec, tx, answer.result)
            rec.funds_frozen = decision.action in _HOLDING
            await rec.save()
            return DepositScreening(rec, freeze=rec.funds_frozen)
    # Asynchronous: the aml.poll job registers it; the funds wait in frozen until the result.
    rec.funds_frozen = True
    await rec.save()
    return DepositScreening(rec, freeze=True)


async def announce_deposit(screening: DepositScreening) -> None:
    if screening.record.status != PENDING:
        await _announce(catalogue.AML_SCREENED, screening.record)


async def _move_deposit_to_available(tx: Transaction, rec: AmlScreening, *, actor_id: uuid.UUID | None,
                                     reason: str | None) -> None:
    """frozen → available for a deposit (wallet locked here), written as a change of the deposit:
    the ``to`` side's absolute balance, a new balance version and change-log position, a
    ``transaction.updated`` event; the record marks the release; audited and announced."""
    locked = await balances.lock_wallets([tx.wallet_id])
    wallet = locked[tx.wallet_id]
    version = await balances.apply_change(wallet=wallet, frozen=-int(tx.amount))
    rec.funds_frozen, rec.released_at, rec.released_by = False, clock.now(), actor_id
    vault = await Vault.get(id=tx.vault_id)
    workspace = await Workspace.get(id=tx.workspace_id)
    tx.balance_version = version
    tx.to_side = transactions.own_side(address=tx.to_address or "", wallet=wallet, vault=vault, workspace=workspace,
                                       currency=registry().currency(tx.currency_id), balance_version=version)
    await _save(rec, tx, tx_fields=False)
    await audit.record(action="aml.released", object_type="transaction", object_id=tx.id, actor_id=actor_id,
                       workspace_id=tx.workspace_id,
                       details={"screening_id": str(rec.id), "amount": str(int(tx.amount)),
                                "wallet_id": str(wallet.id), "balance_version": version, "reason": reason})
    await tx.save()
    await transactions.take_position(tx)
    await emit_event(workspace_id=tx.workspace_id, event_type=catalogue.TRANSACTION_UPDATED,
                     data=transactions.to_resource(tx))
    await _announce(catalogue.AML_RELEASED, rec)


async def release_deposit(*, principal: Principal | None, workspace_id: uuid.UUID, transaction_id: uuid.UUID,
                          reason: str | None = None) -> Transaction:
    """POST /transactions/{id}/release: a frozen deposit's amount becomes available
    (APPROVE_TRANSACTION; 409 TRANSACTION_NOT_FROZEN when nothing of it is frozen)."""
    if principal is not None:
        principal.require(workspace_id, Permission.APPROVE_TRANSACTION)
    tx = await Transaction.filter(id=transaction_id, workspace_id=workspace_id).select_for_update().first()
    if tx is None:
        raise NotFound("transaction not found", code="TRANSACTION_NOT_FOUND")
    if tx.direction != transactions.DEPOSIT:
        raise NotReleasable("a withdrawal is released with POST /api/v1/transactions/{id}/unfreeze",
                            details={"direction": "outgoing", "status": tx.status})
    rec = await AmlScreening.filter(transaction_id=tx.id).select_for_update().first()
    if rec is None or not rec.funds_frozen:
        raise NotReleasable("the deposit's funds are not frozen", details={
            "released_at": rfc3339(rec.released_at) if rec and rec.released_at else None})
    await _move_deposit_to_available(tx, rec, actor_id=principal.user.id if principal else None, reason=reason)
    return tx


# --------------------------------------------------------------------------------------------
# The poll job: pending results, updates
# --------------------------------------------------------------------------------------------


async def due_screenings(*, limit: int = 500) -> list[uuid.UUID]:
    """Pending screenings the poll asks about, oldest first (in the caller's unit of work).

    A withdrawal that ended before its result (cancelled or expired while the provider was
    screening) closes its record instead: status ``cancelled``, no action, no longer asked about.
    """
    rows = await AmlScreening.filter(status=PENDING).order_by("created_at").limit(limit).values_list(
        "id", "direction", "transaction_id")
    outgoing = [transaction_id for _, direction, transaction_id in rows if direction == OUTGOING]
    ended = {tx.id: tx for tx in await Transaction.filter(id__in=outgoing, status__in=sorted(statuses.FINAL))
             } if outgoing else {}
    for screening_id, _, transaction_id in rows:
        if transaction_id in ended:
            rec = await AmlScreening.filter(id=screening_id, status=PENDING).select_for_update().first()
            if rec is not None:
                rec.status = CANCELLED
                rec.decision_reason = f"the withdrawal ended ({ended[transaction_id].status}) before the result"
                await _save(rec, ended[transaction_id])
    return [screening_id for screening_id, _, transaction_id in rows if transaction_id not in ended]


async def advance_pending(*, screening_id: uuid.UUID) -> str | None:
    """Ask the provider about one pending screening. A deposit's result decides here (allowed
    funds move to available); a withdrawal's check stage is run again at once (it decides under
    the withdrawal's lock). Returns the new status, or None when nothing changed."""
    found = await AmlScreening.get_or_none(id=screening_id, status=PENDING)
    if found is None:
        return None
    if found.direction == OUTGOING:
        # Only asks: the check stage records the result under the withdrawal's lock.
        withdrawal = await Transaction.get(id=found.transaction_id)
        if withdrawal.status != statuses.CHECKS:
            return None
        answer = await _ask(get_provider(found.provider), found, withdrawal)
        if answer is None or answer.pending:
            return None
        await add_command(actor_name=CHECK, payload={"transaction_id": str(withdrawal.id)},
                          workspace_id=withdrawal.workspace_id)
        return "check"
    # Lock order as everywhere: the transaction, then its record (then wallets).
    tx = await Transaction.filter(id=found.transaction_id).select_for_update().first()
    rec = await AmlScreening.filter(id=screening_id, status=PENDING).select_for_update().first()
    if tx is None or rec is None:
        return None
    answer = await _ask(get_provider(rec.provider), rec, tx)
    if answer is None or answer.pending:
        if answer is not None and answer.ref and answer.ref != rec.provider_ref:
            rec.provider_ref = answer.ref
            await _save(rec, tx)
        return None
    assert answer.result is not None
    rec.provider_ref = answer.ref or rec.provider_ref
    decision = await _decide(rec, tx, answer.result)
    await _announce(catalogue.AML_SCREENED, rec)
    if decision.action in _HOLDING or not rec.funds_frozen:
        await _save(rec, tx)
        return rec.status
    await _move_deposit_to_available(tx, rec, actor_id=None, reason=f"screened: {decision.action}")
    return rec.status


async def apply_update(*, provider: str, ref: str, result: ScreeningResult) -> AmlScreening | None:
    """A provider's changed result (see the module docstring: no money moves). None when no
    completed screening of that provider has the reference."""
    found = await AmlScreening.get_or_none(provider=provider, provider_ref=ref)
    if found is None:
        return None
    # Lock order as everywhere: the transaction, then its record.
    await Transaction.filter(id=found.transaction_id).select_for_update().first()
    rec = await AmlScreening.filter(id=found.id).select_for_update().first()
    if rec is None or rec.status != COMPLETED:
        return None
    before = {"risk_level": rec.risk_level, "risk_score": None if rec.risk_score is None else str(rec.risk_score)}
    _set_result(rec, result)
    entry = {"at": rfc3339(clock.now()), "risk_level": rec.risk_level,
             "risk_score": None if rec.risk_score is None else str(rec.risk_score),
             "matched_risks": rec.matched_risks}
    rec.updates = [*(rec.updates or []), entry]
    tx = await Transaction.get(id=rec.transaction_id)
    await _save(rec, tx)
    await audit.record(action="aml.updated", object_type="transaction", object_id=tx.id, actor_id=None,
                       workspace_id=rec.workspace_id,
                       details={"screening_id": str(rec.id), "before": before, **entry})
    await _announce(catalogue.AML_UPDATED, rec)
    return rec


async def provider_updates() -> list[tuple[str, Any]]:
    """Every provider's pending updates, as (provider name, update)."""
    found = []
    for provider in all_providers():
        for update in await provider.take_updates():
            found.append((provider.name, update))
    return found


# --------------------------------------------------------------------------------------------
# Reading records
# --------------------------------------------------------------------------------------------


async def get_screening(*, principal: Principal | None, workspace_id: uuid.UUID,
                        screening_id: uuid.UUID) -> AmlScreening:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    rec = await AmlScreening.get_or_none(id=screening_id, workspace_id=workspace_id)
    if rec is None:
        raise ScreeningNotFound("AML screening not found")
    return rec


async def list_screenings(*, principal: Principal | None, workspace_id: uuid.UUID, direction: str | None = None,
                          risk_level: str | None = None, status: str | None = None,
                          transaction_id: uuid.UUID | None = None, funds_frozen: bool | None = None,
                          limit: int = 100, offset: int = 0) -> tuple[list[AmlScreening], int]:
    """The workspace's screenings, newest first, and how many match."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if direction is not None and direction not in (INCOMING, OUTGOING):
        raise ValidationFailed("direction must be incoming or outgoing", details={"field": "direction"})
    query = AmlScreening.filter(workspace_id=workspace_id)
    for name, value in (("direction", direction), ("risk_level", risk_level), ("status", status),
                        ("transaction_id", transaction_id), ("funds_frozen", funds_frozen)):
        if value is not None:
            query = query.filter(**{name: value})
    total = await query.count()
    return await query.order_by("-created_at", "-id").offset(offset).limit(limit), total
