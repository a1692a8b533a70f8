"""Tags: labels of a workspace that its vaults (accounts) carry, for filtering and as policy conditions.

The spec's rules (section "Tags"), and what this module decides where the spec is silent
(docs/tags.md):

- **Label.** 2 to 32 characters of Latin letters (A-Z, a-z), Cyrillic letters (U+0400-U+0481,
  U+048A-U+04FF: Russian, Ukrainian, Belarusian, Serbian, Kazakh...), digits 0-9, underscore,
  hyphen and spaces; surrounding spaces are trimmed. Unique per workspace *ignoring case and
  look-alike letters*: "VIP" and "vip", or "tag" and "tаg" (a Cyrillic а), would look like one
  tag in a policy rule, so the second is 409 TAG_ALREADY_EXISTS. Two labels are one when the
  UTS #39 confusable skeletons of their case-folded forms are equal (:func:`label_skeleton`,
  a column with a unique index per workspace, so concurrent requests cannot both pass). The
  label keeps the case it was given; lists sort by the case-folded label.
- **Description** up to 255 characters (trimmed, no control characters); **color** ``#rrggbb``,
  stored in lower case. Empty strings are refused; on update ``None`` clears a value and an
  absent field stays (:class:`TagChange`).
- **Protection.** Only protected tags are evaluated by policy rules, so turning protection on or
  off changes what policies do: it is the workspace owner's action (MANAGE_PROTECTED_TAGS,
  :func:`set_protected`), audited, and refused (TAG_IS_USED_IN_POLICY_RULE) for unprotecting a
  tag a policy rule refers to. ``is_protected`` on create is ignored (spec).
- **Delete** only when no vault carries the tag (TAG_ATTACHED_TO_VAULT) and nothing refers to it
  (TAG_IS_USED_IN_POLICY_RULE; see :func:`register_reference_provider`). The row is deleted;
  the audit entry keeps what it was, and the label can be used again.
- **Attach and detach** (:func:`change_vault_tags`): naming a protected tag needs
  MANAGE_PROTECTED_TAGS too (the owner's: detaching one would let a vault escape a rule; 403
  otherwise, nothing applied). Per (vault, tag) pair, applied or rejected
  with a reason; the request as a whole fails only when it is malformed, or names one tag both
  to attach and to detach (400 TAG_ATTACH_DETACH_CONFLICT). Attaching an attached tag, or
  detaching one that is not attached, is applied, changes nothing and records nothing.

Each change is one service function taking one frozen description of the change
(:class:`NewTag`, :class:`TagChange`, :class:`TagDeletion`, :class:`VaultTagsChange`). Its ``payload()`` is what the change approval engine (spec rule 10,
a later issue) will store as the request's payload, with the spec's ``operation`` name, and
``from_payload`` rebuilds it so the engine can replay the same function after approval. A change
that changes nothing writes nothing and records nothing, so it needs no approval either.

Concurrency: a change locks what it changes. Vaults are locked before tags, each set in id
order, so two requests never wait on each other in a cycle; a delete locks its tag FOR UPDATE,
which waits for attaches in flight (they hold the tag FOR NO KEY UPDATE) and makes later ones
find the tag gone.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Mapping, Protocol, Sequence

from tortoise import connections
from tortoise.exceptions import IntegrityError
from tortoise.expressions import Subquery
from tortoise.functions import Count
from tortoise.queryset import QuerySet
from tortoise.transactions import in_transaction

from common import confusables
from domain import audit
from domain.auth import Principal
from domain.change_approvals import registry as approvals
from domain.change_approvals.gate import gate
from domain.errors import Conflict, NotFound, PermissionDenied, ValidationFailed, field_error
from domain.permissions import Permission
from models.tags import Tag, VaultTag
from models.vaults import Vault

# --- limits (spec "Limits") ------------------------------------------------------------------------

LABEL_MIN_LENGTH = 2
LABEL_MAX_LENGTH = 32
DESCRIPTION_MAX_LENGTH = 255
#: Tags one vault may carry.
TAGS_PER_VAULT = 20
#: Vaults named by one POST /vault/tags.
VAULTS_PER_REQUEST = 100
#: Tags to attach, and tags to detach, in one POST /vault/tags.
TAGS_PER_REQUEST = 20
#: Tag ids in the GET /tags filter.
TAG_IDS_PER_LIST_FILTER = 100
#: Tag ids in the GET /vault filter.
TAG_IDS_PER_VAULT_FILTER = 20
#: Vaults shown per tag in the tag lists.
VAULT_PREVIEW_SIZE = 5

# --- values --------------------------------------------------------------------------------------

#: A character of a label other than a space.
_LABEL_CHARACTER = "A-Za-z0-9_\u0400-\u0481\u048a-\u04ff-"
#: A label as it may be sent: surrounding spaces (trimmed), then 2 to 32 characters that begin and
#: end with a non-space. The API publishes this pattern, so the document and the rule agree.
LABEL_PATTERN = (rf"^ *[{_LABEL_CHARACTER}][{_LABEL_CHARACTER} ]{{0,{LABEL_MAX_LENGTH - 2}}}"
                 rf"[{_LABEL_CHARACTER}] *$")
LABEL_RULE = ("2 to 32 characters: Latin or Cyrillic letters, digits, underscore, hyphen and spaces "
              "(surrounding spaces are trimmed)")
COLOR_PATTERN = r"^#[0-9A-Fa-f]{6}$"
_LABEL = re.compile(LABEL_PATTERN)
_COLOR = re.compile(COLOR_PATTERN)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

OrderBy = Literal["label", "created_at", "updated_at", "is_protected"]
OrderDir = Literal["asc", "desc"]
ORDER_BY: tuple[str, ...] = ("label", "created_at", "updated_at", "is_protected")
ORDER_DIR: tuple[str, ...] = ("asc", "desc")
MatchMode = Literal["any", "all"]
MATCH_MODES: tuple[str, ...] = ("any", "all")

ATTACH, DETACH = "attach", "detach"
#: Why a (vault, tag) pair was rejected (``reason`` of a rejected operation).
VAULT_NOT_FOUND = "VAULT_NOT_FOUND"
VAULT_FROZEN = "VAULT_FROZEN"
TAG_NOT_FOUND = "TAG_NOT_FOUND"
TAG_LIMIT_REACHED = "TAG_LIMIT_REACHED"
REJECTION_REASONS: tuple[str, ...] = (VAULT_NOT_FOUND, VAULT_FROZEN, TAG_NOT_FOUND, TAG_LIMIT_REACHED)

UPDATABLE_FIELDS = frozenset({"label", "description", "color"})


def clean_label(value: Any) -> str:
    """The label as stored (surrounding spaces trimmed); a 400 naming ``label`` otherwise."""
    if not isinstance(value, str) or not _LABEL.match(value):
        raise field_error("label", f"must be {LABEL_RULE}")
    return value.strip(" ")


def clean_description(value: Any) -> str | None:
    """``None`` (no description) or 1 to 255 characters, trimmed, without control characters."""
    if value is None:
        return None
    if not isinstance(value, str) or _CONTROL.search(value):
        raise field_error("description", "must be text without control characters")
    text = value.strip()
    if not text:
        raise field_error("description", "must not be empty (leave it out, or send null to clear it)")
    if len(text) > DESCRIPTION_MAX_LENGTH:
        raise field_error("description", f"must be at most {DESCRIPTION_MAX_LENGTH} characters")
    return text


def clean_color(value: Any) -> str | None:
    """``None`` (no color) or ``#rrggbb``, returned in lower case."""
    if value is None:
        return None
    if not isinstance(value, str) or not _COLOR.match(value):
        raise field_error("color", "must be a hex color like #1a2b3c")
    return value.lower()


def label_key(label: str) -> str:
    """How labels sort and how a prefix filter compares them: the label case-folded."""
    return label.casefold()


def label_skeleton(label: str) -> str:
    """What makes two labels the same: the UTS #39 confusable skeleton of the case-folded label
    (case-folded first, so that "VIP" and "vip" stay one label as they always were)."""
    return confusables.skeleton(label.casefold())


# --- the changes, as an approval engine will store and replay them ----------------------------------


@dataclass(frozen=True)
class NewTag:
    """Create a tag (operation ``create``)."""

    operation: ClassVar[str] = "create"
    label: str
    description: str | None = None
    color: str | None = None

    def payload(self) -> dict[str, Any]:
        return {"operation": self.operation, "label": self.label, "description": self.description,
                "color": self.color}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "NewTag":
        return cls(label=payload["label"], description=payload.get("description"), color=payload.get("color"))


@dataclass(frozen=True)
class TagChange:
    """Change a tag (operation ``update``): ``values`` holds only the fields given; ``None``
    clears description or color, an absent field stays as it is."""

    operation: ClassVar[str] = "update"
    tag_id: uuid.UUID
    values: Mapping[str, str | None]

    def payload(self) -> dict[str, Any]:
        return {"operation": self.operation, "tag_id": str(self.tag_id), "values": dict(self.values)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "TagChange":
        return cls(tag_id=uuid.UUID(payload["tag_id"]), values=dict(payload["values"]))


@dataclass(frozen=True)
class TagDeletion:
    """Delete a tag (operation ``delete``)."""

    operation: ClassVar[str] = "delete"
    tag_id: uuid.UUID

    def payload(self) -> dict[str, Any]:
        return {"operation": self.operation, "tag_id": str(self.tag_id)}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "TagDeletion":
        return cls(tag_id=uuid.UUID(payload["tag_id"]))


@dataclass(frozen=True)
class VaultTagsChange:
    """Attach and detach tags on vaults (operation ``attach_detach``). Repeated ids count once."""

    operation: ClassVar[str] = "attach_detach"
    vault_ids: tuple[uuid.UUID, ...]
    attach: tuple[uuid.UUID, ...] = ()
    detach: tuple[uuid.UUID, ...] = ()

    def __post_init__(self) -> None:
        for name in ("vault_ids", "attach", "detach"):
            object.__setattr__(self, name, tuple(dict.fromkeys(getattr(self, name))))

    def payload(self) -> dict[str, Any]:
        return {"operation": self.operation, "vault_ids": [str(i) for i in self.vault_ids],
                "tag_ids_to_attach": [str(i) for i in self.attach],
                "tag_ids_to_detach": [str(i) for i in self.detach]}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> "VaultTagsChange":
        return cls(vault_ids=tuple(uuid.UUID(i) for i in payload["vault_ids"]),
                   attach=tuple(uuid.UUID(i) for i in payload["tag_ids_to_attach"]),
                   detach=tuple(uuid.UUID(i) for i in payload["tag_ids_to_detach"]))

    def check(self) -> None:
        """The request's own rules: its limits, at least one tag, and no tag both ways (rule 4)."""
        if not 1 <= len(self.vault_ids) <= VAULTS_PER_REQUEST:
            raise field_error("vault_ids", f"must name 1 to {VAULTS_PER_REQUEST} vaults")
        for name, ids in (("tag_ids_to_attach", self.attach), ("tag_ids_to_detach", self.detach)):
            if len(ids) > TAGS_PER_REQUEST:
                raise field_error(name, f"must name at most {TAGS_PER_REQUEST} tags")
        if not self.attach and not self.detach:
            raise field_error("tag_ids_to_attach", "name at least one tag to attach or to detach")
        both = [tag_id for tag_id in self.attach if tag_id in set(self.detach)]
        if both:
            raise ValidationFailed(
                "a tag cannot be attached and detached in one request", code="TAG_ATTACH_DETACH_CONFLICT",
                details={"field": "tag_ids_to_detach", "reason": "names a tag that tag_ids_to_attach also names",
                         "tag_ids": [str(tag_id) for tag_id in both]})


# --- what refers to a tag ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TagReference:
    """Something that refers to a tag, which therefore cannot be deleted or unprotected."""

    tag_id: uuid.UUID
    #: What refers to it, e.g. ``policy_rule``.
    kind: str
    id: str
    name: str | None = None

    def as_details(self) -> dict[str, Any]:
        return {"tag_id": str(self.tag_id), "kind": self.kind, "id": self.id, "name": self.name}


class TagReferenceProvider(Protocol):
    """Answers which of ``tag_ids`` (tags of ``workspace_id``) it refers to.

    Called inside the caller's transaction, after the tag is locked: a provider reads its own
    tables there, and whoever saves a new reference must lock the tag (FOR KEY SHARE or
    stronger) in the same transaction, so a delete and a new reference cannot both succeed.
    """

    async def __call__(self, *, workspace_id: uuid.UUID,
                       tag_ids: Sequence[uuid.UUID]) -> Sequence[TagReference]: ...


_reference_providers: dict[str, TagReferenceProvider] = {}


def register_reference_provider(name: str, provider: TagReferenceProvider) -> None:
    """Make ``provider`` keep the tags it refers to from being deleted or unprotected.

    The policy rules (a later issue) register theirs when their module is imported: that module
    imports this one to check the tags a rule names, so this one cannot import it back. Registering
    the same name again replaces the provider.
    """
    _reference_providers[name] = provider


def unregister_reference_provider(name: str) -> None:
    _reference_providers.pop(name, None)


async def references_to(*, workspace_id: uuid.UUID, tag_ids: Sequence[uuid.UUID]) -> list[TagReference]:
    """Everything any registered provider says refers to ``tag_ids``."""
    found: list[TagReference] = []
    for provider in list(_reference_providers.values()):
        found.extend(await provider(workspace_id=workspace_id, tag_ids=tag_ids))
    return found


async def _refuse_if_referenced(tag: Tag, *, doing: str) -> None:
    references = await references_to(workspace_id=tag.workspace_id, tag_ids=[tag.id])
    if references:
        raise Conflict(f"the tag cannot be {doing}: a policy rule refers to it", code="TAG_IS_USED_IN_POLICY_RULE",
                       details={"tag_id": str(tag.id), "references": [r.as_details() for r in references]})


# --- reading -----------------------------------------------------------------------------------------


def _require(principal: Principal | None, workspace_id: uuid.UUID, permission: Permission) -> None:
    if principal is not None:
        principal.require(workspace_id, permission)


def _actor(principal: Principal | None) -> uuid.UUID | None:
    return principal.user.id if principal is not None else None


def _not_found(tag_id: uuid.UUID) -> NotFound:
    return NotFound("tag not found", code="TAG_NOT_FOUND", details={"tag_id": str(tag_id)})


async def _load(workspace_id: uuid.UUID, tag_id: uuid.UUID, *, lock: Literal["update", "no_key"] | None = None) -> Tag:
    """The tag of this workspace; 404 TAG_NOT_FOUND for a missing, deleted or foreign one."""
    query = Tag.filter(id=tag_id, workspace_id=workspace_id)
    if lock is not None:
        query = query.select_for_update(no_key=lock == "no_key")
    tag = await query.first()
    if tag is None:
        raise _not_found(tag_id)
    return tag


async def get_tag(*, principal: Principal | None, workspace_id: uuid.UUID, tag_id: uuid.UUID) -> Tag:
    _require(principal, workspace_id, Permission.VIEW_WORKSPACE)
    return await _load(workspace_id, tag_id)


@dataclass(frozen=True)
class VaultPreview:
    id: uuid.UUID
    name: str


@dataclass(frozen=True)
class TagListItem:
    """A tag as the lists show it: with its newest vaults and how many vaults carry it."""

    tag: Tag
    vaults: list[VaultPreview]
    vaults_total: int


def _ordering(order_by: str, order_dir: str) -> list[str]:
    """Rule 1: the chosen key in the chosen direction, then the label (ascending), then the id."""
    if order_by not in ORDER_BY or order_dir not in ORDER_DIR:
        raise field_error("order_by" if order_by not in ORDER_BY else "order_dir", "is not a known value")
    sign = "-" if order_dir == "desc" else ""
    if order_by == "label":
        return [f"{sign}label_key", f"{sign}label", f"{sign}id"]
    return [f"{sign}{order_by}", "label_key", "label", "id"]


# One index range scan per tag ((tag_id, created_at, vault_id)): the newest attachments first.
# Vaults cannot be deleted yet, so every attached vault counts; once they can, the filter goes here.
_PREVIEW_SQL = """
SELECT wanted.tag_id, preview.vault_id, preview.vault_name
FROM unnest($1::uuid[]) AS wanted(tag_id)
CROSS JOIN LATERAL (
    SELECT v.id AS vault_id, v.name AS vault_name
    FROM vault_tags vt JOIN vaults v ON v.id = vt.vault_id
    WHERE vt.tag_id = wanted.tag_id
    ORDER BY vt.created_at DESC, vt.vault_id DESC
    LIMIT $2
) AS preview
"""


async def _with_vaults(tags: Sequence[Tag]) -> list[TagListItem]:
    if not tags:
        return []
    ids = [tag.id for tag in tags]
    counts = dict(await VaultTag.filter(tag_id__in=ids).annotate(total=Count("id")).group_by("tag_id")
                  .values_list("tag_id", "total"))
    previews: dict[uuid.UUID, list[VaultPreview]] = {}
    rows = await connections.get("default").execute_query_dict(_PREVIEW_SQL, [ids, VAULT_PREVIEW_SIZE])
    for row in rows:
        previews.setdefault(row["tag_id"], []).append(VaultPreview(row["vault_id"], row["vault_name"]))
    return [TagListItem(tag, previews.get(tag.id, []), counts.get(tag.id, 0)) for tag in tags]


async def list_tags(
    *,
    principal: Principal | None,
    workspace_id: uuid.UUID,
    is_protected: bool | None = None,
    label_prefix: str | None = None,
    tag_ids: Sequence[uuid.UUID] | None = None,
    order_by: str = "label",
    order_dir: str = "asc",
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[TagListItem], int]:
    """GET /tags: one page of the workspace's tags and how many match.

    ``label_prefix`` matches the start of the label ignoring case, like label uniqueness;
    ``tag_ids`` keeps only those tags (ids of other workspaces match nothing).
    """
    _require(principal, workspace_id, Permission.VIEW_WORKSPACE)
    if tag_ids is not None and len(set(tag_ids)) > TAG_IDS_PER_LIST_FILTER:
        raise field_error("tag_ids", f"must name at most {TAG_IDS_PER_LIST_FILTER} tags")
    query = Tag.filter(workspace_id=workspace_id)
    if is_protected is not None:
        query = query.filter(is_protected=is_protected)
    if label_prefix is not None:
        query = query.filter(label_key__startswith=label_key(label_prefix))
    if tag_ids is not None:
        query = query.filter(id__in=list(set(tag_ids)))
    total = await query.count()
    tags = await query.order_by(*_ordering(order_by, order_dir)).offset(offset).limit(limit)
    return await _with_vaults(tags), total


async def all_tags(*, principal: Principal | None, workspace_id: uuid.UUID, order_by: str = "label",
                   order_dir: str = "asc") -> list[TagListItem]:
    """GET /tags-list: every tag of the workspace, no filter, no paging."""
    _require(principal, workspace_id, Permission.VIEW_WORKSPACE)
    tags = await Tag.filter(workspace_id=workspace_id).order_by(*_ordering(order_by, order_dir))
    return await _with_vaults(tags)


async def tags_by_vault(vault_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[Tag]]:
    """The tags each vault carries, each list in label order (vaults without tags are absent).

    Raw rows: a page of 1000 vaults with 20 tags each is 20,000 pairs, which the ORM takes
    several times longer to build; the few distinct tags come sorted from the ORM.
    """
    if not vault_ids:
        return {}
    _, pairs = await connections.get("default").execute_query(
        "SELECT vault_id, tag_id FROM vault_tags WHERE vault_id = ANY($1::uuid[])", [list(vault_ids)])
    ordered = await Tag.filter(id__in={tag_id for _, tag_id in pairs}).order_by("label_key", "label", "id")
    rank = {tag.id: index for index, tag in enumerate(ordered)}
    # Two statements, two snapshots: a tag detached and deleted in between is left out.
    present = [pair for pair in pairs if pair[1] in rank]
    carried: dict[uuid.UUID, list[Tag]] = {}
    for vault_id, tag_id in sorted(present, key=lambda pair: rank[pair[1]]):
        carried.setdefault(vault_id, []).append(ordered[rank[tag_id]])
    return carried


def vaults_tagged(query: QuerySet[Vault], *, tag_ids: Sequence[uuid.UUID] | None,
                  match_mode: str | None) -> QuerySet[Vault]:
    """``query`` narrowed to vaults carrying any (or, with ``all``, every one) of ``tag_ids``.

    Rule 7: a match mode without tags is a 400. Unknown tag ids match nothing.
    """
    if match_mode is not None and not tag_ids:
        raise field_error("tag_match_mode", "needs tag_ids")
    if not tag_ids:
        return query
    if match_mode not in (None, *MATCH_MODES):
        raise field_error("tag_match_mode", f"must be one of {', '.join(MATCH_MODES)}")
    wanted = list(dict.fromkeys(tag_ids))
    if len(wanted) > TAG_IDS_PER_VAULT_FILTER:
        raise field_error("tag_ids", f"must name at most {TAG_IDS_PER_VAULT_FILTER} tags")
    carrying = VaultTag.filter(tag_id__in=wanted)
    if match_mode == "all":
        # (vault, tag) is unique, so a vault carrying every one has exactly len(wanted) rows here.
        carrying = (carrying.annotate(matched=Count("id")).group_by("vault_id").filter(matched=len(wanted)))
    return query.filter(id__in=Subquery(carrying.values("vault_id")))


# --- changing ----------------------------------------------------------------------------------------


def _label_taken(label: str) -> Conflict:
    return Conflict(f"the workspace already has a tag labelled {label!r}, or one that reads the same (case and "
                    "look-alike letters do not count)", code="TAG_ALREADY_EXISTS",
                    details={"field": "label", "label": label})


async def _save_unique(tag: Tag, **kwargs: Any) -> None:
    """Save in a savepoint: a label another tag took meanwhile is a 409, not a broken transaction."""
    try:
        async with in_transaction():
            await tag.save(**kwargs)
    except IntegrityError:
        raise _label_taken(tag.label) from None


def _snapshot(tag: Tag) -> dict[str, Any]:
    return {"label": tag.label, "description": tag.description, "color": tag.color,
            "is_protected": tag.is_protected}


async def create_tag(*, principal: Principal | None, workspace_id: uuid.UUID, tag: NewTag) -> Tag:
    """POST /tags: a new, unprotected tag (409 TAG_ALREADY_EXISTS for a label in use)."""
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    label = clean_label(tag.label)
    row = Tag(workspace_id=workspace_id, label=label, label_key=label_key(label),
              label_skeleton=label_skeleton(label),
              description=clean_description(tag.description), color=clean_color(tag.color))
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_TAGS, operation=tag.operation,
               payload=tag.payload())
    await _save_unique(row)
    await audit.record(action="tag.created", object_type="tag", object_id=row.id, actor_id=_actor(principal),
                       workspace_id=workspace_id, details=_snapshot(row))
    return row


def planned_changes(tag: Tag, values: Mapping[str, str | None]) -> dict[str, tuple[Any, Any]]:
    """What ``values`` would change on ``tag``: ``{field: (now, then)}``, empty when nothing.

    Validates every value first, so a bad field leaves the tag untouched.
    """
    unknown = sorted(set(values) - UPDATABLE_FIELDS)
    if unknown:
        raise field_error(unknown[0], f"is not a field of a tag change ({', '.join(sorted(UPDATABLE_FIELDS))})")
    cleaned: dict[str, str | None] = {}
    if "label" in values:
        if values["label"] is None:
            raise field_error("label", "cannot be cleared")
        cleaned["label"] = clean_label(values["label"])
    if "description" in values:
        cleaned["description"] = clean_description(values["description"])
    if "color" in values:
        cleaned["color"] = clean_color(values["color"])
    return {name: (getattr(tag, name), value) for name, value in cleaned.items() if getattr(tag, name) != value}


async def update_tag(*, principal: Principal | None, workspace_id: uuid.UUID, change: TagChange) -> Tag:
    """PATCH /tags/{id}: change label, description or color; a change of nothing records nothing."""
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    tag = await _load(workspace_id, change.tag_id, lock="no_key")
    changes = planned_changes(tag, change.values)
    # A change of nothing executes at once (and an approved one ends EXECUTED with no change).
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_TAGS,
               operation=change.operation, payload=change.payload(), noop=not changes)
    if not changes:
        return tag
    for name, (_, value) in changes.items():
        setattr(tag, name, value)
    fields = list(changes)
    if "label" in changes:
        new_key, new_skeleton = label_key(tag.label), label_skeleton(tag.label)
        if new_key != tag.label_key:
            tag.label_key = new_key
            fields.append("label_key")
        if new_skeleton != tag.label_skeleton:
            tag.label_skeleton = new_skeleton
            fields.append("label_skeleton")
    await _save_unique(tag, update_fields=fields)
    await audit.record(action="tag.updated", object_type="tag", object_id=tag.id, actor_id=_actor(principal),
                       workspace_id=workspace_id,
                       details={"label": tag.label,
                                "changes": {name: {"from": old, "to": new} for name, (old, new) in changes.items()}})
    return tag


async def delete_tag(*, principal: Principal | None, workspace_id: uuid.UUID, deletion: TagDeletion) -> None:
    """DELETE /tags/{id}: only a tag no vault carries (rule 9) and nothing refers to (rule 8)."""
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    tag = await _load(workspace_id, deletion.tag_id, lock="update")
    carried_by = await VaultTag.filter(tag_id=tag.id).count()
    if carried_by:
        raise Conflict("the tag is attached to vaults: detach it first", code="TAG_ATTACHED_TO_VAULT",
                       details={"tag_id": str(tag.id), "vaults_total": carried_by})
    await _refuse_if_referenced(tag, doing="deleted")
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_TAGS,
               operation=deletion.operation, payload=deletion.payload())
    await tag.delete()
    await audit.record(action="tag.deleted", object_type="tag", object_id=tag.id, actor_id=_actor(principal),
                       workspace_id=workspace_id, details=_snapshot(tag))


async def set_protected(*, principal: Principal | None, workspace_id: uuid.UUID, tag_id: uuid.UUID,
                        protected: bool) -> Tag:
    """POST /tags/{id}/protect and /unprotect: the owner's action (MANAGE_PROTECTED_TAGS).

    Repeating the current state changes and records nothing. Unprotecting a tag a policy rule
    refers to is refused: the rule would silently stop matching (rule 3).
    """
    _require(principal, workspace_id, Permission.MANAGE_PROTECTED_TAGS)
    tag = await _load(workspace_id, tag_id, lock="update")
    if tag.is_protected == protected:
        return tag
    if not protected:
        await _refuse_if_referenced(tag, doing="unprotected")
    tag.is_protected = protected
    await tag.save(update_fields=["is_protected"])
    await audit.record(action="tag.protected" if protected else "tag.unprotected", object_type="tag",
                       object_id=tag.id, actor_id=_actor(principal), workspace_id=workspace_id,
                       details={"label": tag.label})
    return tag


@dataclass(frozen=True)
class TagOperation:
    """One (vault, tag) pair of an attach/detach request. Names are null when the vault or the tag
    is not the workspace's (nothing about another workspace is shown)."""

    operation: str
    tag_id: uuid.UUID
    tag_label: str | None
    tag_protected: bool | None
    vault_id: uuid.UUID
    vault_name: str | None
    #: Why it was rejected (one of REJECTION_REASONS); None when applied.
    reason: str | None = None


@dataclass(frozen=True)
class TagOperations:
    applied: list[TagOperation]
    rejected: list[TagOperation]


@dataclass
class _Plan:
    """What one attach/detach request will do, worked out under the locks before any write."""

    applied: list[TagOperation]
    rejected: list[TagOperation]
    attach: list[tuple[Vault, Tag]]
    detach: list[tuple[Vault, Tag]]


def _plan(change: VaultTagsChange, vaults: Mapping[uuid.UUID, Vault], tags: Mapping[uuid.UUID, Tag],
          carried: Mapping[uuid.UUID, set[uuid.UUID]]) -> _Plan:
    """Rule 5, pair by pair, vault by vault in request order, detaches before attaches:

    - a vault that is not the workspace's: every pair rejected (VAULT_NOT_FOUND);
    - a frozen vault: every pair rejected (VAULT_FROZEN);
    - a tag that is not the workspace's: rejected (TAG_NOT_FOUND);
    - detaching a tag the vault does not carry, or attaching one it carries: applied, no change;
    - attaching new tags that would take the vault past 20 tags (counted after this request's
      detaches): every new attach of that vault rejected (TAG_LIMIT_REACHED), whatever their
      order, while its detaches are still done.
    """
    plan = _Plan([], [], [], [])
    for vault_id in change.vault_ids:
        vault = vaults.get(vault_id)
        current = set(carried.get(vault_id, set()))
        to_detach = [tags[t] for t in change.detach if t in tags and t in current]
        after_detach = current - {tag.id for tag in to_detach}
        new = [t for t in change.attach if t in tags and t not in after_detach]
        over_limit = len(after_detach) + len(new) > TAGS_PER_VAULT
        for operation, tag_ids in ((DETACH, change.detach), (ATTACH, change.attach)):
            for tag_id in tag_ids:
                tag = tags.get(tag_id)
                if vault is None:
                    reason: str | None = VAULT_NOT_FOUND
                elif vault.is_frozen:
                    reason = VAULT_FROZEN
                elif tag is None:
                    reason = TAG_NOT_FOUND
                elif operation == ATTACH and tag_id in new and over_limit:
                    reason = TAG_LIMIT_REACHED
                else:
                    reason = None
                item = TagOperation(operation=operation, tag_id=tag_id,
                                    tag_label=tag.label if tag is not None else None,
                                    tag_protected=tag.is_protected if tag is not None else None,
                                    vault_id=vault_id, vault_name=vault.name if vault is not None else None,
                                    reason=reason)
                if reason is not None:
                    plan.rejected.append(item)
                    continue
                plan.applied.append(item)
                assert vault is not None and tag is not None
                if operation == DETACH and tag_id in current:
                    plan.detach.append((vault, tag))
                elif operation == ATTACH and tag_id in new:
                    plan.attach.append((vault, tag))
    return plan


def _pair_details(vault: Vault, tag: Tag) -> tuple[uuid.UUID, dict[str, Any]]:
    return tag.id, {"vault_id": str(vault.id), "vault_name": vault.name, "label": tag.label,
                    "is_protected": tag.is_protected}


def _require_protected_rights(principal: Principal | None, workspace_id: uuid.UUID, protected: list[Tag]) -> None:
    """Attaching or detaching a protected tag changes what policy rules see: it needs
    MANAGE_PROTECTED_TAGS, like protecting one (403 PERMISSION_DENIED naming the tags)."""
    if principal is None or not protected:
        return
    access = principal.require(workspace_id, Permission.EDIT_WORKSPACE)
    if Permission.MANAGE_PROTECTED_TAGS not in access.permissions:
        raise PermissionDenied(
            "attaching or detaching a protected tag needs MANAGE_PROTECTED_TAGS: policy rules evaluate it",
            code="PERMISSION_DENIED", details={"permission": Permission.MANAGE_PROTECTED_TAGS.value,
                                               "role": access.role, "tag_ids": sorted(str(t.id) for t in protected)})


async def change_vault_tags(*, principal: Principal | None, workspace_id: uuid.UUID,
                            change: VaultTagsChange) -> TagOperations:
    """POST /vault/tags: attach and detach tags on vaults, pair by pair (see :func:`_plan`).

    Every pair that changes something is audited (``tag.attached`` / ``tag.detached``, one entry
    per pair); pairs that change nothing and rejected pairs are not.
    """
    _require(principal, workspace_id, Permission.EDIT_WORKSPACE)
    change.check()
    # Vaults first, then tags, each in id order (module docstring): the vault lock also makes the
    # 20-tag count exact and waits for a freeze in flight.
    vaults = {vault.id: vault for vault in await Vault.filter(workspace_id=workspace_id, id__in=list(change.vault_ids))
              .order_by("id").select_for_update(no_key=True)}
    tags = {tag.id: tag for tag in await Tag.filter(workspace_id=workspace_id, id__in=[*change.attach, *change.detach])
            .order_by("id").select_for_update(no_key=True)}
    _require_protected_rights(principal, workspace_id, [tag for tag in tags.values() if tag.is_protected])
    carried: dict[uuid.UUID, set[uuid.UUID]] = {}
    for vault_id, tag_id in await VaultTag.filter(vault_id__in=list(vaults)).values_list("vault_id", "tag_id"):
        carried.setdefault(vault_id, set()).add(tag_id)
    plan = _plan(change, vaults, tags, carried)
    if approvals.applying.get() and not plan.applied:
        # An approved attach/detach applies the pairs valid now, without a rejected list (rule 10).
        raise Conflict("none of the approved tag changes can be applied now", code="TAG_CHANGE_NOT_APPLICABLE",
                       details={"rejected": [{"vault_id": str(o.vault_id), "tag_id": str(o.tag_id),
                                              "reason": o.reason} for o in plan.rejected]})
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_TAGS,
               operation=change.operation, payload=change.payload(), noop=not plan.attach and not plan.detach)

    by_tag: dict[uuid.UUID, list[uuid.UUID]] = {}
    for vault, tag in plan.detach:
        by_tag.setdefault(tag.id, []).append(vault.id)
    for tag_id, vault_ids in by_tag.items():
        await VaultTag.filter(tag_id=tag_id, vault_id__in=vault_ids).delete()
    if plan.attach:
        await VaultTag.bulk_create([VaultTag(vault_id=vault.id, tag_id=tag.id) for vault, tag in plan.attach])
    actor = _actor(principal)
    await audit.record_each(action="tag.detached", object_type="tag", actor_id=actor, workspace_id=workspace_id,
                            objects=[_pair_details(vault, tag) for vault, tag in plan.detach])
    await audit.record_each(action="tag.attached", object_type="tag", actor_id=actor, workspace_id=workspace_id,
                            objects=[_pair_details(vault, tag) for vault, tag in plan.attach])
    return TagOperations(applied=plan.applied, rejected=plan.rejected)


# --- the change approvals' Manage tags (registered here; applied whatever the initiator's rights) ---


def _tag_display(tag: Tag) -> dict[str, Any]:
    return {"id": str(tag.id), "label": tag.label, "color": tag.color, "is_protected": tag.is_protected}


async def _approval_display(*, workspace_id: uuid.UUID, payload: approvals.Payload) -> dict[str, Any] | None:
    """The spec's display: the tag of an update or delete; the vaults and tags of an attach/detach."""
    operation = approvals.operation_of(payload)
    if operation in ("update", "delete"):
        tag = await Tag.get_or_none(id=payload["tag_id"], workspace_id=workspace_id)
        return {"tag": _tag_display(tag) if tag else None}
    if operation == "attach_detach":
        tag_ids = [*payload["tag_ids_to_attach"], *payload["tag_ids_to_detach"]]
        found_tags = {str(t.id): t for t in await Tag.filter(id__in=tag_ids, workspace_id=workspace_id)}
        found_vaults = {str(v.id): v for v in await Vault.filter(id__in=payload["vault_ids"], workspace_id=workspace_id)}
        return {"vaults": [{"id": i, "name": found_vaults[i].name} for i in payload["vault_ids"] if i in found_vaults],
                "tags": [{**_tag_display(found_tags[i]),
                          "operation": ATTACH if i in payload["tag_ids_to_attach"] else DETACH}
                         for i in tag_ids if i in found_tags]}
    return None


async def _apply_approved(*, workspace_id: uuid.UUID, payload: approvals.Payload, principal: Principal | None) -> None:
    operation = approvals.operation_of(payload)
    if operation == NewTag.operation:
        await create_tag(principal=None, workspace_id=workspace_id, tag=NewTag.from_payload(payload))
    elif operation == TagChange.operation:
        await update_tag(principal=None, workspace_id=workspace_id, change=TagChange.from_payload(payload))
    elif operation == TagDeletion.operation:
        await delete_tag(principal=None, workspace_id=workspace_id, deletion=TagDeletion.from_payload(payload))
    elif operation == VaultTagsChange.operation:
        await change_vault_tags(principal=None, workspace_id=workspace_id,
                                change=VaultTagsChange.from_payload(payload))
    else:
        raise ValidationFailed(f"unknown operation {operation!r}")


approvals.register(approvals.GatedAction(key=approvals.MANAGE_TAGS, display_name="Manage tags",
                                         operations=("create", "update", "delete", "attach_detach"),
                                         display=_approval_display, apply=_apply_approved))
