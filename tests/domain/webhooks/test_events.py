"""Events (domain/webhooks/events.py): emitted in the transaction of the change they report."""

from __future__ import annotations

import pytest

from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain.webhooks import events
from models.webhooks import WebhookEvent
from tests.support.callers import make_principal
from tests.support.webhooks import create_webhook, workspace_of


async def test_an_event_rolled_back_with_its_change_is_never_sent(database, worker, receiver):
    admin = await make_principal()
    await create_webhook(admin, receiver.url())
    with pytest.raises(RuntimeError):
        async with unit_of_work():
            await events.emit_event(workspace_id=workspace_of(admin), event_type="transaction.created",
                                      data={"transaction_id": "tx"})
            raise RuntimeError("the change failed")
    await worker.drain()
    assert await WebhookEvent.all().count() == 0 and await Command.all().count() == 0
    assert receiver.received == []


async def test_emit_refuses_unknown_event_types_outside_any_write(database):
    with pytest.raises(ValueError):
        async with unit_of_work():
            await events.emit_event(workspace_id=None, event_type="transaction.exploded", data={})  # type: ignore[arg-type]
