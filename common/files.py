"""Files that hold secrets: private keys, key shares, credentials.

:func:`write_private_file` is the one way this project writes such a file: mode 0600 from the
moment it exists (never a window where another user could open it), written to a temporary file
in the same directory, flushed to disk, then renamed into place, so a reader sees the old or the
new content, never half of it. A symbolic link at the destination is refused rather than
followed: an attacker who can plant a link must not be able to redirect a private key.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class PrivateFileError(OSError):
    """The destination is not a place to write a private file (a symlink, a directory)."""


def _refuse_link(path: Path) -> None:
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISLNK(mode):
        raise PrivateFileError(f"{path} is a symbolic link; refusing to write a private file through it")
    if not stat.S_ISREG(mode):
        raise PrivateFileError(f"{path} exists and is not a regular file")


def write_private_file(path: str | Path, data: bytes | str, *, replace: bool = True) -> bool:
    """Write ``data`` to ``path`` with mode 0600, atomically.

    With ``replace`` False an existing file is kept (and False returned): when several processes
    race to create the same key file, every one of them ends up reading the one that won.
    """
    path = Path(path)
    payload = data.encode() if isinstance(data, str) else data
    _refuse_link(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file with mode 0600 (O_EXCL, O_NOFOLLOW semantics: a fresh name).
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        if replace:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)  # fails if the file appeared meanwhile: keep the winner's
        except FileExistsError:
            return False
        return True
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
