"""Policies: publish, roll back, read, explain, and the check every withdrawal passes.

* **Publishing** (:func:`publish_policy`) validates the rule list (:func:`validate_policy`:
  the schema of domain.policies.rules, then what needs the workspace: its vaults, wallets,
  whitelisted wallets, tags, members, currencies and groups) and adds the next version.
  **Rollback** (:func:`rollback_policy`) publishes a copy of an older version, validated again
  (a tag or vault it names may be gone). Both are keyword-only functions taking the whole
  payload, validation separate from application: both pass the change approvals' gate (Manage
  policies ``update`` / ``rollback``), which stores the payload and applies it later through
  :func:`apply_change` (:func:`validate_change` runs again first).
* **The check** (:class:`PolicyCheck`, registered as ``policy``) evaluates the published
  Transfer policy: its windows locked, read, decided and recorded in the check stage's
  transaction (domain.policies.windows). No published Transfer policy → allow (policies are
  opt-in; once published, no match → the version's no_match_action).
* **The AML policy** is evaluated by :func:`evaluate_aml_policy`, which :func:`install` registers as
  AML screening's policy evaluator (domain.aml.decisions).
* **Tags**: the published versions' tags are recorded in ``policy_tag_references`` (rewritten
  on publish, tags locked FOR KEY SHARE first): a tag a *published* rule names cannot be
  deleted or unprotected (TAG_IS_USED_IN_POLICY_RULE). Drafts are not stored (explain takes
  them inline), so they hold no tag; history versions hold none either (a rollback to a
  version naming a deleted tag is refused as invalid).
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping, Sequence

from tortoise import connections

from core import clock
from domain import audit, groups, tags
from domain import transaction_statuses as statuses
from domain.aml import decisions as aml_decisions
from domain.auth import Principal
from domain.change_approvals import registry as approvals
from domain.change_approvals.gate import gate
from domain.change_approvals.registry import MANAGE_POLICIES
from domain.currencies import registry
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.permissions import Permission
from domain.policies import engine, windows
from domain.policies import rules as R
from domain.withdrawals import checks, destinations, ledger
from models.policies import PolicyTagReference, PolicyVersion
from models.tags import Tag
from models.transactions import Transaction
from models.users import User, WorkspaceMember
from models.vaults import Vault
from models.wallets import Wallet
from models.whitelist import WhitelistedWallet

# --------------------------------------------------------------------------------------------
# Groups: an approver set may name a group (domain/groups.py); its members are resolved when the
# rule requires approval, so a membership change applies to the next withdrawal
# --------------------------------------------------------------------------------------------


async def resolve_group(workspace_id: uuid.UUID, group_id: str) -> list[uuid.UUID] | None:
    """The group's active members (those who can vote), or None when the workspace has no such group."""
    return await groups.active_member_ids(workspace_id=workspace_id, group_id=uuid.UUID(group_id))


# --------------------------------------------------------------------------------------------
# Reading versions
# --------------------------------------------------------------------------------------------

class PolicyTypeNotFound(NotFound):
    code = "POLICY_TYPE_NOT_FOUND"


def _policy_type(policy_type: str) -> str:
    if policy_type not in R.POLICY_TYPES:
        raise PolicyTypeNotFound(f"unknown policy type {policy_type!r}: transfer or aml",
                                 details={"policy_type": policy_type})
    return policy_type


#: Versions never change: parsed once per process (bounded).
_parsed: dict[uuid.UUID, R.ParsedPolicy] = {}


def parsed(version: PolicyVersion) -> R.ParsedPolicy:
    cached = _parsed.get(version.id)
    if cached is None:
        if len(_parsed) > 1000:
            _parsed.clear()
        cached = R.ParsedPolicy(version.policy_type, version.version,
                                R.parse_rules(version.rules, version.policy_type), version.no_match_action,
                                str(version.id))
        _parsed[version.id] = cached
    return cached


@functools.cache
def _published_version_sql() -> str:
    """The newest version of a workspace's policy of a type (made on first use: tortoise knows
    every column once it is set up). Every withdrawal's check stage asks it."""
    meta = PolicyVersion._meta  # noqa: SLF001
    names = ", ".join(f'"{column}"' for column in meta.fields_db_projection.values())
    return (f'SELECT {names} FROM "{meta.db_table}" WHERE "workspace_id" = $1 AND "policy_type" = $2 '
            'ORDER BY "version" DESC LIMIT 1')


async def published_version(workspace_id: uuid.UUID, policy_type: str) -> PolicyVersion | None:
    _, rows = await connections.get("default").execute_query(_published_version_sql(), [workspace_id, policy_type])
    return PolicyVersion._init_from_db(**rows[0]) if rows else None  # noqa: SLF001  (tortoise's own row -> model)


async def get_policy(*, principal: Principal | None, workspace_id: uuid.UUID, policy_type: str) -> PolicyVersion | None:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    return await published_version(workspace_id, _policy_type(policy_type))


async def list_versions(*, principal: Principal | None, workspace_id: uuid.UUID, policy_type: str, limit: int,
                        offset: int) -> tuple[list[PolicyVersion], int]:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    query = PolicyVersion.filter(workspace_id=workspace_id, policy_type=_policy_type(policy_type))
    return list(await query.order_by("-version").offset(offset).limit(limit)), await query.count()


async def get_version(*, principal: Principal | None, workspace_id: uuid.UUID, policy_type: str,
                      version: int) -> PolicyVersion:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    row = await PolicyVersion.get_or_none(workspace_id=workspace_id, policy_type=_policy_type(policy_type),
                                          version=version)
    if row is None:
        raise NotFound(f"version {version} of the {policy_type} policy not found", code="POLICY_VERSION_NOT_FOUND",
                       details={"policy_type": policy_type, "version": version})
    return row


# --------------------------------------------------------------------------------------------
# Validation and publishing
# --------------------------------------------------------------------------------------------


def _refuse(path: str, reason: str) -> ValidationFailed:
    return ValidationFailed(f"{path}: {reason}", code=R.CODE, details={"field": path, "reason": reason})


async def _missing(model: Any, ids: set[str], workspace_id: uuid.UUID, **extra: Any) -> set[str]:
    if not ids:
        return set()
    found = await model.filter(id__in=list(ids), workspace_id=workspace_id, **extra).values_list("id", flat=True)
    return ids - {str(i) for i in found}


async def validate_policy(*, workspace_id: uuid.UUID, policy_type: str, rules: Any,
                          no_match_action: str = R.BLOCK) -> list[R.Rule]:
    """The rules, parsed and checked against the workspace (400 INVALID_POLICY_RULE naming the
    field); callable again when an approved change is applied."""
    _policy_type(policy_type)
    if no_match_action not in R.NO_MATCH_ACTIONS:
        raise _refuse("no_match_action", "must be block or allow")
    parsed_rules = R.parse_rules(rules, policy_type)
    ws_currencies = registry().currencies
    for i, rule in enumerate(parsed_rules):
        p = f"rules[{i}]"
        for cid in rule.currency_ids:
            if cid not in ws_currencies:
                raise _refuse(f"{p}.asset.currency_ids", f"unknown currency {cid}")
        checks_ = [("source", rule.source), ("destination", rule.destination)]
        for name, side in checks_:
            ids = set(side.ids)
            model, extra = {"vaults": (Vault, {}), "internal": (Vault, {}), "wallets": (Wallet, {}),
                            "whitelisted": (WhitelistedWallet, {"deleted_at__isnull": True}),
                            "tags": (Tag, {})}.get(side.kind, (None, {}))
            if model is None or not ids:
                continue
            missing = await _missing(model, ids, workspace_id, **extra)
            if missing:
                raise _refuse(f"{p}.{name}", f"not in this workspace: {sorted(missing)[0]}")
        people: set[str] = set()
        if rule.approval is not None:
            people |= set(rule.approval.approver_user_ids)
            if rule.approval.group_id is not None:
                members = await resolve_group(workspace_id, rule.approval.group_id)
                if members is None:
                    raise _refuse(f"{p}.approval.group_id", "no such group in this workspace")
        if rule.initiator is not None:
            people |= set(rule.initiator.user_ids)
        if people:
            member_of = {str(m.user_id): m for m in await WorkspaceMember.filter(
                workspace_id=workspace_id, user_id__in=list(people))}
            for uid in sorted(people):
                if uid not in member_of:
                    raise _refuse(f"{p}", f"user {uid} is not a member of this workspace")
            if rule.approval is not None:
                for uid in rule.approval.approver_user_ids:
                    if member_of[uid].role == "VIEWER":
                        raise _refuse(f"{p}.approval.approver_user_ids", f"user {uid} is a VIEWER: viewers cannot "
                                                                         "vote from a device")
    return parsed_rules


async def _lock_tags(workspace_id: uuid.UUID, tag_ids: Sequence[str]) -> None:
    """FOR KEY SHARE on the tags a version names (the tag reference provider's contract)."""
    if tag_ids:
        await connections.get("default").execute_query(
            "SELECT id FROM tags WHERE workspace_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR KEY SHARE",
            [workspace_id, list(tag_ids)])


async def _apply(*, workspace_id: uuid.UUID, policy_type: str, rules: list[R.Rule], no_match_action: str,
                 actor_id: uuid.UUID | None, copied_from: int | None) -> PolicyVersion:
    # One publisher at a time per (workspace, type): the next version number is taken under lock.
    await connections.get("default").execute_query(
        "SELECT pg_advisory_xact_lock(hashtext($1))", [f"policy:{workspace_id}:{policy_type}"])
    tag_ids = sorted({t for rule in rules for t in rule.tag_ids})
    await _lock_tags(workspace_id, tag_ids)
    if tag_ids and len(await Tag.filter(workspace_id=workspace_id, id__in=tag_ids).values_list("id", flat=True)) \
            != len(tag_ids):
        raise _refuse("rules", "a tag it names was deleted meanwhile")
    current = await published_version(workspace_id, policy_type)
    version = await PolicyVersion.create(
        workspace_id=workspace_id, policy_type=policy_type, version=(current.version if current else 0) + 1,
        rules=R.stored(rules, policy_type), no_match_action=no_match_action, published_by=actor_id,
        published_at=clock.now(), copied_from_version=copied_from)
    await PolicyTagReference.filter(workspace_id=workspace_id, policy_type=policy_type).delete()
    refs = [PolicyTagReference(workspace_id=workspace_id, policy_type=policy_type, tag_id=uuid.UUID(t),
                               rule_id=rule.id, rule_name=rule.name)
            for rule in rules for t in sorted(rule.tag_ids)]
    if refs:
        await PolicyTagReference.bulk_create(refs)
    await audit.record(
        action="policy.rolled_back" if copied_from is not None else "policy.published", object_type="policy",
        object_id=f"{policy_type}:{version.version}", actor_id=actor_id, workspace_id=workspace_id,
        details={"policy_type": policy_type, "policy_type_name": R.POLICY_TYPE_NAMES[policy_type],
                 "version": version.version, "previous_version": current.version if current else None,
                 "copied_from_version": copied_from, "rules": len(rules), "no_match_action": no_match_action})
    return version


async def _base_version(workspace_id: uuid.UUID, policy_type: str) -> int | None:
    current = await published_version(workspace_id, policy_type)
    return current.version if current else None


async def publish_policy(*, principal: Principal | None, workspace_id: uuid.UUID, policy_type: str, rules: Any,
                         no_match_action: str = R.BLOCK, on_behalf_of: uuid.UUID | None = None) -> PolicyVersion:
    """Publish ``rules`` as the next version of the workspace's policy (the spec's Manage policies
    ``update``; gated by the change approvals: 403 QUORUM_APPROVAL_REQUIRED when its rule is on).

    ``on_behalf_of``: the initiator of an approved change, applied with no principal.
    """
    if principal is not None:
        principal.require(workspace_id, Permission.MANAGE_POLICIES)
    parsed_rules = await validate_policy(workspace_id=workspace_id, policy_type=policy_type, rules=rules,
                                         no_match_action=no_match_action)
    await gate(principal=principal, workspace_id=workspace_id, action=MANAGE_POLICIES, operation="update",
               payload={"policy_type": policy_type, "policy_type_name": R.POLICY_TYPE_NAMES[policy_type],
                        "rules": R.stored(parsed_rules, policy_type), "no_match_action": no_match_action,
                        "base_version": await _base_version(workspace_id, policy_type)})
    return await _apply(workspace_id=workspace_id, policy_type=policy_type, rules=parsed_rules,
                        no_match_action=no_match_action,
                        actor_id=principal.user.id if principal else on_behalf_of, copied_from=None)


async def rollback_policy(*, principal: Principal | None, workspace_id: uuid.UUID, policy_type: str,
                          version: int, on_behalf_of: uuid.UUID | None = None) -> PolicyVersion:
    """Publish a copy of ``version`` as the next version (Manage policies ``rollback``; gated like
    :func:`publish_policy`)."""
    if principal is not None:
        principal.require(workspace_id, Permission.MANAGE_POLICIES)
    old = await get_version(principal=None, workspace_id=workspace_id, policy_type=policy_type, version=version)
    parsed_rules = await validate_policy(workspace_id=workspace_id, policy_type=policy_type, rules=old.rules,
                                         no_match_action=old.no_match_action)
    await gate(principal=principal, workspace_id=workspace_id, action=MANAGE_POLICIES, operation="rollback",
               payload={"policy_type": policy_type, "policy_type_name": R.POLICY_TYPE_NAMES[policy_type],
                        "version": old.version, "version_published_at": old.published_at.isoformat(),
                        "base_version": await _base_version(workspace_id, policy_type)})
    return await _apply(workspace_id=workspace_id, policy_type=policy_type, rules=parsed_rules,
                        no_match_action=old.no_match_action,
                        actor_id=principal.user.id if principal else on_behalf_of, copied_from=old.version)


async def _unchanged_since_request(*, workspace_id: uuid.UUID, payload: Mapping[str, Any]) -> None:
    """An approved change applies only to the version it was requested against (spec state table:
    "policy changed after the request" → FAILED)."""
    if await _base_version(workspace_id, payload["policy_type"]) != payload.get("base_version"):
        raise Conflict("the policy changed after the request: another version was published meanwhile",
                       code="POLICY_CHANGED", details={"policy_type": payload["policy_type"],
                                                       "requested_against": payload.get("base_version")})


async def validate_change(*, workspace_id: uuid.UUID, payload: Mapping[str, Any],
                          principal: Principal | None = None) -> None:
    """Re-validate an approved Manage policies change before it is applied (change approvals)."""
    await _unchanged_since_request(workspace_id=workspace_id, payload=payload)
    if payload.get("operation") == "rollback":
        await get_version(principal=None, workspace_id=workspace_id, policy_type=payload["policy_type"],
                          version=int(payload["version"]))
    else:
        await validate_policy(workspace_id=workspace_id, policy_type=payload["policy_type"], rules=payload["rules"],
                              no_match_action=payload["no_match_action"])


async def apply_change(*, workspace_id: uuid.UUID, payload: Mapping[str, Any],
                       principal: Principal | None = None) -> None:
    """Apply an approved Manage policies change (the change approvals' actor; no rights re-checked)."""
    await _unchanged_since_request(workspace_id=workspace_id, payload=payload)
    initiator = principal.user.id if principal is not None else None
    if payload.get("operation") == "rollback":
        await rollback_policy(principal=None, workspace_id=workspace_id, policy_type=payload["policy_type"],
                              version=int(payload["version"]), on_behalf_of=initiator)
    else:
        await publish_policy(principal=None, workspace_id=workspace_id, policy_type=payload["policy_type"],
                             rules=payload["rules"], no_match_action=payload["no_match_action"],
                             on_behalf_of=initiator)


async def _approval_display(*, workspace_id: uuid.UUID, payload: Mapping[str, Any]) -> dict[str, Any] | None:
    """The spec's display of a Manage policies request: the policy type's name (and, for a
    rollback, when the copied version was published), taken from the payload."""
    operation = payload.get("operation")
    if operation == "update":
        return {"policy_type_name": payload.get("policy_type_name")}
    if operation == "rollback":
        return {"policy_type_name": payload.get("policy_type_name"),
                "version_published_at": payload.get("version_published_at")}
    return None


async def _tag_references(*, workspace_id: uuid.UUID, tag_ids: Sequence[uuid.UUID]) -> list[tags.TagReference]:
    rows = await PolicyTagReference.filter(workspace_id=workspace_id, tag_id__in=list(tag_ids))
    return [tags.TagReference(tag_id=row.tag_id, kind=f"{row.policy_type}_policy_rule", id=row.rule_id,
                              name=row.rule_name) for row in rows]


# --------------------------------------------------------------------------------------------
# Facts
# --------------------------------------------------------------------------------------------


async def _protected_tags(vault_ids: Sequence[str | None]) -> dict[str, frozenset[str]]:
    ids = [v for v in vault_ids if v]
    if not ids:
        return {}
    rows = await connections.get("default").execute_query_dict(
        "SELECT vt.vault_id, vt.tag_id FROM vault_tags vt JOIN tags t ON t.id = vt.tag_id"
        " WHERE vt.vault_id = ANY($1::uuid[]) AND t.is_protected", [ids])
    out: dict[str, set[str]] = {}
    for row in rows:
        out.setdefault(str(row["vault_id"]), set()).add(str(row["tag_id"]))
    return {k: frozenset(v) for k, v in out.items()}


async def _initiator(workspace_id: uuid.UUID, user_id: uuid.UUID | None) -> tuple[str | None, bool]:
    if user_id is None:
        return None, False
    member = await WorkspaceMember.get_or_none(workspace_id=workspace_id, user_id=user_id)
    user = await User.get_or_none(id=user_id)
    return (member.role if member else None), bool(user and user.user_type == "api_user")


async def facts_of(*, workspace_id: uuid.UUID, currency_id: str, amount: int, amount_usd: Decimal | None,
                   source_wallet_id: uuid.UUID, source_vault_id: uuid.UUID, destination_type: str,
                   target_wallet_id: uuid.UUID | None, whitelisted_wallet_id: uuid.UUID | None,
                   initiator_id: uuid.UUID | None) -> engine.Facts:
    destination_vault = None
    if target_wallet_id is not None:
        target = await Wallet.get_or_none(id=target_wallet_id)
        destination_vault = str(target.vault_id) if target else None
    tag_sets = await _protected_tags([str(source_vault_id), destination_vault])
    role, is_api = await _initiator(workspace_id, initiator_id)
    return engine.Facts(
        workspace_id=workspace_id, currency_id=currency_id, amount=amount, amount_usd=amount_usd,
        source_vault_id=str(source_vault_id), source_wallet_id=str(source_wallet_id),
        destination_type=destination_type, destination_vault_id=destination_vault,
        whitelisted_wallet_id=str(whitelisted_wallet_id) if whitelisted_wallet_id else None,
        source_tags=tag_sets.get(str(source_vault_id), frozenset()),
        destination_tags=tag_sets.get(destination_vault or "", frozenset()),
        initiator_id=str(initiator_id) if initiator_id else None, initiator_role=role, initiator_is_api_user=is_api)


def _usd(value: str | None) -> Decimal | None:
    return Decimal(value) if value not in (None, "") else None


# --------------------------------------------------------------------------------------------
# Approval requirements (contract 1)
# --------------------------------------------------------------------------------------------


async def approval_requirement(workspace_id: uuid.UUID, approval: R.Approval, source: str) -> dict[str, Any] | None:
    """The requirement of a require_approval verdict, group members resolved now; None when a
    named group cannot be resolved (the caller fails closed)."""
    users = list(approval.approver_user_ids)
    if approval.group_id is not None:
        members = await resolve_group(workspace_id, approval.group_id)
        if members is None:
            return None
        users += [str(m) for m in members if str(m) not in users]
    return {"approver_user_ids": users, "group_id": approval.group_id, "threshold": approval.threshold,
            "source": source}


def leave_out_initiator(requirement: dict[str, Any], initiator: str | None) -> dict[str, Any]:
    """Four eyes: ``requirement`` with the withdrawal's initiator left out of its approvers.

    ``initiator_excluded`` says whether the rule named them; ``meetable`` whether the approvers
    left can still reach the threshold (a withdrawal whose requirement cannot is declined).
    The approval request (domain.transaction_approvals) and explain both apply it, so that explain
    shows the approvers a real withdrawal would get."""
    named = [str(u) for u in requirement.get("approver_user_ids", [])]
    approvers = [u for u in named if u != initiator]
    threshold = int(requirement.get("threshold", 1))
    return {**requirement, "approver_user_ids": approvers, "threshold": threshold,
            "initiator_excluded": initiator is not None and initiator in named,
            "meetable": len(approvers) >= threshold}


# --------------------------------------------------------------------------------------------
# The check
# --------------------------------------------------------------------------------------------


async def forget_transaction(transaction_id: uuid.UUID) -> None:
    """A re-run of the check stage (after a defer) evaluates afresh: the withdrawal's own live
    entries leave the windows first, so it never counts against itself."""
    conn = connections.get("default")
    rows = await conn.execute_query_dict(
        "DELETE FROM policy_window_entries WHERE transaction_id = $1 AND released_at IS NULL"
        " RETURNING window_key, bucket, amount, amount_usd", [transaction_id])
    await windows._add_many([(r["window_key"], r["bucket"], -1, -int(r["amount"]),  # noqa: SLF001
                              -Decimal(r["amount_usd"] or 0)) for r in rows])


class PolicyCheck:
    """The check stage's ``policy`` check: the published Transfer policy decides."""

    name = "policy"

    async def check(self, subject: checks.CheckSubject) -> checks.CheckResult:
        version = await published_version(subject.workspace_id, R.TRANSFER)
        if version is None:
            return checks.CheckResult(checks.Verdict.ALLOW, self.name,
                                      reason="no Transfer policy is published: policies are opt-in",
                                      details={"policy": None})
        policy = parsed(version)
        tx = subject.transaction
        facts = await facts_of(
            workspace_id=subject.workspace_id, currency_id=subject.currency.id, amount=subject.amount,
            amount_usd=_usd(subject.amount_usdt), source_wallet_id=subject.source_wallet.id,
            source_vault_id=subject.vault.id, destination_type=subject.destination_type,
            target_wallet_id=subject.target_wallet_id, whitelisted_wallet_id=subject.whitelisted_wallet_id,
            initiator_id=tx.created_by)
        statics = engine.static_verdicts(policy, facts)
        candidates = engine.window_candidates(policy, facts, statics)
        await windows.lock([key for key, _ in candidates])
        await forget_transaction(tx.id)
        usages = await windows.usage(candidates)
        decision = engine.decide(policy, facts, usages, stop_at_first=True, statics=statics)
        details: dict[str, Any] = {"policy": decision.summary()}
        if decision.action == R.BLOCK:
            return checks.CheckResult(checks.Verdict.BLOCK, self.name, code="POLICY_BLOCKED", reason=decision.reason,
                                      details=details)
        if decision.action == R.REQUIRE_APPROVAL:
            assert decision.approval is not None and decision.rule is not None
            requirement = await approval_requirement(subject.workspace_id, decision.approval,
                                                     f"{self.name}:{decision.rule.rule_id}")
            if requirement is None:
                return checks.CheckResult(checks.Verdict.BLOCK, self.name, code="POLICY_BLOCKED",
                                          reason=f"{decision.reason}; its approver group cannot be resolved: fails "
                                                 "closed", details=details)
            details["approval"] = requirement
        await windows.record(workspace_id=subject.workspace_id, transaction_id=tx.id, windows=candidates,
                             amount=subject.amount, amount_usd=facts.amount_usd)
        verdict = checks.Verdict.REQUIRE_APPROVAL if decision.action == R.REQUIRE_APPROVAL else checks.Verdict.ALLOW
        return checks.CheckResult(verdict, self.name, reason=decision.reason, details=details)


# --------------------------------------------------------------------------------------------
# Explain
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hypothetical:
    """A withdrawal that is not made: what POST /transaction would take, and who would make it."""

    source_wallet_id: uuid.UUID
    amount: int
    target_address: str
    target_wallet_id: uuid.UUID | None = None
    target_whitelisted_asset_id: uuid.UUID | None = None
    initiator_user_id: uuid.UUID | None = None


@dataclass
class Explanation:
    decision: engine.Decision
    draft: bool
    facts: engine.Facts
    destination_type: str
    #: The approval requirement the deciding rule would create.
    approval: dict[str, Any] | None


async def explain(*, principal: Principal | None, workspace_id: uuid.UUID, withdrawal: Hypothetical,
                  policy_type: str = R.TRANSFER, rules: Any = None, no_match_action: str | None = None) -> Explanation:
    """Evaluate a hypothetical withdrawal against the published Transfer policy, or against
    ``rules`` (a draft, validated like a publish but not stored). Nothing is locked or recorded."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if policy_type != R.TRANSFER:
        raise ValidationFailed("explain evaluates Transfer policies (AML rules need a screening result)",
                               code="POLICY_TYPE_NOT_EXPLAINABLE", details={"policy_type": policy_type})
    if rules is not None:
        draft_rules = await validate_policy(workspace_id=workspace_id, policy_type=R.TRANSFER, rules=rules,
                                            no_match_action=no_match_action or R.BLOCK)
        policy = R.ParsedPolicy(R.TRANSFER, 0, draft_rules, no_match_action or R.BLOCK)
    else:
        version = await published_version(workspace_id, R.TRANSFER)
        if version is None:
            raise NotFound("the workspace has no published Transfer policy: send a draft in rules",
                           code="POLICY_NOT_PUBLISHED", details={"policy_type": R.TRANSFER})
        policy = parsed(version)
    source = await Wallet.get_or_none(id=withdrawal.source_wallet_id, workspace_id=workspace_id).select_related(
        "address")
    if source is None:
        raise NotFound("source wallet not found", code="WALLET_NOT_FOUND", details={"field": "source_wallet_id"})
    currency = registry().currency(source.currency_id)
    try:
        destination = await destinations.resolve(
            workspace_id=workspace_id, currency=currency, source=source, source_address=source.address.address,
            target_address=withdrawal.target_address, target_wallet_id=withdrawal.target_wallet_id,
            target_whitelisted_asset_id=withdrawal.target_whitelisted_asset_id)
        kind, target_wallet, whitelisted = destination.kind, destination.wallet, destination.whitelisted
    except destinations.OneTimeAddressNotAllowed:
        # The policy's answer is still worth knowing; POST /transaction would refuse it first.
        kind, target_wallet, whitelisted = destinations.ONE_TIME, None, None
    from domain.transactions import usd_value  # noqa: PLC0415 - the transactions module imports withdrawals

    initiator = withdrawal.initiator_user_id or (principal.user.id if principal else None)
    facts = await facts_of(
        workspace_id=workspace_id, currency_id=currency.id, amount=withdrawal.amount,
        amount_usd=_usd(usd_value(currency, withdrawal.amount)), source_wallet_id=source.id,
        source_vault_id=source.vault_id,
        destination_type=kind, target_wallet_id=target_wallet.id if target_wallet else None,
        whitelisted_wallet_id=whitelisted.id if whitelisted else None, initiator_id=initiator)
    statics = engine.static_verdicts(policy, facts)
    candidates = engine.window_candidates(policy, facts, statics)
    decision = engine.decide(policy, facts, await windows.usage(candidates), stop_at_first=False, statics=statics)
    approval = None
    if decision.action == R.REQUIRE_APPROVAL and decision.approval is not None and decision.rule is not None:
        required = await approval_requirement(workspace_id, decision.approval, f"policy:{decision.rule.rule_id}")
        approval = required and leave_out_initiator(required, str(initiator) if initiator else None)
    return Explanation(decision, rules is not None, facts, kind, approval)


# --------------------------------------------------------------------------------------------
# The AML policy (contract 3)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AmlPolicyVerdict:
    #: ``allow``, ``require_approval``, ``block`` or ``freeze``.
    action: str
    rule_id: str | None
    reason: str
    approval: dict[str, Any] | None
    #: Every rule's verdict up to the deciding one (what the screening record may keep).
    version: int | None = None


async def evaluate_aml_policy(*, workspace_id: uuid.UUID, direction: str, vault_id: uuid.UUID, currency_id: str,
                              amount: int, amount_usdt: Decimal | None, counterparty_address: str, risk_level: str,
                              risk_score: Decimal | None,
                              matched_risks: list[tuple[str, Decimal]]) -> AmlPolicyVerdict | None:
    """The published AML policy's verdict on a screened transfer; None without an AML policy.

    ``direction`` outgoing: our vault is the source; incoming: our vault is the destination
    (tag conditions apply to our vault only: tag rule 8). Fails closed like the Transfer
    policy: a USD bound without a price blocks; an approver group that cannot be resolved blocks.
    """
    version = await published_version(workspace_id, R.AML)
    if version is None:
        return None
    policy = parsed(version)
    tag_sets = await _protected_tags([str(vault_id)])
    facts = engine.Facts(workspace_id=workspace_id, currency_id=currency_id, amount=amount, amount_usd=amount_usdt,
                         source_vault_id=str(vault_id), source_tags=tag_sets.get(str(vault_id), frozenset()),
                         direction=direction, counterparty_address=counterparty_address, risk_level=risk_level,
                         risk_score=risk_score, matched_risks=tuple(matched_risks))
    decision = engine.decide(policy, facts, {}, stop_at_first=True)
    rule_id = decision.rule.rule_id if decision.rule else None
    approval = None
    action = decision.action
    reason = decision.reason
    if action == R.REQUIRE_APPROVAL and decision.approval is not None:
        approval = await approval_requirement(workspace_id, decision.approval, f"aml:{rule_id}")
        if approval is None:
            action, reason = R.BLOCK, f"{reason}; its approver group cannot be resolved: fails closed"
    return AmlPolicyVerdict(action=action, rule_id=rule_id, reason=reason, approval=approval,
                            version=version.version)


# --------------------------------------------------------------------------------------------
# Windows follow the withdrawal's status
# --------------------------------------------------------------------------------------------

#: Statuses in which a withdrawal gives its room in the windows back.
RELEASING = frozenset({statuses.DECLINED, statuses.FROZEN, statuses.EXPIRED, statuses.CANCELLED})
#: A failure releases only before broadcast: a transfer the network saw may still have moved.
BEFORE_BROADCAST = statuses.BEFORE_SIGNING | {statuses.SIGNING, statuses.AWAITING_BROADCAST}


async def on_transition(tx: Transaction, previous: str, status: str) -> None:
    if status in RELEASING or (status == statuses.FAILED and previous in BEFORE_BROADCAST):
        await windows.release_transaction(tx.id)
    elif previous == statuses.FROZEN:
        # Unfreeze returns the withdrawal to its previous status (spec) and takes its room in the
        # windows again, under the windows' locks (it may take a window beyond its limit: an
        # approver's unfreeze is a decision about this very withdrawal; docs/policies.md).
        await windows.retake_transaction(tx.id)


async def _aml_policy_decision(facts: aml_decisions.AmlFacts) -> aml_decisions.AmlDecision | None:
    """The AML screening's policy evaluator: the published AML policy decides (None without one)."""
    verdict = await evaluate_aml_policy(
        workspace_id=facts.workspace_id, direction=facts.direction, vault_id=facts.vault_id,
        currency_id=facts.currency_id, amount=facts.amount, amount_usdt=facts.amount_usdt,
        counterparty_address=facts.counterparty_address or "", risk_level=facts.risk_level,
        risk_score=facts.risk_score, matched_risks=list(facts.matched_risks))
    if verdict is None:
        return None
    return aml_decisions.AmlDecision(verdict.action, rule_id=verdict.rule_id, reason=verdict.reason,
                                     approval=verdict.approval)


def install() -> None:
    """Register the check, the tag reference provider, the transition listener and the AML
    policy's evaluator (idempotent)."""
    aml_decisions.register_policy_evaluator(_aml_policy_decision)
    if not any(c.name == PolicyCheck.name for c in checks.registered_checks()):
        checks.register_check(PolicyCheck())
    tags.register_reference_provider("policy_rules", _tag_references)
    ledger.add_transition_listener(on_transition)
    # Manage policies: validated again (the policy must not have changed since the request) and
    # published by the apply actor; the initiator's rights are not re-checked (spec).
    approvals.register(approvals.GatedAction(key=MANAGE_POLICIES, display_name="Manage policies",
                                             operations=("update", "rollback"), display=_approval_display,
                                             validate=validate_change, apply=apply_change))
