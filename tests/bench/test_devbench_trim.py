"""bench/devbench_trim.py: a device-run bundle keeps what the devnet benches import, and only that."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]


def _trim_module() -> ModuleType:
    # bench/ is no package (each bench imports its neighbours by their file names).
    spec = importlib.util.spec_from_file_location("devbench_trim", ROOT / "bench" / "devbench_trim.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


devbench_trim = _trim_module()

#: A resolution shaped like pip's report: a web framework, an ORM with an extra, and two chain
#: libraries that share one dependency with the rest and have one of their own.
RESOLVED = {
    "sanic": {"requires_dist": ["httptools>=0.6", "uvloop>=0.15; sys_platform != 'win32'",
                                "pywin32; sys_platform == 'win32'", "pytest; extra == 'test'"]},
    "httptools": {}, "uvloop": {}, "pywin32": {}, "pytest": {},
    "tortoise-orm": {"requires_dist": ["pypika-tortoise", "asyncpg; extra == 'asyncpg'",
                                       "aiomysql; extra == 'mysql'"]},
    "pypika-tortoise": {}, "asyncpg": {}, "aiomysql": {},
    "pynacl": {"requires_dist": ["cffi>=1.4"]},
    "cffi": {"requires_dist": ["pycparser; implementation_name != 'PyPy'"]}, "pycparser": {},
    "solders": {"requires_dist": ["jsonalias", "cffi"]}, "jsonalias": {},
    "eth-tester": {"requires_dist": ["eth-utils", "py-evm; extra == 'py-evm'"]},
    "eth-utils": {"requires_dist": ["cytoolz"]}, "cytoolz": {},
    "py-evm": {"requires_dist": ["cytoolz", "trie"]}, "trie": {},
}
REQUIREMENTS = ["sanic==25.12.1", "tortoise-orm[asyncpg]==1.1.9", "pynacl==1.6.2", "solders==0.29.0",
                "eth-tester[py-evm]==0.14.0b1"]


def test_the_closure_keeps_every_other_requirement_with_its_dependencies_and_extras() -> None:
    # Given the requirements, two of them chain libraries
    # When their closure is taken on the device machine (Linux, CPython 3.12)
    kept = devbench_trim.closure(REQUIREMENTS, RESOLVED)

    # Then the others stay with what they need there (the extra asked for, the Linux-only
    # dependency, a dependency shared with a chain library), and nothing else does
    assert kept == {"sanic", "httptools", "uvloop", "tortoise-orm", "pypika-tortoise", "asyncpg", "pynacl", "cffi",
                    "pycparser"}


def test_trimming_a_bundle_deletes_the_left_out_wheels_and_requirements(tmp_path: Path) -> None:
    # Given a bundle as make-bundle writes it: wheels, the requirements and pip's report
    (tmp_path / "whl").mkdir()
    for name in RESOLVED:
        wheel = f"{name.replace('-', '_')}-1.0-cp312-cp312-manylinux_2_17_x86_64.whl"
        (tmp_path / "whl" / wheel).write_bytes(b"x" * 100)
    (tmp_path / "requirements.txt").write_text("\n".join(REQUIREMENTS) + "\n")
    report = {"install": [{"metadata": {"name": name, "version": "1.0", **metadata}}
                          for name, metadata in RESOLVED.items()]}
    (tmp_path / "report.json").write_text(json.dumps(report))

    # When it is trimmed
    dropped, size = devbench_trim.trim(tmp_path)

    # Then the wheels outside the closure are gone, counted, and the requirements name the rest
    left = {devbench_trim.wheel_name(path.name) for path in (tmp_path / "whl").iterdir()}
    assert left == devbench_trim.closure(REQUIREMENTS, RESOLVED)
    assert {devbench_trim.wheel_name(path.name) for path in dropped} == set(RESOLVED) - left
    assert size == 100 * len(dropped)
    assert (tmp_path / "requirements.txt").read_text().split() == REQUIREMENTS[:3]


def test_the_devnet_processes_import_nothing_a_trimmed_bundle_lacks() -> None:
    # Given the service's own requirements, and those of the test extra the benches import
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + [
        line for line in project["optional-dependencies"]["test"]
        if canonicalize_name(Requirement(line).name) in {"sanic-testing", "httpx"}]
    resolved = {canonicalize_name(dist.metadata["Name"]): {"requires_dist": dist.requires or []}
                for dist in importlib.metadata.distributions()}
    kept = devbench_trim.closure(requirements, resolved, target=dict(default_environment()))

    # When a process imports what the bench runner's processes run: the web app, the CLI, every
    # actor (the worker and signer pools) and the isolated worker
    loaded = subprocess.run([sys.executable, "-c", """
import importlib, importlib.metadata, json, pkgutil, sys
import actors, api.app, custody.cli, custody.isolated_worker, schedules.main
for module in pkgutil.iter_modules(actors.__path__):
    importlib.import_module(f"actors.{module.name}")
api.app.create_app()
owners = importlib.metadata.packages_distributions()
print(json.dumps(sorted({dist for name in list(sys.modules) for dist in owners.get(name.split(".")[0], [])})))
"""], cwd=ROOT, capture_output=True, text=True, check=True)
    imported = {canonicalize_name(dist) for dist in json.loads(loaded.stdout.splitlines()[-1])}

    # Then every distribution it imported is in the trimmed bundle, and no chain library is
    assert imported - {"custody-wallet-service"} <= kept
    assert not imported & devbench_trim.CHAIN_LIBRARIES
