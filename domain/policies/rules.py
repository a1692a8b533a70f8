"""The rule schema of both policy types, parsed and checked without the database (docs/policies.md).

A rule is a JSON object; :func:`parse_rules` turns the list into frozen :class:`Rule` objects or
raises 400 ``INVALID_POLICY_RULE`` naming the field (``details.field`` like
``rules[2].source.tag_ids``). What needs the database (do the vaults, wallets, tags, users
exist in the workspace) is checked by domain.policies.service on top of this.

Shape checks that come from the spec's tag rule 8:

* a tag is a condition of ``source`` / ``destination`` of type ``tags`` only: ``tag_ids`` with
  type ``any`` (any-source, any-destination) or ``vaults`` (any-vault) is refused;
* ``tag_ids`` without ``tag_match_mode`` (or the reverse) is refused;
* AML rules: direction ``outgoing`` allows tags only on the source (our vault), ``incoming``
  only on the destination (our vault); a rule of direction ``any`` allows no tag.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from domain.errors import ValidationFailed

TRANSFER = "transfer"
AML = "aml"
POLICY_TYPES = (TRANSFER, AML)
#: The display names of the spec's change-approval cards (policy_type_name).
POLICY_TYPE_NAMES = {TRANSFER: "Transfer policy", AML: "AML policy"}

ALLOW, REQUIRE_APPROVAL, BLOCK, FREEZE = "allow", "require_approval", "block", "freeze"
TRANSFER_ACTIONS = (ALLOW, REQUIRE_APPROVAL, BLOCK)
AML_ACTIONS = (ALLOW, REQUIRE_APPROVAL, BLOCK, FREEZE)
NO_MATCH_ACTIONS = (BLOCK, ALLOW)

MAX_RULES = 500
MAX_IDS = 100
MAX_APPROVERS = 50
MAX_WINDOW_SECONDS = 366 * 86_400
RISK_LEVELS = ("low", "medium", "high", "severe")
ROLES = ("OWNER", "ADMIN", "NON_SIGNING_ADMIN", "SIGNER", "APPROVER", "EDITOR", "VIEWER")
_RULE_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")
_ATOMIC = re.compile(r"^[1-9][0-9]{0,77}$|^0$")
_DECIMAL = re.compile(r"^[0-9]{1,30}(\.[0-9]{1,8})?$")

CODE = "INVALID_POLICY_RULE"


def _bad(path: str, reason: str) -> ValidationFailed:
    return ValidationFailed(f"{path}: {reason}", code=CODE, details={"field": path, "reason": reason})


@dataclass(frozen=True)
class Side:
    """A source or destination condition.

    ``kind``: ``any``; ``vaults`` (vault_ids); ``wallets`` (wallet_ids, transfer source only);
    ``tags`` (tag_ids + tag_match_mode); destination only: ``internal`` (optionally vault_ids),
    ``whitelisted`` (optionally whitelisted_wallet_ids), ``one_time``; AML counterparty side:
    ``addresses``.
    """

    kind: str = "any"
    ids: tuple[str, ...] = ()
    tag_match_mode: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        key = _IDS_FIELD.get(self.kind)
        if key and self.ids:
            out[key] = list(self.ids)
        if self.kind == "tags":
            out["tag_match_mode"] = self.tag_match_mode
        return out


_IDS_FIELD = {"vaults": "vault_ids", "wallets": "wallet_ids", "tags": "tag_ids", "internal": "vault_ids",
              "whitelisted": "whitelisted_wallet_ids", "addresses": "addresses"}


@dataclass(frozen=True)
class Amount:
    """Per-transaction amount bounds: ``min`` ≤ amount < ``max`` (either may be absent), in
    atomic units of the rule's one currency or in USD (``min_usd`` / ``max_usd``)."""

    min: int | None = None
    max: int | None = None
    min_usd: Decimal | None = None
    max_usd: Decimal | None = None

    @property
    def in_usd(self) -> bool:
        return self.min_usd is not None or self.max_usd is not None

    def to_dict(self) -> dict[str, Any]:
        return {k: (str(v) if v is not None else None) for k, v in
                (("min", self.min), ("max", self.max), ("min_usd", self.min_usd), ("max_usd", self.max_usd))}


@dataclass(frozen=True)
class Window:
    """Frequency and cumulative amount over a rolling window of ``seconds``.

    ``scope``: ``rule`` (one window for everything the rule's conditions select) or ``source``
    (one window per source wallet). ``match``: ``over`` (the rule matches when this withdrawal
    would take the window beyond a limit) or ``within`` (it matches while the window stays within
    every limit, this withdrawal included).
    """

    seconds: int
    scope: str = "rule"
    match: str = "over"
    max_count: int | None = None
    max_amount: int | None = None
    max_amount_usd: Decimal | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "scope": self.scope, "match": self.match, "max_count": self.max_count,
                "max_amount": str(self.max_amount) if self.max_amount is not None else None,
                "max_amount_usd": str(self.max_amount_usd) if self.max_amount_usd is not None else None}


@dataclass(frozen=True)
class Approval:
    """Who approves a ``require_approval`` rule: named users and/or a group, and how many."""

    approver_user_ids: tuple[str, ...] = ()
    group_id: str | None = None
    threshold: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"approver_user_ids": list(self.approver_user_ids), "group_id": self.group_id,
                "threshold": self.threshold}


@dataclass(frozen=True)
class Initiator:
    """Who created the withdrawal: any of ``user_ids``, ``roles``, or (``api_users``) any API user."""

    user_ids: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    api_users: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"user_ids": list(self.user_ids), "roles": list(self.roles), "api_users": self.api_users}


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    action: str
    source: Side = Side()
    destination: Side = Side()
    currency_ids: tuple[str, ...] = ()
    initiator: Initiator | None = None
    amount: Amount | None = None
    window: Window | None = None
    approval: Approval | None = None
    # --- AML rules only -------------------------------------------------------------------
    direction: str = "any"
    min_risk_level: str | None = None
    min_risk_score: Decimal | None = None
    #: category → the least exposure (percent) that matches; any listed category matching is enough.
    categories: tuple[tuple[str, Decimal], ...] = ()

    def to_dict(self, policy_type: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "name": self.name, "action": self.action, "source": self.source.to_dict(),
            "destination": self.destination.to_dict(), "asset": {"currency_ids": list(self.currency_ids)},
            "amount": self.amount.to_dict() if self.amount else None,
            "approval": self.approval.to_dict() if self.approval else None,
        }
        if policy_type == TRANSFER:
            out["initiator"] = self.initiator.to_dict() if self.initiator else None
            out["window"] = self.window.to_dict() if self.window else None
        else:
            out["direction"] = self.direction
            out["min_risk_level"] = self.min_risk_level
            out["min_risk_score"] = str(self.min_risk_score) if self.min_risk_score is not None else None
            out["categories"] = [{"category": c, "min_exposure_percent": str(p)} for c, p in self.categories]
        return out

    @property
    def tag_ids(self) -> set[str]:
        return {*(self.source.ids if self.source.kind == "tags" else ()),
                *(self.destination.ids if self.destination.kind == "tags" else ())}


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------


def _obj(value: Any, path: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _bad(path, "must be an object")
    unknown = set(value) - allowed
    if unknown:
        raise _bad(f"{path}.{sorted(unknown)[0]}", "unknown field")
    return value


def _str(value: Any, path: str, *, max_len: int = 100) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > max_len or "\x00" in value:
        raise _bad(path, f"must be a non-empty string of at most {max_len} characters")
    return value.strip()


def _choice(value: Any, path: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise _bad(path, f"must be one of {', '.join(choices)}")
    return value


def _uuid_list(value: Any, path: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or len(value) > MAX_IDS:
        raise _bad(path, f"must be a list of 1 to {MAX_IDS} ids")
    out = []
    for i, item in enumerate(value):
        try:
            out.append(str(uuid.UUID(item)) if isinstance(item, str) else None)
        except ValueError:
            out.append(None)
        if out[-1] is None:
            raise _bad(f"{path}[{i}]", "must be a UUID")
    if len(set(out)) != len(out):
        raise _bad(path, "names an id twice")
    return tuple(out)  # type: ignore[arg-type]  # None raised above


def _str_list(value: Any, path: str, *, max_len: int = 100) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or len(value) > MAX_IDS:
        raise _bad(path, f"must be a list of 1 to {MAX_IDS} values")
    out = tuple(_str(item, f"{path}[{i}]", max_len=max_len) for i, item in enumerate(value))
    if len(set(out)) != len(out):
        raise _bad(path, "names a value twice")
    return out


def _atomic(value: Any, path: str) -> int:
    if not isinstance(value, str) or not _ATOMIC.match(value):
        raise _bad(path, "must be an integer string of atomic units")
    return int(value)


def _decimal(value: Any, path: str) -> Decimal:
    if not isinstance(value, str) or not _DECIMAL.match(value):
        raise _bad(path, "must be a decimal string (up to 8 decimals)")
    try:
        return Decimal(value)
    except InvalidOperation as exc:  # pragma: no cover - the pattern already excludes it
        raise _bad(path, "must be a decimal string") from exc


def _int(value: Any, path: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(path, f"must be an integer from {low} to {high}")
    return value


def _side(value: Any, path: str, *, kinds: tuple[str, ...]) -> Side:
    if value is None:
        return Side()
    raw = _obj(value, path, {"type", "vault_ids", "wallet_ids", "tag_ids", "tag_match_mode",
                             "whitelisted_wallet_ids", "addresses"})
    kind = _choice(raw.get("type", "any"), f"{path}.type", kinds)
    has_tags, has_mode = raw.get("tag_ids") is not None, raw.get("tag_match_mode") is not None
    if kind != "tags" and (has_tags or has_mode):
        # Tag rule 8: a tag cannot be combined with any-source, any-destination or any-vault.
        raise _bad(f"{path}.tag_ids", f"a tag condition cannot be combined with type {kind}: use type tags")
    if kind == "tags":
        if has_tags != has_mode or not has_tags:
            # Tag rule 8: a tag list without match mode (or the reverse) is rejected.
            raise _bad(f"{path}.tag_match_mode" if has_tags else f"{path}.tag_ids",
                       "tag_ids and tag_match_mode go together")
        mode = _choice(raw["tag_match_mode"], f"{path}.tag_match_mode", ("any", "all"))
        return Side("tags", _uuid_list(raw["tag_ids"], f"{path}.tag_ids"), mode)
    key = _IDS_FIELD.get(kind)
    for other in set(_IDS_FIELD.values()) - {key}:
        if raw.get(other) is not None:
            raise _bad(f"{path}.{other}", f"does not apply to type {kind}")
    if kind in ("vaults", "wallets", "addresses"):
        ids_field = _IDS_FIELD[kind]
        if kind == "addresses":
            return Side(kind, _str_list(raw.get(ids_field), f"{path}.{ids_field}"))
        return Side(kind, _uuid_list(raw.get(ids_field), f"{path}.{ids_field}"))
    if kind in ("internal", "whitelisted") and raw.get(ids_field := _IDS_FIELD[kind]) is not None:
        return Side(kind, _uuid_list(raw[ids_field], f"{path}.{ids_field}"))
    return Side(kind)


def _amount(value: Any, path: str, currencies: tuple[str, ...]) -> Amount | None:
    if value is None:
        return None
    raw = _obj(value, path, {"min", "max", "min_usd", "max_usd"})
    atomic = {k: _atomic(raw[k], f"{path}.{k}") for k in ("min", "max") if raw.get(k) is not None}
    usd = {k: _decimal(raw[k], f"{path}.{k}") for k in ("min_usd", "max_usd") if raw.get(k) is not None}
    if atomic and usd:
        raise _bad(path, "give bounds in the asset (min, max) or in USD (min_usd, max_usd), not both")
    if not atomic and not usd:
        raise _bad(path, "needs min, max, min_usd or max_usd")
    if atomic and len(currencies) != 1:
        raise _bad(f"{path}.min" if "min" in atomic else f"{path}.max",
                   "bounds in atomic units need the rule's asset condition to name exactly one currency")
    amount = Amount(atomic.get("min"), atomic.get("max"), usd.get("min_usd"), usd.get("max_usd"))
    low, high = (amount.min_usd, amount.max_usd) if usd else (amount.min, amount.max)
    if low is not None and high is not None and low >= high:
        raise _bad(path, "the minimum must be below the maximum")
    return amount


def _window(value: Any, path: str, currencies: tuple[str, ...]) -> Window | None:
    if value is None:
        return None
    raw = _obj(value, path, {"seconds", "scope", "match", "max_count", "max_amount", "max_amount_usd"})
    window = Window(
        seconds=_int(raw.get("seconds"), f"{path}.seconds", 60, MAX_WINDOW_SECONDS),
        scope=_choice(raw.get("scope", "rule"), f"{path}.scope", ("rule", "source")),
        match=_choice(raw.get("match", "over"), f"{path}.match", ("over", "within")),
        max_count=_int(raw["max_count"], f"{path}.max_count", 0, 10**9) if raw.get("max_count") is not None else None,
        max_amount=_atomic(raw["max_amount"], f"{path}.max_amount") if raw.get("max_amount") is not None else None,
        max_amount_usd=_decimal(raw["max_amount_usd"], f"{path}.max_amount_usd")
        if raw.get("max_amount_usd") is not None else None,
    )
    if window.max_count is None and window.max_amount is None and window.max_amount_usd is None:
        raise _bad(path, "needs max_count, max_amount or max_amount_usd")
    if window.max_amount is not None and len(currencies) != 1:
        raise _bad(f"{path}.max_amount", "a sum in atomic units needs the rule's asset condition to name exactly "
                                         "one currency (use max_amount_usd across currencies)")
    return window


def _approval(value: Any, path: str) -> Approval:
    raw = _obj(value, path, {"approver_user_ids", "group_id", "threshold"})
    users = _uuid_list(raw["approver_user_ids"], f"{path}.approver_user_ids") \
        if raw.get("approver_user_ids") else ()
    group = _uuid_list([raw["group_id"]], f"{path}.group_id")[0] if raw.get("group_id") is not None else None
    if not users and group is None:
        raise _bad(path, "needs approver_user_ids or group_id")
    if len(users) > MAX_APPROVERS:
        raise _bad(f"{path}.approver_user_ids", f"at most {MAX_APPROVERS} approvers")
    threshold = _int(raw.get("threshold", 1), f"{path}.threshold", 1, MAX_APPROVERS)
    if group is None and threshold > len(users):
        raise _bad(f"{path}.threshold", "is more than the number of approvers")
    return Approval(users, group, threshold)


def _initiator(value: Any, path: str) -> Initiator | None:
    if value is None:
        return None
    raw = _obj(value, path, {"user_ids", "roles", "api_users"})
    users = _uuid_list(raw["user_ids"], f"{path}.user_ids") if raw.get("user_ids") else ()
    roles = tuple(_choice(r, f"{path}.roles[{i}]", ROLES) for i, r in enumerate(raw.get("roles") or []))
    api_users = raw.get("api_users", False)
    if not isinstance(api_users, bool):
        raise _bad(f"{path}.api_users", "must be a boolean")
    if not users and not roles and not api_users:
        raise _bad(path, "needs user_ids, roles or api_users")
    return Initiator(users, roles, api_users)


_COMMON = {"id", "name", "action", "source", "destination", "asset", "amount", "approval"}
_TRANSFER_FIELDS = _COMMON | {"initiator", "window"}
_AML_FIELDS = _COMMON | {"direction", "min_risk_level", "min_risk_score", "categories"}


def parse_rule(value: Any, path: str, policy_type: str) -> Rule:
    raw = _obj(value, path, _TRANSFER_FIELDS if policy_type == TRANSFER else _AML_FIELDS)
    rule_id = raw.get("id")
    if rule_id is None:
        rule_id = uuid.uuid4().hex
    elif not isinstance(rule_id, str) or not _RULE_ID.match(rule_id):
        raise _bad(f"{path}.id", "must be 1 to 64 characters of letters, digits, _ . : -")
    name = _str(raw.get("name"), f"{path}.name")
    action = _choice(raw.get("action"), f"{path}.action", TRANSFER_ACTIONS if policy_type == TRANSFER else AML_ACTIONS)
    asset = raw.get("asset")
    currencies: tuple[str, ...] = ()
    if asset is not None:
        asset = _obj(asset, f"{path}.asset", {"currency_ids"})
        if asset.get("currency_ids"):
            currencies = _str_list(asset["currency_ids"], f"{path}.asset.currency_ids", max_len=40)
    approval = None
    if action == REQUIRE_APPROVAL:
        if raw.get("approval") is None:
            raise _bad(f"{path}.approval", "a require_approval rule needs its approvers")
        approval = _approval(raw["approval"], f"{path}.approval")
    elif raw.get("approval") is not None:
        raise _bad(f"{path}.approval", "applies only to action require_approval")
    fields: dict[str, Any] = {}
    if policy_type == TRANSFER:
        source = _side(raw.get("source"), f"{path}.source", kinds=("any", "vaults", "wallets", "tags"))
        destination = _side(raw.get("destination"), f"{path}.destination",
                            kinds=("any", "internal", "whitelisted", "one_time", "tags"))
        fields["initiator"] = _initiator(raw.get("initiator"), f"{path}.initiator")
        fields["window"] = _window(raw.get("window"), f"{path}.window", currencies)
    else:
        direction = _choice(raw.get("direction", "any"), f"{path}.direction", ("any", "outgoing", "incoming"))
        ours, theirs = ("source", "destination") if direction != "incoming" else ("destination", "source")
        mine_kinds = ("any", "vaults", "tags") if direction != "any" else ("any", "vaults")
        sides = {ours: _side(raw.get(ours), f"{path}.{ours}", kinds=mine_kinds),
                 theirs: _side(raw.get(theirs), f"{path}.{theirs}", kinds=("any", "addresses"))}
        if direction == "any" and raw.get(theirs) is not None and sides[theirs].kind == "addresses":
            # Without a direction, which side is the counterparty is unknown.
            raise _bad(f"{path}.{theirs}", "counterparty addresses need direction outgoing or incoming")
        source, destination = sides["source"], sides["destination"]
        fields["direction"] = direction
        if raw.get("min_risk_level") is not None:
            fields["min_risk_level"] = _choice(raw["min_risk_level"], f"{path}.min_risk_level", RISK_LEVELS)
        if raw.get("min_risk_score") is not None:
            fields["min_risk_score"] = _decimal(raw["min_risk_score"], f"{path}.min_risk_score")
        if raw.get("categories"):
            cats = raw["categories"]
            if not isinstance(cats, list) or not cats or len(cats) > MAX_IDS:
                raise _bad(f"{path}.categories", f"must be a list of 1 to {MAX_IDS} categories")
            parsed = []
            for i, item in enumerate(cats):
                item = _obj(item, f"{path}.categories[{i}]", {"category", "min_exposure_percent"})
                parsed.append((_str(item.get("category"), f"{path}.categories[{i}].category", max_len=64),
                               _decimal(item.get("min_exposure_percent", "0"),
                                        f"{path}.categories[{i}].min_exposure_percent")))
            fields["categories"] = tuple(parsed)
    return Rule(id=rule_id, name=name, action=action, source=source, destination=destination,
                currency_ids=currencies, amount=_amount(raw.get("amount"), f"{path}.amount", currencies),
                approval=approval, **fields)


def parse_rules(value: Any, policy_type: str) -> list[Rule]:
    """The rule list of a publish (or a draft to explain), in order; 400 INVALID_POLICY_RULE."""
    if policy_type not in POLICY_TYPES:
        raise ValidationFailed(f"unknown policy type {policy_type!r}", code="POLICY_TYPE_NOT_FOUND")
    if not isinstance(value, list) or len(value) > MAX_RULES:
        raise _bad("rules", f"must be a list of at most {MAX_RULES} rules")
    rules = [parse_rule(item, f"rules[{i}]", policy_type) for i, item in enumerate(value)]
    seen: set[str] = set()
    for i, rule in enumerate(rules):
        if rule.id in seen:
            raise _bad(f"rules[{i}].id", "two rules have the same id")
        seen.add(rule.id)
    return rules


def stored(rules: list[Rule], policy_type: str) -> list[dict[str, Any]]:
    return [rule.to_dict(policy_type) for rule in rules]


@dataclass
class ParsedPolicy:
    """A published version, parsed once (versions are immutable: cached by id)."""

    policy_type: str
    version: int
    rules: list[Rule]
    no_match_action: str
    version_id: str | None = None
    by_index: dict[str, int] = field(default_factory=dict)
