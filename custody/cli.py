"""``custody``: the operator's command line.

    custody migrate                     apply committed migrations
    custody web [--port 8000]           the API (Sanic; WEB_CONCURRENCY workers)
    custody worker [--queues q ...]     Dramatiq workers (WORKER_PROCESSES x WORKER_THREADS);
                                        every queue except the signers' by default
    custody signer --participant 1|2    a threshold signer: its own queue and share key only
    custody scheduler                   periodic jobs (leader-elected; only enqueues)
    custody dev [--port 8000]           all of the above together; embedded PostgreSQL/Redis
                                        when DATABASE_URL / REDIS_URL are unset
    custody bootstrap --out FILE        first company, workspace, owner (and the enrollment secret of
                                        the owner's device) and API user
    custody owner enroll|devices|confirm-device   the owner's device: enrollment, recovery, the
                                        operator's fingerprint check (custody/owner.py)
    custody queues [--json] [--watch N] queue depths (Redis) and outbox state (PostgreSQL)
    custody queues requeue|purge QUEUE  dead letters back to their queue, or deleted (filters, confirmation)
    custody faucet --network N --address A --amount X   credit a devnet (or solana-local) address
    custody audit-key list|rotate       the keys that sign audit chain heads (docs/audit.md)
    custody watch [resume --network N]  the deposit watcher per network; resume one a deep reorg halted
    custody solana-local [--port N]     the local Solana chain (LiteSVM) of custody dev
    custody evm-local [--port N]        the local EVM (py-evm, JSON-RPC) of custody dev
    custody cosigner ...                the client's headless co-signer (client/cosigner.py)
    custody recover ...                 offline key recovery from a backup (client/recovery.py)
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from domain.permissions import WorkspaceRole
from threshold.scheme import SERVICE_PARTICIPANTS

if TYPE_CHECKING:
    from core.settings import Settings

# Startup: this module imports nothing heavy. `custody --help` and each command's `--help` parse
# the command line only; a command imports what it runs when it runs (the API, the actors and
# the ORM take seconds to import, which `custody queues` or `custody faucet` never need).


class LazyHandler:
    """A command's handler, ``"module:function"``, imported only when the command runs."""

    def __init__(self, target: str) -> None:
        self.target = target

    def __call__(self, args: argparse.Namespace) -> int:
        module, _, name = self.target.partition(":")
        return int(getattr(importlib.import_module(module), name)(args) or 0)


def _require_urls(settings: Settings, *, redis: bool = True) -> None:
    """Exit naming the server URLs the command needs and lacks (``redis``: it needs Redis too)."""
    needed = [("DATABASE_URL", settings.database_url)] + ([("REDIS_URL", settings.redis_url)] if redis else [])
    missing = [name for name, value in needed if not value]
    if missing:
        sys.exit(f"custody: {', '.join(missing)} not set (`custody dev` starts embedded servers instead)")


def cmd_migrate(args: argparse.Namespace) -> int:
    import asyncio

    from core.settings import get_settings
    from custody.embedded import with_embedded_servers
    from custody.wiring import migrate

    settings = get_settings()
    servers = None
    if args.embedded:
        settings, servers = with_embedded_servers(settings)
    try:
        _require_urls(settings, redis=False)  # migrating sends nothing: PostgreSQL only
        asyncio.run(migrate(settings))
    finally:
        if servers is not None:
            servers.stop()
    print("migrations applied")
    return 0


def cmd_audit_key(args: argparse.Namespace) -> int:
    """``custody audit-key list|rotate``: the keys that sign audit chain heads (docs/audit.md)."""
    import asyncio
    import json

    from core.settings import get_settings
    from core.unit_of_work import unit_of_work
    from custody.embedded import with_embedded_servers
    from custody.wiring import close_database, open_database
    from domain import audit_chain

    settings = get_settings()
    servers = None
    if args.embedded:
        settings, servers = with_embedded_servers(settings)

    async def run() -> list[dict[str, str | None]]:
        await open_database(settings)
        try:
            if args.action == "rotate":
                async with unit_of_work():
                    await audit_chain.rotate_signing_key()
            return [{"key_id": key.key_id, "public_key": key.public_key, "previous_key_id": key.previous_key_id,
                     "retired": "yes" if key.retired_at else "no"} for key in await audit_chain.published_keys()]
        finally:
            await close_database()

    try:
        _require_urls(settings)
        print(json.dumps(asyncio.run(run()), indent=2))
    finally:
        if servers is not None:
            servers.stop()
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    from core.settings import get_settings
    from custody.web import serve

    settings = get_settings()
    _require_urls(settings)
    serve(host=args.host, port=args.port or settings.port, workers=args.workers or settings.web_workers)
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    from core.settings import get_settings
    from custody.processes import general_queues, worker_command

    settings = get_settings()
    _require_urls(settings)
    queues = args.queues or list(settings.worker_queues) or general_queues()
    command = worker_command(processes=args.processes or settings.worker_processes,
                             threads=args.threads or settings.worker_threads, queues=queues)
    os.execv(command[0], command)


def cmd_scheduler(args: argparse.Namespace) -> int:
    import asyncio

    from core.settings import get_settings
    from custody.scheduler import run_forever

    settings = get_settings()
    _require_urls(settings)
    asyncio.run(run_forever(settings))
    return 0


def cmd_solana_local(args: argparse.Namespace) -> int:
    """The owner process of the local Solana chain (LiteSVM) that custody dev's processes share."""
    import asyncio

    from domain.networks import solana_local

    def ready(url: str) -> None:
        logging.getLogger("custody.solana_local").info("the local Solana chain (LiteSVM) listens at %s", url)

    try:
        asyncio.run(solana_local.serve(args.host, args.port, ready=ready))
    except KeyboardInterrupt:
        pass
    return 0


def cmd_evm_local(args: argparse.Namespace) -> int:
    """The owner process of the local EVM (py-evm behind JSON-RPC) that custody dev's processes share."""
    # py-evm takes seconds to import: only this command loads it, not every custody command.
    import asyncio

    from domain.networks import evm_local

    def ready(url: str) -> None:
        # A log record, like solana-local's: custody dev keeps INFO records out of the terminal.
        logging.getLogger("custody.evm_local").info(
            "custody evm-local: py-evm chain %s at %s (test ERC-20 at %s)", evm_local.CHAIN_ID, url,
            evm_local.TOKEN_ADDRESS)

    try:
        asyncio.run(evm_local.serve(args.host, args.port, ready=ready, block_interval=args.block_interval))
    except KeyboardInterrupt:
        pass
    return 0


def cmd_bootstrap(args: argparse.Namespace) -> int:
    import asyncio
    import json

    from common.files import write_private_file
    from core.clock import rfc3339
    from core.settings import get_settings
    from core.unit_of_work import unit_of_work
    from custody.embedded import with_embedded_servers
    from custody.readiness import wait_for_service
    from custody.wiring import close_database, migrate, open_database, setup_broker
    from domain.bootstrap import BootstrapResult, bootstrap

    settings = get_settings()
    out = Path(args.out)
    # Checked before anything is created: the file will hold a private key.
    if out.is_symlink():
        sys.exit(f"custody: {out} is a symbolic link; refusing to write credentials through it")
    if out.exists() and not args.force:
        sys.exit(f"custody: {out} exists; pass --force to overwrite")
    enrollment_out = Path(args.owner_enrollment_out) if args.owner_enrollment_out else None
    if enrollment_out is not None and (enrollment_out.is_symlink() or (enrollment_out.exists() and not args.force)):
        sys.exit(f"custody: {enrollment_out} is a symbolic link or exists (--force overwrites a file)")
    base_url = args.base_url or settings.base_url
    # Right after `scripts/dev &`: the service (and the embedded servers it starts) first.
    if args.wait > 0 and not wait_for_service(base_url, timeout=args.wait):
        sys.exit(f"custody: the service at {base_url} did not answer within {args.wait:g} s; is `scripts/dev` "
                 "running? (--wait 0 bootstraps without it)")
    servers = None
    if not (settings.database_url and settings.redis_url):
        settings, servers = with_embedded_servers(settings)

    async def run() -> tuple[dict, BootstrapResult]:
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
        }, result

    try:
        credentials, result = asyncio.run(run())
    finally:
        if servers is not None:
            servers.stop()
    # 0600 from the start, never through a symlink: the file holds a private key.
    write_private_file(out, json.dumps(credentials, indent=2))
    print(f"bootstrap: workspace {credentials['workspace_id']}, API user {credentials['client_id']}; "
          f"credentials written to {out} (mode 0600)")
    enrollment = {"base_url": credentials["base_url"], "workspace_id": result.workspace_id,
                  "owner_id": result.owner_id, "owner_enrollment_secret": result.owner_enrollment_secret,
                  "expires_at": rfc3339(result.owner_enrollment_expires_at), "not_before": None}
    if enrollment_out is not None:
        write_private_file(enrollment_out, json.dumps(enrollment, indent=2))
    print(f"owner {args.owner_email}: enrollment secret for the owner's device (shown once; expires "
          f"{enrollment['expires_at']}):\n\n    {result.owner_enrollment_secret}\n\n"
          + (f"written to {enrollment_out} (mode 0600). " if enrollment_out is not None else "")
          + "Register the owner's device with it (examples/owner_device.py), then confirm its fingerprint "
          "with the owner: custody owner confirm-device (docs/users.md)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Every command and its arguments (nothing of the service is imported for it)."""
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

    p = sub.add_parser("signer", help="run threshold signer 1 or 2 (its own queue and key only)")
    p.add_argument("--participant", type=int, choices=list(SERVICE_PARTICIPANTS), required=True)
    p.add_argument("--processes", type=int, default=None, help="default 1")
    p.add_argument("--threads", type=int, default=None, help="default: WORKER_THREADS")
    p.set_defaults(func=LazyHandler("custody.signer:cmd_signer"))

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

    p = sub.add_parser("faucet", help="credit a devnet, solana-local or evm-local address (development and tests)")
    p.add_argument("--network", required=True, help="devnet network id, e.g. devnet-evm-testnet, or solana-local, or evm-local")
    p.add_argument("--address", required=True)
    p.add_argument("--amount", required=True, help="whole units of the currency (smallest units with --atomic)")
    p.add_argument("--currency", default=None, help="currency id (default: the network's native coin)")
    p.add_argument("--atomic", action="store_true", help="--amount is in the smallest unit")
    p.add_argument("--mine", action="store_true", help="mine a block right away")
    p.set_defaults(func=LazyHandler("custody.faucet:cmd_faucet"))

    # Programs with their own argument parsers; main() hands them the rest of the command line.
    sub.add_parser("cosigner", help="the client's headless co-signer (custody cosigner --help)", add_help=False)
    sub.add_parser("recover", help="offline key recovery from a backup (custody recover --help)", add_help=False)

    p = sub.add_parser("dev", help="run API, worker, signers, scheduler and the local Solana chain together")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=LazyHandler("custody.dev:cmd_dev"))

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
    p.add_argument("--wait", type=float, default=300.0,
                   help="seconds to wait for the service at the base URL to answer (0: do not wait)")
    p.add_argument("--owner-enrollment-out", default=None, metavar="FILE",
                   help="also write the owner's enrollment (the device's secret, mode 0600) to FILE")
    p.add_argument("--force", action="store_true")
    p.set_defaults(func=cmd_bootstrap)

    p = sub.add_parser("queues", help="queue depths and outbox state; requeue or purge messages")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--watch", type=float, default=None, metavar="SECONDS", help="refresh every SECONDS")
    queues = LazyHandler("custody.queues:cmd_queues")
    p.set_defaults(func=queues, action=None)
    actions = p.add_subparsers(dest="action")
    for name, text in (("requeue", "move dead letters back to their queue"),
                       ("purge", "delete dead letters (or, with --ready, ready messages)")):
        action = actions.add_parser(name, help=text)
        action.add_argument("queue")
        action.add_argument("--actor", default=None, help="only messages of this actor (domain.verb)")
        action.add_argument("--older-than", type=float, default=None, metavar="SECONDS",
                            help="only messages first enqueued at least SECONDS ago")
        action.add_argument("--yes", action="store_true", help="do not ask for confirmation")
        if name == "purge":
            action.add_argument("--ready", dest="kind", action="store_const", const="ready", default="dead",
                                help="purge ready messages instead of dead letters")
        action.set_defaults(func=queues, json=False, watch=None)

    p = sub.add_parser("owner", help="the owner's device: enroll, list, confirm (operator)",
                       description="The operator's side of the owner's device (custody/owner.py, docs/users.md).")
    commands = p.add_subparsers(dest="owner_command", required=True)
    owner = LazyHandler("custody.owner:cmd_owner")
    for name, text in (("enroll", "a one-time enrollment secret for the owner's device (first, or a recovery)"),
                       ("devices", "the owner's devices and their fingerprints"),
                       ("confirm-device", "confirm the owner's enrolled device after comparing its fingerprint")):
        command = commands.add_parser(name, help=text)
        command.add_argument("--workspace", default=None, help="workspace id (default: the only one)")
        command.add_argument("--json", action="store_true", help="machine-readable output")
        command.set_defaults(func=owner, out=None)
        if name == "enroll":
            command.add_argument("--out", default=None, help="also write the enrollment to FILE (mode 0600)")
            command.add_argument("--base-url", default=None, help="written to the file; default CUSTODY_BASE_URL")
        if name == "confirm-device":
            command.add_argument("--device", required=True, help="the device id (custody owner devices)")
            command.add_argument("--fingerprint", required=True,
                                 help="as the owner reads it from the device (spaces and case are ignored)")

    p = sub.add_parser("audit-key", help="list or rotate the keys that sign audit chain heads")
    p.add_argument("action", choices=["list", "rotate"])
    p.add_argument("--embedded", action="store_true", help="use the embedded servers when the URLs are unset")
    p.set_defaults(func=cmd_audit_key)

    p = sub.add_parser("watch", help="the deposit watcher per network; resume one halted by a reorganization")
    p.add_argument("action", nargs="?", choices=["status", "resume"], default="status")
    p.add_argument("--network", help="the network to resume (resume)")
    p.add_argument("--from-height", type=int, default=None,
                   help="read again from this height (default: the fork point the halt recorded)")
    p.set_defaults(func=LazyHandler("custody.watch:cmd_watch"))
    return parser


#: One-shot commands whose answer is what they print: the INFO lines of the servers they open
#: (embedded PostgreSQL, Tortoise) would only bury it, so they log warnings and errors unless
#: LOG_LEVEL says otherwise.
QUIET_COMMANDS = frozenset({"bootstrap", "faucet", "queues", "migrate", "owner", "audit-key", "watch"})


def _delegated(program: str, argv: list[str]) -> int:
    """``custody cosigner ...`` and ``custody recover ...``: programs with their own parsers."""
    if program == "cosigner":
        from client import cosigner

        return int(cosigner.main(argv) or 0)
    from client import recovery

    return int(recovery.main(argv) or 0)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    delegated = argv[0] if argv and argv[0] in ("cosigner", "recover") else None
    args: Any = None if delegated else build_parser().parse_args(argv)  # --help and usage errors end here
    # Only now the settings: a value the service cannot use ends the command with one line
    # naming the variable, not a traceback.
    from core.logs import configure_logging
    from core.settings import SettingsError

    try:
        quiet = bool(argv) and argv[0] in QUIET_COMMANDS and "LOG_LEVEL" not in os.environ
        configure_logging("WARNING" if quiet else None)
        if delegated:
            return _delegated(delegated, argv[1:])
        return int(args.func(args) or 0)
    except SettingsError as exc:
        print(f"custody: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
