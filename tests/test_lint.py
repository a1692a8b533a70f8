"""The lint rules (pyproject.toml [tool.ruff]) and the types (pyproject.toml [tool.mypy], over the
service packages and the benchmarks) are checked here, so CI fails on either; and each check
really does fail on a fault.

mypy keeps its incremental cache where it does when run alone (``.mypy_cache`` in the checkout):
the first run checks every module (a minute or two), later ones only what changed (seconds).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).with_name("ruff")


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(RUFF), "check", "--no-fix", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_the_code_passes_the_lint_rules():
    result = _ruff(".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_lint_fault_breaks_the_build(tmp_path):
    # Given a module with an unused import and imports out of order
    probe = tmp_path / "probe.py"
    probe.write_text("import sys\nimport json\n\nprint(json.dumps({}))\n")
    # When it is linted with the project's rules
    result = _ruff("--config", str(ROOT / "pyproject.toml"), str(probe))
    # Then the check fails and names both faults
    assert result.returncode != 0
    assert "F401" in result.stdout and "I001" in result.stdout


def test_the_service_packages_and_the_benchmarks_type_check():
    result = _mypy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout
    # The benchmarks are scripts (bench/ is no package: each imports its neighbours by their
    # file names), so they are named as files; run after the packages, they find them cached.
    benchmarks = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "bench").glob("*.py"))
    result = _mypy(*benchmarks)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Success: no issues found in {len(benchmarks)} source files" in result.stdout


def test_a_type_error_or_a_needless_ignore_breaks_the_build(tmp_path):
    # Given a module that passes None where a clock reading is due, and silences a line that
    # needs no silencing
    probe = tmp_path / "probe_types.py"
    probe.write_text("from core.clock import rfc3339\n\n"
                     "when: str = rfc3339(None)\n"
                     "count = 1  # type: ignore[attr-defined]\n")
    # When it is type-checked with the project's settings
    result = _mypy(str(probe))
    # Then the check fails and names both lines
    assert result.returncode != 0
    assert "probe_types.py:3: error" in result.stdout and "[assignment]" in result.stdout
    assert "probe_types.py:4: error" in result.stdout and "[unused-ignore]" in result.stdout
