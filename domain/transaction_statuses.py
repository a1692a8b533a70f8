"""The withdrawal statuses and the one table of allowed transitions (docs/withdrawals.md).

Designed from the spec's named statuses (pending, awaiting_approvals, approved,
awaiting_broadcast, broadcast, finished, declined, frozen) and the anchors' pipelines
(Fireblocks: SUBMITTED → PENDING_AML_SCREENING → PENDING_AUTHORIZATION → QUEUED →
PENDING_SIGNATURE → BROADCASTING → CONFIRMING → COMPLETED; BitGo: initialized →
pendingApproval → signed → unconfirmed → confirmed; Cobo: Submitted → PendingScreening →
PendingAuthorization → PendingSignature → Broadcasting → Confirming → Completed)::

    pending → checks → awaiting_approvals → approved → signing → awaiting_broadcast → broadcast → finished
                     ↘ approved ↗

and the ends: declined (a check or an approver refused), failed (with ``error_code``),
cancelled (by its creator, before signing), expired (not signing within the time limit), plus
frozen (a hold before signing; unfreezing returns to the status it was frozen from).

This module is pure data: no database, no I/O.
"""

from __future__ import annotations

from domain.errors import Conflict

PENDING = "pending"
CHECKS = "checks"
AWAITING_APPROVALS = "awaiting_approvals"
APPROVED = "approved"
SIGNING = "signing"
AWAITING_BROADCAST = "awaiting_broadcast"
BROADCAST = "broadcast"
FINISHED = "finished"
DECLINED = "declined"
FAILED = "failed"
CANCELLED = "cancelled"
EXPIRED = "expired"
FROZEN = "frozen"

#: Every status a withdrawal can have, in pipeline order.
ALL = (PENDING, CHECKS, AWAITING_APPROVALS, APPROVED, SIGNING, AWAITING_BROADCAST, BROADCAST, FINISHED, DECLINED,
       FAILED, CANCELLED, EXPIRED, FROZEN)
#: A transaction in one of these never changes again.
FINAL = frozenset({FINISHED, DECLINED, FAILED, CANCELLED, EXPIRED})
#: Final without moving the amount: every one of these has released what was held.
UNSUCCESSFUL = frozenset({DECLINED, FAILED, CANCELLED, EXPIRED})
#: Before any signature exists: the statuses that can be frozen, cancelled by the creator or expire.
BEFORE_SIGNING = frozenset({PENDING, CHECKS, AWAITING_APPROVALS, APPROVED})
#: A withdrawal in one of these holds its source address's signing lane: the transfer is built
#: (nonce or inputs chosen) and not yet in the network's mempool, so the next one must wait.
IN_LANE = frozenset({SIGNING, AWAITING_BROADCAST})
#: Not final (money still held, or frozen with nothing held).
LIVE = frozenset(ALL) - FINAL

#: The transition table: status → the statuses it may move to. ``broadcast → broadcast`` is a
#: confirmation count changing (written like any transition).
TRANSITIONS: dict[str, frozenset[str]] = {
    PENDING: frozenset({CHECKS, FROZEN, CANCELLED, EXPIRED}),
    CHECKS: frozenset({AWAITING_APPROVALS, APPROVED, DECLINED, FROZEN, CANCELLED, EXPIRED}),
    AWAITING_APPROVALS: frozenset({APPROVED, DECLINED, FROZEN, CANCELLED, EXPIRED}),
    APPROVED: frozenset({SIGNING, FAILED, FROZEN, CANCELLED, EXPIRED}),
    SIGNING: frozenset({AWAITING_BROADCAST, FAILED}),
    # → signing: built and signed again after the network refused an expired Solana blockhash
    # (the old signed bytes can never land; domain.withdrawals.pipeline).
    AWAITING_BROADCAST: frozenset({BROADCAST, FAILED, SIGNING}),
    BROADCAST: frozenset({BROADCAST, FINISHED, FAILED}),
    FROZEN: frozenset(BEFORE_SIGNING | {CANCELLED}),
    FINISHED: frozenset(),
    DECLINED: frozenset(),
    FAILED: frozenset(),
    CANCELLED: frozenset(),
    EXPIRED: frozenset(),
}


class InvalidTransition(Conflict):
    """A status change the table does not allow (a stale or repeated request)."""

    code = "INVALID_TRANSITION"


def can_move(current: str, new: str) -> bool:
    return new in TRANSITIONS.get(current, frozenset())


def require_move(current: str, new: str) -> None:
    """Raise :class:`InvalidTransition` unless ``current → new`` is in the table."""
    if not can_move(current, new):
        raise InvalidTransition(f"a {current} withdrawal cannot become {new}",
                                details={"status": current, "requested": new})
