"""Evaluating a policy: rules in order, the first that matches decides (docs/policies.md).

Every rule is judged on the same facts (:class:`Facts`, loaded in a handful of queries whatever
the number of rules), condition by condition, and each verdict says why (``conditions``: one
line per condition with ``matched`` and the values compared). The first matching rule decides;
the explain endpoint shows every rule's verdict, a real withdrawal records the deciding one.

* No rule matches → the version's ``no_match_action`` (``block`` unless the workspace chose
  ``allow`` when publishing).
* A rule whose decision needs a USD value (a USD amount bound or a USD window limit) when the
  price table has no price for the asset **fails closed**: the evaluation stops there with
  ``block`` (reason ``no price``), whatever the rule's action.
* Tags: only protected tags are seen (tag rule 3): a vault's tag set is its protected tags, so a
  rule naming an unprotected tag never matches through it.
* Windows: a rule with a window first checks its other conditions; when they select the
  withdrawal, the window's usage (the withdrawal included) decides per ``window.match``. A real
  withdrawal is counted in the window of every rule whose other conditions select it and whose
  verdict is not ``block`` (domain.policies.windows).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from domain.policies import rules as R
from domain.policies.windows import Usage


@dataclass(frozen=True)
class Facts:
    """What the rules look at, for one (real or hypothetical) withdrawal."""

    workspace_id: uuid.UUID
    currency_id: str
    amount: int
    amount_usd: Decimal | None
    source_vault_id: str | None = None
    source_wallet_id: str | None = None
    #: ``internal``, ``whitelisted`` or ``one_time``.
    destination_type: str = "one_time"
    destination_vault_id: str | None = None
    whitelisted_wallet_id: str | None = None
    source_tags: frozenset[str] = frozenset()
    destination_tags: frozenset[str] = frozenset()
    initiator_id: str | None = None
    initiator_role: str | None = None
    initiator_is_api_user: bool = False
    # --- AML --------------------------------------------------------------------------------
    direction: str = "outgoing"
    counterparty_address: str | None = None
    risk_level: str | None = None
    risk_score: Decimal | None = None
    matched_risks: tuple[tuple[str, Decimal], ...] = ()


@dataclass
class RuleVerdict:
    index: int
    rule_id: str
    name: str
    action: str
    matched: bool
    conditions: list[dict[str, Any]] = field(default_factory=list)
    window: dict[str, Any] | None = None
    #: Set when the rule could not be judged without a price (fails closed).
    no_price: bool = False

    @property
    def reason(self) -> str:
        failed = [c for c in self.conditions if not c["matched"]]
        if self.no_price:
            return "no USD price for the asset: a USD condition fails closed"
        if failed:
            return "not matched: " + "; ".join(c["detail"] for c in failed)
        return "matched: " + "; ".join(c["detail"] for c in self.conditions) if self.conditions else "matched: no conditions"

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "rule_id": self.rule_id, "name": self.name, "action": self.action,
                "matched": self.matched, "reason": self.reason, "conditions": self.conditions,
                "window": self.window}


@dataclass
class Decision:
    action: str
    #: The deciding rule, or None (no rule matched: no_match_action).
    rule: RuleVerdict | None
    verdicts: list[RuleVerdict]
    policy_type: str
    version: int | None
    reason: str
    #: Window keys to count the withdrawal in: (key, seconds).
    windows: list[tuple[str, int]] = field(default_factory=list)
    approval: R.Approval | None = None

    def summary(self) -> dict[str, Any]:
        return {"policy_type": self.policy_type, "version": self.version, "action": self.action,
                "rule_id": self.rule.rule_id if self.rule else None,
                "rule_index": self.rule.index if self.rule else None,
                "rule_name": self.rule.name if self.rule else None, "reason": self.reason,
                "window": self.rule.window if self.rule else None}


def _cond(name: str, matched: bool, detail: str) -> dict[str, Any]:
    return {"condition": name, "matched": matched, "detail": detail}


def _side_match(side: R.Side, name: str, *, vault: str | None, wallet: str | None, tags: frozenset[str],
                destination_type: str | None = None, whitelisted: str | None = None,
                address: str | None = None) -> dict[str, Any] | None:
    kind = side.kind
    if kind == "any":
        return None
    if kind == "vaults":
        return _cond(name, vault in side.ids, f"{name} vault {vault} {'in' if vault in side.ids else 'not in'} the list")
    if kind == "wallets":
        return _cond(name, wallet in side.ids, f"{name} wallet {wallet} {'in' if wallet in side.ids else 'not in'} the list")
    if kind == "tags":
        listed = set(side.ids)
        present = listed & tags
        ok = bool(present) if side.tag_match_mode == "any" else present == listed
        return _cond(name, ok, f"{name} protected tags matching: {len(present)} of {len(listed)} "
                               f"(mode {side.tag_match_mode})")
    if kind == "addresses":
        ok = address is not None and address.lower() in {a.lower() for a in side.ids}
        return _cond(name, ok, f"{name} address {address} {'in' if ok else 'not in'} the list")
    # destination kinds
    ok = destination_type == kind
    detail = f"destination is {destination_type}"
    if ok and side.ids:
        ident = vault if kind == "internal" else whitelisted
        ok = ident in side.ids
        detail += f" ({'listed' if ok else 'not listed'})"
    return _cond(name, ok, detail + ("" if ok else f", not {kind}"))


def _amount_conditions(amount: R.Amount, facts: Facts) -> tuple[dict[str, Any] | None, bool]:
    """The amount condition and whether it failed closed (a USD bound without a price)."""
    low: Decimal | int | None
    high: Decimal | int | None
    if amount.in_usd:
        if facts.amount_usd is None:
            return _cond("amount", False, "no USD price for the asset"), True
        value: Decimal | int = facts.amount_usd
        low, high, unit = amount.min_usd, amount.max_usd, "USD"
    else:
        value, low, high, unit = facts.amount, amount.min, amount.max, "atomic units"
    ok = (low is None or value >= low) and (high is None or value < high)
    bounds = f"[{low if low is not None else '-'}, {high if high is not None else '-'})"
    return _cond("amount", ok, f"amount {value} {unit} {'within' if ok else 'outside'} {bounds}"), False


def static_verdict(index: int, rule: R.Rule, facts: Facts, policy_type: str) -> RuleVerdict:
    """Every condition but the window."""
    verdict = RuleVerdict(index, rule.id, rule.name, rule.action, matched=False)
    conds = verdict.conditions
    if policy_type == R.AML:
        if rule.direction != "any":
            conds.append(_cond("direction", rule.direction == facts.direction,
                               f"direction {facts.direction} (rule: {rule.direction})"))
        ours_vault, ours_tags = facts.source_vault_id, facts.source_tags
        for name, side in (("source", rule.source), ("destination", rule.destination)):
            counterparty = (name == "destination") == (facts.direction == "outgoing")
            c = _side_match(side, name, vault=None if counterparty else ours_vault, wallet=None,
                            tags=frozenset() if counterparty else ours_tags,
                            address=facts.counterparty_address if counterparty else None)
            if c:
                conds.append(c)
        if rule.min_risk_level is not None:
            level = facts.risk_level
            rank = R.RISK_LEVELS.index(level) if level in R.RISK_LEVELS else -1
            conds.append(_cond("risk_level", rank >= R.RISK_LEVELS.index(rule.min_risk_level),
                               f"risk level {level} (at least {rule.min_risk_level})"))
        if rule.min_risk_score is not None:
            score = facts.risk_score
            conds.append(_cond("risk_score", score is not None and score >= rule.min_risk_score,
                               f"risk score {score} (at least {rule.min_risk_score})"))
        if rule.categories:
            exposures = dict(facts.matched_risks)
            hits = [c for c, low in rule.categories if c in exposures and exposures[c] >= low]
            conds.append(_cond("categories", bool(hits), f"exposure over the threshold in: {hits or 'none'}"))
    else:
        c = _side_match(rule.source, "source", vault=facts.source_vault_id, wallet=facts.source_wallet_id,
                        tags=facts.source_tags)
        if c:
            conds.append(c)
        c = _side_match(rule.destination, "destination", vault=facts.destination_vault_id, wallet=None,
                        tags=facts.destination_tags, destination_type=facts.destination_type,
                        whitelisted=facts.whitelisted_wallet_id)
        if c:
            conds.append(c)
        if rule.initiator is not None:
            i = rule.initiator
            ok = ((facts.initiator_id in i.user_ids) or (facts.initiator_role in i.roles)
                  or (i.api_users and facts.initiator_is_api_user))
            conds.append(_cond("initiator", ok, f"initiator {facts.initiator_id} role {facts.initiator_role}"
                                                f"{' (API user)' if facts.initiator_is_api_user else ''}"))
    if rule.currency_ids:
        conds.append(_cond("asset", facts.currency_id in rule.currency_ids, f"asset {facts.currency_id}"))
    if rule.amount is not None:
        c, no_price = _amount_conditions(rule.amount, facts)
        if c:
            conds.append(c)
        # Only a rule that would otherwise apply fails closed on the missing price.
        verdict.no_price = no_price and all(x["matched"] for x in conds if x is not c)
    verdict.matched = all(c["matched"] for c in conds) and not verdict.no_price
    return verdict


def window_key(policy_type: str, workspace_id: uuid.UUID, rule: R.Rule, facts: Facts) -> str:
    assert rule.window is not None
    key = f"{policy_type}:{workspace_id}:{rule.id}:{rule.window.seconds}"
    if rule.window.scope == "source":
        key += f":w:{facts.source_wallet_id}"
    return key


def apply_window(verdict: RuleVerdict, rule: R.Rule, key: str, used: Usage, facts: Facts) -> None:
    """Judge the window condition of a statically matching rule (the withdrawal included)."""
    w = rule.window
    assert w is not None
    after = Usage(used.count + 1, used.amount + facts.amount, used.amount_usd + (facts.amount_usd or Decimal(0)))
    over: list[str] = []
    if w.max_count is not None and after.count > w.max_count:
        over.append(f"count {after.count} > {w.max_count}")
    if w.max_amount is not None and after.amount > w.max_amount:
        over.append(f"amount {after.amount} > {w.max_amount}")
    if w.max_amount_usd is not None:
        if facts.amount_usd is None:
            verdict.no_price = True
        elif after.amount_usd > w.max_amount_usd:
            over.append(f"USD {after.amount_usd} > {w.max_amount_usd}")
    verdict.window = {"key": key, "seconds": w.seconds, "scope": w.scope, "match": w.match,
                      "used": used.to_dict(), "with_this": after.to_dict(),
                      "limits": {"max_count": w.max_count,
                                 "max_amount": str(w.max_amount) if w.max_amount is not None else None,
                                 "max_amount_usd": str(w.max_amount_usd) if w.max_amount_usd is not None else None},
                      "over": over}
    ok = bool(over) if w.match == "over" else not over
    detail = (f"window {w.seconds}s: " + ("; ".join(over) if over else "within every limit")
              + f" (rule matches when {w.match})")
    verdict.conditions.append(_cond("window", ok, detail))
    verdict.matched = verdict.matched and ok and not verdict.no_price


def static_verdicts(policy: R.ParsedPolicy, facts: Facts) -> list[RuleVerdict]:
    """Every rule judged on everything but its window (computed once per evaluation)."""
    return [static_verdict(index, rule, facts, policy.policy_type) for index, rule in enumerate(policy.rules)]


def decide(policy: R.ParsedPolicy, facts: Facts, usages: dict[str, Usage], *, stop_at_first: bool,
           statics: list[RuleVerdict] | None = None) -> Decision:
    """Judge the rules in order (the window usages already read); the first match decides.
    ``statics`` (from :func:`static_verdicts`) are completed in place."""
    verdicts: list[RuleVerdict] = []
    decisive: RuleVerdict | None = None
    decisive_rule: R.Rule | None = None
    count_in: list[tuple[str, int]] = []
    fail_closed: RuleVerdict | None = None
    for index, rule in enumerate(policy.rules):
        verdict = statics[index] if statics is not None else static_verdict(index, rule, facts, policy.policy_type)
        if rule.window is not None and all(c["matched"] for c in verdict.conditions) and not verdict.no_price:
            key = window_key(policy.policy_type, facts.workspace_id, rule, facts)
            apply_window(verdict, rule, key, usages.get(key, Usage()), facts)
            count_in.append((key, rule.window.seconds))
        verdicts.append(verdict)
        if decisive is None and fail_closed is None:
            if verdict.no_price:
                fail_closed = verdict
            elif verdict.matched:
                decisive, decisive_rule = verdict, rule
        if stop_at_first and (decisive is not None or fail_closed is not None):
            break
    if fail_closed is not None:
        return Decision(R.BLOCK, fail_closed, verdicts, policy.policy_type, policy.version,
                        f"rule {fail_closed.index} ({fail_closed.name}): no USD price for {facts.currency_id}: "
                        f"fails closed", count_in)
    if decisive is None:
        return Decision(policy.no_match_action, None, verdicts, policy.policy_type, policy.version,
                        f"no rule matched: the policy's no-match action is {policy.no_match_action}", count_in)
    assert decisive_rule is not None
    return Decision(decisive.action, decisive, verdicts, policy.policy_type, policy.version,
                    f"rule {decisive.index} ({decisive.name}) {decisive.reason}", count_in,
                    approval=decisive_rule.approval)


def window_candidates(policy: R.ParsedPolicy, facts: Facts,
                      statics: list[RuleVerdict] | None = None) -> list[tuple[str, int]]:
    """The windows of the rules whose other conditions select the withdrawal (to lock and read)."""
    out = []
    for index, rule in enumerate(policy.rules):
        if rule.window is None:
            continue
        verdict = statics[index] if statics is not None else static_verdict(index, rule, facts, policy.policy_type)
        if all(c["matched"] for c in verdict.conditions) and not verdict.no_price:
            out.append((window_key(policy.policy_type, facts.workspace_id, rule, facts), rule.window.seconds))
    return out
