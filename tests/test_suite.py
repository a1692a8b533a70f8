"""The suite itself: a run leaves nothing behind, and the key pool serves real, distinct key sets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from custody.embedded import PidRegistry
from tests.support.environment import SuiteRun
from tests.support.key_pool import KeyPool, pooled_dkg
from threshold.scheme import ALL_PARTICIPANTS, ED25519_SCHEME, SCHEMES, TAPROOT_SCHEME

ROOT = Path(__file__).resolve().parent.parent


def test_the_last_run_removes_its_data_folder_unless_kept_or_not_its_own(tmp_path):
    # Given a run of the suite with its data folder
    folder = tmp_path / "data"
    run = SuiteRun(folder, owned=True, keep=False)
    run.begin()
    (folder / "postgres").mkdir()
    # When another run of the checkout is still going, the first to end leaves the folder to it
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        PidRegistry(folder / "runs.json").add(other.pid)
        assert not run.leaves_nothing
        run.end()
        assert (folder / "postgres").is_dir()
    finally:
        other.kill()
        other.wait()
    # When the last run ends (the other one is gone), the folder goes
    run.begin()
    assert run.leaves_nothing
    run.end()
    assert not folder.exists()
    # But a folder kept on request, or named by the caller, stays
    for kept in (SuiteRun(folder, owned=True, keep=True), SuiteRun(folder, owned=False, keep=False)):
        kept.begin()
        kept.end()
        assert folder.is_dir()


def test_a_passing_run_leaves_no_temporary_folders(tmp_path):
    # Given a test that writes to its tmp_path, run with the suite's settings (pyproject.toml)
    (tmp_path / "test_writes.py").write_text(
        "def test_writes(tmp_path):\n    (tmp_path / 'big').write_bytes(bytes(1000))\n")
    temp = tmp_path / "temp"
    temp.mkdir()
    # (No plugin but pytest's own: the retention is pytest's, and the run starts faster.)
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-c", str(ROOT / "pyproject.toml"),
                             "--rootdir", str(tmp_path), "-W", "ignore::pytest.PytestConfigWarning",
                             str(tmp_path / "test_writes.py")],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    # Then nothing is left in pytest's temporary root
    leftovers = [p for p in temp.rglob("*") if not p.is_dir()]
    assert leftovers == [] and not [p for p in temp.rglob("pytest-[0-9]*")], sorted(temp.rglob("*"))


def test_the_pool_serves_each_checked_dkg_once():
    # Given the pool of DKGs run ahead (each one checked when made: see tests/support/key_pool.py)
    pool = KeyPool(stock=3)
    drawn = [pool.draw(ED25519_SCHEME) for _ in range(5)] + [pool.draw(TAPROOT_SCHEME) for _ in range(2)]
    # Then every set drawn is another key, of the scheme asked for, bound to a context of its own
    assert len({d.group_public_key for d in drawn}) == len({d.context for d in drawn}) == 7
    assert [d.scheme for d in drawn] == [ED25519_SCHEME] * 5 + [TAPROOT_SCHEME] * 2
    # And each holds every participant's round-2 state and the six round-2 packages between them
    for dkg in drawn:
        assert sorted(dkg.round2_states) == sorted(dkg.round1) == list(ALL_PARTICIPANTS)
        assert sorted(dkg.round2_packages) == [(s, r) for s in ALL_PARTICIPANTS for r in ALL_PARTICIPANTS if s != r]


def test_every_frost_scheme_of_the_service_can_be_pooled():
    for scheme in SCHEMES:
        if scheme.startswith("FROST"):
            assert len(pooled_dkg(scheme).group_public_key) in (32, 33)
