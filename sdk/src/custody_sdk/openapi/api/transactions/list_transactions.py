import datetime
from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_transactions_direction import (
    ListTransactionsDirection,
)
from ...models.list_transactions_status_item import (
    ListTransactionsStatusItem,
)
from ...models.transaction_page import TransactionPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: list[ListTransactionsStatusItem] | Unset = UNSET,
    wallet_id: None | Unset | UUID = UNSET,
    vault_id: None | Unset | UUID = UNSET,
    direction: ListTransactionsDirection | None | Unset = UNSET,
    created_from: datetime.datetime | None | Unset = UNSET,
    created_to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    json_status: list[str] | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = []
        for status_item_data in status:
            status_item: str = status_item_data
            json_status.append(status_item)

    params["status"] = json_status

    json_wallet_id: None | str | Unset
    if isinstance(wallet_id, Unset):
        json_wallet_id = UNSET
    elif isinstance(wallet_id, UUID):
        json_wallet_id = str(wallet_id)
    else:
        json_wallet_id = wallet_id
    params["wallet_id"] = json_wallet_id

    json_vault_id: None | str | Unset
    if isinstance(vault_id, Unset):
        json_vault_id = UNSET
    elif isinstance(vault_id, UUID):
        json_vault_id = str(vault_id)
    else:
        json_vault_id = vault_id
    params["vault_id"] = json_vault_id

    json_direction: None | str | Unset
    if isinstance(direction, Unset):
        json_direction = UNSET
    elif isinstance(direction, str):
        json_direction = direction
    else:
        json_direction = direction
    params["direction"] = json_direction

    json_created_from: None | str | Unset
    if isinstance(created_from, Unset):
        json_created_from = UNSET
    elif isinstance(created_from, datetime.datetime):
        json_created_from = created_from.isoformat()
    else:
        json_created_from = created_from
    params["created_from"] = json_created_from

    json_created_to: None | str | Unset
    if isinstance(created_to, Unset):
        json_created_to = UNSET
    elif isinstance(created_to, datetime.datetime):
        json_created_to = created_to.isoformat()
    else:
        json_created_to = created_to
    params["created_to"] = json_created_to

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/transactions",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> TransactionPage | None:
    if response.status_code == 200:
        response_200 = TransactionPage.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[TransactionPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    status: list[ListTransactionsStatusItem] | Unset = UNSET,
    wallet_id: None | Unset | UUID = UNSET,
    vault_id: None | Unset | UUID = UNSET,
    direction: ListTransactionsDirection | None | Unset = UNSET,
    created_from: datetime.datetime | None | Unset = UNSET,
    created_to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[TransactionPage]:
    """Transactions of the workspace, newest first, filtered and paged

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    VAULT_NOT_FOUND, WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        status (list[ListTransactionsStatusItem] | Unset):
        wallet_id (None | Unset | UUID):
        vault_id (None | Unset | UUID):
        direction (ListTransactionsDirection | None | Unset):
        created_from (datetime.datetime | None | Unset):
        created_to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TransactionPage]
    """

    kwargs = _get_kwargs(
        status=status,
        wallet_id=wallet_id,
        vault_id=vault_id,
        direction=direction,
        created_from=created_from,
        created_to=created_to,
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    status: list[ListTransactionsStatusItem] | Unset = UNSET,
    wallet_id: None | Unset | UUID = UNSET,
    vault_id: None | Unset | UUID = UNSET,
    direction: ListTransactionsDirection | None | Unset = UNSET,
    created_from: datetime.datetime | None | Unset = UNSET,
    created_to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> TransactionPage | None:
    """Transactions of the workspace, newest first, filtered and paged

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    VAULT_NOT_FOUND, WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        status (list[ListTransactionsStatusItem] | Unset):
        wallet_id (None | Unset | UUID):
        vault_id (None | Unset | UUID):
        direction (ListTransactionsDirection | None | Unset):
        created_from (datetime.datetime | None | Unset):
        created_to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TransactionPage
    """

    return sync_detailed(
        client=client,
        status=status,
        wallet_id=wallet_id,
        vault_id=vault_id,
        direction=direction,
        created_from=created_from,
        created_to=created_to,
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    status: list[ListTransactionsStatusItem] | Unset = UNSET,
    wallet_id: None | Unset | UUID = UNSET,
    vault_id: None | Unset | UUID = UNSET,
    direction: ListTransactionsDirection | None | Unset = UNSET,
    created_from: datetime.datetime | None | Unset = UNSET,
    created_to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[TransactionPage]:
    """Transactions of the workspace, newest first, filtered and paged

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    VAULT_NOT_FOUND, WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        status (list[ListTransactionsStatusItem] | Unset):
        wallet_id (None | Unset | UUID):
        vault_id (None | Unset | UUID):
        direction (ListTransactionsDirection | None | Unset):
        created_from (datetime.datetime | None | Unset):
        created_to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[TransactionPage]
    """

    kwargs = _get_kwargs(
        status=status,
        wallet_id=wallet_id,
        vault_id=vault_id,
        direction=direction,
        created_from=created_from,
        created_to=created_to,
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    status: list[ListTransactionsStatusItem] | Unset = UNSET,
    wallet_id: None | Unset | UUID = UNSET,
    vault_id: None | Unset | UUID = UNSET,
    direction: ListTransactionsDirection | None | Unset = UNSET,
    created_from: datetime.datetime | None | Unset = UNSET,
    created_to: datetime.datetime | None | Unset = UNSET,
    limit: int | Unset = 100,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> TransactionPage | None:
    """Transactions of the workspace, newest first, filtered and paged

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    VAULT_NOT_FOUND, WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        status (list[ListTransactionsStatusItem] | Unset):
        wallet_id (None | Unset | UUID):
        vault_id (None | Unset | UUID):
        direction (ListTransactionsDirection | None | Unset):
        created_from (datetime.datetime | None | Unset):
        created_to (datetime.datetime | None | Unset):
        limit (int | Unset):  Default: 100.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        TransactionPage
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            wallet_id=wallet_id,
            vault_id=vault_id,
            direction=direction,
            created_from=created_from,
            created_to=created_to,
            limit=limit,
            offset=offset,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
