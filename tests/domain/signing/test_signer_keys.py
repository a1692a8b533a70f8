"""Signer process set-up: one key per signer, each process acts only as its own signer."""

from __future__ import annotations

import base64
import os

import pytest

from core.settings import Settings
from domain.signing.signer_keys import (
    SignerConfigurationError,
    check_process,
    queue_of,
    require_participant,
    signer_key,
)


def test_development_keys_are_per_signer_files_that_differ_and_persist(tmp_path):
    settings = Settings(environment="development", data_dir=tmp_path)
    one, two = signer_key(1, settings), signer_key(2, settings)
    assert len(one) == len(two) == 32 and one != two
    assert (tmp_path / "signer_1.key").read_bytes() == one
    assert oct((tmp_path / "signer_2.key").stat().st_mode & 0o777) == "0o600"
    # Read again by another process (new settings object): the same keys
    again = Settings(environment="development", data_dir=tmp_path)
    assert signer_key(1, again) == one and signer_key(2, again) == two


def test_keys_from_the_environment_are_used_and_required_in_production(tmp_path):
    key_1, key_2 = os.urandom(32), os.urandom(32)
    settings = Settings.from_env({"SIGNER_1_SHARE_KEY": base64.b64encode(key_1).decode(),
                                  "SIGNER_2_SHARE_KEY": base64.b64encode(key_2).decode(),
                                  "CUSTODY_DATA_DIR": str(tmp_path)})
    assert signer_key(1, settings) == key_1 and signer_key(2, settings) == key_2
    production = Settings(environment="production", data_dir=tmp_path)
    with pytest.raises(SignerConfigurationError, match="SIGNER_1_SHARE_KEY"):
        signer_key(1, production)
    assert not (tmp_path / "signer_1.key").exists()


def test_a_signer_process_acts_only_as_itself():
    signer_1 = Settings.from_env({"SIGNER_PARTICIPANT": "1"})
    require_participant(1, signer_1)
    with pytest.raises(SignerConfigurationError, match="never acts as signer 2"):
        require_participant(2, signer_1)
    # In production a general worker (no SIGNER_PARTICIPANT) runs no signer actor
    with pytest.raises(SignerConfigurationError):
        require_participant(1, Settings(environment="production"))
    with pytest.raises(ValueError):
        Settings.from_env({"SIGNER_PARTICIPANT": "3"})
    assert queue_of(1) == "signer_1" and queue_of(2) == "signer_2"


def test_a_production_signer_refuses_the_other_key_or_equal_keys(tmp_path):
    key = base64.b64encode(os.urandom(32)).decode()
    both = Settings.from_env({"CUSTODY_ENV": "production", "SIGNER_1_SHARE_KEY": key,
                              "SIGNER_2_SHARE_KEY": base64.b64encode(os.urandom(32)).decode()})
    with pytest.raises(SignerConfigurationError, match="must not be given SIGNER_2_SHARE_KEY"):
        check_process(1, both)
    check_process(1, Settings.from_env({"CUSTODY_ENV": "production", "SIGNER_1_SHARE_KEY": key}))
    same = Settings.from_env({"SIGNER_1_SHARE_KEY": key, "SIGNER_2_SHARE_KEY": key, "CUSTODY_DATA_DIR": str(tmp_path)})
    with pytest.raises(SignerConfigurationError, match="must differ"):
        check_process(1, same)
