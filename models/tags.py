"""Tags: named labels of a workspace, attached to its vaults (accounts).

- :class:`Tag`: a label of one workspace. ``label_key`` is the label case-folded; the unique
  pair (workspace, label_key) makes labels unique per workspace regardless of case ("VIP" and
  "vip" are the same label), and the lists sort by it. ``is_protected`` marks the tags policy
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
    #: 2 to 32 characters, trimmed (domain.tags.LABEL_PATTERN).
    label = fields.CharField(max_length=32)
    #: ``label.casefold()``: uniqueness and order are case-insensitive.
    label_key = fields.CharField(max_length=64)
    description = fields.CharField(max_length=255, null=True)
    #: ``#rrggbb``, lower case.
    color = fields.CharField(max_length=7, null=True)
    is_protected = fields.BooleanField(default=False)

    class Meta:
        table = "tags"
        unique_together = (("workspace_id", "label_key"),)


class VaultTag(Model):
    """A tag on a vault; ``created_at`` is when it was attached (the newest show in tag lists)."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    tag = fields.ForeignKeyField("models.Tag", related_name=False, on_delete=fields.RESTRICT)
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "vault_tags"
        unique_together = (("vault_id", "tag_id"),)
        indexes = (("tag_id", "created_at", "vault_id"),)
