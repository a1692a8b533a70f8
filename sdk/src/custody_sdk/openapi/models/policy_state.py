from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.policy_version import PolicyVersion


T = TypeVar("T", bound="PolicyState")


@_attrs_define
class PolicyState:
    """A policy type and its published version (null before the first publish).

    Attributes:
        policy_type (str):
        policy_type_name (str):
        published (None | PolicyVersion):
    """

    policy_type: str
    policy_type_name: str
    published: None | PolicyVersion
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.policy_version import PolicyVersion  # noqa: PLC0415

        policy_type = self.policy_type

        policy_type_name = self.policy_type_name

        published: dict[str, Any] | None
        if isinstance(self.published, PolicyVersion):
            published = self.published.to_dict()
        else:
            published = self.published

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "policy_type": policy_type,
                "policy_type_name": policy_type_name,
                "published": published,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.policy_version import PolicyVersion  # noqa: PLC0415

        d = dict(src_dict)
        policy_type = d.pop("policy_type")

        policy_type_name = d.pop("policy_type_name")

        def _parse_published(data: object) -> None | PolicyVersion:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                published_type_1 = PolicyVersion.from_dict(data)

                return published_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PolicyVersion, data)

        published = _parse_published(d.pop("published"))

        policy_state = cls(
            policy_type=policy_type,
            policy_type_name=policy_type_name,
            published=published,
        )

        policy_state.additional_properties = d
        return policy_state

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
