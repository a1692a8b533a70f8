from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.audit_chain_state import AuditChainState
    from ..models.audit_log_entry import AuditLogEntry


T = TypeVar("T", bound="AuditEntryPage")


@_attrs_define
class AuditEntryPage:
    """
    Attributes:
        entries (list[AuditLogEntry]): Chained entries in chain order (oldest first).
        next_cursor (int | None): Pass as ?cursor= for the next page; null on the last one (keep the last seq to follow
            the log later).
        chain (AuditChainState):
    """

    entries: list[AuditLogEntry]
    next_cursor: int | None
    chain: AuditChainState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        next_cursor: int | None
        next_cursor = self.next_cursor

        chain = self.chain.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entries": entries,
                "next_cursor": next_cursor,
                "chain": chain,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_chain_state import AuditChainState  # noqa: PLC0415
        from ..models.audit_log_entry import AuditLogEntry  # noqa: PLC0415

        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = AuditLogEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        def _parse_next_cursor(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        chain = AuditChainState.from_dict(d.pop("chain"))

        audit_entry_page = cls(
            entries=entries,
            next_cursor=next_cursor,
            chain=chain,
        )

        audit_entry_page.additional_properties = d
        return audit_entry_page

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
