"""Entry point of the ``scheduler`` process (``custody scheduler``)."""

from __future__ import annotations

import asyncio

from core.broker import install_broker
from core.settings import Settings, get_settings
from custody.wiring import close_database, open_database
from schedules.main import Scheduler


async def run_forever(settings: Settings | None = None) -> None:
    """Open the database and the broker, then run the leader-elected jobs until cancelled."""
    settings = settings or get_settings()
    install_broker(settings)
    await open_database(settings)
    scheduler = Scheduler(settings)
    scheduler.start()
    try:
        await asyncio.Event().wait()
    finally:
        await scheduler.stop()
        await close_database()
