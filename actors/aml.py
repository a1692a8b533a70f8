"""AML screening's scheduled job (queue ``aml``): a thin wrapper of domain.aml.screening.

``aml.poll`` (every ``POLL_INTERVAL_SECONDS``, enqueued by the scheduler) asks the providers about
pending screenings (registering incoming transfers of asynchronous providers first) and applies
their later updates. Each screening and each update is one unit of work, so one provider's
failure holds up nothing else; every step is idempotent (a pending record is re-read under its
row lock, an update sets absolute values), so a message delivered twice is harmless.
"""

from __future__ import annotations

import logging

from core.jobs import actor
from core.unit_of_work import unit_of_work
from domain.aml import screening
from domain.aml.screening import POLL

logger = logging.getLogger(__name__)


@actor(POLL, max_retries=0)
async def poll() -> dict[str, int]:
    advanced = updated = 0
    async with unit_of_work():
        due = await screening.due_screenings()
    for screening_id in due:
        try:
            async with unit_of_work():
                advanced += await screening.advance_pending(screening_id=screening_id) is not None
        except Exception:  # noqa: BLE001 - one screening's trouble must not stop the others
            logger.exception("aml.poll: screening %s failed", screening_id)
    for provider, update in await screening.provider_updates():
        try:
            async with unit_of_work():
                updated += await screening.apply_update(provider=provider, ref=update.ref,
                                                        result=update.result) is not None
        except Exception:  # noqa: BLE001
            logger.exception("aml.poll: update %s of %s failed", update.ref, provider)
    return {"advanced": advanced, "updated": updated}
