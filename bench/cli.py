"""Benchmark: how long `custody --help` and `custody queues` take, against their targets.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/cli.py [--runs 10]

Runs each command ``--runs`` times as a person runs it (``.venv/bin/custody``, a new process each
time) and prints, per command, the mean and best wall time and CPU time (user + system), and the
ratio of the mean wall time to its target: ``--help`` under 1 s, ``queues`` under 2 s. The limit
measured in the same run is a bare interpreter (``python -c pass``): what no command can beat.
The load average is printed beside the figures (on a shared machine wall time follows it).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CUSTODY = Path(sys.executable).with_name("custody")
TARGETS = {"custody --help": 1.0, "custody queues": 2.0}


def measure(command: list[str], runs: int) -> tuple[float, float, float]:
    """(mean wall, best wall, mean CPU) seconds of ``runs`` runs of ``command``."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return sum(walls) / runs, min(walls), sum(cpus) / runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--custody", default=str(CUSTODY), help="the custody command to time (another checkout's)")
    args = parser.parse_args()
    custody = args.custody
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        sys.exit("bench/cli.py: set DATABASE_URL and REDIS_URL (custody queues reads them)")
    commands = {
        "python -c pass (the limit)": [sys.executable, "-c", "pass"],
        "custody --help": [custody, "--help"],
        "custody queues": [custody, "queues"],
    }
    measure([custody, "--help"], 1)  # warm the file cache
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'command':30}{'mean wall':>11}{'best wall':>11}{'mean CPU':>10}{'target':>8}{'mean/target':>13}")
    for name, command in commands.items():
        mean, best, cpu = measure(command, args.runs)
        target = TARGETS.get(name)
        ratio = f"{mean / target:.2f}" if target else "-"
        print(f"{name:30}{mean:>10.3f}s{best:>10.3f}s{cpu:>9.3f}s{(f'{target:g} s' if target else '-'):>8}"
              f"{ratio:>13}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
