"""The check stage's registry, set aside for tests that judge some checks alone."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from domain.withdrawals import checks


@contextmanager
def only_checks(*kept: str) -> Iterator[None]:
    """Only the installed checks named in ``kept`` stay registered (plus whatever the block adds);
    on exit every installed check is put back in its order and the block's own are removed."""
    installed = checks.registered_checks()
    for check in installed:
        if check.name not in kept:
            checks.unregister_check(check.name)
    try:
        yield
    finally:
        for check in checks.registered_checks():
            checks.unregister_check(check.name)
        for check in installed:
            checks.register_check(check)
