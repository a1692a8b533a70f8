"""core.rows: a row made by ``build`` is the row tortoise's constructor makes, and writes the same."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import asyncpg
import pytest
from tortoise.exceptions import ValidationError

from core import clock
from core.db import transaction
from core.outbox import Command
from core.rows import build, by_key, write_rows
from models.audit import AuditEntry
from models.transactions import Transaction
from models.webhooks import WebhookEvent


def _state(row: Any) -> dict[str, Any]:
    return {key: value for key, value in vars(row).items()}


def _given() -> list[tuple[type, dict[str, Any]]]:
    now = clock.now()
    return [
        (Transaction, {"id": uuid.uuid4(), "created_at": now, "updated_at": now, "workspace_id": uuid.uuid4(),
                       "vault_id": uuid.uuid4(), "wallet_id": str(uuid.uuid4()), "direction": "withdrawal",
                       "status": "pending", "currency_id": "DETH_TEST", "network": "devnet-evm-testnet",
                       "amount": "1500", "fee_limit": 21000, "fee_currency_id": "DETH_TEST", "fee_rate": None,
                       "to_side": {"whitelisted_wallet_name": None}, "retry_of_id": None, "expires_at": now}),
        (AuditEntry, {"id": uuid.uuid4(), "created_at": now, "action": "withdrawal.created",
                      "object_type": "transaction", "object_id": "x", "actor_id": None, "actor_type": "system",
                      "workspace_id": uuid.uuid4(), "company_id": None, "details": {"a": 1}, "request_id": None}),
        (WebhookEvent, {"id": uuid.uuid4(), "created_at": now, "workspace_id": uuid.uuid4(),
                        "type": "transaction.created", "payload": "{}", "target_webhook_id": None}),
        (Command, {"id": uuid.uuid4(), "created_at": now, "run_at": now, "actor_name": "withdrawals.check",
                   "payload": {"transaction_id": "x"}, "workspace_id": None}),
    ]


def test_build_makes_the_row_the_constructor_makes(database):
    for model, values in _given():
        # Every field given (defaults from callables would differ between two calls)
        assert _state(build(model, **values)) == _state(model(**values)), model.__name__
        # Defaults filled alike: constants, copies of mutable defaults (never shared), None
        keep = {key: values[key] for key in ("id", "created_at") if key in values}
        if "run_at" in values:
            keep["run_at"] = values["run_at"]
        if "updated_at" in values:
            keep["updated_at"] = values["updated_at"]
        sparse = {**{k: v for k, v in values.items() if k in ("workspace_id", "vault_id", "wallet_id", "direction",
                                                              "status", "currency_id", "network", "amount",
                                                              "fee_currency_id", "actor_type", "action",
                                                              "object_type", "type", "payload", "actor_name")},
                  **keep}
        built, made = build(model, **sparse), model(**sparse)
        assert _state(built) == _state(made), model.__name__
        for key, value in _state(built).items():
            if key not in sparse and isinstance(value, (dict, list)):
                assert value is not _state(made)[key]


def test_build_converts_and_refuses_like_the_constructor(database):
    model, values = _given()[0]
    built = build(model, **values)
    # The amount given as a string of digits is an int, the wallet id given as text a UUID
    assert built.amount == 1500 and isinstance(built.wallet_id, uuid.UUID)
    with pytest.raises(ValueError, match="non nullable"):
        build(model, **{**values, "status": None})
    with pytest.raises(ValueError, match="non nullable"):
        model(**{**values, "status": None})


def test_a_relation_given_as_an_object_goes_through_the_constructor(database):
    model, values = _given()[0]
    retried = model(**copy.copy(values))
    retried._saved_in_db = True  # noqa: SLF001
    built = build(model, **{**values, "id": uuid.uuid4(), "retry_of": retried})
    assert built.retry_of_id == retried.id


async def test_rows_written_by_build_read_back_as_written(database):
    entry = build(AuditEntry, action="test.rows", object_type="test", actor_type="system", details={"n": 1})
    command = build(Command, actor_name="test.rows", payload={"n": 2})
    await write_rows([entry, command])
    assert entry._saved_in_db and command._saved_in_db  # noqa: SLF001
    stored = await AuditEntry.get(id=entry.id)
    assert (stored.action, stored.details, stored.actor_type) == ("test.rows", {"n": 1}, "system")
    sent = await Command.get(id=command.id)
    assert (sent.actor_name, sent.payload, sent.status, sent.attempts) == ("test.rows", {"n": 2}, "pending", 0)
    # A saved row is updated
    command.status = "done"
    await write_rows([command])
    assert (await Command.get(id=command.id)).status == "done"


async def test_by_key_reads_the_row_tortoise_reads(database):
    # Given a command and an audit entry written (JSON, datetimes, nullable columns)
    entry = build(AuditEntry, action="test.by_key", object_type="test", actor_type="system", details={"n": [1, 2]})
    command = build(Command, actor_name="test.by_key", payload={"transaction_id": "x"})
    await write_rows([entry, command])
    # When each is read by its key, with and without a filter and a lock
    for model, key, filters in ((Command, command.id, {"actor_name": "test.by_key"}), (AuditEntry, entry.id, {})):
        expected = _state(await model.filter(id=key, **filters).first())
        assert _state(await by_key(model, key, **filters)) == expected, model.__name__
        async with transaction():
            assert _state(await by_key(model, str(key), lock="update", **filters)) == expected
    # Then a missing key, or a filter that does not match, reads None
    assert await by_key(Command, uuid.uuid4()) is None
    assert await by_key(Command, command.id, actor_name="another") is None


async def test_by_key_locks_the_row_until_the_transaction_ends(database, settings):
    # Given a command read with a lock in an open transaction
    command = build(Command, actor_name="test.by_key.lock", payload={})
    await write_rows([command])
    other = await asyncpg.connect(settings.database_url)
    try:
        async with transaction():
            assert await by_key(Command, command.id, lock="no key update") is not None
            # Then another connection cannot lock it meanwhile
            with pytest.raises(asyncpg.LockNotAvailableError):
                await other.execute("SELECT 1 FROM outbox_commands WHERE id = $1 FOR UPDATE NOWAIT", command.id)
        # And can once the transaction ended
        assert await other.fetchval("SELECT 1 FROM outbox_commands WHERE id = $1 FOR UPDATE NOWAIT", command.id) == 1
    finally:
        await other.close()


class _RollBack(Exception):
    """Ends a test's transaction without committing it."""


async def test_write_rows_stores_every_column_as_tortoises_save_does(database):
    # Given the same rows made twice (UUIDs as objects and as text, integers, booleans, bytes,
    # JSON, datetimes, None): one of each to be written by write_rows, the other by save(), in a
    # transaction that checks no foreign key (the rows name no real workspace) and is rolled back
    from tortoise import connections

    with pytest.raises(_RollBack):
        async with transaction():
            await connections.get("default").execute_script("SET LOCAL session_replication_role = replica")
            for model, values in _given():
                ours, theirs = build(model, **{**values, "id": uuid.uuid4()}), model(**{**values, "id": uuid.uuid4()})
                if model is Transaction:
                    ours.signature = theirs.signature = b"\x00\x01"
                    ours.holding = theirs.holding = True
                if model is AuditEntry:  # (its trigger, off here, would give it the next position)
                    ours.position, theirs.position = 7, 8
                # When each is written
                await write_rows([ours])
                await theirs.save()
                # Then the database holds the same values in every column but the key (and the
                # audit entries' positions, unique in a workspace)
                table, key = model._meta.db_table, model._meta.db_pk_column  # noqa: SLF001
                rows = await connections.get("default").execute_query_dict(
                    f'SELECT * FROM "{table}" WHERE "{key}" = ANY($1::uuid[])', [[ours.id, theirs.id]])
                stored = {row[key]: {column: value for column, value in row.items() if column not in (key, "position")}
                          for row in rows}
                assert stored[ours.id] == stored[theirs.id], model.__name__
            # And a value a field's validator refuses is refused alike, before anything is sent
            model, values = _given()[0]
            with pytest.raises(ValidationError, match="error_code"):
                await write_rows([build(model, **{**values, "id": uuid.uuid4(), "error_code": "X" * 65})])
            with pytest.raises(ValidationError, match="error_code"):
                await model(**{**values, "id": uuid.uuid4(), "error_code": "X" * 65}).save()
            raise _RollBack
