"""/docs (api/docs.py): Swagger UI asks no other host for anything, not even its validator badge;
the OpenAPI document is built once per process."""

from __future__ import annotations

from typing import Any

from sanic import Sanic
from sanic.response import json
from sanic_ext.extensions.openapi.builders import SpecificationBuilder


async def test_the_docs_page_has_no_validator_badge_and_may_reach_this_service_only(client):
    # Given the documentation page and its start-up script
    _, page = await client.get("/docs")
    _, init = await client.get("/docs/init.js")
    # Then Swagger UI's validator (validator.swagger.io, asked on any host but localhost) is off
    assert page.status == 200 and init.status == 200
    assert "validatorUrl: null" in init.text
    # And the browser is told to load and connect to this service only
    policy = dict(part.strip().split(" ", 1) for part in page.headers["content-security-policy"].split(";"))
    assert policy["connect-src"] == "'self'" and policy["default-src"] == "'self'"
    assert policy["img-src"] == "'self' data:" and policy["script-src"] == "'self'"


async def test_the_openapi_document_is_built_once_per_process_and_served_as_sanic_ext_builds_it(client, app,
                                                                                                monkeypatch):
    # Given sanic-ext's document builder, its builds counted (it built the document on every request)
    builds = []
    build = SpecificationBuilder.build

    def counted(self: SpecificationBuilder, app: Sanic) -> Any:
        builds.append(app)
        return build(self, app)

    monkeypatch.setattr(SpecificationBuilder, "build", counted)
    # When the document is fetched ten times, and its headers once more
    answers = [(await client.get("/docs/openapi.json", headers={"X-Request-Id": f"doc-{n}"}))[1] for n in range(10)]
    _, head = await client.request("HEAD", "/docs/openapi.json")
    # Then it was built at most once (not at all when an earlier test of this process fetched it)
    assert len(builds) <= 1
    # And every answer is the same JSON document, with its request id, as sanic-ext's handler sends it
    expected = json(build(SpecificationBuilder(), app).serialize()).body
    for n, answer in enumerate(answers):
        assert (answer.status, answer.headers["content-type"]) == (200, "application/json")
        assert answer.body == expected and answer.headers["x-request-id"] == f"doc-{n}"
    assert "/api/v1/transaction" in answers[0].json["paths"]
    assert head.status == 200 and head.headers["content-type"] == "application/json"
