from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.transaction import Transaction
from ...types import UNSET, Response, Unset


def _get_kwargs(
    transaction_id: UUID,
    *,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/transactions/{transaction_id}/unfreeze".format(
            transaction_id=quote(str(transaction_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Transaction | None:
    if response.status_code == 200:
        response_200 = Transaction.from_dict(response.json())

        return response_200

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
    transaction_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Transaction]:
    """Unfreeze a withdrawal (APPROVE_TRANSACTION): it returns to its previous status and holds again

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    TRANSACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    TRANSACTION_NOT_FROZEN, VAULT_FROZEN; 413 PAYLOAD_TOO_LARGE.

    Args:
        transaction_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Transaction]
    """

    kwargs = _get_kwargs(
        transaction_id=transaction_id,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    transaction_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Transaction | None:
    """Unfreeze a withdrawal (APPROVE_TRANSACTION): it returns to its previous status and holds again

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    TRANSACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    TRANSACTION_NOT_FROZEN, VAULT_FROZEN; 413 PAYLOAD_TOO_LARGE.

    Args:
        transaction_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Transaction
    """

    return sync_detailed(
        transaction_id=transaction_id,
        client=client,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    transaction_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[Transaction]:
    """Unfreeze a withdrawal (APPROVE_TRANSACTION): it returns to its previous status and holds again

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    TRANSACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    TRANSACTION_NOT_FROZEN, VAULT_FROZEN; 413 PAYLOAD_TOO_LARGE.

    Args:
        transaction_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Transaction]
    """

    kwargs = _get_kwargs(
        transaction_id=transaction_id,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    transaction_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Transaction | None:
    """Unfreeze a withdrawal (APPROVE_TRANSACTION): it returns to its previous status and holds again

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    TRANSACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 INSUFFICIENT_BALANCE, INSUFFICIENT_GAS,
    TRANSACTION_NOT_FROZEN, VAULT_FROZEN; 413 PAYLOAD_TOO_LARGE.

    Args:
        transaction_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Transaction
    """

    return (
        await asyncio_detailed(
            transaction_id=transaction_id,
            client=client,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
