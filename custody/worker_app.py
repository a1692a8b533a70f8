"""Module the ``dramatiq`` CLI imports in each worker process: installs the broker and actors."""

from core.logs import configure_logging
from custody.wiring import setup_broker

configure_logging()
broker = setup_broker()
