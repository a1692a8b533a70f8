"""Tags: named labels of a workspace, attached to its vaults (accounts).

- :class:`Tag`: a label of one workspace. ``label_key`` is the label case-folded: the lists
  sort by it. ``label_skeleton`` is the UTS #39 confusable skeleton of ``label_key``: the unique
  pair (workspace, label_skeleton) makes labels unique per workspace regardless of case and of
  look-alike letters ("VIP" and "vip", "tag" and "tаg" with a Cyrillic а, are the same label). ``is_protected`` marks the tags policy
  rules evaluate; only the workspace owner turns it on or off (domain.tags).
- :class:`VaultTag`: one tag attached to one vault. A tag is deleted outright, and only while no
  vault carries it; the foreign key refuses a delete that would leave an attachment behind.
"""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import TimestampedModel


class Tag(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    #: 2 to 32 characters, trimmed (domain.tags.LABEL_PATTERN).
    label = fields.CharField(max_length=32)
    #: ``label.casefold()``: uniqueness and order are case-insensitive.
    label_key = fields.CharField(max_length=64)
    #: ``common.confusables.skeleton(label_key)`` (domain.tags.label_skeleton): what makes two labels one.
    label_skeleton = fields.CharField(max_length=160)
    description = fields.CharField(max_length=255, null=True)
    #: ``#rrggbb``, lower case.
    color = fields.CharField(max_length=7, null=True)
    is_protected = fields.BooleanField(default=False)

    class Meta:
        table = "tags"
        unique_together = (("workspace_id", "label_key"), ("workspace_id", "label_skeleton"))


class VaultTag(Model):
    """A tag on a vault; ``created_at`` is when it was attached (the newest show in tag lists)."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    vault_id: uuid.UUID
    tag = fields.ForeignKeyField("models.Tag", related_name=False, on_delete=fields.RESTRICT)
    tag_id: uuid.UUID
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "vault_tags"
        unique_together = (("vault_id", "tag_id"),)
        indexes = (("tag_id", "created_at", "vault_id"),)
