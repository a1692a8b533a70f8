"""``custody``: the operator's command line.

    custody migrate                     apply committed migrations
    custody web [--port 8000]           the API (Sanic; WEB_CONCURRENCY workers)
    custody worker [--queues q ...]     Dramatiq workers (WORKER_PROCESSES x WORKER_THREADS);
                                        every queue except the signers' by default
    custody signer --participant 1|2    a threshold signer: its own queue and share key only
    custody scheduler                   periodic jobs (leader-elected; only enqueues)
    custody dev [--port 8000]           all of the above together; embedded PostgreSQL/Redis
                                        when DATABASE_URL / REDIS_URL are unset
    custody bootstrap --out FILE        first company, workspace, owner and API user
    custody queues [--json] [--watch N] queue depths (Redis) and outbox state (PostgreSQL)
    custody queues requeue|purge QUEUE  dead letters back to their queue, or deleted (filters, confirmation)
    custody faucet --network N --address A --amount X   credit a devnet (or solana-local) address
    custody solana-local [--port N]     the local Solana chain (LiteSVM) of custody dev
    custody evm-local [--port N]        the local EVM (py-evm, JSON-RPC) of custody dev
    custody cosigner ...                the client's headless co-signer (client/cosigner.py)
    custody recover ...                 offline key recovery from a backup (client/recovery.py)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Sequence

from client import cosigner, recovery
from common.files import write_private_file
from core.logs import configure_logging
from core.settings import Settings, get_settings
from core.unit_of_work import unit_of_work
from custody import faucet, queues, signer
from custody.embedded import with_embedded_servers
from custody.processes import general_queues, spawn, stop_groups, worker_command
from custody.readiness import wait_for_service
from custody.scheduler import run_forever
from custody.web import serve
from custody.wiring import close_database, migrate, open_database, setup_broker
from domain.bootstrap import bootstrap
from domain.networks import solana_local
from domain.permissions import WorkspaceRole


def _require_urls(settings: Settings) -> None:
    missing = [name for name, value in (("DATABASE_URL", settings.database_url), ("REDIS_URL", settings.redis_url))
               if not value]
    if missing:
        sys.exit(f"custody: {', '.join(missing)} not set (`custody dev` starts embedded servers instead)")


def cmd_migrate(args: argparse.Namespace) -> int:
    settings = get_settings()
    servers = None
    if args.embedded:
        settings, servers = with_embedded_servers(settings)
    try:
        _require_urls(settings)
        asyncio.run(migrate(settings))
    finally:
        if servers is not None:
            servers.stop()  # type: ignore[attr-defined]
    print("migrations applied")
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    settings = get_settings()
    _require_urls(settings)
    serve(host=args.host, port=args.port or settings.port, workers=args.workers or settings.web_workers)
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    settings = get_settings()
    _require_urls(settings)
    queues = args.queues or list(settings.worker_queues) or general_queues()
    command = worker_command(processes=args.processes or settings.worker_processes,
                             threads=args.threads or settings.worker_threads, queues=queues)
    os.execv(command[0], command)


def cmd_scheduler(args: argparse.Namespace) -> int:
    settings = get_settings()
    _require_urls(settings)
    asyncio.run(run_forever(settings))
    return 0


def cmd_dev(args: argparse.Namespace) -> int:
    """Embedded servers (if needed), migrations, then web + worker + scheduler as children."""
    settings, servers = with_embedded_servers(get_settings())
    os.environ.setdefault("CUSTODY_BASE_URL", f"http://127.0.0.1:{args.port}")
    os.environ.setdefault("WEBHOOK_ALLOW_LOOPBACK", "true")
    asyncio.run(migrate(settings))
    custody = [sys.executable, "-m", "custody.cli"]
    # The local Solana chain first: one LiteSVM chain for every process (domain.networks.solana_local)
    if not os.environ.get("SOLANA_LOCAL_URL"):
        os.environ["SOLANA_LOCAL_URL"] = f"http://127.0.0.1:{free_port()}"
    local_port = os.environ["SOLANA_LOCAL_URL"].rsplit(":", 1)[-1]
    # The local EVM likewise: one py-evm chain behind JSON-RPC (domain.networks.evm_local)
    if not os.environ.get("EVM_LOCAL_URL"):
        os.environ["EVM_LOCAL_URL"] = f"http://127.0.0.1:{free_port()}"
    evm_port = os.environ["EVM_LOCAL_URL"].rsplit(":", 1)[-1]
    # For the tools of another shell (custody faucet): removed when custody dev stops.
    url_file = Path(settings.data_dir) / faucet.SOLANA_LOCAL_URL_FILE
    url_file.parent.mkdir(parents=True, exist_ok=True)
    url_file.write_text(os.environ["SOLANA_LOCAL_URL"] + "\n")
    evm_url_file = Path(settings.data_dir) / faucet.EVM_LOCAL_URL_FILE
    evm_url_file.write_text(os.environ["EVM_LOCAL_URL"] + "\n")
    children = {
        "solana-local": spawn([*custody, "solana-local", "--port", local_port]),
        "evm-local": spawn([*custody, "evm-local", "--port", evm_port]),
        "web": spawn([*custody, "web", "--host", args.host, "--port", str(args.port)]),
        "worker": spawn(worker_command(processes=1, threads=settings.worker_threads, queues=general_queues())),
        "signer1": spawn([*custody, "signer", "--participant", "1"]),
        "signer2": spawn([*custody, "signer", "--participant", "2"]),
        "scheduler": spawn([*custody, "scheduler"]),
    }
    print(f"custody dev: API on http://{args.host}:{args.port} (docs at /docs), worker, signers 1 and 2, "
          f"scheduler, the local Solana chain at SOLANA_LOCAL_URL={os.environ['SOLANA_LOCAL_URL']}, "
          f"the local EVM at EVM_LOCAL_URL={os.environ['EVM_LOCAL_URL']}; "
          "Ctrl-C stops everything",
          flush=True)
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    exit_code = 0
    try:
        while not stopping:
            for name, child in children.items():
                if child.poll() is not None:
                    print(f"custody dev: {name} exited with {child.returncode}; stopping", file=sys.stderr)
                    exit_code, stopping = child.returncode or 1, True
            time.sleep(0.5)
    finally:
        # Each child with what it started (dramatiq's worker processes), before the servers go.
        stop_groups(children.values(), timeout=15)
        url_file.unlink(missing_ok=True)
        evm_url_file.unlink(missing_ok=True)
        servers.stop()  # type: ignore[attr-defined]
    return exit_code


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cmd_solana_local(args: argparse.Namespace) -> int:
    """The owner process of the local Solana chain (LiteSVM) that custody dev's processes share."""
    def ready(url: str) -> None:
        print(f"custody solana-local: LiteSVM chain at {url}", flush=True)

    try:
        asyncio.run(solana_local.serve(args.host, args.port, ready=ready))
    except KeyboardInterrupt:
        pass
    return 0


def cmd_evm_local(args: argparse.Namespace) -> int:
    """The owner process of the local EVM (py-evm behind JSON-RPC) that custody dev's processes share."""
    # py-evm takes seconds to import: only this command loads it, not every custody command.
    from domain.networks import evm_local

    def ready(url: str) -> None:
        print(f"custody evm-local: py-evm chain {evm_local.CHAIN_ID} at {url} (test ERC-20 at "
              f"{evm_local.TOKEN_ADDRESS})", flush=True)

    try:
        asyncio.run(evm_local.serve(args.host, args.port, ready=ready, block_interval=args.block_interval))
    except KeyboardInterrupt:
        pass
    return 0


def cmd_bootstrap(args: argparse.Namespace) -> int:
    settings = get_settings()
    out = Path(args.out)
    # Checked before anything is created: the file will hold a private key.
    if out.is_symlink():
        sys.exit(f"custody: {out} is a symbolic link; refusing to write credentials through it")
    if out.exists() and not args.force:
        sys.exit(f"custody: {out} exists; pass --force to overwrite")
    base_url = args.base_url or settings.base_url
    # Right after `scripts/dev &`: the service (and the embedded servers it starts) first.
    if args.wait > 0 and not wait_for_service(base_url, timeout=args.wait):
        sys.exit(f"custody: the service at {base_url} did not answer within {args.wait:g} s; is `scripts/dev` "
                 "running? (--wait 0 bootstraps without it)")
    servers = None
    if not (settings.database_url and settings.redis_url):
        settings, servers = with_embedded_servers(settings)

    async def run() -> dict:
        await migrate(settings)
        setup_broker(settings, worker=False)
        await open_database(settings)
        try:
            async with unit_of_work():
                result = await bootstrap(
                    company_name=args.company, company_email=args.email, workspace_name=args.workspace,
                    network_type=args.network, owner_email=args.owner_email, api_user_role=args.role,
                    platform_admin=args.platform_admin,
                )
        finally:
            await close_database()
        return {
            "base_url": args.base_url or settings.base_url,
            "workspace_id": result.workspace_id,
            "company_id": result.company_id,
            "owner_id": result.owner_id,
            "client_id": result.client_id,
            "client_type": "user",
            "private_key": result.private_key,
            "public_key": result.public_key,
        }

    try:
        credentials = asyncio.run(run())
    finally:
        if servers is not None:
            servers.stop()  # type: ignore[attr-defined]
    # 0600 from the start, never through a symlink: the file holds a private key.
    write_private_file(out, json.dumps(credentials, indent=2))
    print(f"bootstrap: workspace {credentials['workspace_id']}, API user {credentials['client_id']}; "
          f"credentials written to {out} (mode 0600)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="custody", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("migrate", help="apply committed migrations")
    p.add_argument("--embedded", action="store_true", help="use the embedded servers when URLs are unset")
    p.set_defaults(func=cmd_migrate)

    p = sub.add_parser("web", help="run the API")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=None, help="default: PORT, else 8000")
    p.add_argument("--workers", type=int, default=None, help="default: WEB_CONCURRENCY")
    p.set_defaults(func=cmd_web)

    p = sub.add_parser("worker", help="run Dramatiq workers")
    p.add_argument("--processes", type=int, default=None, help="default: WORKER_PROCESSES")
    p.add_argument("--threads", type=int, default=None, help="default: WORKER_THREADS")
    p.add_argument("--queues", nargs="*", default=None, help="default: WORKER_QUEUES, else every queue but the signers'")
    p.set_defaults(func=cmd_worker)

    p = sub.add_parser("scheduler", help="run the scheduler")
    p.set_defaults(func=cmd_scheduler)

    signer.add_parser(sub)
    p = sub.add_parser("solana-local", help="the local Solana chain (LiteSVM) custody dev's processes share")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="default: a free port")
    p.set_defaults(func=cmd_solana_local)
    p = sub.add_parser("evm-local", help="the local EVM (py-evm, JSON-RPC) custody dev's processes share")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0, help="default: a free port")
    p.add_argument("--block-interval", type=float, default=2.0,
                   help="seconds between empty blocks, so confirmations advance (0: only with transactions)")
    p.set_defaults(func=cmd_evm_local)
    faucet.add_faucet_parser(sub)

    # Programs with their own argument parsers; main() hands them the rest of the command line.
    sub.add_parser("cosigner", help="the client's headless co-signer (custody cosigner --help)", add_help=False)
    sub.add_parser("recover", help="offline key recovery from a backup (custody recover --help)", add_help=False)

    p = sub.add_parser("dev", help="run API, worker and scheduler together")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=cmd_dev)

    p = sub.add_parser("bootstrap", help="create a first company, workspace, owner and API user")
    p.add_argument("--out", required=True, help="credentials file to write (mode 0600)")
    p.add_argument("--company", default="My Company")
    p.add_argument("--email", default="ops@example.com", help="company contact email")
    p.add_argument("--workspace", default="Main")
    p.add_argument("--network", choices=["mainnet", "testnet"], default="testnet")
    p.add_argument("--owner-email", default="owner@example.com")
    p.add_argument("--role", default="ADMIN", choices=[role.value for role in WorkspaceRole if role != WorkspaceRole.OWNER],
                   help="workspace role of the API user (default ADMIN)")
    p.add_argument("--platform-admin", action="store_true", help="also make the API user PLATFORM_ADMIN")
    p.add_argument("--base-url", default=None, help="the service's URL, written to the file; default CUSTODY_BASE_URL")
    p.add_argument("--wait", type=float, default=120.0,
                   help="seconds to wait for the service at the base URL to answer (0: do not wait)")
    p.add_argument("--force", action="store_true")
    p.set_defaults(func=cmd_bootstrap)

    queues.add_parser(sub)
    return parser


#: One-shot commands whose answer is what they print: the INFO lines of the servers they open
#: (embedded PostgreSQL, Tortoise) would only bury it, so they log warnings and errors unless
#: LOG_LEVEL says otherwise.
QUIET_COMMANDS = frozenset({"bootstrap", "faucet", "queues", "migrate"})


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    quiet = bool(argv) and argv[0] in QUIET_COMMANDS and "LOG_LEVEL" not in os.environ
    configure_logging("WARNING" if quiet else None)
    if argv and argv[0] in ("cosigner", "recover"):
        program = cosigner.main if argv[0] == "cosigner" else recovery.main
        return int(program(argv[1:]) or 0)
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
