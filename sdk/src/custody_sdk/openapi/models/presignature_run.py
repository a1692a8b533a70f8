from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PresignatureRun")


@_attrs_define
class PresignatureRun:
    """
    Attributes:
        run_id (UUID):
        key_set_id (UUID):
        signer (int):
        participants (list[int]):
        phases (list[str]): The run's phases in order: two triples (t0, t1), then presign.
    """

    run_id: UUID
    key_set_id: UUID
    signer: int
    participants: list[int]
    phases: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run_id = str(self.run_id)

        key_set_id = str(self.key_set_id)

        signer = self.signer

        participants = self.participants

        phases = self.phases

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "run_id": run_id,
                "key_set_id": key_set_id,
                "signer": signer,
                "participants": participants,
                "phases": phases,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        run_id = UUID(d.pop("run_id"))

        key_set_id = UUID(d.pop("key_set_id"))

        signer = d.pop("signer")

        participants = cast(list[int], d.pop("participants"))

        phases = cast(list[str], d.pop("phases"))

        presignature_run = cls(
            run_id=run_id,
            key_set_id=key_set_id,
            signer=signer,
            participants=participants,
            phases=phases,
        )

        presignature_run.additional_properties = d
        return presignature_run

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
