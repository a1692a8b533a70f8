from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.run_message_submission_phase import (
    RunMessageSubmissionPhase,
    check_run_message_submission_phase,
)

T = TypeVar("T", bound="RunMessageSubmission")


@_attrs_define
class RunMessageSubmission:
    """
    Attributes:
        phase (RunMessageSubmissionPhase):
        data (str): Base64 of one protocol message for the signer.
    """

    phase: RunMessageSubmissionPhase
    data: str

    def to_dict(self) -> dict[str, Any]:
        phase: str = self.phase

        data = self.data

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "phase": phase,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        phase = check_run_message_submission_phase(d.pop("phase"))

        data = d.pop("data")

        run_message_submission = cls(
            phase=phase,
            data=data,
        )

        return run_message_submission
