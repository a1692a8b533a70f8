"""Group requests and responses (/api/v1/groups): the approver pools of group mode."""

from __future__ import annotations

import uuid

from pydantic import Field

from api.schemas.common import Name, RequestBody, Resource, Timestamp
from domain.groups import MAX_MEMBERS, GroupRecord

Threshold = int


class GroupCreate(RequestBody):
    name: Name = Field(description="Unique among the workspace's groups (case-insensitive), 1 to 100 characters.")
    threshold: int = Field(1, ge=1, le=MAX_MEMBERS, description="How many members confirm in group mode.")
    user_uuids: list[uuid.UUID] = Field(default_factory=list, max_length=MAX_MEMBERS,
                                        description="Initial members: members of the workspace.")


class GroupUpdate(RequestBody):
    """Rename, or change the threshold (absent keeps the value)."""

    name: Name | None = None
    threshold: int | None = Field(None, ge=1, le=MAX_MEMBERS)


class GroupMembersChange(RequestBody):
    user_uuids: list[uuid.UUID] = Field(min_length=1, max_length=MAX_MEMBERS)


class Group(Resource):
    group_uuid: uuid.UUID
    tenant_uuid: uuid.UUID
    name: str
    threshold: int
    member_uuids: list[uuid.UUID]
    active_member_uuids: list[uuid.UUID] = Field(
        description="The members counted in group mode: active people whose role can use the mobile app.")
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, record: GroupRecord) -> "Group":
        g = record.group
        return cls(group_uuid=g.id, tenant_uuid=g.workspace_id, name=g.name, threshold=g.threshold,
                   member_uuids=record.member_ids, active_member_uuids=record.active_member_ids,
                   created_at=g.created_at, updated_at=g.updated_at)


class GroupList(Resource):
    groups: list[Group]
