"""Every error leaves as the envelope {code, error, details}, with a request id, and never leaks internals."""

from __future__ import annotations

import re

from tests.support.callers import make_caller


def assert_envelope(response, status: int, code: str) -> dict:
    assert response.status == status, response.json
    body = response.json
    assert set(body) == {"code", "error", "details"}
    assert body["code"] == code and isinstance(body["error"], str) and isinstance(body["details"], dict)
    assert response.headers.get("x-request-id")
    return body


async def test_unknown_path_is_404_envelope(client, database):
    _, response = await client.get("/api/v1/does-not-exist")
    assert_envelope(response, 404, "NOT_FOUND")


async def test_wrong_method_is_405_envelope(client, database):
    _, response = await client.delete("/api/v2/auth/time")
    assert_envelope(response, 405, "METHOD_NOT_ALLOWED")


async def test_malformed_json_is_400_envelope(client, database):
    _, response = await client.post("/api/v2/auth/access-token", content=b"{not json",
                                    headers={"content-type": "application/json"})
    assert_envelope(response, 400, "MALFORMED_JSON")


async def test_json_that_is_not_an_object_is_400(client, database):
    _, response = await client.post("/api/v2/auth/access-token", content=b"[1, 2]",
                                    headers={"content-type": "application/json"})
    assert_envelope(response, 400, "MALFORMED_JSON")


async def test_validation_error_names_the_field(client):
    caller = await make_caller(role="ADMIN")
    _, response = await client.post("/api/v1/users", headers=caller.headers(),
                                    json={"email": "not-an-email", "role": "VIEWER"})
    body = assert_envelope(response, 400, "VALIDATION_ERROR")
    assert body["details"]["field"] == "email" and body["details"]["reason"] == "must be an email address"
    assert body["details"]["errors"] == [{"field": "email", "reason": "must be an email address"}]


async def test_a_blank_query_value_is_checked_not_ignored(client):
    # Given a caller, when a list is asked for with a blank page size (?limit=)
    caller = await make_caller(role="ADMIN")
    _, response = await client.get("/api/v1/vault/accounts?limit=", headers=caller.headers())
    # Then the blank value is refused like any other bad value, naming the parameter
    body = assert_envelope(response, 400, "VALIDATION_ERROR")
    assert body["details"]["field"] == "limit"


async def test_unexpected_exception_is_500_without_internals(client, monkeypatch):
    from domain import workspaces

    caller = await make_caller()

    async def explode(**_):
        raise RuntimeError("password=hunter2 at /srv/secret/path")

    monkeypatch.setattr(workspaces, "list_workspaces", explode)
    _, response = await client.get("/api/v1/workspaces", headers=caller.headers(),
                                   )
    body = assert_envelope(response, 500, "INTERNAL_ERROR")
    assert "hunter2" not in response.text and "Traceback" not in response.text
    assert body["details"]["request_id"] == response.headers["x-request-id"]


async def test_client_request_id_is_echoed(client, database):
    _, response = await client.get("/api/v2/auth/time", headers={"X-Request-Id": "abc-123"})
    assert response.headers["x-request-id"] == "abc-123"


async def test_openapi_document_is_served(client, database):
    _, response = await client.get("/docs/openapi.json")
    assert response.status == 200
    paths = response.json["paths"]
    assert "/api/v2/auth/access-token" in paths and "/api/v1/company" in paths


async def test_a_body_over_the_limit_is_a_413_envelope_for_any_operation(client, settings):
    caller = await make_caller(role="ADMIN")
    oversized = b'{"name": "' + b"x" * settings.request_max_bytes + b'"}'
    for method, path in (("POST", "/api/v1/vault/accounts"), ("GET", "/api/v1/workspace"),
                         ("POST", "/api/v2/auth/access-token")):
        _, response = await client.request(method, path, content=oversized, headers=caller.headers())
        body = assert_envelope(response, 413, "PAYLOAD_TOO_LARGE")
        assert str(settings.request_max_bytes) in body["error"]
    # A body at the limit is read (and judged on its content)
    _, fits = await client.post("/api/v1/vault/accounts", content=b"{" + b" " * (settings.request_max_bytes - 2) + b"}",
                                headers={**caller.headers(), "Content-Type": "application/json"})
    assert fits.status == 400 and fits.json["details"]["field"] == "name"


async def test_a_wrong_method_names_the_allowed_ones(client, database):
    _, response = await client.request("PUT", "/api/v1/vault/accounts")
    assert_envelope(response, 405, "METHOD_NOT_ALLOWED")
    assert {"GET", "POST"} <= {m.strip() for m in response.headers["allow"].split(",")}


async def test_blank_and_repeated_query_values_are_refused_not_ignored(client):
    caller = await make_caller(role="ADMIN")
    for query, field in (("wallets=", "wallets"), ("limit=", "limit"), ("limit=1&limit=2", "limit")):
        path = "/api/v1/asset/balances/currencies" if field == "wallets" else "/api/v1/vault/accounts"
        _, response = await client.get(f"{path}?{query}", headers=caller.headers())
        body = assert_envelope(response, 400, "VALIDATION_ERROR")
        assert body["details"]["field"] == field, query


async def test_the_docs_page_works_offline_its_assets_served_by_the_service(client, database):
    # Given the browsable documentation page
    _, page = await client.get("/docs")
    assert page.status == 200 and "text/html" in page.headers["content-type"]
    # Then everything it loads is served by the service itself: no CDN, no other host
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and all(source.startswith("/docs/") for source in sources), sources
    for source in sources:
        _, asset = await client.get(source)
        assert asset.status == 200 and len(asset.body) > 0, source
    _, script = await client.get("/docs/assets/swagger-ui-bundle.js")
    assert b"SwaggerUIBundle" in script.body and "javascript" in script.headers["content-type"]
    _, init = await client.get("/docs/init.js")
    assert "/docs/openapi.json" in init.text and "http" not in init.text.replace("window.location.origin", "")
    # And nothing outside the Swagger UI files is served from the package folder
    _, other = await client.get("/docs/assets/index.html")
    assert other.status == 404


async def test_each_reported_bad_input_is_a_4xx_envelope(client):
    # The inputs that once answered 500, some without a token (an administrator's API key signs)
    caller = await make_caller(role="ADMIN")
    _, webhook = await client.post("/api/v1/webhooks", headers=caller.headers(),
                                   json={"url": "http://127.0.0.1:9/hook", "event_types": ["transaction.*"]})
    token_request = caller.signed_request()
    cases = [
        *[("POST", "/api/v2/auth/access-token", {"json": {
            "data": token_request["data"].replace('"client_type": "user"', f'"client_type": {shape}'),
            "signature": token_request["signature"]}}, "INVALID_TOKEN_REQUEST") for shape in ('{"a": 1}', "[1, 2]")],
        ("POST", "/api/v1/vault/accounts", {"content": b'{"name": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"},
         "MALFORMED_JSON"),
        ("POST", "/api/v2/auth/access-token", {"json": {"data": "[" * 2000 + "]" * 2000, "signature": "AA=="}},
         "INVALID_TOKEN_REQUEST"),
        *[("POST", path, {"json": body}, "VALIDATION_ERROR") for path, body in (
            ("/api/v1/vault/accounts", {"name": "a\x00b"}),
            ("/api/v1/users", {"email": "a\x00b@acme.test", "role": "VIEWER"}),
            ("/api/v1/users", {"email": "a@acme.test", "role": "VIEWER", "first_name": "x\x00"}),
            ("/api/v1/webhooks", {"url": "https://example.com/", "event_types": ["transaction.*"],
                                  "description": "d\x00"}))],
        *[("GET", f"/api/v1/vault/accounts?{name}={value}", {}, "VALIDATION_ERROR")
          for name in ("offset", "limit") for value in ("18446744073709551616", "9" * 40)],
        ("GET", "/api/v1/company?offset=99999999999999999999999", {}, "VALIDATION_ERROR"),
        ("PUT", f"/api/v1/webhooks/{webhook.json['id']}", {"json": {"status": {}}}, "VALIDATION_ERROR"),
    ]
    for method, path, request, code in cases:
        _, response = await client.request(method, path, headers=caller.headers(), **request)
        body = assert_envelope(response, 400, code)
        assert body["code"] == code, (method, path)
