from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.ownership_transfer import OwnershipTransfer
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/workspace/ownership-transfer",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OwnershipTransfer | None:
    if response.status_code == 200:
        response_200 = OwnershipTransfer.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OwnershipTransfer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[OwnershipTransfer]:
    """Owner: cancel the pending ownership transfer (TRANSFER_OWNERSHIP)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    OWNERSHIP_TRANSFER_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OwnershipTransfer]
    """

    kwargs = _get_kwargs(
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> OwnershipTransfer | None:
    """Owner: cancel the pending ownership transfer (TRANSFER_OWNERSHIP)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    OWNERSHIP_TRANSFER_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OwnershipTransfer
    """

    return sync_detailed(
        client=client,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[OwnershipTransfer]:
    """Owner: cancel the pending ownership transfer (TRANSFER_OWNERSHIP)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    OWNERSHIP_TRANSFER_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OwnershipTransfer]
    """

    kwargs = _get_kwargs(
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> OwnershipTransfer | None:
    """Owner: cancel the pending ownership transfer (TRANSFER_OWNERSHIP)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    OWNERSHIP_TRANSFER_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OwnershipTransfer
    """

    return (
        await asyncio_detailed(
            client=client,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
