"""The check stage: what decides whether a withdrawal may go on to signing.

A withdrawal leaves ``pending`` for ``checks``, where every registered :class:`TransactionCheck`
looks at it (in registration order) and answers a :class:`CheckResult`:

* ``allow``: nothing against it;
* ``require_approval``: people must approve it (the transaction-approvals work counts the votes
  and calls :func:`domain.withdrawals.pipeline.resolve_approvals`);
* ``block``: it must not go (its ``code`` becomes the transaction's ``error_code``);
* ``freeze``: it must not go *until a person has looked* (AML screening found a risk the
  workspace wants reviewed): the withdrawal is **frozen** as by a manual freeze
  (domain.withdrawals.lifecycle), with no principal (the system), and its hold is released;
* ``defer``: the check cannot answer yet (an AML provider still screening): the stage runs
  again after ``retry_after``.

The outcome: any ``block`` → **declined** (the first block names the reason, the hold is
released); else any ``freeze`` → **frozen** (the first freeze names the reason); else any
``defer`` → stay in **checks** and run again; else any ``require_approval`` →
**awaiting_approvals**; else → **approved**. With no check registered every withdrawal is
allowed.

Why freeze ranks after block and before defer: a block is final and needs nobody, so it wins;
a freeze already stops the withdrawal for a person, so waiting for another check's answer first
would only delay telling that person. A frozen withdrawal remembers the status the *other*
verdicts lead to (``frozen_from``: ``awaiting_approvals`` when some check asked for approvals,
else ``approved``), so the existing unfreeze (APPROVE_TRANSACTION) is the release: the
withdrawal resumes there without being screened again (the person who unfroze it decided).

The policy engine, AML screening and transaction approvals of the next issue plug in here with
:func:`register_check` (each is one check); nothing else in the pipeline changes. Checks run in
the stage's database transaction with the withdrawal row locked; each result is stored on the
transaction (``checks``) and in the audit log.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum
from typing import Any, Protocol

from domain.currencies import Currency
from models.transactions import Transaction
from models.vaults import Vault
from models.wallets import Wallet


class Verdict(StrEnum):
    ALLOW = "allow"
    REQUIRE_APPROVAL = "require_approval"
    BLOCK = "block"
    FREEZE = "freeze"
    DEFER = "defer"


@dataclass(frozen=True)
class CheckSubject:
    """What a check sees of a withdrawal (read-only; the row is locked while checks run)."""

    transaction: Transaction
    workspace_id: uuid.UUID
    vault: Vault
    source_wallet: Wallet
    currency: Currency
    amount: int
    #: ``internal``, ``whitelisted`` or ``one_time`` (domain.withdrawals.destinations).
    destination_type: str
    target_address: str
    target_wallet_id: uuid.UUID | None
    whitelisted_wallet_id: uuid.UUID | None
    #: Fiat value from the price table, as a decimal string (None without a price).
    amount_usdt: str | None


@dataclass(frozen=True)
class CheckResult:
    verdict: Verdict
    #: The check's name (``policy``, ``aml``, ...).
    check: str
    #: A stable code for a block (the transaction's ``error_code``), e.g. POLICY_BLOCKED, AML_BLOCKED;
    #: for a freeze, the reason's code in the audit log (AML_FROZEN).
    code: str | None = None
    reason: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    #: ``defer`` only: when to run the stage again.
    retry_after: timedelta | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "verdict": self.verdict.value, "code": self.code, "reason": self.reason,
                "details": self.details}


class TransactionCheck(Protocol):
    """One check of the stage (the policy engine, AML screening, approvals)."""

    name: str

    async def check(self, subject: CheckSubject) -> CheckResult:
        """Judge the withdrawal; runs in the stage's database transaction."""


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    results: list[CheckResult]
    #: The result that decided a block or a freeze (its code and reason describe it).
    decisive: CheckResult | None = None
    retry_after: timedelta | None = None


#: How long a deferring check waits by default before the stage runs again.
DEFAULT_RETRY_AFTER = timedelta(seconds=30)

_checks: list[TransactionCheck] = []


def register_check(check: TransactionCheck) -> None:
    """Add a check to the stage (after the ones registered before); a name is registered once."""
    if any(existing.name == check.name for existing in _checks):
        raise ValueError(f"a check named {check.name!r} is already registered")
    _checks.append(check)


def unregister_check(name: str) -> None:
    _checks[:] = [c for c in _checks if c.name != name]


def registered_checks() -> list[TransactionCheck]:
    return list(_checks)


async def run_checks(subject: CheckSubject) -> Outcome:
    """Run every registered check and combine their verdicts (see the module docstring)."""
    results = [await check.check(subject) for check in registered_checks()]
    blocks = [r for r in results if r.verdict is Verdict.BLOCK]
    if blocks:
        return Outcome(Verdict.BLOCK, results, decisive=blocks[0])
    freezes = [r for r in results if r.verdict is Verdict.FREEZE]
    if freezes:
        return Outcome(Verdict.FREEZE, results, decisive=freezes[0])
    deferred = [r for r in results if r.verdict is Verdict.DEFER]
    if deferred:
        return Outcome(Verdict.DEFER, results,
                       retry_after=min(r.retry_after or DEFAULT_RETRY_AFTER for r in deferred))
    if any(r.verdict is Verdict.REQUIRE_APPROVAL for r in results):
        return Outcome(Verdict.REQUIRE_APPROVAL, results)
    return Outcome(Verdict.ALLOW, results)
