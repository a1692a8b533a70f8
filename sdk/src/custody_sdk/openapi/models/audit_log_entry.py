from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.audit_log_entry_details import AuditLogEntryDetails


T = TypeVar("T", bound="AuditLogEntry")


@_attrs_define
class AuditLogEntry:
    """One chained entry. Every field but ``previous_hash`` and ``hash`` is what ``hash`` covers:
    ``hash = SHA-256(bytes.fromhex(previous_hash) || canonical JSON of those fields)``.

        Attributes:
            seq (int): Its place in the workspace's chain: 1, 2, ... with no gap.
            id (UUID):
            position (str): Its commit-order position (a 64-bit integer).
            workspace_id (UUID):
            company_id (None | UUID):
            actor_id (None | UUID): Who acted; null for the service itself (a job).
            actor_type (str): user, api_user, device or system.
            action (str):
            object_type (str):
            object_id (None | str):
            details (AuditLogEntryDetails):
            request_id (None | str): The request's X-Request-Id (for a job: its command id).
            created_at (str): RFC 3339, UTC, as hashed.
            previous_hash (str): Hex SHA-256.
            hash_ (str): Hex SHA-256.
    """

    seq: int
    id: UUID
    position: str
    workspace_id: UUID
    company_id: None | UUID
    actor_id: None | UUID
    actor_type: str
    action: str
    object_type: str
    object_id: None | str
    details: AuditLogEntryDetails
    request_id: None | str
    created_at: str
    previous_hash: str
    hash_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        id = str(self.id)

        position = self.position

        workspace_id = str(self.workspace_id)

        company_id: None | str
        if isinstance(self.company_id, UUID):
            company_id = str(self.company_id)
        else:
            company_id = self.company_id

        actor_id: None | str
        if isinstance(self.actor_id, UUID):
            actor_id = str(self.actor_id)
        else:
            actor_id = self.actor_id

        actor_type = self.actor_type

        action = self.action

        object_type = self.object_type

        object_id: None | str
        object_id = self.object_id

        details = self.details.to_dict()

        request_id: None | str
        request_id = self.request_id

        created_at = self.created_at

        previous_hash = self.previous_hash

        hash_ = self.hash_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "id": id,
                "position": position,
                "workspace_id": workspace_id,
                "company_id": company_id,
                "actor_id": actor_id,
                "actor_type": actor_type,
                "action": action,
                "object_type": object_type,
                "object_id": object_id,
                "details": details,
                "request_id": request_id,
                "created_at": created_at,
                "previous_hash": previous_hash,
                "hash": hash_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_log_entry_details import AuditLogEntryDetails  # noqa: PLC0415

        d = dict(src_dict)
        seq = d.pop("seq")

        id = UUID(d.pop("id"))

        position = d.pop("position")

        workspace_id = UUID(d.pop("workspace_id"))

        def _parse_company_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                company_id_type_0 = UUID(data)

                return company_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        company_id = _parse_company_id(d.pop("company_id"))

        def _parse_actor_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                actor_id_type_0 = UUID(data)

                return actor_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        actor_id = _parse_actor_id(d.pop("actor_id"))

        actor_type = d.pop("actor_type")

        action = d.pop("action")

        object_type = d.pop("object_type")

        def _parse_object_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        object_id = _parse_object_id(d.pop("object_id"))

        details = AuditLogEntryDetails.from_dict(d.pop("details"))

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("request_id"))

        created_at = d.pop("created_at")

        previous_hash = d.pop("previous_hash")

        hash_ = d.pop("hash")

        audit_log_entry = cls(
            seq=seq,
            id=id,
            position=position,
            workspace_id=workspace_id,
            company_id=company_id,
            actor_id=actor_id,
            actor_type=actor_type,
            action=action,
            object_type=object_type,
            object_id=object_id,
            details=details,
            request_id=request_id,
            created_at=created_at,
            previous_hash=previous_hash,
            hash_=hash_,
        )

        audit_log_entry.additional_properties = d
        return audit_log_entry

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
