from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.key_generation_action import (
    KeyGenerationAction,
    check_key_generation_action,
)
from ..models.key_generation_participant import (
    KeyGenerationParticipant,
    check_key_generation_participant,
)
from ..models.key_generation_status import (
    KeyGenerationStatus,
    check_key_generation_status,
)

if TYPE_CHECKING:
    from ..models.cosigner_part_summary import CosignerPartSummary
    from ..models.round_1_broadcast import Round1Broadcast
    from ..models.round_2_delivery import Round2Delivery


T = TypeVar("T", bound="KeyGeneration")


@_attrs_define
class KeyGeneration:
    """One key set's distributed key generation as the co-signer sees it.

    Attributes:
        key_set_id (UUID):
        vault_id (UUID):
        scheme (str):
        status (KeyGenerationStatus):
        action (KeyGenerationAction | None): The co-signer's next step; finalize = register and commit its part.
        participant (KeyGenerationParticipant):
        min_signers (int):
        max_signers (int):
        context (str): Hex; the proof of knowledge is bound to it.
        round1_packages (list[Round1Broadcast]): Every round-1 broadcast, once all are in.
        round2_packages (list[Round2Delivery]): The packages addressed to the co-signer, in finalize.
        part (CosignerPartSummary | None):
        group_public_key (None | str): Hex, once the key is generated.
        failed_participant (int | None):
        failure_reason (None | str):
    """

    key_set_id: UUID
    vault_id: UUID
    scheme: str
    status: KeyGenerationStatus
    action: KeyGenerationAction | None
    participant: KeyGenerationParticipant
    min_signers: int
    max_signers: int
    context: str
    round1_packages: list[Round1Broadcast]
    round2_packages: list[Round2Delivery]
    part: CosignerPartSummary | None
    group_public_key: None | str
    failed_participant: int | None
    failure_reason: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cosigner_part_summary import CosignerPartSummary  # noqa: PLC0415

        key_set_id = str(self.key_set_id)

        vault_id = str(self.vault_id)

        scheme = self.scheme

        status: str = self.status

        action: None | str
        if isinstance(self.action, str):
            action = self.action
        else:
            action = self.action

        participant: int = self.participant

        min_signers = self.min_signers

        max_signers = self.max_signers

        context = self.context

        round1_packages = []
        for round1_packages_item_data in self.round1_packages:
            round1_packages_item = round1_packages_item_data.to_dict()
            round1_packages.append(round1_packages_item)

        round2_packages = []
        for round2_packages_item_data in self.round2_packages:
            round2_packages_item = round2_packages_item_data.to_dict()
            round2_packages.append(round2_packages_item)

        part: dict[str, Any] | None
        if isinstance(self.part, CosignerPartSummary):
            part = self.part.to_dict()
        else:
            part = self.part

        group_public_key: None | str
        group_public_key = self.group_public_key

        failed_participant: int | None
        failed_participant = self.failed_participant

        failure_reason: None | str
        failure_reason = self.failure_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "key_set_id": key_set_id,
                "vault_id": vault_id,
                "scheme": scheme,
                "status": status,
                "action": action,
                "participant": participant,
                "min_signers": min_signers,
                "max_signers": max_signers,
                "context": context,
                "round1_packages": round1_packages,
                "round2_packages": round2_packages,
                "part": part,
                "group_public_key": group_public_key,
                "failed_participant": failed_participant,
                "failure_reason": failure_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cosigner_part_summary import CosignerPartSummary  # noqa: PLC0415
        from ..models.round_1_broadcast import Round1Broadcast  # noqa: PLC0415
        from ..models.round_2_delivery import Round2Delivery  # noqa: PLC0415

        d = dict(src_dict)
        key_set_id = UUID(d.pop("key_set_id"))

        vault_id = UUID(d.pop("vault_id"))

        scheme = d.pop("scheme")

        status = check_key_generation_status(d.pop("status"))

        def _parse_action(data: object) -> KeyGenerationAction | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                action_type_1 = check_key_generation_action(data)

                return action_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(KeyGenerationAction | None, data)

        action = _parse_action(d.pop("action"))

        participant = check_key_generation_participant(d.pop("participant"))

        min_signers = d.pop("min_signers")

        max_signers = d.pop("max_signers")

        context = d.pop("context")

        round1_packages = []
        _round1_packages = d.pop("round1_packages")
        for round1_packages_item_data in _round1_packages:
            round1_packages_item = Round1Broadcast.from_dict(round1_packages_item_data)

            round1_packages.append(round1_packages_item)

        round2_packages = []
        _round2_packages = d.pop("round2_packages")
        for round2_packages_item_data in _round2_packages:
            round2_packages_item = Round2Delivery.from_dict(round2_packages_item_data)

            round2_packages.append(round2_packages_item)

        def _parse_part(data: object) -> CosignerPartSummary | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                part_type_1 = CosignerPartSummary.from_dict(data)

                return part_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CosignerPartSummary | None, data)

        part = _parse_part(d.pop("part"))

        def _parse_group_public_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        group_public_key = _parse_group_public_key(d.pop("group_public_key"))

        def _parse_failed_participant(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        failed_participant = _parse_failed_participant(d.pop("failed_participant"))

        def _parse_failure_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason"))

        key_generation = cls(
            key_set_id=key_set_id,
            vault_id=vault_id,
            scheme=scheme,
            status=status,
            action=action,
            participant=participant,
            min_signers=min_signers,
            max_signers=max_signers,
            context=context,
            round1_packages=round1_packages,
            round2_packages=round2_packages,
            part=part,
            group_public_key=group_public_key,
            failed_participant=failed_participant,
            failure_reason=failure_reason,
        )

        key_generation.additional_properties = d
        return key_generation

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
