"""The layers import one way only (pyproject.toml [tool.importlinter]): checked here, so CI
fails on a new upward import; and the check really does fail on one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from domain.change_approvals.registry import ACTION_KEYS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("custody", "api", "actors", "schedules", "domain", "models", "core", "threshold", "client",
            "common", "config")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--config", str(root / "pyproject.toml"), "--no-cache"], cwd=root,
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_layers_import_one_way():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_an_upward_import_breaks_the_build(tmp_path):
    # Given a copy of the source tree in which the domain imports the API
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "domain" / "upward_probe.py").write_text("import api.app  # a rule that reaches for HTTP\n")
    # When the import contracts are checked
    result = _lint(tmp_path)
    # Then the check fails and names the offending import
    assert result.returncode != 0
    assert "domain.upward_probe -> api.app" in result.stdout


def test_a_circle_or_an_engine_importing_a_gated_domain_breaks_the_build(tmp_path):
    # Given a copy of the source tree where the change approvals import a domain they gate, and
    # two new modules import each other
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "domain" / "change_approvals" / "probe.py").write_text("import domain.users\n")
    (tmp_path / "domain" / "circle_a.py").write_text("import domain.circle_b\n")
    (tmp_path / "domain" / "circle_b.py").write_text("import domain.circle_a\n")
    # When the import contracts are checked
    result = _lint(tmp_path)
    # Then both contracts fail, naming what to remove
    assert result.returncode != 0
    assert "The change approvals import none of the domains they gate BROKEN" in result.stdout
    assert "domain.change_approvals.probe -> domain.users" in result.stdout
    assert "No import circles BROKEN" in result.stdout
    assert ".circle_a -> .circle_b" in result.stdout or ".circle_b -> .circle_a" in result.stdout


def test_a_worker_that_loads_the_apply_actor_knows_every_gated_action():
    # Given a fresh interpreter that imports only the change approvals' actors (what a worker loads)
    code = ("import actors.change_approvals\n"
            "from domain.change_approvals import registry\n"
            "print(','.join(entry.key for entry in registry.all_actions()))\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    # Then every action of the spec is registered, by the domain that gates it
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().split(",") == list(ACTION_KEYS)
