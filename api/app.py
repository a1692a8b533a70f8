"""The Sanic application factory."""

from __future__ import annotations

import re
import time
import uuid

from sanic import Request, Sanic
from sanic.exceptions import PayloadTooLarge
from sanic.response import HTTPResponse
from sanic_ext.config import PRIORITY as SANIC_EXT_PRIORITY

from api import (
    aml,
    audit,
    auth,
    backups,
    balances,
    change_approvals,
    companies,
    cosigner,
    currencies,
    devices,
    docs,
    errors,
    gas_station,
    groups,
    health,
    policies,
    tags,
    transaction_approvals,
    transactions,
    users,
    vaults,
    wallets,
    webhooks,
    whitelist,
    withdrawals,
    workspaces,
)
from api.contract import document_websockets, order_document
from core import metrics
from core.context import current_request_id
from core.settings import Settings, get_settings

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")

API_DESCRIPTION = """Custody wallet service. Authenticate with POST /api/v2/auth/access-token (a signed
payload), then send `Authorization: Bearer <token>`; wallet-side paths take `X-Workspace-Id`.
Every error body is `{code, error, details}`."""


def create_app(settings: Settings | None = None, *, name: str = "custody") -> Sanic:
    """Build the API. The process that serves it opens the database and the broker
    (``custody.web``); the tests provide both themselves."""
    settings = settings or get_settings()
    # Sanic's own handlers would print every line a second time beside the process's logging
    # (core/logs.py): its loggers propagate to that one instead.
    app = Sanic(name, configure_logging=False)
    app.config.FALLBACK_ERROR_FORMAT = "json"
    # sanic-ext serves /docs/openapi.json; the pages are api/docs.py's (Swagger UI from an
    # installed package: its own pages would load the UI from a CDN).
    app.config.OAS_UI_SWAGGER = False
    app.config.OAS_UI_REDOC = False
    app.config.OAS_UI_DEFAULT = None
    app.config.OAS_URL_PREFIX = "/docs"
    app.config.CORS = False
    # A body over the limit is refused with 413 PAYLOAD_TOO_LARGE before it is read in full.
    app.config.REQUEST_MAX_SIZE = settings.request_max_bytes
    # The test suite records errors an operation answers without declaring them (api.contract).
    app.config.CONTRACT_CHECKS = settings.environment == "test"
    app.ext.openapi.describe("Custody Wallet Service", version="1.0", description=API_DESCRIPTION)
    app.ext.openapi.add_security_scheme("BearerAuth", "http", scheme="bearer")

    for module in (health, auth, devices, companies, workspaces, users, cosigner, backups, currencies, vaults,
                   wallets, balances, transaction_approvals, transactions, webhooks, tags, whitelist, withdrawals,
                   gas_station, groups, change_approvals, aml, policies, audit):
        app.blueprint(module.bp)
    app.blueprint(vaults.listing)
    document_websockets(app)
    order_document(app)
    docs.install(app)
    errors.install(app)
    _add_auto_routes_in_one_go(app)

    @app.on_request(priority=100)  # type: ignore[call-arg]  # sanic's types
    async def assign_request_id(request: Request) -> None:
        incoming = request.headers.get("x-request-id", "")
        request.ctx.request_id = incoming if _REQUEST_ID.match(incoming) else str(uuid.uuid4())
        request.ctx.request_id_token = current_request_id.set(request.ctx.request_id)
        request.ctx.started = time.perf_counter()
        metrics.http_in_progress.inc()

    @app.on_request(priority=90)  # type: ignore[call-arg]  # sanic's types
    async def refuse_large_bodies(request: Request) -> None:
        # Sanic's own server stops reading at REQUEST_MAX_SIZE; behind an ASGI server it does not,
        # so the limit is enforced here too: by the declared length, then by what arrived.
        declared = request.headers.get("content-length", "")
        if (declared.isdigit() and int(declared) > settings.request_max_bytes) or (
                len(request.body or b"") > settings.request_max_bytes):
            raise PayloadTooLarge(f"the request body is larger than {settings.request_max_bytes} bytes")

    @app.on_response(priority=100)
    async def echo_request_id(request: Request, response: HTTPResponse) -> None:
        request_id = getattr(request.ctx, "request_id", None)
        if request_id:
            response.headers["X-Request-Id"] = request_id
        started = getattr(request.ctx, "started", None)
        if started is not None:
            # By route pattern (never the raw path: ids would make a series per object).
            route = request.route.path if request.route is not None else "unmatched"
            metrics.http_in_progress.dec()
            metrics.http_requests.labels(request.method, route, str(response.status)).inc()
            metrics.http_latency.labels(request.method, route).observe(time.perf_counter() - started)

    return app


def _add_auto_routes_in_one_go(app: Sanic) -> None:
    """sanic-ext adds a HEAD route beside every GET one when the server starts (its
    before-server-start listener, priority ``SANIC_EXT_PRIORITY``), after Sanic has marked the app
    started; on a started app each route added re-renders and recompiles the whole signal router
    (``Sanic.amend``), which it had not touched: about 200 times, seconds of CPU at every start of a
    web worker. Around sanic-ext's listeners the app reads as not started, so its routes go in as
    they would before the start, and sanic-ext finalizes the router once; the routes and signals
    are the same."""

    def before_sanic_ext(app: Sanic) -> None:
        app.ctx.started_before_sanic_ext = app.state.is_started
        app.state.is_started = False

    def after_sanic_ext(app: Sanic) -> None:
        app.state.is_started = app.ctx.started_before_sanic_ext

    app.register_listener(before_sanic_ext, "before_server_start", priority=SANIC_EXT_PRIORITY + 1)
    app.register_listener(after_sanic_ext, "before_server_start", priority=SANIC_EXT_PRIORITY - 1)
