from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.readiness_status import ReadinessStatus, check_readiness_status

if TYPE_CHECKING:
    from ..models.check import Check


T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """
    Attributes:
        status (ReadinessStatus):
        database (Check):
        redis (Check):
        migrations (Check):
    """

    status: ReadinessStatus
    database: Check
    redis: Check
    migrations: Check
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        database = self.database.to_dict()

        redis = self.redis.to_dict()

        migrations = self.migrations.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "database": database,
                "redis": redis,
                "migrations": migrations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.check import Check  # noqa: PLC0415

        d = dict(src_dict)
        status = check_readiness_status(d.pop("status"))

        database = Check.from_dict(d.pop("database"))

        redis = Check.from_dict(d.pop("redis"))

        migrations = Check.from_dict(d.pop("migrations"))

        readiness = cls(
            status=status,
            database=database,
            redis=redis,
            migrations=migrations,
        )

        readiness.additional_properties = d
        return readiness

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
