from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.webhook_test_event import WebhookTestEvent
from ...types import UNSET, Response, Unset


def _get_kwargs(
    webhook_id: UUID,
    *,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/{webhook_id}/test".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> WebhookTestEvent | None:
    if response.status_code == 202:
        response_202 = WebhookTestEvent.from_dict(response.json())

        return response_202

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[WebhookTestEvent]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WebhookTestEvent]:
    """Send a webhook.test event to this webhook (MANAGE_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 WEBHOOK_DISABLED; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WebhookTestEvent]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> WebhookTestEvent | None:
    """Send a webhook.test event to this webhook (MANAGE_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 WEBHOOK_DISABLED; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WebhookTestEvent
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WebhookTestEvent]:
    """Send a webhook.test event to this webhook (MANAGE_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 WEBHOOK_DISABLED; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WebhookTestEvent]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    x_workspace_id: str | Unset = UNSET,
) -> WebhookTestEvent | None:
    """Send a webhook.test event to this webhook (MANAGE_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 WEBHOOK_DISABLED; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WebhookTestEvent
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
