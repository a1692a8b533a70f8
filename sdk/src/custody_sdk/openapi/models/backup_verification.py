from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.backup_group_signature import BackupGroupSignature


T = TypeVar("T", bound="BackupVerification")


@_attrs_define
class BackupVerification:
    """
    Attributes:
        groups (list[BackupGroupSignature]): One entry for every key of the backup. A malformed entry, a missing,
            unknown or repeated key, another scheme or a signature that does not verify is 400 BACKUP_VERIFICATION_FAILED.
    """

    groups: list[BackupGroupSignature]

    def to_dict(self) -> dict[str, Any]:
        groups = []
        for groups_item_data in self.groups:
            groups_item = groups_item_data.to_dict()
            groups.append(groups_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "groups": groups,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.backup_group_signature import BackupGroupSignature  # noqa: PLC0415

        d = dict(src_dict)
        groups = []
        _groups = d.pop("groups")
        for groups_item_data in _groups:
            groups_item = BackupGroupSignature.from_dict(groups_item_data)

            groups.append(groups_item)

        backup_verification = cls(
            groups=groups,
        )

        return backup_verification
