"""Benchmark: policy evaluation with many rules and a full window, and withdrawals with policies on vs off.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/policies.py [--rules 200] [--entries 100000] [--evaluations 500] [--requests 300]

One run prints, in the same database and process:

1. **policy evaluation** p50/p99: the ``policy`` check of one withdrawal against a published
   Transfer policy of ``--rules`` rules, every one of which is judged (the last one decides), half
   of them with a rolling window, ``--entries`` withdrawals counted in those windows (spread over
   the last hour, running buckets built as the service builds them). Measured twice: the whole
   check (facts, window locks, the usage read, the decision, recording the withdrawal in its
   windows, in its own database transaction) and the decision alone (pure Python on read usage);
2. **POST /api/v1/transaction** p50/p99 through the API in-process, policies off (no policy
   published) and on (the same policy), as a ratio; and the **check stage** of each of those
   withdrawals (pending → checks → approved, what the ``withdrawals.check`` actor runs: the
   policy is evaluated there, not in the POST) off and on, as a ratio.

It creates (and drops) its own database ``custody_bench_policies`` and Redis namespace.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BENCH_DATABASE = "custody_bench_policies"
ETH = 10**18
TARGET = "0x" + "ab" * 20


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def ms(values: list[float]) -> str:
    return f"p50 {statistics.median(values) * 1000:.2f} ms, p99 {percentile(values, 0.99) * 1000:.2f} ms"


def policy_rules(count: int, windowed: int, vault_ids: list[str], tag_id: str) -> list[dict[str, Any]]:
    """``count`` rules the bench withdrawal passes through: every one is judged, none but the last
    matches; ``windowed`` of them carry a window that selects the withdrawal (never over its
    generous limits: per rule or per source, one hour or one day), the others other conditions."""
    rules: list[dict[str, Any]] = []
    every = max(1, (count - 1) // max(1, windowed))
    placed = 0
    for i in range(count - 1):
        rule: dict[str, Any] = {"id": f"r{i}", "name": f"Rule {i}", "action": "block" if i % 2 else "allow"}
        if i % every == 0 and placed < windowed:
            placed += 1
            if placed % 2:
                rule["window"] = {"seconds": 3600, "max_count": 10**8, "max_amount_usd": "1000000000000",
                                  "match": "over"}
            else:
                rule["window"] = {"seconds": 86_400, "max_count": 10**8, "scope": "source", "match": "over"}
        elif i % 3 == 0:
            rule["source"] = {"type": "tags", "tag_ids": [tag_id], "tag_match_mode": "all"}
            rule["amount"] = {"min_usd": "1000000"}
        elif i % 3 == 1:
            rule["destination"] = {"type": "internal", "vault_ids": vault_ids[:1]}
            rule["initiator"] = {"roles": ["SIGNER"]}
        else:
            rule["asset"] = {"currency_ids": ["DETH_TEST"]}
            rule["amount"] = {"min": str(10**30)}
        rules.append(rule)
    rules.append({"id": "last", "name": "The rest", "action": "allow"})
    return rules


async def fill_windows(workspace_id: uuid.UUID, template_id: uuid.UUID, keys: list[tuple[str, int]],
                       entries: int) -> None:
    """``entries`` withdrawals (copies of the template row) counted in ``keys``, spread over the last hour."""
    from tortoise import connections

    from core import clock

    conn = connections.get("default")
    columns = [r["column_name"] for r in await conn.execute_query_dict(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'transactions' ORDER BY ordinal_position")]
    copied = ", ".join("gen_random_uuid()" if c == "id" else ("NULL" if c in ("seq", "idempotency_key",
                                                                                "signing_session_id", "chain_ref")
                                                               else c) for c in columns)
    await conn.execute_query(
        f"INSERT INTO transactions ({', '.join(columns)}) SELECT {copied} FROM transactions, generate_series(1, $2)"
        f" WHERE id = $1", [template_id, entries])
    now = clock.now()
    # Each copy counted in one window key, at a moment of the last hour, in the bucket the service
    # would put it in (1/60 of the window)
    await conn.execute_query(
        "INSERT INTO policy_window_entries (id, workspace_id, window_key, transaction_id, amount, amount_usd, at, bucket)"
        " SELECT gen_random_uuid(), $1, ($2::text[])[i], id, 1000, 1, at,"
        " to_timestamp(floor(extract(epoch FROM at) / ($5::int[])[i]) * ($5::int[])[i])"
        " FROM (SELECT id, 1 + (n % array_length($2::text[], 1)) AS i,"
        "       $3::timestamptz - (n % 3599) * interval '1 second' AS at"
        "       FROM (SELECT id, row_number() OVER () AS n FROM transactions"
        "             WHERE id <> $4 AND workspace_id = $1) t) s",
        [workspace_id, [k for k, _ in keys], now, template_id, [max(1, s // 60) for _, s in keys]])
    await conn.execute_query(
        "INSERT INTO policy_window_buckets (id, window_key, bucket, count, amount, amount_usd)"
        " SELECT gen_random_uuid(), window_key, bucket, count(*), sum(amount), sum(amount_usd)"
        " FROM policy_window_entries GROUP BY window_key, bucket")
    await conn.execute_query("ANALYZE policy_window_entries")
    await conn.execute_query("ANALYZE policy_window_buckets")


async def run(args: argparse.Namespace) -> None:
    from _support import drop_database, flush_namespace, recreate_database

    from core.settings import Settings, configure, get_settings
    from core.unit_of_work import unit_of_work
    from custody.wiring import close_database, migrate, open_database, setup_broker

    env = get_settings()
    if not (env.database_url and env.redis_url):
        raise SystemExit("bench/policies.py needs DATABASE_URL and REDIS_URL")
    database_url = await recreate_database(env.database_url, BENCH_DATABASE)
    namespace = f"custody-bench-policies-{os.getpid()}"
    data_dir = Path(tempfile.mkdtemp(prefix="custody-bench-"))
    settings = configure(Settings(database_url=database_url, redis_url=env.redis_url, environment="test",
                                  base_url="http://bench", data_dir=data_dir))
    await migrate(settings)
    await open_database(settings)
    broker = setup_broker(settings, worker=False, namespace=namespace)
    try:
        from sanic import Sanic
        from withdrawals import AppClient, api_user, mark_key_sets_ready, new_workspace

        import domain.policies  # noqa: F401 - installs the policy check
        from api.app import create_app
        from domain import balances, tags, vaults, wallets
        from domain.policies import engine, service, windows
        from domain.withdrawals import ledger, pipeline
        from domain.withdrawals.checks import CheckSubject
        from models.policies import PolicyVersion
        from models.transactions import Transaction
        from models.vaults import Vault

        async def bench_workspace() -> tuple[Any, dict[str, str], list[str], list[str], Any]:
            """A workspace, its API user's headers, four funded DETH wallets (one per vault), and a
            protected tag on every vault."""
            workspace = await new_workspace()
            _, token, _ = await api_user(workspace.id)
            sources, vault_ids = [], []
            for index in range(4):
                async with unit_of_work():
                    view = await vaults.create_vault(principal=None, workspace_id=workspace.id, name=f"Bench {index}")
                    await mark_key_sets_ready(view.vault.id)
                async with unit_of_work():
                    (opened,) = await wallets.create_wallet(principal=None, workspace=workspace,
                                                            vault_id=view.vault.id, currency_id="DETH_TEST")
                    locked = await balances.lock_wallets([opened.wallet.id])
                    await balances.apply_change(wallet=locked[opened.wallet.id], total=10**6 * ETH)
                sources.append(str(opened.wallet.id))
                vault_ids.append(str(view.vault.id))
            async with unit_of_work():
                tag = await tags.create_tag(principal=None, workspace_id=workspace.id, tag=tags.NewTag(label="Bench"))
                await tags.set_protected(principal=None, workspace_id=workspace.id, tag_id=tag.id, protected=True)
                await tags.change_vault_tags(principal=None, workspace_id=workspace.id, change=tags.VaultTagsChange(
                    vault_ids=tuple(uuid.UUID(v) for v in vault_ids), attach=(tag.id,)))
            headers = {"Authorization": f"Bearer {token}", "X-Workspace-Id": str(workspace.id)}
            return workspace, headers, sources, vault_ids, tag

        # Two workspaces alike: one never gets a policy (off), the other the policy (on)
        _, off_headers, off_sources, _, _ = await bench_workspace()
        workspace, headers, sources, vault_ids, tag = await bench_workspace()
        rules = policy_rules(args.rules, args.windowed, vault_ids, str(tag.id))

        Sanic.test_mode = True
        app = create_app(settings, name="custody_bench_policies")
        client = AppClient(app)
        await client.start()

        async def post_and_check(headers: dict[str, str], sources: list[str], index: int) -> tuple[float, float]:
            body = {"amount": str(1000 + index), "source_wallet_id": sources[index % len(sources)],
                    "target_address": TARGET}
            start = time.perf_counter()
            status, created = await client.request("POST", "/api/v1/transaction", json_body=body, headers=headers)
            posted = time.perf_counter() - start
            if status != 201:
                raise SystemExit(f"POST /transaction answered {status}: {created}")
            start = time.perf_counter()
            async with unit_of_work():
                await pipeline.run_checks(transaction_id=created["id"])
            checked = time.perf_counter() - start
            row = await Transaction.get(id=created["id"])
            if row.status != "approved":
                raise SystemExit(f"the check stage ended {row.status}: {row.error_message}")
            return posted, checked

        # Warm-up (and the template withdrawal of the windows' copies)
        for i in range(20):
            await post_and_check(off_headers, off_sources, 10**6 + i)
            await post_and_check(headers, sources, 10**6 + i)
        # Policies on: publish, fill the windows the bench withdrawal falls in
        async with unit_of_work():
            await service.publish_policy(principal=None, workspace_id=workspace.id, policy_type="transfer",
                                         rules=rules)
        version = await PolicyVersion.get(workspace_id=workspace.id, policy_type="transfer")
        policy = service.parsed(version)
        template = await Transaction.filter(workspace_id=workspace.id).order_by("-created_at").first()
        assert template is not None
        row_usd = template.amount_usdt
        facts = await service.facts_of(
            workspace_id=workspace.id, currency_id="DETH_TEST", amount=1000, amount_usd=Decimal(row_usd or "0"),
            source_wallet_id=uuid.UUID(sources[0]), source_vault_id=uuid.UUID(vault_ids[0]),
            destination_type="one_time", target_wallet_id=None, whitelisted_wallet_id=None, initiator_id=None)
        # every window key any bench withdrawal uses (per-source windows: one per source wallet)
        keys = sorted({key for source in sources for key in engine.window_candidates(policy, engine.Facts(
            **{**facts.__dict__, "source_wallet_id": source}))})
        fill_started = time.perf_counter()
        await fill_windows(workspace.id, template.id, keys, args.entries)
        filled_in = time.perf_counter() - fill_started
        counted = sum(u.count for u in (await windows.usage(keys)).values())
        # Interleaved, so that the machine's load weighs on both sides alike
        off_posts: list[float] = []
        on_posts: list[float] = []
        off_stages: list[float] = []
        on_stages: list[float] = []
        for i in range(0 if args.skip_requests else args.requests):
            sides = [(off_headers, off_sources, off_posts, off_stages), (headers, sources, on_posts, on_stages)]
            for side_headers, side_sources, posts, stages in (sides if i % 2 else sides[::-1]):
                posted, checked = await post_and_check(side_headers, side_sources, i)
                posts.append(posted)
                stages.append(checked)

        # 1. The check alone, on one withdrawal, repeated
        row = await Transaction.get(id=template.id)
        parties = await ledger.load(row, lock=False)
        subject = CheckSubject(transaction=row, workspace_id=workspace.id, vault=await Vault.get(id=row.vault_id),
                               source_wallet=parties.source, currency=parties.currency, amount=int(row.amount),
                               destination_type=row.destination_type or "one_time", target_address=TARGET,
                               target_wallet_id=None, whitelisted_wallet_id=None, amount_usdt=row.amount_usdt)
        check = service.PolicyCheck()
        whole, decide_only = [], []
        candidates = engine.window_candidates(policy, facts)
        for _ in range(args.evaluations):
            start = time.perf_counter()
            async with unit_of_work():
                result = await check.check(subject)
            whole.append(time.perf_counter() - start)
            assert result.details["policy"]["rule_id"] == "last", result.details
        # The check's phases, each timed (the same calls as PolicyCheck.check)
        phases: dict[str, list[float]] = {k: [] for k in ("facts", "rules", "lock", "forget", "usage", "decide",
                                                           "record")}
        for _ in range(min(args.evaluations, 200)):
            async with unit_of_work():
                t0 = time.perf_counter()
                f = await service.facts_of(
                    workspace_id=workspace.id, currency_id="DETH_TEST", amount=int(row.amount),
                    amount_usd=Decimal(row.amount_usdt or "0"), source_wallet_id=row.wallet_id,
                    source_vault_id=row.vault_id, destination_type="one_time", target_wallet_id=None,
                    whitelisted_wallet_id=None, initiator_id=row.created_by)
                t1 = time.perf_counter()
                st = engine.static_verdicts(policy, f)
                cands = engine.window_candidates(policy, f, st)
                t2 = time.perf_counter()
                await windows.lock([k for k, _ in cands])
                t3 = time.perf_counter()
                await service.forget_transaction(row.id)
                t4 = time.perf_counter()
                us = await windows.usage(cands)
                t5 = time.perf_counter()
                engine.decide(policy, f, us, stop_at_first=True, statics=st)
                t6 = time.perf_counter()
                await windows.record(workspace_id=workspace.id, transaction_id=row.id, windows=cands, amount=1000,
                                     amount_usd=None)
                t7 = time.perf_counter()
            for name, (a, b) in zip(phases, ((t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6), (t6, t7))):
                phases[name].append(b - a)
        usages = await windows.usage(candidates)
        for _ in range(args.evaluations):
            start = time.perf_counter()
            statics = engine.static_verdicts(policy, facts)
            decision = engine.decide(policy, facts, usages, stop_at_first=True, statics=statics)
            decide_only.append(time.perf_counter() - start)
        assert decision.rule is not None and decision.rule.rule_id == "last"
        await client.stop()

        print(f"Policy of {args.rules} rules ({len(candidates)} windows read per evaluation, {len(keys)} window keys "
              f"in all), {counted} withdrawals counted in the windows (filled in {filled_in:.1f} s); every rule is "
              "judged, the last one decides")
        print(f"  the whole policy check (facts, locks, usage, decision, recording): {ms(whole)} "
              f"over {args.evaluations} evaluations")
        print(f"  the decision alone (pure Python): {ms(decide_only)}")
        evaluation = [sum(v) for v in zip(*(phases[k] for k in ("facts", "rules", "lock", "usage", "decide")))]
        print(f"  the evaluation (facts, rules, locks, usage, decision: no writes): {ms(evaluation)}")
        print("  the check's phases: " + "; ".join(f"{name} {statistics.median(v) * 1000:.2f} ms"
                                                  for name, v in phases.items()) + " (p50 each)")
        if args.skip_requests:
            return
        print(f"POST /api/v1/transaction, {args.requests} sequential requests per side in-process, the sides "
              "interleaved (one workspace without a policy, one with it):")
        print(f"  policies off: {ms(off_posts)}")
        print(f"  policies on:  {ms(on_posts)}")
        print(f"  ratio on/off: p50 {statistics.median(on_posts) / statistics.median(off_posts):.2f}, "
              f"p99 {percentile(on_posts, 0.99) / percentile(off_posts, 0.99):.2f} "
              "(the POST does not evaluate policies: the check stage does, below)")
        print("The check stage of the same withdrawals (pending -> checks -> approved, withdrawals.check):")
        print(f"  policies off: {ms(off_stages)}")
        print(f"  policies on:  {ms(on_stages)}")
        print(f"  ratio on/off: p50 {statistics.median(on_stages) / statistics.median(off_stages):.2f}, "
              f"p99 {percentile(on_stages, 0.99) / percentile(off_stages, 0.99):.2f}")
    finally:
        broker.close()
        flush_namespace(settings.redis_url, namespace)
        await close_database()
        await drop_database(env.database_url, BENCH_DATABASE)
        shutil.rmtree(data_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", type=int, default=200, help="rules in the published policy")
    parser.add_argument("--windowed", type=int, default=20, help="rules with a window the withdrawal falls in")
    parser.add_argument("--entries", type=int, default=100_000, help="withdrawals counted in the windows")
    parser.add_argument("--evaluations", type=int, default=500, help="policy checks measured")
    parser.add_argument("--skip-requests", action="store_true", help="only the evaluation figures")
    parser.add_argument("--requests", type=int, default=300, help="withdrawals per side (policies off, on)")
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
