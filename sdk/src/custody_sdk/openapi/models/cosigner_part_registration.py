from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="CosignerPartRegistration")


@_attrs_define
class CosignerPartRegistration:
    """
    Attributes:
        config (str): The co-signer part config: a JSON object serialized as a string (docs/signing.md). Malformed: 400
            INVALID_COSIGNER_CONFIG; not what the round-1 broadcasts define: 400 COSIGNER_PART_MISMATCH.
        intent_id (UUID): The key set id of the key generation.
    """

    config: str
    intent_id: UUID

    def to_dict(self) -> dict[str, Any]:
        config = self.config

        intent_id = str(self.intent_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "config": config,
                "intent_id": intent_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        config = d.pop("config")

        intent_id = UUID(d.pop("intent_id"))

        cosigner_part_registration = cls(
            config=config,
            intent_id=intent_id,
        )

        return cosigner_part_registration
