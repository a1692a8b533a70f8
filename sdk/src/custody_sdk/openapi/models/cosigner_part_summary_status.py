from typing import Literal

CosignerPartSummaryStatus = Literal["committed", "registered"]

COSIGNER_PART_SUMMARY_STATUS_VALUES: set[CosignerPartSummaryStatus] = {
    "committed",
    "registered",
}


def check_cosigner_part_summary_status(value: str) -> CosignerPartSummaryStatus:
    if value in COSIGNER_PART_SUMMARY_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COSIGNER_PART_SUMMARY_STATUS_VALUES!r}")
