"""custody/signer.py: a signer's worker process runs SIGNER_THREADS threads, fetching one message per thread."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.settings import Settings, SettingsError, configure, get_settings
from custody.signer import signer_prefetch, signer_worker_command


@pytest.fixture
def process_settings() -> Iterator[None]:
    """The process-wide settings, given back as they were after the test."""
    before = get_settings()
    yield
    configure(before)


def _threads(command: list[str]) -> int:
    return int(command[command.index("--threads") + 1])


def test_a_signer_runs_its_own_thread_count_not_the_general_pool_s(process_settings: None) -> None:
    # Given the environment of a deployment that sets only the general pool's threads
    configure(Settings.from_env({"WORKER_THREADS": "2"}))
    # When signer 1's worker command is made
    command = signer_worker_command(1)
    # Then it runs SIGNER_THREADS' default (8) on its own queue, and fetches one message per thread
    assert _threads(command) == 8 == get_settings().signer_threads
    assert command[command.index("--queues") + 1:] == ["signer_1"]
    assert signer_prefetch(_threads(command)) == 8


def test_signer_threads_is_read_from_the_environment_and_the_command_line_wins(process_settings: None) -> None:
    # Given SIGNER_THREADS=12
    configure(Settings.from_env({"SIGNER_THREADS": "12"}))
    # When signer 2's worker command is made without and with an explicit thread count
    # Then the setting applies, and --threads (the argument) wins over it
    assert _threads(signer_worker_command(2)) == 12
    assert _threads(signer_worker_command(2, threads=3)) == 3


@pytest.mark.parametrize("value", ["0", "257", "many"])
def test_an_unusable_signer_thread_count_is_refused_by_name(value: str) -> None:
    # When the environment holds a thread count out of range or not a number
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"SIGNER_THREADS": value})
    # Then the error names the variable
    assert "SIGNER_THREADS" in str(refused.value)
