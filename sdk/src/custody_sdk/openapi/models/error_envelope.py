from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.error_envelope_details import ErrorEnvelopeDetails


T = TypeVar("T", bound="ErrorEnvelope")


@_attrs_define
class ErrorEnvelope:
    """The body of every error answer.

    Attributes:
        code (str):
        error (str):
        details (ErrorEnvelopeDetails):
    """

    code: str
    error: str
    details: ErrorEnvelopeDetails

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        error = self.error

        details = self.details.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "error": error,
                "details": details,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.error_envelope_details import ErrorEnvelopeDetails  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        error = d.pop("error")

        details = ErrorEnvelopeDetails.from_dict(d.pop("details"))

        error_envelope = cls(
            code=code,
            error=error,
            details=details,
        )

        return error_envelope
