from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.current_workspace import CurrentWorkspace
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/workspace",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CurrentWorkspace | None:
    if response.status_code == 200:
        response_200 = CurrentWorkspace.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CurrentWorkspace]:
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
) -> Response[CurrentWorkspace]:
    """The workspace selected by X-Workspace-Id, with the caller's role and permissions (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CurrentWorkspace]
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
) -> CurrentWorkspace | None:
    """The workspace selected by X-Workspace-Id, with the caller's role and permissions (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CurrentWorkspace
    """

    return sync_detailed(
        client=client,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[CurrentWorkspace]:
    """The workspace selected by X-Workspace-Id, with the caller's role and permissions (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CurrentWorkspace]
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
) -> CurrentWorkspace | None:
    """The workspace selected by X-Workspace-Id, with the caller's role and permissions (VIEW_WORKSPACE)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CurrentWorkspace
    """

    return (
        await asyncio_detailed(
            client=client,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
