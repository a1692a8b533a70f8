"""Vault requests and responses."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.common import Name, RequestBody, Resource, Timestamp, page_query
from api.schemas.tags import Tag
from domain import tags
from domain.signing import keys
from domain.vaults import REQUESTABLE_SCHEMES, VaultView
from models.keys import KeySet as KeySetRow

KeySetStatus = Literal["round1", "round2", "finalize", "ready", "failed"]


class VaultCreate(RequestBody):
    name: Name = Field(description="Display name, 1 to 100 characters.")


class VaultRename(RequestBody):
    name: Name


class KeySetRequest(RequestBody):
    scheme: Literal[REQUESTABLE_SCHEMES] = Field(
        description="The threshold scheme of the key set to generate: FROST-secp256k1-SHA256-TR-v1 for Bitcoin "
                    "networks, ECDSA-secp256k1-cait-sith-v1 (threshold ECDSA) for EVM networks, FROST-ED25519-SHA512-v1 "
                    "for the others.")


class KeySetSummary(Resource):
    id: uuid.UUID
    status: KeySetStatus = Field(description="The distributed key generation's progress; wallets need `ready`.")
    scheme: str = Field(description="Threshold scheme, e.g. FROST-ED25519-SHA512-v1.")
    group_public_key: str | None = Field(description="Hex of the group public key once ready (32 bytes for "
                                                     "Ed25519, 33 bytes SEC1 compressed for secp256k1).")

    @classmethod
    def of(cls, key_set: KeySetRow) -> "KeySetSummary":
        return cls(id=key_set.id, status=key_set.status, scheme=key_set.scheme,
                   group_public_key=keys.master_xpub(key_set.group_public_key) if key_set.group_public_key else None)


class Vault(Resource):
    id: uuid.UUID
    workspace_id: uuid.UUID
    name: str
    is_frozen: bool
    key_set: KeySetSummary | None = Field(description="The vault's FROST(Ed25519) key set (its key in this API).")
    key_sets: list[KeySetSummary] = Field(
        description="The vault's newest key set of every scheme, Ed25519 first: also a FROST-secp256k1-SHA256-TR-v1 "
                    "(Taproot) one when its workspace's networks include Bitcoin; a wallet needs its network's "
                    "key set ready.")
    tags: list[Tag] = Field(description="The tags the vault carries, in label order (empty when none).")
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, view: VaultView) -> "Vault":
        vault, key_set = view.vault, view.key_set
        return cls(
            id=vault.id, workspace_id=vault.workspace_id,
            name=vault.name, is_frozen=vault.is_frozen,
            key_set=None if key_set is None else KeySetSummary.of(key_set),
            key_sets=[KeySetSummary.of(k) for k in view.key_sets],
            tags=[Tag.of(tag) for tag in view.tags], created_at=vault.created_at, updated_at=vault.updated_at,
        )


class VaultList(Resource):
    accounts: list[Vault]
    offset: int
    total: int


class VaultListQuery(page_query(default=100, maximum=1000, name="VaultPageQuery")):  # type: ignore[misc]  # a page_query class
    tag_ids: list[uuid.UUID] | None = Field(
        None, max_length=tags.TAG_IDS_PER_VAULT_FILTER,
        description=f"Only vaults carrying these tags (repeat the parameter; up to {tags.TAG_IDS_PER_VAULT_FILTER}).")
    tag_match_mode: Literal[tags.MATCH_MODES] | None = Field(
        None, description="any (the default): vaults carrying at least one of tag_ids; all: carrying every one. "
                          "Only with tag_ids (400 otherwise).")
