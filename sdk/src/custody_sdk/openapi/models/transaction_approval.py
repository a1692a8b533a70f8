from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.approval_requirement import ApprovalRequirement
    from ..models.approval_vote import ApprovalVote
    from ..models.transaction import Transaction


T = TypeVar("T", bound="TransactionApproval")


@_attrs_define
class TransactionApproval:
    """The approval request of a withdrawal.

    Attributes:
        transaction_id (UUID):
        status (str): pending, approved, declined, expired or closed
        expires_at (datetime.datetime):
        decided_at (datetime.datetime | None):
        requirements (list[ApprovalRequirement]):
        votes (list[ApprovalVote]):
        my_vote (None | str):
        can_vote (bool):
        transaction (Transaction): A deposit or a withdrawal in its current state (docs/withdrawals.md).
    """

    transaction_id: UUID
    status: str
    expires_at: datetime.datetime
    decided_at: datetime.datetime | None
    requirements: list[ApprovalRequirement]
    votes: list[ApprovalVote]
    my_vote: None | str
    can_vote: bool
    transaction: Transaction
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        transaction_id = str(self.transaction_id)

        status = self.status

        expires_at = self.expires_at.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        requirements = []
        for requirements_item_data in self.requirements:
            requirements_item = requirements_item_data.to_dict()
            requirements.append(requirements_item)

        votes = []
        for votes_item_data in self.votes:
            votes_item = votes_item_data.to_dict()
            votes.append(votes_item)

        my_vote: None | str
        my_vote = self.my_vote

        can_vote = self.can_vote

        transaction = self.transaction.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "transaction_id": transaction_id,
                "status": status,
                "expires_at": expires_at,
                "decided_at": decided_at,
                "requirements": requirements,
                "votes": votes,
                "my_vote": my_vote,
                "can_vote": can_vote,
                "transaction": transaction,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.approval_requirement import ApprovalRequirement  # noqa: PLC0415
        from ..models.approval_vote import ApprovalVote  # noqa: PLC0415
        from ..models.transaction import Transaction  # noqa: PLC0415

        d = dict(src_dict)
        transaction_id = UUID(d.pop("transaction_id"))

        status = d.pop("status")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        requirements = []
        _requirements = d.pop("requirements")
        for requirements_item_data in _requirements:
            requirements_item = ApprovalRequirement.from_dict(requirements_item_data)

            requirements.append(requirements_item)

        votes = []
        _votes = d.pop("votes")
        for votes_item_data in _votes:
            votes_item = ApprovalVote.from_dict(votes_item_data)

            votes.append(votes_item)

        def _parse_my_vote(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        my_vote = _parse_my_vote(d.pop("my_vote"))

        can_vote = d.pop("can_vote")

        transaction = Transaction.from_dict(d.pop("transaction"))

        transaction_approval = cls(
            transaction_id=transaction_id,
            status=status,
            expires_at=expires_at,
            decided_at=decided_at,
            requirements=requirements,
            votes=votes,
            my_vote=my_vote,
            can_vote=can_vote,
            transaction=transaction,
        )

        transaction_approval.additional_properties = d
        return transaction_approval

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
