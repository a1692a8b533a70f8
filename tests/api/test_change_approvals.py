"""Change approvals through the API: the gate, every row of the state table, every approval error
code, the settings rules and the admin paths (docs/change-approvals.md)."""

from __future__ import annotations

import uuid
from datetime import timedelta

from core.settings import configure, get_settings
from core.unit_of_work import unit_of_work
from domain.change_approvals import requests
from models.audit import AuditEntry
from models.change_approvals import ChangeRequest, PushNotification
from models.users import Invitation, WorkspaceMember
from tests.support.approvals import make_scene, set_rule
from tests.support.callers import make_caller

OWNER_ONLY = "QUORUM_APPROVAL_MODE_OWNER_ONLY"
ADMIN_QUORUM = "QUORUM_APPROVAL_MODE_ADMIN_QUORUM"
GROUP = "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP"


async def _invite(client, caller, email="new@acme.test", role="VIEWER"):
    _, response = await client.post("/api/v1/users", headers=caller.headers(), json={"email": email, "role": role})
    return response


async def _card(client, scene, caller, request_id):
    _, response = await client.get(scene.path(f"/change-approvals/{request_id}"), headers=caller.headers(workspace=None))
    return response


async def _vote(client, scene, caller, request_id, verb="approve"):
    _, response = await client.post(scene.path(f"/change-approvals/{request_id}/{verb}"),
                                    headers=caller.headers(workspace=None))
    return response


async def _apply_all() -> list[str | None]:
    """What the apply actor does for every APPROVED request (the worker's job, run here directly)."""
    results = []
    for request in await ChangeRequest.filter(status="APPROVED"):
        async with unit_of_work():
            results.append(await requests.apply_request(request_id=request.id))
    return results


async def test_rule_off_by_default_the_change_applies(client):
    # Given a workspace without any rule
    scene = await make_scene()
    # When an administrator invites someone
    response = await _invite(client, scene.admin_api)
    # Then it is applied at once
    assert response.status == 201
    assert await Invitation.filter(email="new@acme.test").count() == 1


async def test_gated_change_answers_403_applies_nothing_and_repeating_gives_the_same_request(client):
    # Given Manage users needs the owner's confirmation
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    # When an administrator invites someone
    first = await _invite(client, scene.admin_api)
    # Then the answer is 403 QUORUM_APPROVAL_REQUIRED with the request's details, and no invitation exists
    assert first.status == 403 and first.json["code"] == "QUORUM_APPROVAL_REQUIRED"
    details = first.json["details"]
    assert details["action"] == "manage_users" and details["operation"] == "create"
    assert details["mode"] == OWNER_ONLY and details["expires_at"].endswith("Z")
    assert await Invitation.filter(email="new@acme.test").count() == 0
    # And repeating the same change returns the same request (state: PENDING -> PENDING)
    second = await _invite(client, scene.admin_api)
    assert second.status == 403 and second.json["details"]["approval_request_uuid"] == details["approval_request_uuid"]
    assert await ChangeRequest.filter(workspace_id=scene.workspace_id).count() == 1
    # And the owner (the approver) was told by push, and the request is audited
    pushes = await PushNotification.filter(user_id=scene.owner.person_id, event="change_approval.created")
    assert len(pushes) == 0  # pushes are delivered by the actor; the command is in the outbox
    assert await AuditEntry.filter(action="change_approval.requested").count() == 1


async def test_owner_approves_alone_then_the_change_executes(client):
    # Given a pending invitation in owner mode
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    # When the owner approves from the paired device
    approved = await _vote(client, scene, scene.owner, request_id)
    # Then the request is APPROVED and the card shows the owner's vote
    assert approved.status == 200, approved.json
    card = approved.json["request"]
    assert card["status"] == "APPROVED"
    assert card["sets"][0]["approvers"][0]["status"] == "APPROVED" and card["sets"][0]["approvers"][0]["is_me"]
    # And the apply actor executes it (APPROVED -> EXECUTED)
    assert await _apply_all() == ["EXECUTED"]
    assert await Invitation.filter(email="new@acme.test").count() == 1
    assert (await _card(client, scene, scene.owner, request_id)).json["request"]["status"] == "EXECUTED"


async def test_approved_change_that_cannot_apply_fails_with_the_reason(client):
    # Given a pending role change of an administrator to EDITOR
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    target = scene.admins[0].person_id
    _, gated = await client.put(f"/api/v1/users/{target}/role", headers=scene.admin_api.headers(),
                                json={"role": "EDITOR"})
    request_id = gated.json["details"]["approval_request_uuid"]
    # And the display snapshot names the user and the current role
    card = (await _card(client, scene, scene.owner, request_id)).json["request"]
    assert card["display"]["current_role"] == "ADMIN" and card["display"]["user"]["user_uuid"] == target
    # When the user gets that role meanwhile, and the owner approves
    await WorkspaceMember.filter(workspace_id=scene.workspace_id, user_id=target).update(role="EDITOR")
    await _vote(client, scene, scene.owner, request_id)
    # Then the request ends FAILED with the reason on the card
    assert await _apply_all() == ["FAILED"]
    card = (await _card(client, scene, scene.owner, request_id)).json["request"]
    assert card["status"] == "FAILED" and card["failure_code"] == "USER_ALREADY_IN_ROLE" and card["failure_reason"]


async def test_initiator_rights_are_rechecked_for_user_changes(client):
    # Given an administrator's pending invitation
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    # When the administrator becomes a VIEWER before the owner approves
    await WorkspaceMember.filter(workspace_id=scene.workspace_id, user_id=scene.admin_api.user_id).update(
        role="VIEWER")
    await _vote(client, scene, scene.owner, request_id)
    # Then applying fails: the initiator lost the right
    assert await _apply_all() == ["FAILED"]
    assert await Invitation.filter(email="new@acme.test").count() == 0


async def test_a_change_that_changes_nothing_executes_at_once(client):
    # Given Manage users is gated
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    target = scene.admins[0].person_id
    # When an administrator sets a member's current role again
    _, response = await client.put(f"/api/v1/users/{target}/role", headers=scene.admin_api.headers(),
                                   json={"role": "ADMIN"})
    # Then it is executed at once (nothing to change) and no request exists
    assert response.status == 200
    assert await ChangeRequest.all().count() == 0


async def test_no_eligible_approvers_is_409(client):
    # Given an administrator quorum of 1 whose only administrators are later removed from the pool
    scene = await make_scene(admins=1)
    await set_rule(scene.workspace_id, "manage_users", mode=ADMIN_QUORUM)
    await WorkspaceMember.filter(workspace_id=scene.workspace_id, user_id=scene.admins[0].person_id).update(
        role="VIEWER")
    # When an administrator invites someone
    response = await _invite(client, scene.admin_api)
    # Then 409 QUORUM_NO_ELIGIBLE_APPROVERS and nothing is saved
    assert response.status == 409 and response.json["code"] == "QUORUM_NO_ELIGIBLE_APPROVERS"
    assert await ChangeRequest.all().count() == 0 and await Invitation.filter(email="new@acme.test").count() == 0


async def test_engine_unavailable_is_503_and_saves_nothing(client):
    # Given Manage users is gated and the engine is switched off
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    previous = get_settings()
    configure(previous.model_copy(update={"change_approvals_available": False}))
    try:
        response = await _invite(client, scene.admin_api)
    finally:
        configure(previous)
    # Then 503 CHANGE_APPROVAL_UNAVAILABLE, and neither the change nor a request is saved
    assert response.status == 503 and response.json["code"] == "CHANGE_APPROVAL_UNAVAILABLE"
    assert await ChangeRequest.all().count() == 0 and await Invitation.filter(email="new@acme.test").count() == 0


async def _publish(client, scene, rules):
    _, response = await client.put(scene.path("/policies/transfer"), headers=scene.admin_api.headers(workspace=None),
                                   json={"rules": rules, "no_match_action": "allow"})
    return response


async def test_policy_publish_waits_for_the_owner_then_the_worker_publishes_it(client):
    # Given Manage policies needs the owner's confirmation
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_policies")
    rules = [{"name": "big ones", "action": "block"}]
    # When an administrator publishes a Transfer policy
    gated = await _publish(client, scene, rules)
    # Then 403 QUORUM_APPROVAL_REQUIRED names the action and operation, and no version exists
    assert gated.status == 403 and gated.json["code"] == "QUORUM_APPROVAL_REQUIRED", gated.json
    assert gated.json["details"]["action"] == "manage_policies" and gated.json["details"]["operation"] == "update"
    _, versions = await client.get(scene.path("/policies/transfer/versions"), headers=scene.admin_api.headers(workspace=None))
    assert versions.json["total"] == 0
    # And the card shows the policy type's display name
    request_id = gated.json["details"]["approval_request_uuid"]
    card = (await _card(client, scene, scene.owner, request_id)).json["request"]
    assert card["display"]["policy_type_name"] == "Transfer policy"
    # When the owner approves and the worker applies it
    assert (await _vote(client, scene, scene.owner, request_id)).status == 200
    assert await _apply_all() == ["EXECUTED"]
    # Then version 1 holds the requested rules
    _, versions = await client.get(scene.path("/policies/transfer/versions"), headers=scene.admin_api.headers(workspace=None))
    assert versions.json["total"] == 1 and versions.json["items"][0]["rules"][0]["name"] == "big ones"


async def test_policy_change_fails_when_the_policy_changed_after_the_request(client):
    # Given a pending publish of the Transfer policy
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_policies")
    gated = await _publish(client, scene, [{"name": "a", "action": "allow"}])
    request_id = gated.json["details"]["approval_request_uuid"]
    # And another version is published meanwhile (a platform-side change bypassing the gate)
    from domain.policies import service as policy_service
    async with unit_of_work():
        await policy_service.publish_policy(principal=None, workspace_id=uuid.UUID(scene.workspace_id),
                                            policy_type="transfer", rules=[{"name": "b", "action": "allow"}])
    # When the owner approves
    await _vote(client, scene, scene.owner, request_id)
    # Then the request ends FAILED: the policy changed after the request (spec state table)
    assert await _apply_all() == ["FAILED"]
    card = (await _card(client, scene, scene.owner, request_id)).json["request"]
    assert card["status"] == "FAILED" and card["failure_code"] == "POLICY_CHANGED"


async def test_policy_rollback_is_gated_with_the_version_on_the_card(client):
    # Given two published versions and Manage policies gated afterwards
    scene = await make_scene()
    assert (await _publish(client, scene, [{"name": "one", "action": "allow"}])).status == 201
    assert (await _publish(client, scene, [{"name": "two", "action": "allow"}])).status == 201
    await set_rule(scene.workspace_id, "manage_policies")
    # When an administrator rolls back to version 1
    _, gated = await client.post(scene.path("/policies/transfer/rollback"),
                                 headers=scene.admin_api.headers(workspace=None), json={"version": 1})
    # Then it waits, and the card shows the type and the version's publication time
    assert gated.status == 403 and gated.json["details"]["operation"] == "rollback", gated.json
    card = (await _card(client, scene, scene.owner, gated.json["details"]["approval_request_uuid"])).json["request"]
    assert card["display"]["policy_type_name"] == "Transfer policy" and card["display"]["version_published_at"]
    # When approved and applied, Then version 3 copies version 1
    await _vote(client, scene, scene.owner, gated.json["details"]["approval_request_uuid"])
    assert await _apply_all() == ["EXECUTED"]
    _, latest = await client.get(scene.path("/policies/transfer/versions/3"), headers=scene.admin_api.headers(workspace=None))
    assert latest.json["rules"][0]["name"] == "one" and latest.json["copied_from_version"] == 1


async def test_reject_vote_that_makes_the_threshold_unreachable_rejects(client):
    # Given an administrator quorum of 2 out of 2
    scene = await make_scene(admins=2)
    async with unit_of_work():
        from domain.change_approvals import rules
        await rules.apply_threshold(workspace_id=uuid.UUID(scene.workspace_id), threshold=2, actor_id=None)
    await set_rule(scene.workspace_id, "manage_users", mode=ADMIN_QUORUM)
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    # When one administrator approves, the request is still PENDING
    first = await _vote(client, scene, scene.admins[0], request_id)
    assert first.json["request"]["status"] == "PENDING"
    # And when the other rejects, 2 can no longer be reached: REJECTED
    second = await _vote(client, scene, scene.admins[1], request_id, "reject")
    assert second.status == 200 and second.json["request"]["status"] == "REJECTED"
    assert await AuditEntry.filter(action="change_approval.rejected").count() == 1
    # And a vote on the closed request is 409 CHANGE_REQUEST_ALREADY_FINALIZED
    late = await _vote(client, scene, scene.admins[0], request_id, "reject")
    assert late.status == 409 and late.json["code"] == "CHANGE_REQUEST_ALREADY_FINALIZED"


async def test_requests_expire_after_72_hours(client, frozen_clock):
    # Given a pending request
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    # When 71 hours pass, it is still pending; after 72 it expires (the scheduler's sweep)
    frozen_clock.advance(hours=71)
    async with unit_of_work():
        assert await requests.expire_due() == 0
    frozen_clock.advance(hours=1)
    async with unit_of_work():
        assert await requests.expire_due() == 1
    await scene.owner.login()
    card = (await _card(client, scene, scene.owner, request_id)).json["request"]
    assert card["status"] == "EXPIRED" and card["sets"][0]["status"] == "EXPIRED"
    # And a vote on it is 409 CHANGE_REQUEST_ALREADY_FINALIZED
    late = await _vote(client, scene, scene.owner, request_id)
    assert late.status == 409 and late.json["code"] == "CHANGE_REQUEST_ALREADY_FINALIZED"


async def test_cancel_by_the_initiator_and_cancel_again(client):
    # Given a pending request in administrator quorum 2 where one administrator approved
    scene = await make_scene(admins=2)
    async with unit_of_work():
        from domain.change_approvals import rules
        await rules.apply_threshold(workspace_id=uuid.UUID(scene.workspace_id), threshold=2, actor_id=None)
    await set_rule(scene.workspace_id, "manage_users", mode=ADMIN_QUORUM)
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    await _vote(client, scene, scene.admins[0], request_id)
    # When someone else cancels: 403 CHANGE_REQUEST_CANCEL_NOT_ALLOWED
    _, other = await client.post(scene.path(f"/change-approvals/{request_id}/cancel"),
                                 headers=scene.owner.headers(workspace=None))
    assert other.status == 403 and other.json["code"] == "CHANGE_REQUEST_CANCEL_NOT_ALLOWED"
    # When the initiator cancels
    _, cancelled = await client.post(scene.path(f"/change-approvals/{request_id}/cancel"),
                                     headers=scene.admin_api.headers(workspace=None))
    # Then CANCELLED: the open set and the unsubmitted vote are cancelled, the submitted vote stays
    assert cancelled.status == 200
    card = cancelled.json["request"]
    assert card["status"] == "CANCELLED" and card["sets"][0]["status"] == "CANCELLED"
    assert sorted(a["status"] for a in card["sets"][0]["approvers"]) == ["APPROVED", "CANCELLED"]
    # And cancelling again answers 200 with the same card
    _, again = await client.post(scene.path(f"/change-approvals/{request_id}/cancel"),
                                 headers=scene.admin_api.headers(workspace=None))
    assert again.status == 200 and again.json == cancelled.json


async def test_vote_errors(client):
    scene = await make_scene(admins=2)
    async with unit_of_work():
        from domain.change_approvals import rules
        await rules.apply_threshold(workspace_id=uuid.UUID(scene.workspace_id), threshold=2, actor_id=None)
    await set_rule(scene.workspace_id, "manage_users", mode=ADMIN_QUORUM)
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    # Not from a device: 403 CHANGE_VOTE_DEVICE_REQUIRED
    not_device = await _vote(client, scene, scene.admin_api, request_id)
    assert not_device.status == 403 and not_device.json["code"] == "CHANGE_VOTE_DEVICE_REQUIRED"
    # Not an approver (the owner is not in the administrator quorum): 403 CHANGE_VOTE_NOT_ALLOWED
    owner = await _vote(client, scene, scene.owner, request_id)
    assert owner.status == 403 and owner.json["code"] == "CHANGE_VOTE_NOT_ALLOWED"
    # The same vote again changes nothing; the opposite one is 409 CHANGE_VOTE_CONFLICT
    once = await _vote(client, scene, scene.admins[0], request_id)
    twice = await _vote(client, scene, scene.admins[0], request_id)
    assert once.status == twice.status == 200 and once.json == twice.json
    opposite = await _vote(client, scene, scene.admins[0], request_id, "reject")
    assert opposite.status == 409 and opposite.json["code"] == "CHANGE_VOTE_CONFLICT"
    # An unknown request, or one of another workspace: 404 CHANGE_REQUEST_NOT_FOUND
    missing = await _vote(client, scene, scene.admins[0], uuid.uuid4())
    assert missing.status == 404 and missing.json["code"] == "CHANGE_REQUEST_NOT_FOUND"
    assert (await _card(client, scene, scene.admins[0], uuid.uuid4())).json["code"] == "CHANGE_REQUEST_NOT_FOUND"


async def test_platform_admin_bypasses_and_platform_support_does_not(client):
    scene = await make_scene()
    await set_rule(scene.workspace_id, "manage_users")
    platform_admin = await make_caller(role="ADMIN", workspace_id=scene.workspace_id, platform_admin=True)
    # A PLATFORM_ADMIN's change needs no approval
    assert (await _invite(client, platform_admin, email="a@acme.test")).status == 201
    # A PLATFORM_SUPPORT's does
    support = await make_caller(role="ADMIN", workspace_id=scene.workspace_id)
    await _set_platform_role(support.user_id, "PLATFORM_SUPPORT")
    await support.login()
    response = await _invite(client, support, email="b@acme.test")
    assert response.status == 403 and response.json["code"] == "QUORUM_APPROVAL_REQUIRED"


async def _set_platform_role(user_id: str, role: str) -> None:
    from models.users import User

    await User.filter(id=user_id).update(platform_role=role)


# --- settings ----------------------------------------------------------------------------------------


async def test_settings_rules(client):
    scene = await make_scene(admins=1)
    owner, admin = scene.owner, scene.admin_api
    put = scene.path("/quorum/actions/manage_users")
    # An administrator cannot change settings while Manage approvals is off
    _, refused = await client.put(put, headers=admin.headers(workspace=None), json={"enabled": True})
    assert refused.status == 403 and refused.json["code"] == "QUORUM_CHANGE_REQUESTS_DISABLED"
    # The owner switches a rule on at once
    _, on = await client.put(put, headers=owner.headers(workspace=None), json={"enabled": True, "mode": ADMIN_QUORUM})
    assert on.status == 200 and on.json["rule"]["enabled"] and on.json["rule"]["reachable"]
    # The administrator threshold cannot exceed the number of administrators while a quorum rule is on
    _, too_high = await client.put(scene.path("/quorum/threshold"), headers=owner.headers(workspace=None), json={"threshold": 2})
    assert too_high.status == 409 and too_high.json["code"] == "QUORUM_NO_ELIGIBLE_APPROVERS"
    # Group mode needs Manage groups approval on
    _, group = await client.post("/api/v1/groups", headers=admin.headers(),
                                 json={"name": "Approvers", "threshold": 2, "user_uuids": [scene.admins[0].person_id]})
    assert group.status == 201, group.json
    group_id = group.json["group_uuid"]
    _, disabled = await client.put(scene.path("/quorum/actions/manage_tags"), headers=owner.headers(workspace=None),
                                   json={"enabled": True, "mode": GROUP, "group_uuid": group_id})
    assert disabled.status == 409 and disabled.json["code"] == "QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED"
    # A rule whose group cannot reach its threshold (1 member, threshold 2) cannot be switched on
    _, unreachable = await client.put(scene.path("/quorum/actions/manage_groups"), headers=owner.headers(workspace=None),
                                      json={"enabled": True, "mode": GROUP, "group_uuid": group_id})
    assert unreachable.status == 409 and unreachable.json["code"] == "QUORUM_NO_ELIGIBLE_APPROVERS"
    # Manage groups itself can be switched on in group mode (with a reachable group)
    async with unit_of_work():
        from domain.change_approvals import rules
        await rules.apply_action_setting(workspace_id=uuid.UUID(scene.workspace_id), payload={
            "action_key": "manage_groups", "enabled": True, "mode": OWNER_ONLY, "group_id": None,
            "owner_confirmation": False}, actor_id=None)
    from models.groups import Group
    await Group.filter(id=group_id).update(threshold=1)
    _, tags_group = await client.put(scene.path("/quorum/actions/manage_tags"), headers=owner.headers(workspace=None),
                                     json={"enabled": True, "mode": GROUP, "group_uuid": group_id})
    assert tags_group.status == 200, tags_group.json
    # Switching Manage groups off while a group-mode rule is on: IN_USE with the rules' keys
    _, in_use = await client.put(scene.path("/quorum/actions/manage_groups"), headers=owner.headers(workspace=None),
                                 json={"enabled": False})
    assert in_use.status == 409 and in_use.json["code"] == "QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE"
    assert in_use.json["details"]["action_keys"] == ["manage_tags"]


async def test_settings_requests_while_manage_approvals_is_on(client):
    scene = await make_scene(admins=1)
    owner, admin = scene.owner, scene.admin_api
    await set_rule(scene.workspace_id, "manage_approvals")
    # An administrator's proposal becomes a request the owner confirms
    _, proposed = await client.put(scene.path("/quorum/actions/manage_users"), headers=admin.headers(workspace=None),
                                   json={"enabled": True})
    assert proposed.status == 403 and proposed.json["code"] == "QUORUM_APPROVAL_REQUIRED"
    assert proposed.json["details"]["mode"] == OWNER_ONLY and proposed.json["details"]["operation"] == "action_setting"
    request_id = proposed.json["details"]["approval_request_uuid"]
    card = (await _card(client, scene, owner, request_id)).json["request"]
    assert card["display"] == {"action_display_name": "Manage users", "group_name": None}
    # The owner's own change is a request too, which the owner confirms alone
    _, own = await client.put(scene.path("/quorum/threshold"), headers=owner.headers(workspace=None), json={"threshold": 1})
    assert own.status == 200  # the current value: a change of nothing executes at once
    # Switching Manage approvals off (confirmed by the owner) cancels pending settings requests
    _, off = await client.put(scene.path("/quorum/actions/manage_approvals"), headers=owner.headers(workspace=None),
                              json={"enabled": False})
    off_id = off.json["details"]["approval_request_uuid"]
    await _vote(client, scene, owner, off_id)
    assert await _apply_all() == ["EXECUTED"]
    assert (await _card(client, scene, owner, request_id)).json["request"]["status"] == "CANCELLED"


# --- admin paths ---------------------------------------------------------------------------------------


async def test_lists_card_settings_actions_and_gated_actions(client):
    scene = await make_scene(admins=1)
    await set_rule(scene.workspace_id, "manage_users")
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    # PENDING_MY_VOTE of the owner's device, INITIATED_BY_ME of the initiator, ALL for VIEW_CHANGE_APPROVALS
    _, mine = await client.get(scene.path("/change-approvals?scope=PENDING_MY_VOTE"), headers=scene.owner.headers(workspace=None))
    assert [i["request_uuid"] for i in mine.json["items"]] == [request_id] and not mine.json["items"][0]["initiated_by_me"]
    _, initiated = await client.get(scene.path("/change-approvals?scope=INITIATED_BY_ME"),
                                    headers=scene.admin_api.headers(workspace=None))
    assert initiated.json["total"] == 1 and initiated.json["items"][0]["initiated_by_me"]
    _, everything = await client.get("/api/v2/admin/change-approvals?scope=ALL", headers=scene.admin_api.headers(workspace=None))
    assert everything.json["items"][0]["tenant_uuid"] == scene.workspace_id
    # A device does not get ALL; a VIEWER (no VIEW_CHANGE_APPROVALS anywhere) neither
    _, device_all = await client.get(scene.path("/change-approvals?scope=ALL"), headers=scene.owner.headers(workspace=None))
    assert device_all.status == 403
    viewer = await make_caller(role="VIEWER", workspace_id=scene.workspace_id)
    _, viewer_all = await client.get("/api/v2/admin/change-approvals?scope=ALL", headers=viewer.headers(workspace=None))
    assert viewer_all.status == 403
    # A non-participant without VIEW_CHANGE_APPROVALS does not see the card
    assert (await _card(client, scene, viewer, request_id)).status == 404
    # The card for the initiator
    card = (await _card(client, scene, scene.admin_api, request_id)).json["request"]
    assert card["initiated_by_me"] and card["initiator"]["user_type"] == "api_user"
    assert card["tenant_uuid"] == scene.workspace_id and card["action_display_name"] == "Manage users"
    assert "display" not in card  # an invitation has no display snapshot
    assert card["sets"][0]["approvers"][0]["user"]["user_uuid"] == scene.owner.person_id
    assert not card["sets"][0]["approvers"][0]["is_me"]
    # The settings
    _, settings = await client.get(scene.path("/quorum"), headers=scene.admin_api.headers(workspace=None))
    assert settings.status == 200
    body = settings.json
    assert [p["user_uuid"] for p in body["owner_approvers"]] == [scene.owner.person_id]
    assert [p["user_uuid"] for p in body["admin_quorum_approvers"]] == [scene.admins[0].person_id]
    users_rule = next(r for r in body["rules"] if r["action"] == "manage_users")
    assert users_rule["enabled"] and users_rule["reachable"] and users_rule["approver_sets"][0]["external_id"] == "owner"
    # The actions, with the fixed mode of Manage approvals
    _, actions = await client.get(scene.path("/quorum/actions"), headers=scene.admin_api.headers(workspace=None))
    fixed = {a["key"]: a["fixed_mode"] for a in actions.json["actions"]}
    assert fixed["manage_approvals"] == OWNER_ONLY and fixed["manage_users"] is None and len(fixed) == 7
    # Gated actions per caller; a device gets 403
    _, gated = await client.get(scene.path("/quorum/gated-actions"), headers=viewer.headers(workspace=None))
    needs = {a["key"]: a["requires_approval"] for a in gated.json["actions"]}
    assert needs["manage_users"] is True and needs["manage_tags"] is False
    _, from_device = await client.get(scene.path("/quorum/gated-actions"), headers=scene.owner.headers(workspace=None))
    assert from_device.status == 403


async def test_whitelist_tags_one_time_and_groups_are_gated(client):
    scene = await make_scene(admins=1)
    for action in ("manage_tags", "one_time_address_transfers", "add_whitelist_address", "manage_groups"):
        await set_rule(scene.workspace_id, action)
    h = scene.admin_api.headers()
    _, tag = await client.post("/api/v1/tags", headers=h, json={"label": "vip"})
    _, one_time = await client.put("/api/v1/whitelist/settings", headers=h, json={"one_time_addresses_allowed": True})
    _, same = await client.put("/api/v1/whitelist/settings", headers=h, json={"one_time_addresses_allowed": False})
    _, group = await client.post("/api/v1/groups", headers=h, json={"name": "G", "threshold": 1})
    assert [tag.status, one_time.status, group.status] == [403, 403, 403]
    assert same.status == 200  # forbidding what is forbidden changes nothing
    assert {tag.json["details"]["action"], one_time.json["details"]["action"], group.json["details"]["action"]} == {
        "manage_tags", "one_time_address_transfers", "manage_groups"}
    # The owner approves all three; the actor applies them
    for response in (tag, one_time, group):
        assert (await _vote(client, scene, scene.owner, response.json["details"]["approval_request_uuid"])).status == 200
    assert await _apply_all() == ["EXECUTED"] * 3
    _, settings = await client.get("/api/v1/whitelist/settings", headers=h)
    assert settings.json["one_time_addresses_allowed"] is True


async def test_approved_change_with_nothing_left_to_apply_ends_executed(client):
    # Given a pending request to allow one-time addresses
    scene = await make_scene(admins=1)
    await set_rule(scene.workspace_id, "one_time_address_transfers")
    _, gated = await client.put("/api/v1/whitelist/settings", headers=scene.admin_api.headers(),
                                json={"one_time_addresses_allowed": True})
    request_id = gated.json["details"]["approval_request_uuid"]
    # When they are allowed meanwhile (by a platform administrator), and the owner approves
    platform_admin = await make_caller(role="ADMIN", workspace_id=scene.workspace_id, platform_admin=True)
    _, direct = await client.put("/api/v1/whitelist/settings", headers=platform_admin.headers(),
                                 json={"one_time_addresses_allowed": True})
    assert direct.status == 200
    await _vote(client, scene, scene.owner, request_id)
    # Then it still ends EXECUTED, with no change
    assert await _apply_all() == ["EXECUTED"]


async def test_approved_tag_change_with_no_valid_pair_fails(client):
    # Given a pending attach of a tag to a vault, and the tag deleted meanwhile
    scene = await make_scene(admins=1)
    h = scene.admin_api.headers()
    _, tag = await client.post("/api/v1/tags", headers=h, json={"label": "cold"})
    _, created = await client.post("/api/v1/vault/accounts", headers=h, json={"name": "Cold"})
    vault = created.json["id"]
    await set_rule(scene.workspace_id, "manage_tags")
    _, gated = await client.post("/api/v1/vault/tags", headers=h, json={
        "vault_ids": [str(vault)], "tag_ids_to_attach": [tag.json["id"]]})
    assert gated.status == 403, gated.json
    request_id = gated.json["details"]["approval_request_uuid"]
    card = (await _card(client, scene, scene.owner, request_id)).json["request"]
    assert card["display"]["tags"][0]["label"] == "cold" and card["display"]["vaults"][0]["id"] == str(vault)
    from models.tags import Tag
    await Tag.filter(id=tag.json["id"]).delete()
    await _vote(client, scene, scene.owner, request_id)
    # Then applying finds no valid pair: FAILED
    assert await _apply_all() == ["FAILED"]
    assert (await ChangeRequest.get(id=request_id)).failure_code == "TAG_CHANGE_NOT_APPLICABLE"


async def test_approved_whitelist_address_fails_when_already_whitelisted(client):
    scene = await make_scene(admins=1)
    await set_rule(scene.workspace_id, "add_whitelist_address")
    body = {"name": "Exchange", "currency_id": "DETH_TEST", "address": "0x" + "ab" * 20}
    _, gated = await client.post("/api/v1/whitelist/wallets", headers=scene.admin_api.headers(), json=body)
    assert gated.status == 403, gated.json
    request_id = gated.json["details"]["approval_request_uuid"]
    card = (await _card(client, scene, scene.owner, request_id)).json["request"]
    assert card["display"]["whitelisted_wallet_name"] == "Exchange" and card["display"]["currency_symbol"]
    platform_admin = await make_caller(role="ADMIN", workspace_id=scene.workspace_id, platform_admin=True)
    _, direct = await client.post("/api/v1/whitelist/wallets", headers=platform_admin.headers(), json=body)
    assert direct.status == 201
    await _vote(client, scene, scene.owner, request_id)
    assert await _apply_all() == ["FAILED"]
    assert (await ChangeRequest.get(id=request_id)).failure_code == "WHITELISTED_WALLET_EXISTS"


async def test_the_expiry_actor_expires_pending_requests(client, frozen_clock):
    from actors.change_approvals import expire

    scene = await make_scene(admins=1)
    await set_rule(scene.workspace_id, "manage_users")
    request_id = (await _invite(client, scene.admin_api)).json["details"]["approval_request_uuid"]
    frozen_clock.advance(timedelta(hours=72))
    await expire()
    assert (await ChangeRequest.get(id=request_id)).status == "EXPIRED"
    assert await AuditEntry.filter(action="change_approval.expired", object_id=request_id).count() == 1


async def test_security_notices_reach_the_approvers_devices(client, worker):
    # Given a workspace with an owner and an administrator with paired devices
    scene = await make_scene(admins=1)
    from domain import notifications

    # When a security notice is announced
    async with unit_of_work():
        await notifications.announce_to_admins(workspace_id=uuid.UUID(scene.workspace_id), action="backup.started",
                                               subject="Backup started", body="someone started a backup")
    await worker.settle()
    # Then both devices got it by push
    pushes = await PushNotification.filter(event="backup.started")
    assert {str(p.user_id) for p in pushes} == {scene.owner.person_id, scene.admins[0].person_id}


async def _threshold(client, scene, value: int) -> None:
    _, response = await client.put(scene.path("/quorum/threshold"), headers=scene.owner.headers(workspace=None),
                                   json={"threshold": value})
    assert response.status == 200, response.json


async def _demote(client, scene, person, role: str) -> None:
    _, response = await client.put(f"/api/v1/users/{person.person_id}/role", headers=scene.owner.headers(),
                                   json={"role": role})
    assert response.status == 200, response.json


async def test_a_vote_counts_only_while_the_voter_still_holds_the_right_to_cast_it(client):
    # Given an administrator quorum of 2 over Manage tags, and a request by the API administrator
    scene = await make_scene(admins=2)
    await _threshold(client, scene, 2)
    await set_rule(scene.workspace_id, "manage_tags", mode=ADMIN_QUORUM)
    _, gated = await client.post("/api/v1/tags", headers=scene.admin_api.headers(), json={"label": "Payroll"})
    request_id = gated.json["details"]["approval_request_uuid"]
    kept, demoted = scene.admins
    # When one administrator is demoted to SIGNER (a role that still uses a device)
    await _demote(client, scene, demoted, "SIGNER")
    # Then neither their rejection nor their approval counts any more: 403, whichever way
    for verb in ("reject", "approve"):
        response = await _vote(client, scene, demoted, request_id, verb)
        assert response.status == 403 and response.json["code"] == "CHANGE_VOTE_NOT_ALLOWED", verb
        assert response.json["details"]["reason"] == "rights_lost"
    assert (await _card(client, scene, kept, request_id)).json["request"]["status"] == "PENDING"
    # And the recount after the other administrator's approval sees the set can no longer reach 2
    approved = await _vote(client, scene, kept, request_id)
    assert approved.status == 200 and approved.json["request"]["status"] == "REJECTED"


async def test_an_approved_change_fails_when_its_approver_lost_the_right_before_it_applied(client):
    # Given an administrator quorum of 1 over Manage tags, and a request approved by one administrator
    scene = await make_scene(admins=1)
    await set_rule(scene.workspace_id, "manage_tags", mode=ADMIN_QUORUM)
    _, gated = await client.post("/api/v1/tags", headers=scene.admin_api.headers(), json={"label": "Payroll"})
    request_id = gated.json["details"]["approval_request_uuid"]
    (admin,) = scene.admins
    assert (await _vote(client, scene, admin, request_id)).json["request"]["status"] == "APPROVED"
    # When that administrator is demoted before the worker applies the change
    await _demote(client, scene, admin, "EDITOR")
    # Then the apply counts no approval that still holds, and the request ends FAILED with nothing applied
    assert await _apply_all() == ["FAILED"]
    card = (await _card(client, scene, scene.admin_api, request_id)).json["request"]
    assert (card["status"], card["failure_code"]) == ("FAILED", "APPROVER_RIGHTS_LOST")
    _, listed = await client.get("/api/v1/tags", headers=scene.admin_api.headers())
    assert listed.json["total"] == 0


async def test_a_member_demoted_to_viewer_loses_their_device_and_cannot_vote_or_cancel(client):
    # Given the owner confirms Manage tags, and an administrator person with a pending request of theirs
    scene = await make_scene(admins=2)
    await set_rule(scene.workspace_id, "manage_tags")
    initiator, voter = scene.admins
    _, gated = await client.post("/api/v1/tags", headers=initiator.headers(), json={"label": "Payroll"})
    request_id = gated.json["details"]["approval_request_uuid"]
    # When both are demoted to VIEWER, a role that uses no device
    await _demote(client, scene, initiator, "VIEWER")
    await _demote(client, scene, voter, "VIEWER")
    # Then their devices stop working at once: the tokens they hold and new ones are refused
    cancel = await _vote(client, scene, initiator, request_id, "cancel")
    assert cancel.status == 401
    _, relogin = await client.post("/api/v2/auth/access-token", json=voter.signed_request())
    assert relogin.status == 401 and relogin.json["code"] == "INVALID_CREDENTIALS"
    entries = await AuditEntry.filter(action="device.revoked", object_id__in=[initiator.device_id, voter.device_id])
    assert {e.details["reason"] for e in entries} == {"the role VIEWER uses no device"}
    # And the request waits for the owner alone, who can still decide it
    assert (await _vote(client, scene, scene.owner, request_id)).json["request"]["status"] == "APPROVED"
