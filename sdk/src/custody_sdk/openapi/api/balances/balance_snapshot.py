from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.balance_snapshot import BalanceSnapshot
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    wallets: bool | Unset = False,
    wallets_limit: int | Unset = 1000,
    wallets_after: None | Unset | UUID = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    params["wallets"] = wallets

    params["wallets_limit"] = wallets_limit

    json_wallets_after: None | str | Unset
    if isinstance(wallets_after, Unset):
        json_wallets_after = UNSET
    elif isinstance(wallets_after, UUID):
        json_wallets_after = str(wallets_after)
    else:
        json_wallets_after = wallets_after
    params["wallets_after"] = json_wallets_after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/asset/balances/currencies",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BalanceSnapshot | None:
    if response.status_code == 200:
        response_200 = BalanceSnapshot.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BalanceSnapshot]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    wallets: bool | Unset = False,
    wallets_limit: int | Unset = 1000,
    wallets_after: None | Unset | UUID = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[BalanceSnapshot]:
    """Balance snapshot per currency with the change-log cursor (wallets=true adds per-wallet rows)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        wallets (bool | Unset):  Default: False.
        wallets_limit (int | Unset):  Default: 1000.
        wallets_after (None | Unset | UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BalanceSnapshot]
    """

    kwargs = _get_kwargs(
        wallets=wallets,
        wallets_limit=wallets_limit,
        wallets_after=wallets_after,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    wallets: bool | Unset = False,
    wallets_limit: int | Unset = 1000,
    wallets_after: None | Unset | UUID = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> BalanceSnapshot | None:
    """Balance snapshot per currency with the change-log cursor (wallets=true adds per-wallet rows)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        wallets (bool | Unset):  Default: False.
        wallets_limit (int | Unset):  Default: 1000.
        wallets_after (None | Unset | UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BalanceSnapshot
    """

    return sync_detailed(
        client=client,
        wallets=wallets,
        wallets_limit=wallets_limit,
        wallets_after=wallets_after,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    wallets: bool | Unset = False,
    wallets_limit: int | Unset = 1000,
    wallets_after: None | Unset | UUID = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[BalanceSnapshot]:
    """Balance snapshot per currency with the change-log cursor (wallets=true adds per-wallet rows)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        wallets (bool | Unset):  Default: False.
        wallets_limit (int | Unset):  Default: 1000.
        wallets_after (None | Unset | UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BalanceSnapshot]
    """

    kwargs = _get_kwargs(
        wallets=wallets,
        wallets_limit=wallets_limit,
        wallets_after=wallets_after,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    wallets: bool | Unset = False,
    wallets_limit: int | Unset = 1000,
    wallets_after: None | Unset | UUID = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> BalanceSnapshot | None:
    """Balance snapshot per currency with the change-log cursor (wallets=true adds per-wallet rows)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        wallets (bool | Unset):  Default: False.
        wallets_limit (int | Unset):  Default: 1000.
        wallets_after (None | Unset | UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BalanceSnapshot
    """

    return (
        await asyncio_detailed(
            client=client,
            wallets=wallets,
            wallets_limit=wallets_limit,
            wallets_after=wallets_after,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
