"""custody/isolated_worker.py: a worker process keeps its Prometheus samples in a folder of its own
and takes the folder with it when it stops."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from custody.pool import METRICS_DIR_VARIABLE
from domain.withdrawals.pipeline import EXPIRE
from tests.support.environment import ROOT, TEST_NAMESPACE
from tests.support.worker import wait_for


async def test_a_worker_keeps_its_samples_in_its_own_folder_and_removes_it_when_it_stops(settings, broker, tmp_path):
    # Given an isolated worker on the suite's queues, its temporary files under tmp_path (where
    # dramatiq's one folder per host would be too), and no metrics folder named for it
    env = {key: value for key, value in os.environ.items() if key != METRICS_DIR_VARIABLE}
    env.update({"PYTHONPATH": str(ROOT), "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
                "CUSTODY_ENV": "test", "CUSTODY_DATA_DIR": str(settings.data_dir), "LOG_LEVEL": "WARNING",
                "TMPDIR": str(tmp_path)})
    process = subprocess.Popen([sys.executable, "-m", "custody.isolated_worker", "--namespace", TEST_NAMESPACE,
                                "--queues", "withdrawals"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    try:
        # When it runs a message
        await asyncio.to_thread(broker.get_actor(EXPIRE).send)  # (nothing to expire: it only looks)

        def samples() -> list[Path]:
            return list(tmp_path.glob("custody-worker-metrics-*/*.db"))

        await wait_for(lambda: bool(samples()) or process.poll() is not None, timeout=30)
        assert process.poll() is None, process.stderr.read().decode()  # type: ignore[union-attr]
        # Then its samples are in a folder of its own, and none in dramatiq's default one
        assert samples()
        assert not list(tmp_path.glob("dramatiq-prometheus/*"))
        # And when it is stopped, the folder goes with it
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 30)
        assert process.returncode == 0, process.stderr.read().decode()  # type: ignore[union-attr]
        assert not list(tmp_path.glob("custody-worker-metrics-*"))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
