from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.transaction import Transaction


T = TypeVar("T", bound="ChangesPage")


@_attrs_define
class ChangesPage:
    """
    Attributes:
        items (list[Transaction]): Transactions changed after the cursor, one per transaction, in their current state,
            in position order.
        next_cursor (int):
        has_more (bool):
        min_cursor (int): The oldest cursor the log can still serve.
    """

    items: list[Transaction]
    next_cursor: int
    has_more: bool
    min_cursor: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        next_cursor = self.next_cursor

        has_more = self.has_more

        min_cursor = self.min_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "next_cursor": next_cursor,
                "has_more": has_more,
                "min_cursor": min_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.transaction import Transaction  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = Transaction.from_dict(items_item_data)

            items.append(items_item)

        next_cursor = d.pop("next_cursor")

        has_more = d.pop("has_more")

        min_cursor = d.pop("min_cursor")

        changes_page = cls(
            items=items,
            next_cursor=next_cursor,
            has_more=has_more,
            min_cursor=min_cursor,
        )

        changes_page.additional_properties = d
        return changes_page

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
