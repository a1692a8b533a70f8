from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.signing_request_action import (
    SigningRequestAction,
    check_signing_request_action,
)
from ..models.signing_request_status import (
    SigningRequestStatus,
    check_signing_request_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.signing_commitment_view import SigningCommitmentView


T = TypeVar("T", bound="SigningRequest")


@_attrs_define
class SigningRequest:
    """One signing session the co-signer takes part in.

    Attributes:
        id (UUID):
        vault_id (UUID):
        key_set_id (UUID):
        status (SigningRequestStatus):
        action (None | SigningRequestAction): The co-signer's next step (presign: a threshold ECDSA session waits for a
            presignature of its pair; the co-signer makes one with its service signer, POST /presignature-runs).
        purpose (str):
        message (str): Base64 of the message to sign.
        scheme (str): The key set's threshold scheme (what the co-signer signs with).
        merkle_root (None | str): Taproot schemes: hex of the script tree root whose output key is signed for (empty:
            the key-path-only output of a Bitcoin address); null: the key set's own key.
        participants (list[int]):
        group_public_key (None | str): Hex of the group public key.
        commitments (list[SigningCommitmentView]): Every participant's commitments, from round 2.
        signature (None | str): Hex of the signature, once complete.
        created_at (datetime.datetime):
        presignature_r (None | str | Unset): Threshold ECDSA, from round 2: hex (SEC1, 33 bytes) of the R of the
            presignature the session took; the co-signer signs with its own part of that presignature, once.
    """

    id: UUID
    vault_id: UUID
    key_set_id: UUID
    status: SigningRequestStatus
    action: None | SigningRequestAction
    purpose: str
    message: str
    scheme: str
    merkle_root: None | str
    participants: list[int]
    group_public_key: None | str
    commitments: list[SigningCommitmentView]
    signature: None | str
    created_at: datetime.datetime
    presignature_r: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        vault_id = str(self.vault_id)

        key_set_id = str(self.key_set_id)

        status: str = self.status

        action: None | str
        if isinstance(self.action, str):
            action = self.action
        else:
            action = self.action

        purpose = self.purpose

        message = self.message

        scheme = self.scheme

        merkle_root: None | str
        merkle_root = self.merkle_root

        participants = self.participants

        group_public_key: None | str
        group_public_key = self.group_public_key

        commitments = []
        for commitments_item_data in self.commitments:
            commitments_item = commitments_item_data.to_dict()
            commitments.append(commitments_item)

        signature: None | str
        signature = self.signature

        created_at = self.created_at.isoformat()

        presignature_r: None | str | Unset
        if isinstance(self.presignature_r, Unset):
            presignature_r = UNSET
        else:
            presignature_r = self.presignature_r

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "vault_id": vault_id,
                "key_set_id": key_set_id,
                "status": status,
                "action": action,
                "purpose": purpose,
                "message": message,
                "scheme": scheme,
                "merkle_root": merkle_root,
                "participants": participants,
                "group_public_key": group_public_key,
                "commitments": commitments,
                "signature": signature,
                "created_at": created_at,
            }
        )
        if presignature_r is not UNSET:
            field_dict["presignature_r"] = presignature_r

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.signing_commitment_view import SigningCommitmentView  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        vault_id = UUID(d.pop("vault_id"))

        key_set_id = UUID(d.pop("key_set_id"))

        status = check_signing_request_status(d.pop("status"))

        def _parse_action(data: object) -> None | SigningRequestAction:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                action_type_1 = check_signing_request_action(data)

                return action_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SigningRequestAction, data)

        action = _parse_action(d.pop("action"))

        purpose = d.pop("purpose")

        message = d.pop("message")

        scheme = d.pop("scheme")

        def _parse_merkle_root(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        merkle_root = _parse_merkle_root(d.pop("merkle_root"))

        participants = cast(list[int], d.pop("participants"))

        def _parse_group_public_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        group_public_key = _parse_group_public_key(d.pop("group_public_key"))

        commitments = []
        _commitments = d.pop("commitments")
        for commitments_item_data in _commitments:
            commitments_item = SigningCommitmentView.from_dict(commitments_item_data)

            commitments.append(commitments_item)

        def _parse_signature(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        signature = _parse_signature(d.pop("signature"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_presignature_r(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        presignature_r = _parse_presignature_r(d.pop("presignature_r", UNSET))

        signing_request = cls(
            id=id,
            vault_id=vault_id,
            key_set_id=key_set_id,
            status=status,
            action=action,
            purpose=purpose,
            message=message,
            scheme=scheme,
            merkle_root=merkle_root,
            participants=participants,
            group_public_key=group_public_key,
            commitments=commitments,
            signature=signature,
            created_at=created_at,
            presignature_r=presignature_r,
        )

        signing_request.additional_properties = d
        return signing_request

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
