from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.round_2_package import Round2Package


T = TypeVar("T", bound="Round2Submission")


@_attrs_define
class Round2Submission:
    """
    Attributes:
        packages (list[Round2Package]): One package for each other participant; otherwise 400 INVALID_DKG_PACKAGE.
    """

    packages: list[Round2Package]

    def to_dict(self) -> dict[str, Any]:
        packages = []
        for packages_item_data in self.packages:
            packages_item = packages_item_data.to_dict()
            packages.append(packages_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "packages": packages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.round_2_package import Round2Package  # noqa: PLC0415

        d = dict(src_dict)
        packages = []
        _packages = d.pop("packages")
        for packages_item_data in _packages:
            packages_item = Round2Package.from_dict(packages_item_data)

            packages.append(packages_item)

        round_2_submission = cls(
            packages=packages,
        )

        return round_2_submission
