#!/usr/bin/env python3
"""A webhook receiver that keeps a local copy of the workspace's balances in sync.

    python examples/webhook_receiver.py custody-credentials.json [--port 8787] [--secret whsec_...] [--exit-after N]

Without ``--secret`` it registers a webhook for ``transaction.*`` at
``http://127.0.0.1:PORT/webhooks`` (``custody dev`` allows loopback URLs; a real receiver is an
https URL) and deletes it on exit. Then, following the spec's balance synchronization rules
(custody_sdk.balance_sync):

1. it loads the balance snapshot as the truth;
2. each delivery is verified (signature, timestamp, envelope; custody_sdk.webhooks) and applied:
   a delivery that fails verification gets a 400 (the service retries it), a repeated event id
   is applied once, an older balance never overwrites a newer one;
3. every ``--reconcile`` seconds it compares its totals with the service's snapshot and, on a
   difference, catches up from the change log (or a fresh snapshot when the log was compacted).

Make a deposit to see it move (vault_and_wallet.py prints the faucet command). Standard library
plus the SDK only: the HTTP server runs in a thread and hands verified events to the asyncio loop.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from custody_sdk import BalanceSync, Custody, CustodyError, WebhookEvent, WebhookVerificationError, WebhookVerifier
from custody_sdk.openapi.api.webhooks import create_webhook, delete_webhook
from custody_sdk.openapi.models import WebhookCreate

PATH = "/webhooks"


def serve(verifier: WebhookVerifier, deliver: "asyncio.Queue[WebhookEvent]", loop: asyncio.AbstractEventLoop,
          host: str, port: int) -> ThreadingHTTPServer:
    """An HTTP server (in a thread) that verifies each delivery and queues its event."""

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path != PATH:
                self.send_response(404)
            else:
                try:
                    event = verifier.verify(body, dict(self.headers.items()))
                except WebhookVerificationError as refused:
                    print(f"refused a delivery: {refused}", file=sys.stderr)
                    self.send_response(400)
                else:
                    loop.call_soon_threadsafe(deliver.put_nowait, event)
                    self.send_response(204)  # answer fast (within 10 s); the work happens after
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass  # quiet: the loop prints what matters

    server = ThreadingHTTPServer((host, port), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def show(sync: BalanceSync) -> str:
    return ", ".join(f"{currency} {parts['total']} (available {parts['available']}, held {parts['held']})"
                     for currency, parts in sorted(sync.totals().items())) or "no balances"


async def main(args: argparse.Namespace) -> None:
    async with Custody.from_credentials_file(args.credentials) as custody:
        created = None
        secrets = args.secret
        if not secrets:
            created = await custody.call(create_webhook, body=WebhookCreate(
                url=f"http://{args.host}:{args.port}{PATH}", event_types=["transaction.*"],
                description="examples/webhook_receiver.py"))
            secrets = [created.secret]
            print(f"registered webhook {created.id} -> {created.url}")
        events: asyncio.Queue[WebhookEvent] = asyncio.Queue()
        server = serve(WebhookVerifier(secrets), events, asyncio.get_running_loop(), args.host, args.port)
        sync = BalanceSync(custody)
        try:
            await sync.reset()
            print(f"snapshot at cursor {sync.cursor}: {show(sync)}")
            handled = 0
            while args.exit_after is None or handled < args.exit_after:
                try:
                    event = await asyncio.wait_for(events.get(), timeout=args.reconcile)
                except TimeoutError:
                    in_sync = await sync.sync()
                    print(f"reconciled at cursor {sync.cursor}: {'in sync' if in_sync else 'behind, retrying later'}")
                    continue
                handled += 1
                if sync.apply_webhook(event):
                    tx = event.transaction
                    what = f"{tx.type_} {tx.formatted_amount} {tx.symbol} {tx.status}" if tx else event.type
                    print(f"{event.type} {event.id}: {what} -> {show(sync)}")
                else:
                    print(f"{event.type} {event.id}: repeat or not about balances, skipped")
            in_sync = await sync.sync()
            print(f"done: {show(sync)} ({'in sync with the service' if in_sync else 'behind the service'})")
        finally:
            server.shutdown()
            if created is not None:
                await custody.call(delete_webhook, webhook_id=created.id)
                print(f"deleted webhook {created.id}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("credentials", help="the file `custody bootstrap --out` wrote")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8787)
    parser.add_argument("--secret", action="append", default=[],
                        help="an existing webhook's secret (twice while rotating); default: register a webhook")
    parser.add_argument("--reconcile", type=float, default=30, help="seconds between reconciliations")
    parser.add_argument("--exit-after", type=int, help="stop after this many deliveries (default: run until ^C)")
    try:
        asyncio.run(main(parser.parse_args()))
    except KeyboardInterrupt:
        pass
    except CustodyError as error:
        sys.exit(f"webhook_receiver: {error}")
