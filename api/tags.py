"""Tags: /api/v1/tags, /api/v1/tags-list and /api/v1/vault/tags (bearer token and X-Workspace-Id).

Reads need VIEW_WORKSPACE, changes EDIT_WORKSPACE; protecting and unprotecting a tag is the
owner's (MANAGE_PROTECTED_TAGS). Rules and choices: docs/tags.md. Another workspace's tag answers
exactly like a missing one (404 TAG_NOT_FOUND). The vault list filtered by tags, GET /api/v1/vault,
lives with the vaults (api/vaults.py).
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint, gated
from api.schemas.tags import (
    AllTags,
    Tag,
    TagCreate,
    TagList,
    TagListItem,
    TagListQuery,
    TagOperations,
    TagsListQuery,
    TagUpdate,
    VaultTagsChange,
)
from core.unit_of_work import unit_of_work
from domain import tags

bp = Blueprint("tags", url_prefix="/api/v1")

_TAG = "tags"
_NOT_FOUND = {404: ["TAG_NOT_FOUND"]}
_IN_POLICY = "TAG_IS_USED_IN_POLICY_RULE"


@bp.post("/tags")
@endpoint(summary="Create a tag (EDIT_WORKSPACE); it starts unprotected", tag=_TAG, body=TagCreate,
          responses={201: Tag}, workspace=True, errors=gated({409: ["TAG_ALREADY_EXISTS"]}))
async def create_tag(request: Request, body: TagCreate) -> Tag:
    caller, ws = await workspace(request)
    async with unit_of_work():
        tag = await tags.create_tag(principal=caller, workspace_id=ws.id, tag=body.as_domain())
    return Tag.of(tag)


@bp.get("/tags")
@endpoint(summary="A page of the workspace's tags, each with its newest vaults and vaults_total (VIEW_WORKSPACE)",
          tag=_TAG, query=TagListQuery, responses={200: TagList}, workspace=True)
async def list_tags(request: Request, query: TagListQuery) -> TagList:
    caller, ws = await workspace(request)
    items, total = await tags.list_tags(
        principal=caller, workspace_id=ws.id, is_protected=query.is_protected, label_prefix=query.label,
        tag_ids=query.tag_ids, order_by=query.order_by, order_dir=query.order_dir, limit=query.limit,
        offset=query.offset)
    return TagList(tags=[TagListItem.of_item(item) for item in items], total=total, offset=query.offset)


@bp.get("/tags-list")
@endpoint(summary="Every tag of the workspace, no filter, no paging (VIEW_WORKSPACE)", tag=_TAG,
          query=TagsListQuery, responses={200: AllTags}, workspace=True)
async def all_tags(request: Request, query: TagsListQuery) -> AllTags:
    caller, ws = await workspace(request)
    items = await tags.all_tags(principal=caller, workspace_id=ws.id, order_by=query.order_by,
                                order_dir=query.order_dir)
    return AllTags(tags=[TagListItem.of_item(item) for item in items])


@bp.get("/tags/<tag_id:uuid>")
@endpoint(summary="One tag (VIEW_WORKSPACE)", tag=_TAG, responses={200: Tag}, workspace=True, errors=_NOT_FOUND)
async def get_tag(request: Request, tag_id: uuid.UUID) -> Tag:
    caller, ws = await workspace(request)
    return Tag.of(await tags.get_tag(principal=caller, workspace_id=ws.id, tag_id=tag_id))


@bp.patch("/tags/<tag_id:uuid>")
@endpoint(summary="Change a tag's label, description or color (EDIT_WORKSPACE); null clears, absent keeps",
          tag=_TAG, body=TagUpdate, responses={200: Tag}, workspace=True,
          errors=gated({**_NOT_FOUND, 409: ["TAG_ALREADY_EXISTS"]}))
async def update_tag(request: Request, tag_id: uuid.UUID, body: TagUpdate) -> Tag:
    caller, ws = await workspace(request)
    async with unit_of_work():
        tag = await tags.update_tag(principal=caller, workspace_id=ws.id, change=body.as_domain(tag_id))
    return Tag.of(tag)


@bp.delete("/tags/<tag_id:uuid>")
@endpoint(summary="Delete a tag no vault carries and no policy rule refers to (EDIT_WORKSPACE)", tag=_TAG,
          responses={204: None}, workspace=True, errors=gated({**_NOT_FOUND, 409: ["TAG_ATTACHED_TO_VAULT", _IN_POLICY]}))
async def delete_tag(request: Request, tag_id: uuid.UUID) -> None:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await tags.delete_tag(principal=caller, workspace_id=ws.id, deletion=tags.TagDeletion(tag_id=tag_id))


async def _set_protected(request: Request, tag_id: uuid.UUID, *, protected: bool) -> Tag:
    caller, ws = await workspace(request)
    async with unit_of_work():
        tag = await tags.set_protected(principal=caller, workspace_id=ws.id, tag_id=tag_id, protected=protected)
    return Tag.of(tag)


@bp.post("/tags/<tag_id:uuid>/protect")
@endpoint(summary="Owner: protect a tag, so that policy rules evaluate it (MANAGE_PROTECTED_TAGS)", tag=_TAG,
          responses={200: Tag}, workspace=True, errors=_NOT_FOUND)
async def protect_tag(request: Request, tag_id: uuid.UUID) -> Tag:
    return await _set_protected(request, tag_id, protected=True)


@bp.post("/tags/<tag_id:uuid>/unprotect")
@endpoint(summary="Owner: unprotect a tag no policy rule refers to (MANAGE_PROTECTED_TAGS)", tag=_TAG,
          responses={200: Tag}, workspace=True, errors={**_NOT_FOUND, 409: [_IN_POLICY]})
async def unprotect_tag(request: Request, tag_id: uuid.UUID) -> Tag:
    return await _set_protected(request, tag_id, protected=False)


@bp.post("/vault/tags")
@endpoint(summary="Attach and detach tags on vaults (EDIT_WORKSPACE); each (vault, tag) pair is applied or "
                  "rejected", tag=_TAG, body=VaultTagsChange, responses={200: TagOperations}, workspace=True,
          errors=gated({400: ["TAG_ATTACH_DETACH_CONFLICT"]}))
async def change_vault_tags(request: Request, body: VaultTagsChange) -> TagOperations:
    caller, ws = await workspace(request)
    async with unit_of_work():
        result = await tags.change_vault_tags(principal=caller, workspace_id=ws.id, change=body.as_domain())
    return TagOperations.of(result)
