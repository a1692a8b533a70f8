"""Transaction approvals: the approval request of a withdrawal, votes, the approver's list."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.common import QueryParams, RequestBody, Resource, Timestamp
from api.schemas.transactions import Transaction
from domain import transaction_approvals as approvals


class VoteBody(RequestBody):
    reason: str | None = Field(None, max_length=500, pattern=r"^[^\x00-\x1f\x7f]*$")


class ApprovalVote(Resource):
    user_id: uuid.UUID
    device_id: uuid.UUID
    vote: str
    reason: str | None
    created_at: Timestamp


class ApprovalRequirement(Resource):
    approver_user_ids: list[str]
    group_id: str | None
    threshold: int
    source: str = Field(description="<check>:<rule id>")
    initiator_excluded: bool = Field(False, description="The rule named the withdrawal's initiator, who is left "
                                                        "out (four eyes): approver_user_ids are the others.")
    approvals: int
    declines: int
    reached: bool


class TransactionApproval(Resource):
    """The approval request of a withdrawal."""

    transaction_id: uuid.UUID
    status: str = Field(description="pending, approved, declined, expired or closed")
    expires_at: Timestamp
    decided_at: Timestamp | None
    requirements: list[ApprovalRequirement]
    votes: list[ApprovalVote]
    my_vote: str | None
    can_vote: bool
    transaction: Transaction

    @classmethod
    def of(cls, c: approvals.Card, me: uuid.UUID) -> "TransactionApproval":
        mine = next((v.vote for v in c.votes if v.user_id == me), None)
        return cls(transaction_id=c.transaction.id, status=c.approval.status, expires_at=c.approval.expires_at,
                   decided_at=c.approval.decided_at,
                   requirements=[ApprovalRequirement(**r) for r in c.state.requirements],
                   votes=[ApprovalVote(user_id=v.user_id, device_id=v.device_id, vote=v.vote, reason=v.reason,
                                       created_at=v.created_at) for v in c.votes],
                   my_vote=mine, can_vote=c.approval.status == approvals.PENDING and mine is None
                   and str(me) in c.approval.approver_ids, transaction=Transaction.of(c.transaction))


class TransactionApprovalPage(Resource):
    items: list[TransactionApproval]
    total: int
    limit: int
    offset: int


class TransactionApprovalQuery(QueryParams):
    scope: Literal["PENDING_MY_VOTE", "ALL"] = Field(
        "PENDING_MY_VOTE", description="PENDING_MY_VOTE: waiting for the caller's vote; ALL: every request "
                                       "(APPROVE_TRANSACTION).")
    limit: int = Field(100, ge=1, le=1000)
    offset: int = Field(0, ge=0, le=2**63 - 1)

