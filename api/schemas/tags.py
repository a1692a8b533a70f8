"""Tag requests and responses (/api/v1/tags, /api/v1/tags-list, /api/v1/vault/tags; docs/tags.md).

The rules of each value are the domain's (domain/tags.py); the schemas publish the same
patterns and bounds, and the service checks them again (a change may be replayed later).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, StringConstraints

from api.schemas.common import QueryParams, RequestBody, Resource, Timestamp, absent_means_unchanged, page_query, text
from domain import tags
from models.tags import Tag as TagRow

Label = Annotated[str, StringConstraints(pattern=tags.LABEL_PATTERN), AfterValidator(tags.clean_label)]
Description = text(max_length=tags.DESCRIPTION_MAX_LENGTH)
#: The ``label`` filter of GET /tags: a prefix, taken as sent (not trimmed).
LabelPrefix = text(max_length=tags.LABEL_MAX_LENGTH, strip=False)
Color = Annotated[str, StringConstraints(pattern=tags.COLOR_PATTERN), AfterValidator(tags.clean_color)]
OrderBy = Literal[tags.ORDER_BY]
OrderDir = Literal[tags.ORDER_DIR]
RejectionReason = Literal[tags.REJECTION_REASONS]

_LABEL_TEXT = f"{tags.LABEL_RULE[0].upper()}{tags.LABEL_RULE[1:]}; unique in the workspace, ignoring case."
_DESCRIPTION_TEXT = f"1 to {tags.DESCRIPTION_MAX_LENGTH} characters, trimmed; an empty string is refused."
_COLOR_TEXT = "Hex color #rrggbb; answered in lower case. An empty string is refused."
_ORDER_BY_TEXT = "Sort key (default label); the label is the secondary key."
_ORDER_DIR_TEXT = "asc (default) or desc."


# --- requests ----------------------------------------------------------------------------------------


class TagCreate(RequestBody):
    label: Label = Field(description=_LABEL_TEXT)
    description: Description | None = Field(None, description=f"{_DESCRIPTION_TEXT} Leave it out for none.")
    color: Color | None = Field(None, description=f"{_COLOR_TEXT} Leave it out for none.")
    is_protected: bool | None = Field(None, description="Ignored: every tag is created unprotected (the owner "
                                                        "protects it with POST /tags/{tag_id}/protect).")

    def as_domain(self) -> tags.NewTag:
        return tags.NewTag(label=self.label, description=self.description, color=self.color)


class TagUpdate(RequestBody):
    """Any of the fields; an absent field stays as it is, null clears description or color."""

    label: Label = Field(None, description=_LABEL_TEXT, json_schema_extra=absent_means_unchanged)  # type: ignore[assignment]  # absent means unchanged
    description: Description | None = Field(None, description=f"{_DESCRIPTION_TEXT} null clears it.")
    color: Color | None = Field(None, description=f"{_COLOR_TEXT} null clears it.")

    def as_domain(self, tag_id: uuid.UUID) -> tags.TagChange:
        return tags.TagChange(tag_id=tag_id, values=self.model_dump(exclude_unset=True))


class VaultTagsChange(RequestBody):
    vault_ids: list[uuid.UUID] = Field(min_length=1, max_length=tags.VAULTS_PER_REQUEST,
                                       description=f"1 to {tags.VAULTS_PER_REQUEST} vaults (accounts).")
    tag_ids_to_attach: list[uuid.UUID] = Field(
        default_factory=list, max_length=tags.TAGS_PER_REQUEST,
        description=f"Up to {tags.TAGS_PER_REQUEST} tags to attach to every vault named.")
    tag_ids_to_detach: list[uuid.UUID] = Field(
        default_factory=list, max_length=tags.TAGS_PER_REQUEST,
        description=f"Up to {tags.TAGS_PER_REQUEST} tags to detach from every vault named; none may also be in "
                    "tag_ids_to_attach (400 TAG_ATTACH_DETACH_CONFLICT).")

    def as_domain(self) -> tags.VaultTagsChange:
        return tags.VaultTagsChange(vault_ids=tuple(self.vault_ids), attach=tuple(self.tag_ids_to_attach),
                                    detach=tuple(self.tag_ids_to_detach))


class TagListQuery(page_query(default=100, maximum=1000, name="TagPageQuery")):  # type: ignore[misc]  # a page_query class
    is_protected: bool | None = Field(None, description="Only protected (true) or only normal (false) tags.")
    label: LabelPrefix | None = Field(
        None, description="Only tags whose label starts with this, ignoring case.")
    tag_ids: list[uuid.UUID] | None = Field(None, max_length=tags.TAG_IDS_PER_LIST_FILTER,
                                            description=f"Only these tags (repeat the parameter; up to "
                                                        f"{tags.TAG_IDS_PER_LIST_FILTER}).")
    order_by: OrderBy = Field("label", description=_ORDER_BY_TEXT)
    order_dir: OrderDir = Field("asc", description=_ORDER_DIR_TEXT)


class TagsListQuery(QueryParams):
    order_by: OrderBy = Field("label", description=_ORDER_BY_TEXT)
    order_dir: OrderDir = Field("asc", description=_ORDER_DIR_TEXT)


# --- responses ---------------------------------------------------------------------------------------


class Tag(Resource):
    id: uuid.UUID
    workspace_id: uuid.UUID
    label: str
    description: str | None
    color: str | None = Field(description="#rrggbb in lower case, or null.")
    is_protected: bool = Field(description="Read-only: protected tags take part in policy rules; only the owner "
                                           "turns it on or off.")
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def fields_of(cls, tag: TagRow) -> dict[str, Any]:
        return {"id": tag.id, "workspace_id": tag.workspace_id,
                "label": tag.label, "description": tag.description, "color": tag.color,
                "is_protected": tag.is_protected, "created_at": tag.created_at, "updated_at": tag.updated_at}

    @classmethod
    def of(cls, tag: TagRow) -> "Tag":
        return cls(**cls.fields_of(tag))


class TagVault(Resource):
    """A vault (account) in a tag's preview."""

    id: uuid.UUID
    name: str


class TagListItem(Tag):
    vaults: list[TagVault] = Field(description=f"The {tags.VAULT_PREVIEW_SIZE} vaults that got the tag last "
                                               "(newest attachment first).")
    vaults_total: int = Field(ge=0, description="How many vaults carry the tag.")

    @classmethod
    def of_item(cls, item: tags.TagListItem) -> "TagListItem":
        return cls(**cls.fields_of(item.tag), vaults=[TagVault(id=v.id, name=v.name) for v in item.vaults],
                   vaults_total=item.vaults_total)


class TagList(Resource):
    tags: list[TagListItem]
    total: int = Field(ge=0)
    offset: int = Field(ge=0)


class AllTags(Resource):
    tags: list[TagListItem]


class TagOperation(Resource):
    operation: Literal["attach", "detach"]
    tag_id: uuid.UUID
    tag_label: str | None = Field(description="Null when the tag is not the workspace's.")
    tag_protected: bool | None = Field(description="Null when the tag is not the workspace's.")
    vault_id: uuid.UUID
    vault_name: str | None = Field(description="Null when the vault is not the workspace's.")

    @classmethod
    def fields_of(cls, operation: tags.TagOperation) -> dict[str, Any]:
        return {"operation": operation.operation, "tag_id": operation.tag_id, "tag_label": operation.tag_label,
                "tag_protected": operation.tag_protected, "vault_id": operation.vault_id,
                "vault_name": operation.vault_name}


class RejectedTagOperation(TagOperation):
    reason: RejectionReason = Field(description="VAULT_NOT_FOUND, VAULT_FROZEN, TAG_NOT_FOUND, or TAG_LIMIT_REACHED "
                                                f"(the vault would carry more than {tags.TAGS_PER_VAULT} tags).")


class TagOperations(Resource):
    applied_operations: list[TagOperation]
    rejected_operations: list[RejectedTagOperation]

    @classmethod
    def of(cls, result: tags.TagOperations) -> "TagOperations":
        return cls(applied_operations=[TagOperation(**TagOperation.fields_of(o)) for o in result.applied],
                   rejected_operations=[RejectedTagOperation(**TagOperation.fields_of(o), reason=o.reason)
                                        for o in result.rejected])
