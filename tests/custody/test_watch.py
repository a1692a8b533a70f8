"""``custody watch``: the deposit watcher's state per network, and resuming one a reorganization halted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core import clock
from models.deposits import ChainWatchBlock, ChainWatchState

ROOT = Path(__file__).resolve().parents[2]
NETWORK = "bitcoin-regtest"


def _custody(settings, *args: str) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "REDIS_NAMESPACE": settings.redis_namespace}
    return subprocess.run([sys.executable, "-m", "custody.cli", "watch", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


async def test_an_operator_sees_a_halted_watcher_and_resumes_it_from_the_fork_point(database, settings):
    # Given a network whose watcher a reorganization deeper than finality halted at fork point 7
    await ChainWatchState.create(network=NETWORK, scanned_height=10, halted_at=clock.now(),
                                 halt_details={"reason": "REORG_BEYOND_FINALITY", "fork_height": 7, "height": 10})
    for height in range(5, 11):
        await ChainWatchBlock.create(network=NETWORK, height=height, hash=f"h{height}", parent_hash=f"h{height - 1}")
    # When the operator looks / Then the halt and its details are shown
    shown = _custody(settings)
    assert shown.returncode == 0, shown.stderr
    [state] = json.loads(shown.stdout)
    assert (state["network"], state["halt"]["fork_height"]) == (NETWORK, 7) and state["halted_at"]
    # When resume names no network, or an unknown one / Then it refuses, changing nothing
    assert _custody(settings, "resume").returncode == 2
    assert _custody(settings, "resume", "--network", "no-such-chain").returncode == 2
    # When the operator resumes it
    resumed = _custody(settings, "resume", "--network", NETWORK)
    # Then it reads again from the fork point, the replaced blocks' hashes forgotten
    assert resumed.returncode == 0, resumed.stderr
    assert (json.loads(resumed.stdout)["resumed"], json.loads(resumed.stdout)["scanned_height"]) == (True, 7)
    state = await ChainWatchState.get(network=NETWORK)
    assert (state.halted_at, state.halt_details, state.scanned_height) == (None, None, 7)
    assert sorted(await ChainWatchBlock.filter(network=NETWORK).values_list("height", flat=True)) == [5, 6, 7]
