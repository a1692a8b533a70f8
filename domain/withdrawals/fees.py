"""Network fees of a withdrawal: the fee limit held at creation, and the gas a token transfer needs.

The fee is reserved in the fee currency's wallet when the withdrawal is created, as a *limit*
(the most the transfer may cost); the actual fee is taken from the wallet when the transfer is
final and the rest of the limit is released.

* **UTXO networks** pay the fee in the coin itself, from the same wallet. The rate is
  ``fee_rate_sat_per_vb`` (default: the network's), never below the network's minimum. The
  limit is the fee of the coin selection at creation plus half again (room for the inputs the
  selection may need when the transfer is built, later), or the caller's ``fee`` when given
  (which must cover the estimate).
* **Gas networks** pay in the native coin. A native transfer holds amount plus limit in its own
  wallet. A token transfer holds the amount in the token wallet and the limit in the native
  coin's wallet at the same address: without that gas it cannot move, and it is refused with
  409 INSUFFICIENT_GAS by :func:`require_gas_for_token_transfer`, unless the vault's autofuel
  is on: then it waits for the gas station's refuel (``awaiting_gas``). The limit is gas limit x gas
  price; the caller's ``fee`` (a limit) sets the gas price to ``fee // gas_limit``.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain import balances
from domain.currencies import Currency
from domain.errors import Conflict, ValidationFailed
from domain.networks.base import NetworkAdapter, TransferRejected
from models.wallets import Wallet

#: UTXO networks: the fee limit's headroom over the estimate at creation (numerator, denominator).
UTXO_FEE_HEADROOM = (3, 2)


class InsufficientGas(Conflict):
    """A token transfer on a gas network whose address lacks the native coin to pay the fee."""

    code = "INSUFFICIENT_GAS"


@dataclass(frozen=True)
class FeePlan:
    """How a withdrawal pays its network fee: the limit held, in which currency, at which rate."""

    fee_limit: int
    fee_currency_id: str
    #: Gas price (account family) or sat/vB (UTXO family): what the transfer is built with.
    fee_rate: int


def _fee_error(message: str, *, code: str, field: str, **details: object) -> ValidationFailed:
    return ValidationFailed(message, code=code, details={"field": field, "reason": message, **details})


async def plan_fee(*, adapter: NetworkAdapter, currency: Currency, amount: int, from_address: str,
                   fee: int | None, fee_rate_sat_per_vb: int | None) -> FeePlan:
    """The fee limit and rate of a withdrawal of ``amount`` (see the module docstring)."""
    network = currency.network
    if network.family == "utxo":
        minimum_rate = int(network.params.get("min_fee_rate_sat_per_vb", 1))
        if fee_rate_sat_per_vb is not None and fee_rate_sat_per_vb < minimum_rate:
            raise _fee_error(f"fee_rate_sat_per_vb must be at least {minimum_rate}", code="FEE_RATE_TOO_LOW",
                             field="fee_rate_sat_per_vb", minimum=str(minimum_rate))
        try:
            estimate = await adapter.estimate_fee(currency=currency, amount=amount, from_address=from_address,
                                                  fee_rate=fee_rate_sat_per_vb)
        except TransferRejected:
            # The address's outputs are in the mempool or not enough yet (the balance check decides
            # whether the withdrawal may go): estimate one input and change.
            estimate = await adapter.estimate_fee(currency=currency, fee_rate=fee_rate_sat_per_vb)
        rate = int(estimate.fee_rate_sat_per_vb or fee_rate_sat_per_vb or 1)
        if fee is not None:
            if fee < estimate.fee:
                raise _fee_error(f"fee must cover the estimated fee of {estimate.fee}", code="FEE_TOO_LOW",
                                 field="fee", minimum_fee=str(estimate.fee))
            return FeePlan(fee_limit=fee, fee_currency_id=estimate.fee_currency_id, fee_rate=rate)
        numerator, denominator = UTXO_FEE_HEADROOM
        return FeePlan(fee_limit=-(-estimate.fee * numerator // denominator), fee_currency_id=estimate.fee_currency_id,
                       fee_rate=rate)
    if fee_rate_sat_per_vb is not None:
        raise _fee_error(f"fee_rate_sat_per_vb applies to UTXO networks; {network.id} prices gas (use fee)",
                         code="FEE_RATE_NOT_APPLICABLE", field="fee_rate_sat_per_vb")
    estimate = await adapter.estimate_fee(currency=currency)
    gas_limit = int(estimate.gas_limit or 1)
    network_price = int(estimate.gas_price or 0)
    if fee is None:
        return FeePlan(fee_limit=estimate.fee, fee_currency_id=estimate.fee_currency_id, fee_rate=network_price)
    gas_price = fee // gas_limit
    if gas_price < network_price or gas_price == 0:
        raise _fee_error(f"fee must be at least {gas_limit * network_price} ({gas_limit} gas at {network_price})",
                         code="FEE_TOO_LOW", field="fee", minimum_fee=str(gas_limit * network_price))
    return FeePlan(fee_limit=gas_limit * gas_price, fee_currency_id=estimate.fee_currency_id, fee_rate=gas_price)


def require_gas_for_token_transfer(*, fee_wallet: Wallet, fee_limit: int, address: str,
                                   autofuel: bool = False) -> bool:
    """A token transfer needs ``fee_limit`` of the native coin available at its address.

    True when it is there (hold it now). Without it: with ``autofuel`` (the vault's autofuel is on
    and a gas station serves it, domain.gas_station.autofuel) False, and the withdrawal is
    accepted **waiting for gas** (``awaiting_gas``): it holds its amount, the station refuels the
    address, and the fee is held when the gas is there (domain.withdrawals.pipeline.start_signing);
    otherwise it is refused with 409 INSUFFICIENT_GAS.
    """
    available = balances.parts_of(fee_wallet).available
    if available >= fee_limit:
        return True
    if autofuel:
        return False
    raise InsufficientGas(
        "a token transfer pays its network fee in the native coin, and this vault's address does not hold "
        "enough of it: fund the native wallet at the same address (or turn the vault's autofuel on)",
        details={"fee_asset_id": fee_wallet.currency_id, "address": address,
                 "needed_atomic": str(fee_limit), "available_atomic": str(available)},
    )
