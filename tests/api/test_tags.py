"""Tags: create, read, list, change, delete, protect; attach and detach on vaults; the vault list by tags.

Each test reads Given / When / Then; the spec's rule it checks is named where it helps.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, AsyncIterator, Sequence

import pytest

from core.unit_of_work import unit_of_work
from domain import tags
from domain.change_approvals import requests
from domain.tags import TagReference
from models.audit import AuditEntry
from tests.support.approvals import make_owner, make_scene, set_rule
from tests.support.callers import make_caller
from tests.support.client import AppClient
from tests.support.wallets import Api

TAGS = "/api/v1/tags"
VAULT_TAGS = "/api/v1/vault/tags"


async def _api(client: AppClient, role: str = "ADMIN", *, beside: Api | None = None) -> Api:
    """A caller with ``role``: an API user, or for OWNER the workspace's owner on their paired device."""
    workspace_id = beside.caller.workspace_id if beside else None
    if role == "OWNER":
        return Api(client, await make_owner(workspace_id=workspace_id))
    return Api(client, await make_caller(role=role, workspace_id=workspace_id))


async def _tag(api: Api, label: str, **fields: Any) -> dict[str, Any]:
    status, tag = await api.post(TAGS, {"label": label, **fields})
    assert status == 201, tag
    return tag


async def _tags(api: Api, count: int, prefix: str = "t") -> list[str]:
    """``count`` tags made by the service directly (quicker than one request each); their ids."""
    async with unit_of_work():
        made = [await tags.create_tag(principal=None, workspace_id=uuid.UUID(api.caller.workspace_id),
                                      tag=tags.NewTag(label=f"{prefix}{index:03}")) for index in range(count)]
    return [str(tag.id) for tag in made]


async def _vault(api: Api, name: str) -> dict[str, Any]:
    status, vault = await api.post("/api/v1/vault/accounts", {"name": name})
    assert status == 201, vault
    return vault


async def _change(api: Api, vault_ids: Sequence[str], attach: Sequence[str] = (),
                  detach: Sequence[str] = ()) -> tuple[int, Any]:
    return await api.post(VAULT_TAGS, {"vault_ids": list(vault_ids), "tag_ids_to_attach": list(attach),
                                       "tag_ids_to_detach": list(detach)})


def _pairs(operations: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(o["operation"], o["vault_id"], o["tag_id"]) for o in operations]


async def _audited(action: str) -> int:
    return await AuditEntry.filter(action=action).count()


# --- create -------------------------------------------------------------------------------------------


async def test_a_created_tag_is_trimmed_unprotected_and_answers_null_for_what_was_not_set(client):
    # Given an ADMIN
    api = await _api(client)
    # When they create a tag with surrounding spaces and ask for it to be protected
    status, tag = await api.post(TAGS, {"label": "  Treasury ops  ", "is_protected": True})
    # Then the label is trimmed, the tag is not protected, and unset values are null
    assert status == 201, tag
    assert tag["label"] == "Treasury ops" and tag["is_protected"] is False
    assert (tag["description"], tag["color"], tag["workspace_id"]) == (None, None, api.caller.workspace_id)
    assert tag["created_at"] == tag["updated_at"]
    # And the creation is audited with who did it
    entry = await AuditEntry.get(action="tag.created", object_id=tag["id"])
    assert (str(entry.actor_id), entry.details["label"]) == (api.caller.user_id, "Treasury ops")
    # And the tag reads back the same
    assert await api.get(f"{TAGS}/{tag['id']}") == (200, tag)


async def test_color_is_lowercased_and_description_kept(client):
    api = await _api(client)
    tag = await _tag(api, "Cold", description=" Offline storage ", color="#A1B2C3")
    assert (tag["color"], tag["description"]) == ("#a1b2c3", "Offline storage")


@pytest.mark.parametrize("label", ["ab", "x" * 32, "Казна-1_A", "Ёлка ёж", "Україна ї є ґ", "two  spaces", "1-2_3",
                                   " " * 40 + "padded" + " " * 40])
async def test_labels_of_latin_and_cyrillic_letters_digits_underscore_hyphen_and_spaces_are_accepted(client, label):
    api = await _api(client)
    tag = await _tag(api, label)
    assert tag["label"] == label.strip(" ")


@pytest.mark.parametrize("label", ["a", " a ", "x" * 33, "", "   ", "a!", "tab\there", "new\nline", "café", "a.b",
                                   "emoji😀", "a\u00a0b", "Ҁ҂", 5, None, ["ab"]])
async def test_labels_outside_the_rule_are_refused_naming_the_field(client, label):
    api = await _api(client)
    status, answer = await api.post(TAGS, {"label": label})
    assert (status, answer["code"], answer["details"]["field"]) == (400, "VALIDATION_ERROR", "label")
    assert await _audited("tag.created") == 0


@pytest.mark.parametrize("fields, field", [
    ({"description": ""}, "description"), ({"description": "   "}, "description"),
    ({"description": "x" * 256}, "description"), ({"description": "a\x00b"}, "description"),
    ({"color": ""}, "color"), ({"color": "#abc"}, "color"), ({"color": "red"}, "color"),
    ({"color": "#12345g"}, "color"), ({"is_protected": "yes"}, "is_protected"), ({"owner": "me"}, "owner"),
])
async def test_empty_strings_and_bad_values_are_refused_on_create(client, fields, field):
    api = await _api(client)
    status, answer = await api.post(TAGS, {"label": "Valid", **fields})
    assert (status, answer["details"]["field"]) == (400, field)


async def test_description_of_255_characters_is_accepted(client):
    api = await _api(client)
    assert (await _tag(api, "Long", description="d" * 255))["description"] == "d" * 255


async def test_labels_are_unique_per_workspace_ignoring_case(client):
    # Given a workspace with the tag "VIP"
    api = await _api(client)
    await _tag(api, "VIP")
    # When the same label is created again, in any case, with or without spaces
    for label in ("VIP", "vip", "  Vip "):
        status, answer = await api.post(TAGS, {"label": label})
        # Then it is refused as a label already used
        assert (status, answer["code"]) == (409, "TAG_ALREADY_EXISTS")
    # And Cyrillic labels compare ignoring case too
    await _tag(api, "Ёж")
    assert (await api.post(TAGS, {"label": "ёЖ"}))[1]["code"] == "TAG_ALREADY_EXISTS"
    # But another workspace may use the label
    other = await _api(client)
    await _tag(other, "vip")


# --- read, change, delete -------------------------------------------------------------------------------


async def test_another_workspaces_or_a_missing_tag_answers_tag_not_found(client):
    # Given a tag of one workspace
    owner = await _api(client, "OWNER")
    tag = await _tag(owner, "Mine")
    stranger = await _api(client, "OWNER")
    # When another workspace's caller (or anyone, for an unknown id) reads, changes, deletes or protects it
    for api, tag_id in ((stranger, tag["id"]), (owner, str(uuid.uuid4()))):
        for method, suffix, body in (("GET", "", None), ("PATCH", "", {"label": "Theirs"}), ("DELETE", "", None),
                                     ("POST", "/protect", None), ("POST", "/unprotect", None)):
            status, answer = await api.request(method, f"{TAGS}/{tag_id}{suffix}", json=body)
            # Then the answer is the same 404, which says nothing of the other workspace
            assert (status, answer["code"]) == (404, "TAG_NOT_FOUND"), (method, suffix)
    assert (await owner.get(f"{TAGS}/{tag['id']}"))[1]["label"] == "Mine"


async def test_patch_null_clears_absent_stays_and_only_real_changes_are_audited(client, frozen_clock):
    # Given a tag with a description and a color
    api = await _api(client)
    tag = await _tag(api, "Ops", description="Operations", color="#00ff00")
    path = f"{TAGS}/{tag['id']}"
    frozen_clock.advance(seconds=5)
    # When only the color is cleared
    status, changed = await api.request("PATCH", path, json={"color": None})
    # Then the color is null, the rest is kept, and updated_at moves
    assert status == 200, changed
    assert (changed["label"], changed["description"], changed["color"]) == ("Ops", "Operations", None)
    assert changed["updated_at"] > tag["updated_at"]
    # When the label and description change (the label trimmed)
    frozen_clock.advance(seconds=5)
    status, changed = await api.request("PATCH", path, json={"label": " Operations ", "description": None})
    assert (status, changed["label"], changed["description"]) == (200, "Operations", None)
    # Then each change is audited with what it was and what it became
    entries = await AuditEntry.filter(action="tag.updated", object_id=tag["id"]).order_by("created_at", "id")
    assert [e.details["changes"] for e in entries] == [
        {"color": {"from": "#00ff00", "to": None}},
        {"label": {"from": "Ops", "to": "Operations"}, "description": {"from": "Operations", "to": None}},
    ]
    # When a PATCH changes nothing (empty, or the same values)
    for body in ({}, {"label": "Operations", "color": None}):
        status, same = await api.request("PATCH", path, json=body)
        # Then it answers the tag as it is and records nothing
        assert (status, same) == (200, changed)
    assert await AuditEntry.filter(action="tag.updated").count() == 2


@pytest.mark.parametrize("body, field", [
    ({"label": None}, "label"), ({"label": ""}, "label"), ({"label": "x"}, "label"),
    ({"description": ""}, "description"), ({"color": ""}, "color"), ({"color": "#GGGGGG"}, "color"),
    ({"is_protected": True}, "is_protected"),
])
async def test_patch_refuses_empty_strings_a_cleared_label_and_is_protected(client, body, field):
    api = await _api(client)
    tag = await _tag(api, "Keep", description="kept")
    status, answer = await api.request("PATCH", f"{TAGS}/{tag['id']}", json=body)
    assert (status, answer["details"]["field"]) == (400, field)
    assert (await api.get(f"{TAGS}/{tag['id']}"))[1] == tag


async def test_a_label_that_looks_like_another_is_refused_as_the_same_label(client):
    # Given a workspace with the tags "tag" and "Pool" (Latin letters)
    api = await _api(client)
    await _tag(api, "tag")
    pool = await _tag(api, "Pool")
    # When labels that read the same are created: a Cyrillic а, Cyrillic capitals, a Cyrillic о twice
    for label in ("t\u0430g", "T\u0410G", "P\u043e\u043el", "t\u0430G"):
        status, answer = await api.post(TAGS, {"label": label})
        # Then each is TAG_ALREADY_EXISTS, like a label differing only by case (UTS #39 skeletons)
        assert (status, answer["code"], answer["details"]["field"]) == (409, "TAG_ALREADY_EXISTS", "label"), label
    # And renaming a tag to a look-alike of another's label is refused the same way
    other = await _tag(api, "other")
    status, answer = await api.request("PATCH", f"{TAGS}/{other['id']}", json={"label": "P\u043eol"})
    assert (status, answer["code"]) == (409, "TAG_ALREADY_EXISTS")
    # But a tag may be renamed to a look-alike of its own label, and different labels stay apart
    status, renamed = await api.request("PATCH", f"{TAGS}/{pool['id']}", json={"label": "P\u043eol"})
    assert (status, renamed["label"]) == (200, "P\u043eol")
    await _tag(api, "tog")


async def test_two_look_alike_labels_created_at_once_give_one_tag(client):
    # Given a workspace
    api = await _api(client)
    # When "vault" and "v\u0430ult" (a Cyrillic а) are created by concurrent requests
    answers = await asyncio.gather(*(api.post(TAGS, {"label": label}) for label in ("vault", "v\u0430ult") * 3))
    # Then exactly one is created and every other answers 409 TAG_ALREADY_EXISTS
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201, 409, 409, 409, 409, 409], answers
    assert {answer["code"] for status, answer in answers if status == 409} == {"TAG_ALREADY_EXISTS"}
    status, listed = await api.get(TAGS)
    assert [tag["label"] for tag in listed["tags"]] in (["vault"], ["v\u0430ult"])


async def test_renaming_to_a_label_in_use_is_refused_but_changing_the_case_of_ones_own_is_not(client):
    api = await _api(client)
    first, second = await _tag(api, "alpha"), await _tag(api, "beta")
    status, answer = await api.request("PATCH", f"{TAGS}/{second['id']}", json={"label": "ALPHA"})
    assert (status, answer["code"]) == (409, "TAG_ALREADY_EXISTS")
    status, renamed = await api.request("PATCH", f"{TAGS}/{first['id']}", json={"label": "Alpha"})
    assert (status, renamed["label"]) == (200, "Alpha")
    # the freed label can be taken once the first tag is renamed away
    await api.request("PATCH", f"{TAGS}/{first['id']}", json={"label": "gamma"})
    status, renamed = await api.request("PATCH", f"{TAGS}/{second['id']}", json={"label": "alpha"})
    assert (status, renamed["label"]) == (200, "alpha")


async def test_a_tag_is_deleted_only_when_no_vault_carries_it(client):
    # Given a tag attached to a vault
    api = await _api(client)
    tag, vault = await _tag(api, "Busy", color="#123456"), await _vault(api, "Hot")
    await _change(api, [vault["id"]], attach=[tag["id"]])
    # When it is deleted, it is refused (rule 9)
    status, answer = await api.request("DELETE", f"{TAGS}/{tag['id']}")
    assert (status, answer["code"], answer["details"]["vaults_total"]) == (409, "TAG_ATTACHED_TO_VAULT", 1)
    # When it is detached and deleted again
    await _change(api, [vault["id"]], detach=[tag["id"]])
    status, answer = await api.request("DELETE", f"{TAGS}/{tag['id']}")
    # Then it is gone, audited with what it was, and its label is free again
    assert (status, answer) == (204, None)
    assert (await api.get(f"{TAGS}/{tag['id']}"))[0] == 404
    entry = await AuditEntry.get(action="tag.deleted", object_id=tag["id"])
    assert entry.details == {"label": "Busy", "description": None, "color": "#123456", "is_protected": False}
    await _tag(api, "busy")


@pytest.fixture
async def policy_rules() -> AsyncIterator[dict[str, list[str]]]:
    """A stand-in for the policy rules: a reference provider answering from a dict (tag id -> rule ids)."""
    rules: dict[str, list[str]] = {}

    async def provider(*, workspace_id: uuid.UUID, tag_ids: Sequence[uuid.UUID]) -> list[TagReference]:
        return [TagReference(tag_id=tag_id, kind="policy_rule", id=rule, name=f"rule {rule}")
                for tag_id in tag_ids for rule in rules.get(str(tag_id), [])]

    tags.register_reference_provider("test_policy_rules", provider)
    try:
        yield rules
    finally:
        tags.unregister_reference_provider("test_policy_rules")


async def test_a_tag_a_policy_rule_refers_to_can_be_neither_deleted_nor_unprotected(client, policy_rules):
    # Given a protected tag that a policy rule refers to
    owner = await _api(client, "OWNER")
    tag = await _tag(owner, "Trusted")
    assert (await owner.post(f"{TAGS}/{tag['id']}/protect"))[0] == 200
    policy_rules[tag["id"]] = ["r1"]
    # When it is deleted or unprotected
    for method, suffix in (("DELETE", ""), ("POST", "/unprotect")):
        status, answer = await owner.request(method, f"{TAGS}/{tag['id']}{suffix}")
        # Then it is refused, naming the rule
        assert (status, answer["code"]) == (409, "TAG_IS_USED_IN_POLICY_RULE")
        assert answer["details"]["references"] == [
            {"tag_id": tag["id"], "kind": "policy_rule", "id": "r1", "name": "rule r1"}]
    assert (await owner.get(f"{TAGS}/{tag['id']}"))[1]["is_protected"] is True
    # When the rule no longer refers to it, both work
    policy_rules.clear()
    assert (await owner.post(f"{TAGS}/{tag['id']}/unprotect"))[0] == 200
    assert (await owner.request("DELETE", f"{TAGS}/{tag['id']}"))[0] == 204


# --- protection -----------------------------------------------------------------------------------------


async def test_only_the_owner_protects_and_unprotects_and_each_real_change_is_audited(client):
    # Given a tag, an OWNER, an ADMIN and an EDITOR
    owner = await _api(client, "OWNER")
    admin, editor = await _api(client, "ADMIN", beside=owner), await _api(client, "EDITOR", beside=owner)
    tag = await _tag(editor, "Whitelisted")
    path = f"{TAGS}/{tag['id']}"
    # When the ADMIN or the EDITOR protects it, it is refused
    for api in (admin, editor):
        status, answer = await api.post(f"{path}/protect")
        assert (status, answer["code"], answer["details"]["permission"]) == (
            403, "PERMISSION_DENIED", "MANAGE_PROTECTED_TAGS")
    # When the OWNER protects it (twice)
    for _ in range(2):
        status, protected = await owner.post(f"{path}/protect")
        assert (status, protected["is_protected"]) == (200, True)
    # Then it is protected for everyone, and recorded once
    assert (await editor.get(path))[1]["is_protected"] is True
    assert await _audited("tag.protected") == 1
    # And a protected tag can still be renamed by an editor (its rules follow its id)
    status, renamed = await editor.request("PATCH", path, json={"label": "Allowlisted"})
    assert (status, renamed["is_protected"]) == (200, True)
    # When the OWNER unprotects it, it is recorded too
    status, unprotected = await owner.post(f"{path}/unprotect")
    assert (status, unprotected["is_protected"]) == (200, False)
    entry = await AuditEntry.get(action="tag.unprotected", object_id=tag["id"])
    assert (str(entry.actor_id), entry.details) == (owner.caller.user_id, {"label": "Allowlisted"})


async def test_reads_need_view_workspace_and_changes_edit_workspace(client):
    # Given a VIEWER beside an ADMIN's tag and vault
    admin = await _api(client)
    viewer = await _api(client, "VIEWER", beside=admin)
    tag, vault = await _tag(admin, "Seen"), await _vault(admin, "Hot")
    # Then the VIEWER reads every tag view
    for path in (TAGS, "/api/v1/tags-list", f"{TAGS}/{tag['id']}", "/api/v1/vault"):
        assert (await viewer.get(path))[0] == 200, path
    # But changes nothing
    for method, path, body in (("POST", TAGS, {"label": "Mine"}), ("PATCH", f"{TAGS}/{tag['id']}", {"label": "x1"}),
                               ("DELETE", f"{TAGS}/{tag['id']}", None),
                               ("POST", VAULT_TAGS, {"vault_ids": [vault["id"]], "tag_ids_to_attach": [tag["id"]]})):
        status, answer = await viewer.request(method, path, json=body)
        assert (status, answer["code"], answer["details"]["permission"]) == (
            403, "PERMISSION_DENIED", "EDIT_WORKSPACE"), (method, path)


# --- lists ----------------------------------------------------------------------------------------------


async def _labels(api: Api, path: str = TAGS, **params: Any) -> list[str]:
    status, answer = await api.get(path, **params)
    assert status == 200, answer
    return [tag["label"] for tag in answer["tags"]]


async def test_lists_sort_by_the_chosen_key_with_the_label_second(client, frozen_clock):
    # Given tags created in the order gamma, Alpha, beta, delta; beta and delta protected; alpha changed last
    owner = await _api(client, "OWNER")
    made = {}
    for label in ("gamma", "Alpha", "beta", "delta"):
        made[label] = await _tag(owner, label)
        frozen_clock.advance(seconds=1)
    for label in ("beta", "delta"):
        await owner.post(f"{TAGS}/{made[label]['id']}/protect")
    frozen_clock.advance(seconds=1)
    await owner.request("PATCH", f"{TAGS}/{made['Alpha']['id']}", json={"color": "#000000"})
    # Then by default the list is in label order, ignoring case (rule 1)
    for path in (TAGS, "/api/v1/tags-list"):
        assert await _labels(owner, path) == ["Alpha", "beta", "delta", "gamma"]
        assert await _labels(owner, path, order_dir="desc") == ["gamma", "delta", "beta", "Alpha"]
        assert await _labels(owner, path, order_by="created_at") == ["gamma", "Alpha", "beta", "delta"]
        assert await _labels(owner, path, order_by="created_at", order_dir="desc") == [
            "delta", "beta", "Alpha", "gamma"]
        # updated_at: gamma untouched, then beta and delta protected at the same moment (label second), then Alpha
        assert await _labels(owner, path, order_by="updated_at") == ["gamma", "beta", "delta", "Alpha"]
        # is_protected: normal ones first, each group by label; desc puts protected first, still by label
        assert await _labels(owner, path, order_by="is_protected") == ["Alpha", "gamma", "beta", "delta"]
        assert await _labels(owner, path, order_by="is_protected", order_dir="desc") == [
            "beta", "delta", "Alpha", "gamma"]
        for bad in ({"order_by": "color"}, {"order_dir": "up"}):
            assert (await owner.get(path, **bad))[0] == 400


async def test_the_list_filters_by_protection_label_prefix_and_ids(client):
    owner = await _api(client, "OWNER")
    made = {label: await _tag(owner, label) for label in ("Cold_1", "cold-2", "Coldest", "coldXbox", "Hot", "Холод")}
    await owner.post(f"{TAGS}/{made['Hot']['id']}/protect")
    # the label prefix ignores case, and an underscore in it is a character, not a wildcard
    # (labels sort by code point of the case-folded label: "-" < "_" < letters)
    assert await _labels(owner, label="COLD") == ["cold-2", "Cold_1", "Coldest", "coldXbox"]
    assert await _labels(owner, label="cold_") == ["Cold_1"]
    assert await _labels(owner, label="хол") == ["Холод"]
    assert await _labels(owner, label="%") == []
    assert await _labels(owner, is_protected="true") == ["Hot"]
    assert await _labels(owner, is_protected="false", label="co", limit=2) == ["cold-2", "Cold_1"]
    status, page = await owner.get(TAGS, is_protected="false", label="co", limit=2, offset=3)
    assert (page["total"], page["offset"], [t["label"] for t in page["tags"]]) == (4, 3, ["coldXbox"])
    # tag_ids: repeated, only those; a foreign or unknown id matches nothing
    wanted = [made["Hot"]["id"], made["Coldest"]["id"], str(uuid.uuid4())]
    assert await _labels(owner, tag_ids=wanted) == ["Coldest", "Hot"]
    # a blank filter is refused, not taken as no filter
    for blank in ({"label": ""}, {"is_protected": ""}, {"order_by": ""}):
        assert (await owner.get(TAGS, **blank))[0] == 400
    # /tags-list takes no filter and no paging
    for params in ({"label": "co"}, {"limit": 1}, {"is_protected": "true"}):
        assert (await owner.get("/api/v1/tags-list", **params))[0] == 400


async def test_tag_ids_filter_takes_up_to_100_and_the_page_defaults_to_100(client):
    api = await _api(client)
    ids = await _tags(api, 101)
    status, page = await api.get(TAGS)
    assert (status, page["total"], len(page["tags"]), page["offset"]) == (200, 101, 100, 0)
    status, page = await api.get(TAGS, tag_ids=ids[:100], limit=1000)
    assert (status, page["total"]) == (200, 100)
    status, answer = await api.get(TAGS, tag_ids=ids)
    assert (status, answer["details"]["field"]) == (400, "tag_ids")
    assert len((await api.get("/api/v1/tags-list"))[1]["tags"]) == 101


async def test_the_lists_preview_the_five_newest_attached_vaults_and_count_them_all(client, frozen_clock):
    # Given a tag attached to seven vaults, one at a time, and a tag attached nowhere
    api = await _api(client)
    tag, bare = await _tag(api, "Busy"), await _tag(api, "Bare")
    vaults = [await _vault(api, f"V{index}") for index in range(7)]
    for vault in vaults:
        frozen_clock.advance(seconds=1)
        await _change(api, [vault["id"]], attach=[tag["id"]])
    # When the tags are listed
    for path in (TAGS, "/api/v1/tags-list"):
        listed = {t["label"]: t for t in (await api.get(path))[1]["tags"]}
        # Then the busy tag shows its five newest vaults, newest first, and counts all seven
        assert [v["name"] for v in listed["Busy"]["vaults"]] == ["V6", "V5", "V4", "V3", "V2"]
        assert listed["Busy"]["vaults"][0] == {"id": vaults[6]["id"], "name": "V6"}
        assert listed["Busy"]["vaults_total"] == 7
        assert (listed["Bare"]["vaults"], listed["Bare"]["vaults_total"]) == ([], 0)
    # And a single tag is answered without the preview
    assert "vaults" not in (await api.get(f"{TAGS}/{bare['id']}"))[1]


# --- attach and detach ----------------------------------------------------------------------------------


async def test_attach_and_detach_apply_pair_by_pair_and_audit_each_change(client):
    # Given two vaults and two tags
    api = await _api(client)
    hot, cold = await _vault(api, "Hot"), await _vault(api, "Cold")
    red, blue = await _tag(api, "red"), await _tag(api, "blue")
    # When both tags are attached to both vaults
    status, result = await _change(api, [hot["id"], cold["id"]], attach=[red["id"], blue["id"]])
    # Then every pair is applied, named, and audited once
    assert status == 200, result
    assert result["rejected_operations"] == []
    assert result["applied_operations"][0] == {"operation": "attach", "tag_id": red["id"], "tag_label": "red",
                                               "tag_protected": False, "vault_id": hot["id"], "vault_name": "Hot"}
    assert _pairs(result["applied_operations"]) == [
        ("attach", hot["id"], red["id"]), ("attach", hot["id"], blue["id"]),
        ("attach", cold["id"], red["id"]), ("attach", cold["id"], blue["id"])]
    entries = await AuditEntry.filter(action="tag.attached").order_by("id")
    assert sorted((e.object_id, e.details["vault_id"]) for e in entries) == sorted(
        (t, v) for t in (red["id"], blue["id"]) for v in (hot["id"], cold["id"]))
    assert {str(e.actor_id) for e in entries} == {api.caller.user_id}
    # When red is attached again (rule 6) and blue detached from the hot vault
    status, result = await _change(api, [hot["id"]], attach=[red["id"]], detach=[blue["id"]])
    # Then both are applied: the re-attach changes nothing and records nothing, the detach is recorded
    assert _pairs(result["applied_operations"]) == [("detach", hot["id"], blue["id"]),
                                                    ("attach", hot["id"], red["id"])]
    assert (await _audited("tag.attached"), await _audited("tag.detached")) == (4, 1)
    # And detaching a tag the vault does not carry is applied too, and records nothing
    status, result = await _change(api, [hot["id"]], detach=[blue["id"]])
    assert (status, _pairs(result["applied_operations"])) == (200, [("detach", hot["id"], blue["id"])])
    assert await _audited("tag.detached") == 1
    # And the vaults carry what was applied
    status, one = await api.get(f"/api/v1/vault/accounts/{hot['id']}")
    assert [t["label"] for t in one["tags"]] == ["red"]


async def test_the_same_tag_attached_and_detached_in_one_request_is_refused(client):
    # Given a vault and two tags
    api = await _api(client)
    vault, red, blue = await _vault(api, "Hot"), await _tag(api, "red"), await _tag(api, "blue")
    # When a request attaches red and blue and also detaches red (rule 4)
    status, answer = await _change(api, [vault["id"]], attach=[red["id"], blue["id"]], detach=[red["id"]])
    # Then the whole request is refused with its own code, naming the tag, and nothing changes
    assert (status, answer["code"], answer["details"]["tag_ids"]) == (400, "TAG_ATTACH_DETACH_CONFLICT", [red["id"]])
    assert (await api.get(f"/api/v1/vault/accounts/{vault['id']}"))[1]["tags"] == []
    assert await _audited("tag.attached") == 0


async def test_pairs_outside_the_workspace_are_rejected_while_the_rest_apply(client):
    # Given a vault and a tag of this workspace, and a vault and a tag of another
    api, other = await _api(client), await _api(client)
    mine, theirs = await _vault(api, "Mine"), await _vault(other, "Theirs")
    tag, their_tag = await _tag(api, "ours"), await _tag(other, "theirs")
    missing = str(uuid.uuid4())
    # When both tags are attached to both vaults and to an unknown one
    status, result = await _change(api, [mine["id"], theirs["id"], missing], attach=[tag["id"], their_tag["id"]])
    # Then only the pair of this workspace applies; the rest is rejected without revealing anything (rule 5)
    assert status == 200
    assert _pairs(result["applied_operations"]) == [("attach", mine["id"], tag["id"])]
    rejected = {(o["vault_id"], o["tag_id"]): o for o in result["rejected_operations"]}
    assert len(rejected) == 5
    assert rejected[(mine["id"], their_tag["id"])] == {
        "operation": "attach", "tag_id": their_tag["id"], "tag_label": None, "tag_protected": None,
        "vault_id": mine["id"], "vault_name": "Mine", "reason": "TAG_NOT_FOUND"}
    assert rejected[(theirs["id"], tag["id"])] == {
        "operation": "attach", "tag_id": tag["id"], "tag_label": "ours", "tag_protected": False,
        "vault_id": theirs["id"], "vault_name": None, "reason": "VAULT_NOT_FOUND"}
    assert rejected[(missing, tag["id"])]["reason"] == "VAULT_NOT_FOUND"
    # And the other workspace's vault carries nothing
    assert (await other.get(f"/api/v1/vault/accounts/{theirs['id']}"))[1]["tags"] == []


async def test_a_frozen_vault_rejects_both_attach_and_detach(client):
    # Given a frozen vault carrying one tag, and an unfrozen vault
    api = await _api(client)
    frozen, open_vault = await _vault(api, "Frozen"), await _vault(api, "Open")
    red, blue = await _tag(api, "red"), await _tag(api, "blue")
    await _change(api, [frozen["id"]], attach=[red["id"]])
    await api.post(f"/api/v1/vault/accounts/{frozen['id']}/freeze")
    # When a tag is detached from both vaults and another attached to both
    status, result = await _change(api, [frozen["id"], open_vault["id"]], attach=[blue["id"]], detach=[red["id"]])
    # Then the frozen vault's pairs are rejected, the open vault's applied
    assert status == 200
    assert [(o["operation"], o["reason"]) for o in result["rejected_operations"]] == [
        ("detach", "VAULT_FROZEN"), ("attach", "VAULT_FROZEN")]
    assert {o["vault_id"] for o in result["rejected_operations"]} == {frozen["id"]}
    assert {o["vault_id"] for o in result["applied_operations"]} == {open_vault["id"]}
    assert [t["label"] for t in (await api.get(f"/api/v1/vault/accounts/{frozen['id']}"))[1]["tags"]] == ["red"]


async def test_the_twenty_tag_limit_skips_the_attach_but_still_detaches(client):
    # Given a vault carrying 19 tags, and three more tags
    api = await _api(client)
    vault = await _vault(api, "Full")
    carried, spare = await _tags(api, 19, "c"), await _tags(api, 3, "s")
    status, result = await _change(api, [vault["id"]], attach=carried[:19])
    assert len(result["applied_operations"]) == 19
    # When one tag is detached and three new ones attached (plus one it carries)
    status, result = await _change(api, [vault["id"]], attach=[*spare, carried[1]], detach=[carried[0]])
    # Then the detach is done, the re-attach applies, and every new attach is rejected: 18 + 3 > 20
    assert status == 200
    assert _pairs(result["applied_operations"]) == [("detach", vault["id"], carried[0]),
                                                    ("attach", vault["id"], carried[1])]
    assert [(o["tag_id"], o["reason"]) for o in result["rejected_operations"]] == [
        (tag_id, "TAG_LIMIT_REACHED") for tag_id in spare]
    # When two new tags are attached instead: 18 + 2 = 20, within the limit
    status, result = await _change(api, [vault["id"]], attach=spare[:2])
    assert (status, len(result["applied_operations"]), result["rejected_operations"]) == (200, 2, [])
    # And at 20, one detached and one attached in the same request both apply
    status, result = await _change(api, [vault["id"]], attach=[spare[2]], detach=[carried[2]])
    assert (len(result["applied_operations"]), result["rejected_operations"]) == (2, [])
    assert len((await api.get(f"/api/v1/vault/accounts/{vault['id']}"))[1]["tags"]) == 20


@pytest.mark.parametrize("shape, field", [
    ({"vaults": 0, "attach": 1}, "vault_ids"), ({"vaults": 101, "attach": 1}, "vault_ids"),
    ({"vaults": 1, "attach": 21}, "tag_ids_to_attach"), ({"vaults": 1, "detach": 21}, "tag_ids_to_detach"),
    ({"vaults": 1}, "tag_ids_to_attach"),
])
async def test_the_request_limits(client, shape, field):
    # 1 to 100 vaults; up to 20 tags to attach and 20 to detach; at least one tag either way
    api = await _api(client)
    body = {"vault_ids": [str(uuid.uuid4()) for _ in range(shape["vaults"])],
            "tag_ids_to_attach": [str(uuid.uuid4()) for _ in range(shape.get("attach", 0))],
            "tag_ids_to_detach": [str(uuid.uuid4()) for _ in range(shape.get("detach", 0))]}
    status, answer = await api.post(VAULT_TAGS, body)
    assert (status, answer["code"], answer["details"]["field"]) == (400, "VALIDATION_ERROR", field)


async def test_a_hundred_vaults_and_twenty_tags_each_way_are_accepted(client):
    api = await _api(client)
    tag_ids = await _tags(api, 40)
    status, result = await _change(api, [str(uuid.uuid4()) for _ in range(100)], attach=tag_ids[:20],
                                   detach=tag_ids[20:])
    assert (status, len(result["rejected_operations"])) == (200, 100 * 40)
    for body in ({"vault_ids": ["not-a-uuid"], "tag_ids_to_attach": tag_ids[:1]},
                 {"vault_ids": [tag_ids[0]], "tag_ids_to_attach": tag_ids[0]}):
        assert (await api.post(VAULT_TAGS, body))[0] == 400


# --- the vault list by tags -----------------------------------------------------------------------------


async def _names(api: Api, path: str = "/api/v1/vault", **params: Any) -> list[str]:
    status, answer = await api.get(path, **params)
    assert status == 200, answer
    return [vault["name"] for vault in answer["accounts"]]


async def test_the_vault_list_filters_by_any_or_all_tags_and_carries_each_vaults_tags(client, frozen_clock):
    # Given vaults tagged {red}, {red, blue}, {blue} and none
    api = await _api(client)
    red, blue, green = await _tag(api, "red"), await _tag(api, "Blue"), await _tag(api, "green")
    vaults = {}
    for name in ("R", "RB", "B", "None"):
        vaults[name] = await _vault(api, name)
        frozen_clock.advance(seconds=1)
    await _change(api, [vaults["R"]["id"], vaults["RB"]["id"]], attach=[red["id"]])
    await _change(api, [vaults["RB"]["id"], vaults["B"]["id"]], attach=[blue["id"]])
    for path in ("/api/v1/vault", "/api/v1/vault/accounts"):
        # Then every vault carries its tags in label order, and an untagged one an empty list
        status, listed = await api.get(path)
        assert {v["name"]: [t["label"] for t in v["tags"]] for v in listed["accounts"]} == {
            "R": ["red"], "RB": ["Blue", "red"], "B": ["Blue"], "None": []}
        assert listed["accounts"][0]["tags"][0] == {**red, "updated_at": red["updated_at"]}
        # And tag_ids matches any of them by default, or all of them
        both = [red["id"], blue["id"]]
        assert await _names(api, path, tag_ids=both) == ["R", "RB", "B"]
        assert await _names(api, path, tag_ids=both, tag_match_mode="any") == ["R", "RB", "B"]
        assert await _names(api, path, tag_ids=both, tag_match_mode="all") == ["RB"]
        assert await _names(api, path, tag_ids=[*both, red["id"]], tag_match_mode="all") == ["RB"]
        assert await _names(api, path, tag_ids=[green["id"]]) == []
        assert await _names(api, path, tag_ids=[red["id"], str(uuid.uuid4())], tag_match_mode="all") == []
        status, page = await api.get(path, tag_ids=both, limit=1, offset=1)
        assert (page["total"], [v["name"] for v in page["accounts"]]) == (3, ["RB"])


async def test_the_vault_filter_refuses_a_match_mode_without_tags_and_more_than_twenty_tags(client):
    api = await _api(client)
    for path in ("/api/v1/vault", "/api/v1/vault/accounts"):
        # rule 7: tag_match_mode without tag_ids is a 400
        status, answer = await api.get(path, tag_match_mode="any")
        assert (status, answer["code"], answer["details"]["field"]) == (400, "VALIDATION_ERROR", "tag_match_mode")
        status, answer = await api.get(path, tag_ids=[str(uuid.uuid4()) for _ in range(21)])
        assert (status, answer["details"]["field"]) == (400, "tag_ids")
        assert (await api.get(path, tag_ids=[str(uuid.uuid4()) for _ in range(20)]))[0] == 200
        status, answer = await api.get(path, tag_ids=[str(uuid.uuid4())], tag_match_mode="most")
        assert (status, answer["details"]["field"]) == (400, "tag_match_mode")


async def test_every_vault_answer_carries_its_tags(client):
    api = await _api(client)
    status, vault = await api.post("/api/v1/vault/accounts", {"name": "New"})
    assert (status, vault["tags"]) == (201, [])
    tag = await _tag(api, "red")
    await _change(api, [vault["id"]], attach=[tag["id"]])
    for method, suffix, body in (("GET", "", None), ("PATCH", "", {"name": "Renamed"}), ("POST", "/freeze", {})):
        status, answer = await api.request(method, f"/api/v1/vault/accounts/{vault['id']}{suffix}", json=body)
        assert (status, [t["id"] for t in answer["tags"]]) == (200, [tag["id"]]), (method, suffix)


async def test_attaching_or_detaching_a_protected_tag_needs_the_right_to_manage_protected_tags(client):
    # Given a workspace's owner (from the device the operator confirmed), an EDITOR and an ADMIN,
    # a vault carrying a protected tag and an unprotected one
    owner = await make_owner()
    owner_api = Api(client, owner)
    editor = Api(client, await make_caller(role="EDITOR", workspace_id=owner.workspace_id))
    admin = Api(client, await make_caller(role="ADMIN", workspace_id=owner.workspace_id))
    vault = await _vault(admin, "Cold storage")
    guarded, plain = await _tag(admin, "Guarded"), await _tag(admin, "Plain")
    assert (await owner_api.post(f"{TAGS}/{guarded['id']}/protect"))[0] == 200
    assert (await _change(owner_api, [vault["id"]], attach=[guarded["id"]]))[0] == 200
    # When the editor or the admin detaches the protected tag (escaping a rule on it), or attaches it
    for api in (editor, admin):
        for change in ({"detach": [guarded["id"]]}, {"attach": [guarded["id"]], "detach": [plain["id"]]}):
            status, refused = await _change(api, [vault["id"]], **change)
            # Then it is refused naming the permission and the tag, and nothing changes
            assert (status, refused["code"]) == (403, "PERMISSION_DENIED"), refused
            assert refused["details"]["permission"] == "MANAGE_PROTECTED_TAGS"
            assert refused["details"]["tag_ids"] == [guarded["id"]]
    _, listed = await admin.get("/api/v1/vault", tag_ids=guarded["id"])
    assert [a["id"] for a in listed["accounts"]] == [vault["id"]]
    # And unprotected tags stay theirs to change
    assert (await _change(editor, [vault["id"]], attach=[plain["id"]]))[0] == 200
    # When the owner detaches it, it is done and audited
    status, done = await _change(owner_api, [vault["id"]], detach=[guarded["id"]])
    assert status == 200 and [o["tag_id"] for o in done["applied_operations"]] == [guarded["id"]]
    assert await AuditEntry.filter(action="tag.detached", actor_id=owner.user_id).count() == 1


async def test_with_manage_tags_approval_on_the_owners_protected_tag_change_waits_for_approval(client):
    # Given Manage tags needs the owner's confirmation, and a vault carrying a protected tag
    scene = await make_scene(admins=1)
    await set_rule(scene.workspace_id, "manage_tags")
    owner_api = Api(client, scene.owner)
    async with unit_of_work():
        tag = await tags.create_tag(principal=None, workspace_id=uuid.UUID(scene.workspace_id),
                                    tag=tags.NewTag(label="Guarded"))
        await tags.set_protected(principal=None, workspace_id=uuid.UUID(scene.workspace_id), tag_id=tag.id,
                                 protected=True)
    _, vault = await Api(client, scene.admin_api).post("/api/v1/vault/accounts", {"name": "Cold"})
    # When the owner attaches it
    status, gated = await _change(owner_api, [vault["id"]], attach=[str(tag.id)])
    # Then it passes Manage tags approval like any tag change, applied only once confirmed
    assert (status, gated["code"]) == (403, "QUORUM_APPROVAL_REQUIRED")
    request_id = gated["details"]["approval_request_uuid"]
    _, voted = await client.post(scene.path(f"/change-approvals/{request_id}/approve"),
                                 headers=scene.owner.headers(workspace=None))
    assert voted.json["request"]["status"] == "APPROVED"
    async with unit_of_work():
        assert await requests.apply_request(request_id=request_id) == "EXECUTED"
    _, listed = await owner_api.get("/api/v1/vault", tag_ids=str(tag.id))
    assert [a["id"] for a in listed["accounts"]] == [vault["id"]]
