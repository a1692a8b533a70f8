from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.changes_page import ChangesPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    since_cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    json_since_cursor: None | str | Unset
    if isinstance(since_cursor, Unset):
        json_since_cursor = UNSET
    else:
        json_since_cursor = since_cursor
    params["since_cursor"] = json_since_cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/transactions/changes",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChangesPage | None:
    if response.status_code == 200:
        response_200 = ChangesPage.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChangesPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    since_cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> Response[ChangesPage]:
    """Change log: transactions changed after since_cursor, in position order

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_CURSOR,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 410 CURSOR_EXPIRED; 413 PAYLOAD_TOO_LARGE.

    Args:
        since_cursor (None | str | Unset):
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangesPage]
    """

    kwargs = _get_kwargs(
        since_cursor=since_cursor,
        limit=limit,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    since_cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> ChangesPage | None:
    """Change log: transactions changed after since_cursor, in position order

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_CURSOR,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 410 CURSOR_EXPIRED; 413 PAYLOAD_TOO_LARGE.

    Args:
        since_cursor (None | str | Unset):
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangesPage
    """

    return sync_detailed(
        client=client,
        since_cursor=since_cursor,
        limit=limit,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    since_cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> Response[ChangesPage]:
    """Change log: transactions changed after since_cursor, in position order

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_CURSOR,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 410 CURSOR_EXPIRED; 413 PAYLOAD_TOO_LARGE.

    Args:
        since_cursor (None | str | Unset):
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangesPage]
    """

    kwargs = _get_kwargs(
        since_cursor=since_cursor,
        limit=limit,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    since_cursor: None | str | Unset = UNSET,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> ChangesPage | None:
    """Change log: transactions changed after since_cursor, in position order

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_CURSOR,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 410 CURSOR_EXPIRED; 413 PAYLOAD_TOO_LARGE.

    Args:
        since_cursor (None | str | Unset):
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangesPage
    """

    return (
        await asyncio_detailed(
            client=client,
            since_cursor=since_cursor,
            limit=limit,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
