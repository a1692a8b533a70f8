"""What a worker pool of tests/deploy loads (``python -m custody.pool tests.deploy.pool_app``):
custody.worker_app's broker and actors, on the test's own Redis namespace."""

import os

from core.logs import configure_logging
from custody.wiring import setup_broker

configure_logging()
broker = setup_broker(namespace=os.environ["CUSTODY_TEST_POOL_NAMESPACE"])
