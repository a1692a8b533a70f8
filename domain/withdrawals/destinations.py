"""Where a withdrawal goes: an internal wallet, a whitelisted wallet or a one-time address.

``target_address`` is always given (the spec makes it required) and is normalized for the
source currency's network (400 INVALID_ADDRESS otherwise). Then:

* ``target_wallet_id`` names a wallet of the same workspace and currency (404
  TARGET_WALLET_NOT_FOUND; 400 TARGET_CURRENCY_MISMATCH) whose address must be
  ``target_address`` (400 TARGET_ADDRESS_MISMATCH): an **internal** transfer;
* ``target_whitelisted_asset_id`` names a live whitelisted wallet of the workspace (404
  WHITELISTED_WALLET_NOT_FOUND) of the same currency, at ``target_address``: **whitelisted**;
* both at once are ambiguous (400 TARGET_AMBIGUOUS);
* neither: the address itself decides. An address of one of the workspace's vaults is
  internal (it needs a wallet of the currency there: 409 TARGET_WALLET_NOT_FOUND otherwise, so
  nothing is sent where it would not be credited); a whitelisted address is whitelisted;
  anything else is a **one-time** address, accepted only when the workspace allows them (403
  ONE_TIME_ADDRESS_NOT_ALLOWED).

Sending to the source wallet's own address is refused (400 SAME_SOURCE_AND_TARGET).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from tortoise import connections

from domain import whitelist
from domain.currencies import Currency
from domain.errors import Conflict, DomainError, NotFound, ValidationFailed
from domain.networks.registry import normalize_address
from models.wallets import Wallet
from models.whitelist import WhitelistedWallet

INTERNAL, WHITELISTED, ONE_TIME = "internal", "whitelisted", "one_time"


class OneTimeAddressNotAllowed(DomainError):
    status = 403
    code = "ONE_TIME_ADDRESS_NOT_ALLOWED"


@dataclass(frozen=True)
class Destination:
    address: str
    kind: str
    wallet: Wallet | None = None
    whitelisted: WhitelistedWallet | None = None


def _mismatch(field: str, reason: str, code: str) -> ValidationFailed:
    return ValidationFailed(f"{field}: {reason}", code=code, details={"field": field, "reason": reason})


def what_address_is(*, workspace_id: str, network: str, address: str, currency_id: str) -> str:
    """What a plain target address is, as one row of SQL over the expressions given for its inputs
    (parameters, or columns of a statement it is joined into, whose aliases must not be ``one``,
    ``own``, ``ow``, ``e`` or ``s``): an address of the workspace (and its wallet of the
    currency), else a live whitelist entry of the currency, else whether one-time addresses are
    allowed (forbidden without a settings row: domain.whitelist.get_settings)."""
    return f"""
SELECT own.vault_id AS own_vault_id,
       (SELECT ow.id FROM wallets ow WHERE ow.address_id = own.id AND ow.currency_id = {currency_id})
           AS own_wallet_id,
       (SELECT e.id FROM whitelisted_wallets e WHERE e.workspace_id = {workspace_id} AND e.currency_id = {currency_id}
          AND e.address = {address} AND e.deleted_at IS NULL LIMIT 1) AS whitelisted_id,
       coalesce((SELECT s.one_time_addresses_allowed FROM whitelist_settings s WHERE s.workspace_id = {workspace_id}),
                false) AS one_time_allowed
FROM (SELECT 1) one
LEFT JOIN wallet_addresses own ON own.workspace_id = {workspace_id} AND own.network = {network}
    AND own.address = {address}
"""


_WHAT_ADDRESS_IS = what_address_is(workspace_id="$1", network="$2", address="$3", currency_id="$4")


@dataclass(frozen=True)
class KnownAddress:
    """What ``address`` is (the columns of :func:`what_address_is`), read ahead by the caller in a
    statement of its own (POST /transaction reads it with the source wallet)."""

    address: str
    own_vault_id: uuid.UUID | None
    own_wallet_id: uuid.UUID | None
    whitelisted_id: uuid.UUID | None
    one_time_allowed: bool

    @classmethod
    def of(cls, address: str, row: dict[str, Any]) -> "KnownAddress":
        return cls(address, row["own_vault_id"], row["own_wallet_id"], row["whitelisted_id"],
                   bool(row["one_time_allowed"]))


async def resolve(*, workspace_id: uuid.UUID, currency: Currency, source: Wallet, source_address: str,
                  target_address: str, target_wallet_id: uuid.UUID | None,
                  target_whitelisted_asset_id: uuid.UUID | None, known: KnownAddress | None = None) -> Destination:
    """The destination of a withdrawal (see the module docstring). ``known``: what the caller
    read ahead about a plain target address; used only when it was read for the address in its
    canonical form, else the address is looked up here."""
    if target_wallet_id is not None and target_whitelisted_asset_id is not None:
        raise _mismatch("target_wallet_id", "give target_wallet_id or target_whitelisted_asset_id, not both",
                        "TARGET_AMBIGUOUS")
    address = normalize_address(currency.network.id, target_address, field="target_address")
    if address == source_address:
        raise _mismatch("target_address", "is the source wallet's own address", "SAME_SOURCE_AND_TARGET")
    if target_wallet_id is not None:
        target = await Wallet.get_or_none(id=target_wallet_id, workspace_id=workspace_id).prefetch_related("address")
        if target is None:
            raise NotFound("target wallet not found", code="TARGET_WALLET_NOT_FOUND",
                           details={"field": "target_wallet_id"})
        if target.currency_id != currency.id:
            raise _mismatch("target_wallet_id", f"holds {target.currency_id}, not {currency.id}",
                            "TARGET_CURRENCY_MISMATCH")
        if target.address.address != address:
            raise _mismatch("target_address", "is not the address of target_wallet_id", "TARGET_ADDRESS_MISMATCH")
        return Destination(address, INTERNAL, wallet=target)
    if target_whitelisted_asset_id is not None:
        entry = await whitelist.get_live(workspace_id=workspace_id, wallet_id=target_whitelisted_asset_id)
        if entry.currency_id != currency.id:
            raise _mismatch("target_whitelisted_asset_id", f"is whitelisted for {entry.currency_id}, not {currency.id}",
                            "TARGET_CURRENCY_MISMATCH")
        if entry.address != address:
            raise _mismatch("target_address", "is not the address of target_whitelisted_asset_id",
                            "TARGET_ADDRESS_MISMATCH")
        return Destination(address, WHITELISTED, whitelisted=entry)
    if known is None or known.address != address:
        (row,) = await connections.get("default").execute_query_dict(
            _WHAT_ADDRESS_IS, [workspace_id, currency.network.id, address, currency.id])
        known = KnownAddress.of(address, row)
    if known.own_vault_id is not None:
        target = await Wallet.get_or_none(id=known.own_wallet_id).prefetch_related("address") \
            if known.own_wallet_id is not None else None
        if target is None:
            raise Conflict(f"target_address belongs to a vault of this workspace that has no {currency.symbol} wallet: "
                           "open one there first", code="TARGET_WALLET_NOT_FOUND",
                           details={"field": "target_address", "vault_id": str(known.own_vault_id)})
        return Destination(address, INTERNAL, wallet=target)
    if known.whitelisted_id is not None:
        entry = await WhitelistedWallet.get(id=known.whitelisted_id)
        return Destination(address, WHITELISTED, whitelisted=entry)
    if not known.one_time_allowed:
        raise OneTimeAddressNotAllowed(
            "this workspace sends only to whitelisted or internal addresses: whitelist the address "
            "(POST /api/v1/whitelist/wallets) or allow one-time addresses (PUT /api/v1/whitelist/settings)",
            details={"field": "target_address"})
    return Destination(address, ONE_TIME)
