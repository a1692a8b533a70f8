from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.webhook_list import WebhookList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/webhooks",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> WebhookList | None:
    if response.status_code == 200:
        response_200 = WebhookList.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[WebhookList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WebhookList]:
    """The workspace's webhooks, oldest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WebhookList]
    """

    kwargs = _get_kwargs(
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
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> WebhookList | None:
    """The workspace's webhooks, oldest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WebhookList
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WebhookList]:
    """The workspace's webhooks, oldest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WebhookList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    x_workspace_id: str | Unset = UNSET,
) -> WebhookList | None:
    """The workspace's webhooks, oldest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WebhookList
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
