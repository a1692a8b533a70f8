"""What every request is held to before its handler runs (api/contract.py): no header the service
reads given twice, X-Workspace-Id only in its canonical form, a body only as JSON, and no key
repeated in a JSON object. Each refusal is a clear 4xx that changes nothing."""

from __future__ import annotations

import uuid

import pytest

from models.tags import Tag
from tests.support.callers import make_caller

TAGS = "/api/v1/tags"


async def test_a_body_that_repeats_a_key_is_refused_naming_the_key(client):
    # Given an ADMIN
    caller = await make_caller(role="ADMIN")
    headers = {**caller.headers(), "Content-Type": "application/json"}
    # When a tag is created with "label" given twice (the last one would have won)
    _, response = await client.post(TAGS, content=b'{"label": "first", "label": "second"}', headers=headers)
    # Then it is a 400 MALFORMED_JSON naming the key, and no tag is made
    assert response.status == 400, response.json
    assert response.json["code"] == "MALFORMED_JSON"
    assert response.json["details"] == {"field": "label", "reason": "is given more than once"}
    # And a key repeated in a nested object is refused too
    body = b'{"vault_ids": [], "tag_ids_to_attach": [], "tag_ids_to_detach": [], "x": {"a": 1, "a": 2}}'
    _, nested = await client.post("/api/v1/vault/tags", content=body, headers=headers)
    assert (nested.status, nested.json["code"], nested.json["details"]["field"]) == (400, "MALFORMED_JSON", "a")
    assert await Tag.all().count() == 0


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "application/json; charset=latin-1", "application/jsonx"])
async def test_a_body_that_is_not_sent_as_json_is_415(client, content_type):
    # Given an ADMIN
    caller = await make_caller(role="ADMIN")
    headers = caller.headers()
    if content_type:
        headers["Content-Type"] = content_type
    # When a valid JSON body is sent under another media type (or none)
    _, response = await client.post(TAGS, content=b'{"label": "plain"}', headers=headers)
    # Then it is 415 UNSUPPORTED_MEDIA_TYPE, and nothing is created
    assert (response.status, response.json["code"]) == (415, "UNSUPPORTED_MEDIA_TYPE"), response.json
    assert await Tag.all().count() == 0
    # And the same body as application/json (with or without charset=utf-8) is taken
    for index, accepted in enumerate(("application/json", "Application/JSON; charset=UTF-8")):
        _, created = await client.post(TAGS, content=f'{{"label": "json-{index}"}}'.encode(),
                                       headers={**caller.headers(), "Content-Type": accepted})
        assert created.status == 201, created.json


@pytest.mark.parametrize("form", ["{%s}", "urn:uuid:%s", "%s-hex", " %s", "%s "])
async def test_the_workspace_header_takes_only_the_canonical_form(client, form):
    # Given a caller of one workspace
    caller = await make_caller(role="ADMIN")
    value = caller.workspace_id
    written = value.replace("-", "") if form == "%s-hex" else form % value
    # When the workspace is named in another form of the same UUID
    _, response = await client.get(TAGS, headers={**caller.headers(workspace=None), "X-Workspace-Id": written})
    # Then it is 400 INVALID_WORKSPACE_ID
    assert (response.status, response.json["code"]) == (400, "INVALID_WORKSPACE_ID"), written
    # And the canonical form is taken, in either case of its hex digits
    for canonical in (value, value.upper()):
        _, ok = await client.get(TAGS, headers={**caller.headers(workspace=None), "X-Workspace-Id": canonical})
        assert ok.status == 200, ok.json


@pytest.mark.parametrize("header", ["Authorization", "X-Workspace-Id", "Content-Type", "X-Request-Id"])
async def test_a_header_given_twice_is_refused(client, header):
    # Given an ADMIN, and a request whose header is given twice (the same value, or another one)
    caller = await make_caller(role="ADMIN")
    values = {"Authorization": f"Bearer {caller.token}", "X-Workspace-Id": caller.workspace_id,
              "Content-Type": "application/json", "X-Request-Id": "first"}
    other = {"Authorization": "Bearer cws_other", "X-Workspace-Id": str(uuid.uuid4()),
             "Content-Type": "text/plain", "X-Request-Id": "second"}
    headers = [(name, value) for name, value in values.items() if name != header]
    headers += [(header, values[header]), (header, other[header])]
    # When it is sent
    _, response = await client.post(TAGS, content=b'{"label": "twice"}', headers=headers)
    # Then it is a 400 DUPLICATE_HEADER naming the header, and nothing is created
    assert (response.status, response.json["code"]) == (400, "DUPLICATE_HEADER"), response.json
    assert response.json["details"] == {"header": header}
    assert await Tag.all().count() == 0


async def test_the_document_declares_the_backup_file_the_websocket_and_optional_bodies_as_they_are(client, database):
    # Given the OpenAPI document as an integrator downloads it
    _, response = await client.get("/docs/openapi.json")
    paths = response.json["paths"]
    # Then the backup file is a binary file, not JSON
    answer = paths["/api/v1/backup/file"]["get"]["responses"]["200"]["content"]
    assert answer == {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}
    # And the change approvals WebSocket has its own summary, its messages and its parameters
    socket = paths["/api/v2/admin/change-approvals/ws"]["get"]
    assert socket["operationId"] == "change_approval_events"
    assert "WebSocket" in socket["summary"] and "partial" not in socket["summary"]
    for message in ('"type": "ready"', '"type": "event"', '"type": "error"', "4401"):
        assert message in socket["description"]
    assert {p["name"] for p in socket["parameters"]} == {"access_token", "after"}
    assert "101" in socket["responses"]
    # And it is listed with the other change approval operations, under their one tag
    approvals = {tag for path, operations in paths.items() if path.startswith("/api/v2/admin/change-approvals")
                 for operation in operations.values() for tag in operation.get("tags", [])}
    assert socket["tags"] == ["change approvals"] and approvals == {"change approvals"}
    # And a body whose every field is optional is not required (release, tag and webhook updates)
    for path, method in (("/api/v1/transactions/{transaction_id}/release", "post"),
                         ("/api/v1/tags/{tag_id}", "patch")):
        assert paths[path][method]["requestBody"]["required"] is False
    # But a body with a required field is
    assert paths["/api/v1/tags"]["post"]["requestBody"]["required"] is True
    # And every operation that takes a body declares 415, and every one declares DUPLICATE_HEADER
    for path, operations in paths.items():
        for method, operation in operations.items():
            if "requestBody" in operation:
                assert "415" in operation["responses"], (method, path)
            if method != "get" or "ws" not in path:
                assert "DUPLICATE_HEADER" in str(operation["responses"].get("400", "")), (method, path)


async def test_a_release_without_a_body_is_read_as_an_empty_one(client):
    # Given an APPROVER and a transaction that does not exist
    caller = await make_caller(role="ADMIN")
    # When a release is sent with no body at all
    _, response = await client.post(f"/api/v1/transactions/{uuid.uuid4()}/release", headers=caller.headers())
    # Then the body is not what is refused: the transaction is not found
    assert (response.status, response.json["code"]) == (404, "TRANSACTION_NOT_FOUND")


async def test_the_document_lists_everything_in_name_order_so_every_process_serves_the_same_bytes(client, database):
    # Given the OpenAPI document (sanic-ext follows the router, whose order came from a set of
    # each blueprint's routes and so changed from one process to the next)
    _, response = await client.get("/docs/openapi.json")
    document = response.json
    # Then its paths, each path's methods, its tags and its components are in name order
    assert list(document["paths"]) == sorted(document["paths"])
    for operations in document["paths"].values():
        assert list(operations) == sorted(operations)
    assert [tag["name"] for tag in document["tags"]] == sorted(tag["name"] for tag in document["tags"])
    assert list(document["components"]) == sorted(document["components"])
    for entries in document["components"].values():
        assert list(entries) == sorted(entries)
