"""core/queues.py: the queue names the light tools use are the actors' queues."""

from __future__ import annotations

import actors
from core.queues import GENERAL_QUEUES, QUEUES, SIGNER_QUEUES, queue_of
from domain.signing import signer_keys
from threshold.scheme import SERVICE_PARTICIPANTS


def test_the_declared_queues_are_exactly_the_actors_queues():
    # Given every actor of the service (imported) and the names custody queues and /metrics use
    declared = actors.queue_names()
    # Then they are the same queues: a new job family must be named in core/queues.py too
    assert list(QUEUES) == declared, "core.queues.QUEUES must list every actor's queue (and no other)"
    assert set(SIGNER_QUEUES) == {signer_keys.queue_of(participant) for participant in SERVICE_PARTICIPANTS}
    assert set(GENERAL_QUEUES) == set(QUEUES) - set(SIGNER_QUEUES)
    assert queue_of("webhooks.deliver") == "webhooks"
