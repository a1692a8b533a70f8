from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.transaction import Transaction
from ...models.transaction_create import TransactionCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: TransactionCreate,
    x_workspace_id: str | Unset = UNSET,
    x_idempotency_key: str | Unset = UNSET,
    x_attempt_key: str | Unset = UNSET,
    x_utxo_intent_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    if not isinstance(x_idempotency_key, Unset):
        headers["X-Idempotency-Key"] = x_idempotency_key

    if not isinstance(x_attempt_key, Unset):
        headers["X-Attempt-Key"] = x_attempt_key

    if not isinstance(x_utxo_intent_key, Unset):
        headers["X-Utxo-Intent-Key"] = x_utxo_intent_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/transaction",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Transaction | None:
    if response.status_code == 201:
        response_201 = Transaction.from_dict(response.json())

        return response_201

    if response.status_code == 409:
        response_409 = Transaction.from_dict(response.json())

        return response_409

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Transaction]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TransactionCreate,
    x_workspace_id: str | Unset = UNSET,
    x_idempotency_key: str | Unset = UNSET,
    x_attempt_key: str | Unset = UNSET,
    x_utxo_intent_key: str | Unset = UNSET,
) -> Response[Transaction]:
    """Create a withdrawal (CREATE_TRANSACTION): reserved at once, then checked, signed, broadcast

     Answers 201 with the transaction (status pending; amount and fee limit are already held). A repeat
    with the same X-Idempotency-Key answers 409 with the transaction it created. Amounts are integer
    strings of atomic units.

    Errors (raised as custody_sdk.CustodyApiError): 400 AMOUNT_BELOW_DUST, DUPLICATE_HEADER,
    FEE_RATE_NOT_APPLICABLE, FEE_RATE_TOO_LOW, FEE_TOO_LOW, INVALID_ADDRESS, INVALID_AMOUNT,
    INVALID_ATTEMPT_KEY, INVALID_IDEMPOTENCY_KEY, INVALID_UTXO_INTENT_KEY, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS,
    TARGET_CURRENCY_MISMATCH, UTXO_INTENT_KEY_NOT_APPLICABLE, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 ONE_TIME_ADDRESS_NOT_ALLOWED, PERMISSION_DENIED; 404
    TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND, WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    ATTEMPT_ALREADY_FINISHED, ATTEMPT_IN_PROGRESS, INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    PROBABLE_DUPLICATE, TARGET_WALLET_NOT_FOUND, UTXO_INTENT_KEY_USED, VAULT_FROZEN; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE; 422 ATTEMPT_NOT_EQUIVALENT, IDEMPOTENCY_KEY_REUSED.

    Args:
        x_workspace_id (str | Unset):
        x_idempotency_key (str | Unset):
        x_attempt_key (str | Unset):
        x_utxo_intent_key (str | Unset):
        body (TransactionCreate): A withdrawal: ``amount`` of the source wallet's currency to
            ``target_address``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Transaction]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
        x_idempotency_key=x_idempotency_key,
        x_attempt_key=x_attempt_key,
        x_utxo_intent_key=x_utxo_intent_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: TransactionCreate,
    x_workspace_id: str | Unset = UNSET,
    x_idempotency_key: str | Unset = UNSET,
    x_attempt_key: str | Unset = UNSET,
    x_utxo_intent_key: str | Unset = UNSET,
) -> Transaction | None:
    """Create a withdrawal (CREATE_TRANSACTION): reserved at once, then checked, signed, broadcast

     Answers 201 with the transaction (status pending; amount and fee limit are already held). A repeat
    with the same X-Idempotency-Key answers 409 with the transaction it created. Amounts are integer
    strings of atomic units.

    Errors (raised as custody_sdk.CustodyApiError): 400 AMOUNT_BELOW_DUST, DUPLICATE_HEADER,
    FEE_RATE_NOT_APPLICABLE, FEE_RATE_TOO_LOW, FEE_TOO_LOW, INVALID_ADDRESS, INVALID_AMOUNT,
    INVALID_ATTEMPT_KEY, INVALID_IDEMPOTENCY_KEY, INVALID_UTXO_INTENT_KEY, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS,
    TARGET_CURRENCY_MISMATCH, UTXO_INTENT_KEY_NOT_APPLICABLE, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 ONE_TIME_ADDRESS_NOT_ALLOWED, PERMISSION_DENIED; 404
    TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND, WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    ATTEMPT_ALREADY_FINISHED, ATTEMPT_IN_PROGRESS, INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    PROBABLE_DUPLICATE, TARGET_WALLET_NOT_FOUND, UTXO_INTENT_KEY_USED, VAULT_FROZEN; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE; 422 ATTEMPT_NOT_EQUIVALENT, IDEMPOTENCY_KEY_REUSED.

    Args:
        x_workspace_id (str | Unset):
        x_idempotency_key (str | Unset):
        x_attempt_key (str | Unset):
        x_utxo_intent_key (str | Unset):
        body (TransactionCreate): A withdrawal: ``amount`` of the source wallet's currency to
            ``target_address``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Transaction
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
        x_idempotency_key=x_idempotency_key,
        x_attempt_key=x_attempt_key,
        x_utxo_intent_key=x_utxo_intent_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TransactionCreate,
    x_workspace_id: str | Unset = UNSET,
    x_idempotency_key: str | Unset = UNSET,
    x_attempt_key: str | Unset = UNSET,
    x_utxo_intent_key: str | Unset = UNSET,
) -> Response[Transaction]:
    """Create a withdrawal (CREATE_TRANSACTION): reserved at once, then checked, signed, broadcast

     Answers 201 with the transaction (status pending; amount and fee limit are already held). A repeat
    with the same X-Idempotency-Key answers 409 with the transaction it created. Amounts are integer
    strings of atomic units.

    Errors (raised as custody_sdk.CustodyApiError): 400 AMOUNT_BELOW_DUST, DUPLICATE_HEADER,
    FEE_RATE_NOT_APPLICABLE, FEE_RATE_TOO_LOW, FEE_TOO_LOW, INVALID_ADDRESS, INVALID_AMOUNT,
    INVALID_ATTEMPT_KEY, INVALID_IDEMPOTENCY_KEY, INVALID_UTXO_INTENT_KEY, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS,
    TARGET_CURRENCY_MISMATCH, UTXO_INTENT_KEY_NOT_APPLICABLE, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 ONE_TIME_ADDRESS_NOT_ALLOWED, PERMISSION_DENIED; 404
    TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND, WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    ATTEMPT_ALREADY_FINISHED, ATTEMPT_IN_PROGRESS, INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    PROBABLE_DUPLICATE, TARGET_WALLET_NOT_FOUND, UTXO_INTENT_KEY_USED, VAULT_FROZEN; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE; 422 ATTEMPT_NOT_EQUIVALENT, IDEMPOTENCY_KEY_REUSED.

    Args:
        x_workspace_id (str | Unset):
        x_idempotency_key (str | Unset):
        x_attempt_key (str | Unset):
        x_utxo_intent_key (str | Unset):
        body (TransactionCreate): A withdrawal: ``amount`` of the source wallet's currency to
            ``target_address``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Transaction]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
        x_idempotency_key=x_idempotency_key,
        x_attempt_key=x_attempt_key,
        x_utxo_intent_key=x_utxo_intent_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TransactionCreate,
    x_workspace_id: str | Unset = UNSET,
    x_idempotency_key: str | Unset = UNSET,
    x_attempt_key: str | Unset = UNSET,
    x_utxo_intent_key: str | Unset = UNSET,
) -> Transaction | None:
    """Create a withdrawal (CREATE_TRANSACTION): reserved at once, then checked, signed, broadcast

     Answers 201 with the transaction (status pending; amount and fee limit are already held). A repeat
    with the same X-Idempotency-Key answers 409 with the transaction it created. Amounts are integer
    strings of atomic units.

    Errors (raised as custody_sdk.CustodyApiError): 400 AMOUNT_BELOW_DUST, DUPLICATE_HEADER,
    FEE_RATE_NOT_APPLICABLE, FEE_RATE_TOO_LOW, FEE_TOO_LOW, INVALID_ADDRESS, INVALID_AMOUNT,
    INVALID_ATTEMPT_KEY, INVALID_IDEMPOTENCY_KEY, INVALID_UTXO_INTENT_KEY, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS,
    TARGET_CURRENCY_MISMATCH, UTXO_INTENT_KEY_NOT_APPLICABLE, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 ONE_TIME_ADDRESS_NOT_ALLOWED, PERMISSION_DENIED; 404
    TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND, WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    ATTEMPT_ALREADY_FINISHED, ATTEMPT_IN_PROGRESS, INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    PROBABLE_DUPLICATE, TARGET_WALLET_NOT_FOUND, UTXO_INTENT_KEY_USED, VAULT_FROZEN; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE; 422 ATTEMPT_NOT_EQUIVALENT, IDEMPOTENCY_KEY_REUSED.

    Args:
        x_workspace_id (str | Unset):
        x_idempotency_key (str | Unset):
        x_attempt_key (str | Unset):
        x_utxo_intent_key (str | Unset):
        body (TransactionCreate): A withdrawal: ``amount`` of the source wallet's currency to
            ``target_address``.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Transaction
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
            x_idempotency_key=x_idempotency_key,
            x_attempt_key=x_attempt_key,
            x_utxo_intent_key=x_utxo_intent_key,
        )
    ).parsed
