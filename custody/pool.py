"""``python -m custody.pool MODULE [dramatiq's options]``: a worker pool.

dramatiq's own command (``python -m dramatiq``) with two things of the service's:

* **Logging.** dramatiq's command configures logging itself, in its own format and always at
  INFO. Here it is given ``--skip-logging`` and the pool logs like every other process
  (:func:`core.logs.configure_logging`: ``LOG_LEVEL``, ``LOG_FORMAT``); the worker processes
  it forks inherit that.
* **A metrics folder of its own.** dramatiq's Prometheus middleware keeps the samples of the
  pool's processes in a folder (``dramatiq_prom_db``) that prometheus-client's multiprocess mode
  sums file by file: it must be empty when the pool starts (the files of processes long gone
  would still count) and belong to this pool alone (pools sharing one report each other's
  messages). The folder is emptied of those files before the worker processes start, and a pool
  given none gets a private temporary folder, removed when it stops, instead of dramatiq's one
  folder per host.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from core.settings import SettingsError, get_settings

#: What names the folder of a process's Prometheus samples (read by dramatiq's middleware when it
#: is imported, and by the settings as ``pool_metrics_dir``).
METRICS_DIR_VARIABLE = "dramatiq_prom_db"


@contextmanager
def metrics_folder(named: str | Path | None, *, prefix: str) -> Iterator[Path]:
    """The folder of this process's Prometheus samples, named in :data:`METRICS_DIR_VARIABLE` for
    dramatiq's middleware (import it inside the block): ``named``, or when None a private
    temporary folder (``prefix``), removed when the block ends."""
    folder = Path(named) if named is not None else Path(tempfile.mkdtemp(prefix=prefix))
    os.environ[METRICS_DIR_VARIABLE] = str(folder)
    try:
        yield folder
    finally:
        if named is None:
            shutil.rmtree(folder, ignore_errors=True)


def empty_metrics_dir(folder: Path) -> None:
    """Create ``folder`` or remove the sample files of earlier runs from it (nothing else)."""
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink(missing_ok=True)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        settings = get_settings()
    except SettingsError as exc:
        print(f"custody: {exc}", file=sys.stderr)
        return 2
    if settings.pool_metrics_dir is not None:
        empty_metrics_dir(settings.pool_metrics_dir)
    # dramatiq's middleware reads the folder from the environment when it is imported (below).
    with metrics_folder(settings.pool_metrics_dir, prefix="custody-pool-metrics-"):
        from dramatiq import cli

        from core.logs import configure_logging

        configure_logging()
        arguments = list(sys.argv[1:] if argv is None else argv)
        args = cli.make_argument_parser().parse_args(arguments)
        args.skip_logging = True
        # What dramatiq runs again when SIGHUP asks it to reload: this command, not its own.
        sys.argv = [sys.executable, "-m", "custody.pool", *arguments]
        return int(cli.main(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
