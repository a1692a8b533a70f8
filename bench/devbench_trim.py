"""Trim a device-run bundle (.devbench/, made by ../shared/devbench/make-bundle) to what the benches import.

    python3 bench/devbench_trim.py .devbench      # scripts/devbench-bundle runs it after make-bundle

make-bundle packs every runtime dependency of the service as a cp312 wheel: 69 MB of wheels on
2026-11-28, 75 MiB with the working tree, over the 64 MiB a device run may carry. The benches that
its run.sh runs (bench/api.py, signing_pools.py, withdrawals.py, webhooks.py) move money on the
simulated devnet only; the libraries of the real chains (:data:`CHAIN_LIBRARIES`) are imported only
by those chains' adapters (domain/networks/bitcoin.py, evm*.py, solana*.py) and by threshold ECDSA
(threshold/ecdsa.py). This keeps the dependency closure of every other requirement, as pip resolved
it (the bundle's report.json, extras and markers included), drops every other wheel, and exits
non-zero if the bundle with the working tree is still :data:`LIMIT_MIB` or more.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

if importlib.util.find_spec("packaging") is None:  # an interpreter without it: pip's own copy (make-bundle uses pip)
    import pip

    sys.path.append(str(Path(pip.__file__).parent / "_vendor"))

from packaging.markers import default_environment  # noqa: E402
from packaging.requirements import Requirement  # noqa: E402
from packaging.utils import canonicalize_name  # noqa: E402

#: The real chains' libraries, which no devnet bench imports.
CHAIN_LIBRARIES = frozenset({"solders", "solana", "embit", "cait-sith-py", "eth-account", "eth-abi", "eth-tester",
                             "py-evm"})
#: What a device run may carry, the working tree included (MiB).
LIMIT_MIB = 64
#: The device machine's interpreter (the bundle's wheels are cp312, x86-64 Linux).
TARGET_ENVIRONMENT = {"python_version": "3.12", "python_full_version": "3.12.0", "implementation_name": "cpython",
                      "platform_python_implementation": "CPython", "sys_platform": "linux",
                      "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix"}


def closure(requirements: list[str], resolved: Mapping[str, Mapping[str, Any]], *,
            leaving_out: frozenset[str] = CHAIN_LIBRARIES, target: dict[str, str] | None = None) -> set[str]:
    """The canonical names of ``requirements`` (but ``leaving_out``) and of everything they need,
    through ``resolved`` (canonical name → the package's metadata, with ``requires_dist``, as in
    pip's installation report): a dependency counts when its marker holds on ``target`` (the
    device machine's :data:`TARGET_ENVIRONMENT` unless given), for no extra or for one of the
    extras it was required with."""
    environment = {**cast(dict[str, str], default_environment()), **(TARGET_ENVIRONMENT if target is None else target)}
    kept: set[str] = set()
    seen: set[tuple[str, frozenset[str]]] = set()
    pending = [(canonicalize_name(r.name), frozenset(r.extras)) for r in map(Requirement, requirements)
               if canonicalize_name(r.name) not in leaving_out]
    while pending:
        name, extras = pending.pop()
        if (name, extras) in seen or name not in resolved:
            continue
        seen.add((name, extras))
        kept.add(name)
        for line in resolved[name].get("requires_dist") or []:
            needed = Requirement(line)
            if needed.marker is None or any(needed.marker.evaluate({**environment, "extra": extra})
                                            for extra in ("", *extras)):
                pending.append((canonicalize_name(needed.name), frozenset(needed.extras)))
    return kept


def wheel_name(filename: str) -> str:
    """The canonical package name of a wheel's file name (``cait_sith_py-0.2.6-cp37-...`` → ``cait-sith-py``)."""
    return canonicalize_name(re.split(r"-\d", filename, maxsplit=1)[0])


def trim(bundle: Path) -> tuple[list[Path], int]:
    """Drop the wheels of ``bundle``/whl that :func:`closure` leaves out, and those requirements
    from its requirements.txt; returns the dropped wheels and their size in bytes."""
    report = json.loads((bundle / "report.json").read_text())
    resolved: dict[str, dict[str, Any]] = {canonicalize_name(item["metadata"]["name"]): item["metadata"]
                                           for item in report["install"]}
    requirements = (bundle / "requirements.txt").read_text().split()
    kept = closure(requirements, resolved)
    dropped, size = [], 0
    for wheel in sorted((bundle / "whl").glob("*.whl")):
        if wheel_name(wheel.name) not in kept:
            size += wheel.stat().st_size
            dropped.append(wheel)
            wheel.unlink()
    (bundle / "requirements.txt").write_text(
        "".join(f"{line}\n" for line in requirements if canonicalize_name(Requirement(line).name) in kept))
    return dropped, size


def carried_mib(bundle: Path) -> float:
    """What a run carries with ``bundle``: the tracked files of the working tree and the bundle (MiB)."""
    tracked = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout.split(b"\0")
    tree = sum(path.stat().st_size for path in (Path(name.decode()) for name in tracked if name) if path.is_file())
    return (tree + sum(path.stat().st_size for path in bundle.rglob("*") if path.is_file())) / 2**20


def main() -> None:
    bundle = Path(sys.argv[1] if len(sys.argv) > 1 else ".devbench")
    dropped, size = trim(bundle)
    print(f"dropped {len(dropped)} wheels that only the real chains' libraries need ({size / 2**20:.1f} MiB): "
          + ", ".join(wheel.name.split("-")[0] for wheel in dropped))
    total = carried_mib(bundle)
    print(f"{len(list((bundle / 'whl').glob('*.whl')))} wheels kept; working tree + {bundle} = {total:.1f} MiB "
          f"(the limit is {LIMIT_MIB} MiB)")
    if total >= LIMIT_MIB:
        sys.exit("still too large to carry")


if __name__ == "__main__":
    main()
