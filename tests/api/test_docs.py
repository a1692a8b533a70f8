"""/docs (api/docs.py): Swagger UI asks no other host for anything, not even its validator badge."""

from __future__ import annotations


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
