"""A real dramatiq worker in the test process, and ways to wait for what it does."""

from __future__ import annotations

import asyncio
import functools
import inspect
import time
from typing import Any, Callable

import dramatiq
from dramatiq.worker import WORKER_TIMEOUT

from core.broker import notify_key

#: How often the helpers below look again (seconds).
POLL = 0.01


#: How long the worker's threads wait for a message before they look whether to stop (ms).
THREAD_TIMEOUT_MS = 50
#: The bound of an idle consumer's wait on its queue's wake-up list (ms): production's (dramatiq's
#: default, custody.isolated_worker). An enqueue wakes the consumer at once and a delayed message
#: goes on when it is due (core.broker), and :meth:`InProcessWorker.stop` wakes it too; at 50 ms
#: the worker's 36 consumers (18 queues and their delay queues) spent about a tenth of a core
#: polling, in every test that has a worker.
CONSUMER_TIMEOUT_MS = WORKER_TIMEOUT


class InProcessWorker:
    """A real dramatiq worker consuming the test broker's queues in this process.

    Async actors run on the test's event loop (the broker was set up with it), where the
    database connections live.
    """

    def __init__(self, broker: dramatiq.Broker) -> None:
        self.broker = broker
        self.worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=THREAD_TIMEOUT_MS)
        self._pace = _ConsumerPace(self.worker)

    def start(self) -> None:
        self.broker.add_middleware(self._pace)
        self.worker.start()

    def stop(self) -> None:
        # dramatiq stops its consumers once its threads are done; each ends after its current wait
        # on its queue's wake-up list: a token there ends that wait now.
        for consumer in list(self.worker.consumers.values()):
            setattr(consumer, "stop", functools.partial(self._stop_consumer, consumer, consumer.stop))
        self.worker.stop(timeout=5000)
        # dramatiq's Worker adds a middleware to the broker and leaves it there: take it off (and
        # this one's), so the next test's worker is the only one the (session-wide) broker knows.
        self.broker.middleware[:] = [m for m in self.broker.middleware
                                     if m is not self._pace and getattr(m, "worker", None) is not self.worker]

    def _stop_consumer(self, consumer: Any, stop: Callable[[], None]) -> None:
        stop()
        self.broker.client.rpush(notify_key(self.broker.namespace, consumer.queue_name), b"1")  # type: ignore[attr-defined]  # a RedisBroker

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait until every queue is empty and the worker is idle.

        Also waits for delayed messages the worker already holds (a retry due in real time);
        :meth:`settle` does not.
        """
        def wait() -> None:
            deadline = time.monotonic() + timeout
            while True:
                for queue in self.broker.get_declared_queues():
                    left_ms = int(max(deadline - time.monotonic(), 0.1) * 1000)
                    self.broker.join(queue, interval=int(POLL * 1000), timeout=left_ms)  # type: ignore[call-arg]  # a RedisBroker
                self.worker.join()
                # A message enqueued by the last one's actor on a queue joined before: again.
                if self._queued() == 0:
                    return

        await asyncio.to_thread(wait)

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until no message is queued or running on any queue.

        Unlike :meth:`drain` this does not wait for delayed messages (scheduled retries, due in
        seconds to hours of real time): they stay in the broker's delay queue.
        """
        deadline = time.monotonic() + timeout
        quiet = 0
        while quiet < 3:
            pending = self._queued()
            busy = self.worker.work_queue.unfinished_tasks
            quiet = quiet + 1 if pending == 0 and busy == 0 else 0
            assert time.monotonic() < deadline, f"still {pending} message(s) queued or running"
            await asyncio.sleep(POLL)

    def _queued(self) -> int:
        """Messages enqueued (not delayed) and not yet acknowledged, on every queue."""
        client = self.broker.client  # type: ignore[attr-defined]
        namespace = self.broker.namespace  # type: ignore[attr-defined]
        return sum(client.hlen(f"{namespace}:{queue}.msgs") for queue in self.broker.get_declared_queues())


class _ConsumerPace(dramatiq.Middleware):
    """Gives the worker's consumers :data:`CONSUMER_TIMEOUT_MS` (its threads keep the worker's
    timeout, so that they stop within it)."""

    def __init__(self, worker: dramatiq.Worker) -> None:
        self.worker = worker

    def after_consumer_thread_boot(self, broker: dramatiq.Broker, thread: Any) -> None:
        if thread in self.worker.consumers.values():
            thread.worker_timeout = CONSUMER_TIMEOUT_MS


async def wait_for(predicate: Callable[[], Any], *, timeout: float = 10.0, interval: float = POLL) -> Any:
    """Poll ``predicate`` (sync or async) until it returns a truthy value; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting for the condition"
        await asyncio.sleep(interval)
