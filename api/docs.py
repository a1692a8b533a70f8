"""The browsable API documentation at /docs: Swagger UI served from an installed package.

sanic-ext serves the OpenAPI document (/docs/openapi.json) and would load Swagger UI from a
CDN, which fails offline and sends every reader's browser to a third party. Its UI pages are
switched off (api/app.py) and these routes serve Swagger UI's own files from the
``swagger-ui-bundle`` package instead: nothing is fetched from anywhere but this service.

Swagger UI's validator badge is off (``validatorUrl: null``): by default, on any host but
localhost, it sends the document's URL to validator.swagger.io and shows the badge it answers.
The page's Content-Security-Policy lets the browser load and connect to this service only, so
nothing else can slip in either.

The document itself is built once per process, on its first request, and served from those
bytes after that (:func:`serve_the_built_document`): sanic-ext builds it anew from every route's
declarations on every request, about half a second of CPU for 580 KB (a /health answers in under
a millisecond), on an address that needs no token. A few requests a second kept a web worker's
event loop busy with nothing else. The document cannot change while the process runs: its routes
and their declarations are fixed when the app starts.
"""

from __future__ import annotations

import mimetypes

from sanic import Blueprint, Request, Sanic
from sanic.exceptions import NotFound
from sanic.response import HTTPResponse, html, json, raw
from sanic_ext import openapi
from sanic_ext.extensions.openapi.builders import SpecificationBuilder
from swagger_ui_bundle import swagger_ui_path

bp = Blueprint("docs", url_prefix="/docs")

#: Where sanic-ext serves the OpenAPI document (``OAS_URL_PREFIX`` and its ``OAS_URI_TO_JSON``).
DOCUMENT_PATH = "/docs/openapi.json"
#: After the request id is assigned (api.app, priority 100), so the answer carries it and is counted.
_DOCUMENT_PRIORITY = 80

#: The Swagger UI files a page needs; nothing else of the package is served.
ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
                    "favicon-16x16.png", "favicon-32x32.png", "oauth2-redirect.html"})

PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Custody Wallet Service API</title>
    <link rel="stylesheet" type="text/css" href="/docs/assets/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/docs/assets/swagger-ui-standalone-preset.js" charset="UTF-8"></script>
    <script src="/docs/init.js" charset="UTF-8"></script>
  </body>
</html>
"""

INIT = """window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: "/docs/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
    validatorUrl: null,
    oauth2RedirectUrl: window.location.origin + "/docs/assets/oauth2-redirect.html"
  });
};
"""


#: What the page may load and connect to: this service only (Swagger UI sets inline styles).
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")


@openapi.exclude()
async def page(request: Request) -> HTTPResponse:
    return html(PAGE, headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY})


def install(app: Sanic) -> None:
    """Add the page at /docs and /docs/swagger, and the files it loads.

    The page is an app-level route named ``openapi.index``: the name sanic-ext's start-up banner
    looks up for the documentation's address (its own page, switched off, had it).
    """
    app.add_route(page, "/docs", name="openapi.index")
    app.add_route(page, "/docs/swagger", name="openapi.swagger")
    app.blueprint(bp)
    app.register_middleware(serve_the_built_document, "request", priority=_DOCUMENT_PRIORITY)


async def serve_the_built_document(request: Request) -> HTTPResponse | None:
    """Answer ``GET`` (and ``HEAD``) of the OpenAPI document with the bytes built on its first
    request in this process, in place of sanic-ext's handler, which builds it on every request.

    The same builder and the same serialization as sanic-ext's (``json`` of the built
    specification), so the bytes are those its handler sent. Built without an ``await`` in
    between, so two first requests at once never both build it."""
    if request.path != DOCUMENT_PATH or request.method not in ("GET", "HEAD"):
        return None
    built: bytes | None = getattr(request.app.ctx, "openapi_document", None)
    if built is None:
        built = request.app.ctx.openapi_document = json(SpecificationBuilder().build(request.app).serialize()).body
    return raw(built, content_type="application/json")


@bp.get("/init.js")
@openapi.exclude()
async def init_script(request: Request) -> HTTPResponse:
    return raw(INIT, content_type="text/javascript; charset=utf-8")


@bp.get("/assets/<name:str>")
@openapi.exclude()
async def asset(request: Request, name: str) -> HTTPResponse:
    if name not in ASSETS:
        raise NotFound(f"no asset {name}")
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if content_type.startswith("text/") or content_type.endswith("javascript"):
        content_type += "; charset=utf-8"
    return raw((swagger_ui_path / name).read_bytes(), content_type=content_type,
               headers={"Cache-Control": "public, max-age=86400"})
