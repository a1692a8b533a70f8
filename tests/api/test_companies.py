"""Companies: platform staff manage them; members see only their own."""

from __future__ import annotations

import uuid

from core.outbox import Command
from models.companies import Company, CompanyApplication
from tests.support.callers import make_caller


async def test_platform_admin_creates_and_lists_companies_with_defaults(client):
    staff = await make_caller(platform_admin=True)
    for index in range(16):
        _, response = await client.post("/api/v1/company", headers=staff.headers(),
                                        json={"name": f"Client {index}", "email": f"c{index}@x.test"})
        assert response.status == 201
    _, page = await client.get("/api/v1/company", headers=staff.headers())
    # 16 created + the caller's own company; the default page is 15 from offset 0
    assert page.json["total"] == 17 and page.json["offset"] == 0 and len(page.json["companies"]) == 15
    _, second = await client.get("/api/v1/company?limit=15&offset=15", headers=staff.headers())
    assert len(second.json["companies"]) == 2
    first = page.json["companies"][0]
    assert set(first) == {"id", "name", "email", "created_at"}


async def test_member_sees_only_own_company(client):
    alice = await make_caller()
    bob = await make_caller()
    _, listed = await client.get("/api/v1/company", headers=alice.headers())
    assert listed.json["total"] == 1
    own_id = listed.json["companies"][0]["id"]
    _, own = await client.get(f"/api/v1/company/{own_id}", headers=alice.headers())
    assert own.status == 200
    bobs_company = (await client.get("/api/v1/company", headers=bob.headers()))[1].json["companies"][0]["id"]
    _, foreign = await client.get(f"/api/v1/company/{bobs_company}", headers=alice.headers())
    _, unknown = await client.get(f"/api/v1/company/{uuid.uuid4()}", headers=alice.headers())
    assert foreign.status == unknown.status == 404 and foreign.json == unknown.json


async def test_non_staff_cannot_create_company(client):
    admin = await make_caller(role="ADMIN")
    count = await Company.all().count()
    _, response = await client.post("/api/v1/company", headers=admin.headers(), json={"name": "X", "email": "x@x.test"})
    assert response.status == 403 and response.json["code"] == "PERMISSION_DENIED"
    assert await Company.all().count() == count


async def test_platform_admin_creates_workspace_with_network_type(client):
    staff = await make_caller(platform_admin=True)
    company = (await client.post("/api/v1/company", headers=staff.headers(), json={"name": "N", "email": "n@n.test"}))[1].json
    _, bad = await client.post(f"/api/v1/company/{company['id']}/workspaces", headers=staff.headers(),
                               json={"name": "W", "network_type": "devnet"})
    assert bad.status == 400 and bad.json["details"]["field"] == "network_type"
    _, created = await client.post(f"/api/v1/company/{company['id']}/workspaces", headers=staff.headers(),
                                   json={"name": "W", "network_type": "mainnet"})
    assert created.status == 201 and created.json["network_type"] == "mainnet"


async def test_application_is_recorded_and_queued_in_one_transaction(client):
    caller = await make_caller()
    body = {"company_name": "Initech", "country": "US", "email": "peter@initech.test", "first_name": "Peter",
            "job_title": "Engineer", "last_name": "Gibbons"}
    _, response = await client.post("/api/v1/company/application", headers=caller.headers(), json=body)
    assert response.status == 202 and response.json["status"] == "submitted"
    application = await CompanyApplication.get(id=response.json["id"])
    command = await Command.get(actor_name="companies.review_application")
    assert command.payload == {"application_id": str(application.id)}


async def test_incomplete_application_is_400_and_leaves_nothing(client):
    caller = await make_caller()
    _, response = await client.post("/api/v1/company/application", headers=caller.headers(),
                                    json={"company_name": "Initech"})
    assert response.status == 400 and response.json["details"]["field"] == "country"
    assert await CompanyApplication.all().count() == 0 and await Command.all().count() == 0
