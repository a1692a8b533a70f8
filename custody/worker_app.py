"""Module the ``dramatiq`` CLI imports in each worker process: installs the broker and actors."""

from custody.broker import setup_broker
from custody.logging import configure_logging

configure_logging()
broker = setup_broker()
