"""The committed migrations hold every change of the models: tortoise's ``makemigrations`` finds
nothing to write (what a developer who changed a model without making its migration breaks)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.environment import ROOT

#: tortoise's autodetector on the service's configuration (custody/tortoise_cli.py, what
#: ``.venv/bin/tortoise makemigrations`` reads), without writing: the operations it would write.
_PENDING = """
import asyncio
from tortoise.cli.cli import tortoise_cli_context
from tortoise.migrations.autodetector import MigrationAutodetector
from custody.tortoise_cli import TORTOISE_ORM

async def main():
    async with tortoise_cli_context(TORTOISE_ORM) as context:
        writers = await MigrationAutodetector(context.apps, TORTOISE_ORM["apps"]).changes()
    for writer in writers:
        for operation in writer.operations:
            print(writer.app_label, operation.describe() if hasattr(operation, "describe") else operation)

asyncio.run(main())
"""


def test_the_models_need_no_migration_that_is_not_committed():
    # When tortoise compares the models with the state the committed migrations make
    result = subprocess.run([sys.executable, "-c", _PENDING], cwd=ROOT, capture_output=True, text=True, timeout=120)
    # Then it finds no operation to write
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == "", f"models changed without a migration (.venv/bin/tortoise makemigrations):\n{result.stdout}"
