from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.backup_status import BackupStatus, check_backup_status

T = TypeVar("T", bound="Backup")


@_attrs_define
class Backup:
    """
    Attributes:
        backup_id (UUID):
        status (BackupStatus): pending, in_progress, ready, verified; or cancelled, failed.
        completed_at (datetime.datetime | None): When the file was assembled.
        completed_by (None | UUID): Who requested the backup.
        requested_at (datetime.datetime):
        verified_at (datetime.datetime | None):
        verified_by (None | UUID):
        public_key (str): Base64 of the Curve25519 key the shares are sealed to.
        key_set_count (int): Keys in the backup (fixed when it starts).
        file_sha256 (None | str): Hex SHA-256 of the file, once assembled.
        error (None | str): Why the backup failed.
    """

    backup_id: UUID
    status: BackupStatus
    completed_at: datetime.datetime | None
    completed_by: None | UUID
    requested_at: datetime.datetime
    verified_at: datetime.datetime | None
    verified_by: None | UUID
    public_key: str
    key_set_count: int
    file_sha256: None | str
    error: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        backup_id = str(self.backup_id)

        status: str = self.status

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        completed_by: None | str
        if isinstance(self.completed_by, UUID):
            completed_by = str(self.completed_by)
        else:
            completed_by = self.completed_by

        requested_at = self.requested_at.isoformat()

        verified_at: None | str
        if isinstance(self.verified_at, datetime.datetime):
            verified_at = self.verified_at.isoformat()
        else:
            verified_at = self.verified_at

        verified_by: None | str
        if isinstance(self.verified_by, UUID):
            verified_by = str(self.verified_by)
        else:
            verified_by = self.verified_by

        public_key = self.public_key

        key_set_count = self.key_set_count

        file_sha256: None | str
        file_sha256 = self.file_sha256

        error: None | str
        error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "backup_id": backup_id,
                "status": status,
                "completed_at": completed_at,
                "completed_by": completed_by,
                "requested_at": requested_at,
                "verified_at": verified_at,
                "verified_by": verified_by,
                "public_key": public_key,
                "key_set_count": key_set_count,
                "file_sha256": file_sha256,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        backup_id = UUID(d.pop("backup_id"))

        status = check_backup_status(d.pop("status"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        def _parse_completed_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_by_type_0 = UUID(data)

                return completed_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        completed_by = _parse_completed_by(d.pop("completed_by"))

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))

        def _parse_verified_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verified_at_type_0 = datetime.datetime.fromisoformat(data)

                return verified_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        verified_at = _parse_verified_at(d.pop("verified_at"))

        def _parse_verified_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verified_by_type_0 = UUID(data)

                return verified_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        verified_by = _parse_verified_by(d.pop("verified_by"))

        public_key = d.pop("public_key")

        key_set_count = d.pop("key_set_count")

        def _parse_file_sha256(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        file_sha256 = _parse_file_sha256(d.pop("file_sha256"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        backup = cls(
            backup_id=backup_id,
            status=status,
            completed_at=completed_at,
            completed_by=completed_by,
            requested_at=requested_at,
            verified_at=verified_at,
            verified_by=verified_by,
            public_key=public_key,
            key_set_count=key_set_count,
            file_sha256=file_sha256,
            error=error,
        )

        backup.additional_properties = d
        return backup

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
