"""The Procfile's pools consume every queue the service's actors use: a queue no pool takes would
fill silently in production while every test (which runs all queues) stays green."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from custody.processes import general_queues
from domain.signing.signer_keys import queue_of
from threshold.scheme import SERVICE_PARTICIPANTS

PROCFILE = Path(__file__).resolve().parents[2] / "Procfile"


def _pool_queues() -> dict[str, set[str]]:
    """Each Procfile process with a WORKER_QUEUES setting, and the queues it names."""
    pools: dict[str, set[str]] = {}
    for line in PROCFILE.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, command = line.partition(":")
        for word in shlex.split(command):
            if word.startswith("WORKER_QUEUES="):
                pools[name.strip()] = set(re.split(r"[,\s]+", word.split("=", 1)[1].strip()))
    return pools


def test_every_general_queue_is_consumed_by_a_procfile_pool():
    # Given the Procfile's worker pools
    consumed = set().union(*_pool_queues().values())
    # When every queue an actor uses (except the signers', which have processes of their own) is looked up
    missing = sorted(set(general_queues()) - consumed)
    # Then each has a pool
    assert missing == [], f"queues no Procfile pool consumes: {missing}"


def test_no_pool_names_a_queue_that_does_not_exist_or_a_signer_queue():
    known = set(general_queues())
    signer_queues = {queue_of(p) for p in SERVICE_PARTICIPANTS}
    for pool, queues in _pool_queues().items():
        assert queues <= known, f"{pool} names unknown queues {sorted(queues - known)}"
        assert not queues & signer_queues, f"{pool} takes a signer's queue"
