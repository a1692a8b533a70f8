"""The issue's "done means": an ADMIN's invitation waits for a group of two approvers voting from
their paired devices, is approved and executes; the WebSocket and push events are observed.

Runs through the in-process app (the same routes, middleware and handlers as ``custody web``),
the real worker on the real Redis broker, and the real PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from models.change_approvals import PushNotification
from models.users import Invitation
from tests.support.approvals import make_person, make_scene, set_rule

GROUP = "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP"


class AsgiWebSocket:
    """A WebSocket client speaking ASGI to the started app (httpx's transport has no WebSocket)."""

    def __init__(self, app: Any, path: str, query: str) -> None:
        self._to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.scope = {"type": "websocket", "asgi": {"version": "3.0"}, "scheme": "ws", "http_version": "1.1",
                      "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
                      "headers": [(b"host", b"testserver")], "subprotocols": [], "client": ("127.0.0.1", 50000),
                      "server": ("testserver", 80)}
        self._task = asyncio.create_task(app(self.scope, self._to_app.get, self._from_app.put))

    async def connect(self) -> None:
        await self._to_app.put({"type": "websocket.connect"})
        accepted = await asyncio.wait_for(self._from_app.get(), 10)
        assert accepted["type"] == "websocket.accept", accepted

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        message = await asyncio.wait_for(self._from_app.get(), timeout)
        assert message["type"] == "websocket.send", message
        return json.loads(message["text"])

    async def close(self) -> None:
        await self._to_app.put({"type": "websocket.disconnect", "code": 1000})
        self._task.cancel()
        try:
            await self._task
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - the app's end of a closed socket
            pass


async def _events_until(ws: AsgiWebSocket, last: str) -> list[dict[str, Any]]:
    seen = []
    while True:
        message = await ws.receive()
        seen.append(message)
        if message.get("event") == last:
            return seen


async def test_an_admins_invitation_waits_for_a_group_of_two_then_executes(client, app, worker):
    # Given a workspace with an owner, an ADMIN API user, and two approvers with paired devices
    scene = await make_scene(admins=0)
    first = await make_person(workspace_id=scene.workspace_id, role="APPROVER")
    second = await make_person(workspace_id=scene.workspace_id, role="SIGNER")
    # And a group of the two with threshold 2; Manage groups on (owner mode) so group mode may be used
    _, group = await client.post("/api/v1/groups", headers=scene.admin_api.headers(),
                                 json={"name": "Two approvers", "threshold": 2,
                                       "user_uuids": [first.person_id, second.person_id]})
    assert group.status == 201
    assert sorted(group.json["active_member_uuids"]) == sorted([first.person_id, second.person_id])
    await set_rule(scene.workspace_id, "manage_groups")
    _, rule = await client.put(f"/api/v2/admin/tenants/{scene.workspace_id}/quorum/actions/manage_users",
                               headers=scene.owner.headers(workspace=None),
                               json={"enabled": True, "mode": GROUP, "group_uuid": group.json["group_uuid"]})
    assert rule.status == 200 and rule.json["rule"]["reachable"], rule.json
    # And the first approver's device and the initiator listen on the WebSocket
    approver_ws = AsgiWebSocket(app, "/api/v2/admin/change-approvals/ws", f"access_token={first.token}")
    initiator_ws = AsgiWebSocket(app, "/api/v2/admin/change-approvals/ws", f"access_token={scene.admin_api.token}")
    try:
        for ws in (approver_ws, initiator_ws):
            await ws.connect()
            assert (await ws.receive())["type"] == "ready"

        # When the ADMIN invites someone: 403 QUORUM_APPROVAL_REQUIRED, nothing applied
        _, gated = await client.post("/api/v1/users", headers=scene.admin_api.headers(),
                                     json={"email": "carol@acme.test", "role": "SIGNER"})
        assert gated.status == 403 and gated.json["code"] == "QUORUM_APPROVAL_REQUIRED"
        assert gated.json["details"]["mode"] == GROUP
        request_id = gated.json["details"]["approval_request_uuid"]
        assert await Invitation.filter(email="carol@acme.test").count() == 0
        await worker.settle()
        # Then both approvers' devices got a push asking for their vote
        asked = await PushNotification.filter(request_id=request_id, event="change_approval.created")
        assert sorted(str(p.user_id) for p in asked) == sorted([first.person_id, second.person_id])

        # When the first approves from the paired device, the request still waits
        path = f"/api/v2/admin/tenants/{scene.workspace_id}/change-approvals/{request_id}"
        _, one = await client.post(f"{path}/approve", headers=first.headers(workspace=None))
        assert one.status == 200 and one.json["request"]["status"] == "PENDING"
        # And when the second approves, it is APPROVED and the worker applies it
        _, two = await client.post(f"{path}/approve", headers=second.headers(workspace=None))
        assert two.status == 200 and two.json["request"]["status"] == "APPROVED"
        await worker.settle()
        _, card = await client.get(path, headers=scene.admin_api.headers(workspace=None))
        assert card.json["request"]["status"] == "EXECUTED"
        assert card.json["request"]["sets"][0]["status"] == "APPROVED"
        assert await Invitation.filter(email="carol@acme.test", status="pending").count() == 1

        # And both WebSocket listeners saw the whole progress, in order
        for ws in (approver_ws, initiator_ws):
            seen = await _events_until(ws, "change_approval.executed")
            names = [m["event"] for m in seen if m.get("request_uuid") == request_id]
            assert names == ["change_approval.created", "change_approval.voted", "change_approval.voted",
                             "change_approval.approved", "change_approval.executed"]
        # And the approvers' devices were told it executed
        done = await PushNotification.filter(request_id=request_id, event="change_approval.executed")
        assert {str(p.user_id) for p in done} == {first.person_id, second.person_id}
    finally:
        await approver_ws.close()
        await initiator_ws.close()


async def test_websocket_refuses_a_bad_token(app, client):
    # Given a WebSocket opened with a token that does not exist
    ws = AsgiWebSocket(app, "/api/v2/admin/change-approvals/ws", "access_token=cws_nope")
    try:
        await ws.connect()
        # Then it is told why, and nothing else
        assert await ws.receive() == {"type": "error", "code": "INVALID_TOKEN",
                                      "error": "the access token is invalid or expired"}
        await asyncio.wait_for(asyncio.shield(ws._task), 5)
    finally:
        await ws.close()
