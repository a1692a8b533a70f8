from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.audit_signed_head import AuditSignedHead


T = TypeVar("T", bound="AuditChainState")


@_attrs_define
class AuditChainState:
    """
    Attributes:
        length (int): Entries in the chain (the head's seq; 0 before the first).
        pending (int): Entries written but not chained yet: served once chained (seconds).
        head (AuditSignedHead | None): null until the first entry is chained.
    """

    length: int
    pending: int
    head: AuditSignedHead | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_signed_head import AuditSignedHead  # noqa: PLC0415

        length = self.length

        pending = self.pending

        head: dict[str, Any] | None
        if isinstance(self.head, AuditSignedHead):
            head = self.head.to_dict()
        else:
            head = self.head

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "length": length,
                "pending": pending,
                "head": head,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_signed_head import AuditSignedHead  # noqa: PLC0415

        d = dict(src_dict)
        length = d.pop("length")

        pending = d.pop("pending")

        def _parse_head(data: object) -> AuditSignedHead | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                head_type_1 = AuditSignedHead.from_dict(data)

                return head_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditSignedHead | None, data)

        head = _parse_head(d.pop("head"))

        audit_chain_state = cls(
            length=length,
            pending=pending,
            head=head,
        )

        audit_chain_state.additional_properties = d
        return audit_chain_state

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
