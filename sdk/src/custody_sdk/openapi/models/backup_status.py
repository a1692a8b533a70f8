from typing import Literal

BackupStatus = Literal["cancelled", "failed", "in_progress", "pending", "ready", "verified"]

BACKUP_STATUS_VALUES: set[BackupStatus] = {
    "cancelled",
    "failed",
    "in_progress",
    "pending",
    "ready",
    "verified",
}


def check_backup_status(value: str) -> BackupStatus:
    if value in BACKUP_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {BACKUP_STATUS_VALUES!r}")
