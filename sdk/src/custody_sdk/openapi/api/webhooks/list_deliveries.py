from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_deliveries_event_type import (
    ListDeliveriesEventType,
)
from ...models.list_deliveries_status import (
    ListDeliveriesStatus,
)
from ...models.webhook_delivery_list import WebhookDeliveryList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    webhook_id: UUID,
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ListDeliveriesStatus | None | Unset = UNSET,
    event_type: ListDeliveriesEventType | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    json_event_type: None | str | Unset
    if isinstance(event_type, Unset):
        json_event_type = UNSET
    elif isinstance(event_type, str):
        json_event_type = event_type
    else:
        json_event_type = event_type
    params["event_type"] = json_event_type

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/webhooks/{webhook_id}/deliveries".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> WebhookDeliveryList | None:
    if response.status_code == 200:
        response_200 = WebhookDeliveryList.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[WebhookDeliveryList]:
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
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ListDeliveriesStatus | None | Unset = UNSET,
    event_type: ListDeliveriesEventType | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WebhookDeliveryList]:
    """Delivery history, newest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ListDeliveriesStatus | None | Unset):
        event_type (ListDeliveriesEventType | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WebhookDeliveryList]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        limit=limit,
        offset=offset,
        status=status,
        event_type=event_type,
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
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ListDeliveriesStatus | None | Unset = UNSET,
    event_type: ListDeliveriesEventType | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> WebhookDeliveryList | None:
    """Delivery history, newest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ListDeliveriesStatus | None | Unset):
        event_type (ListDeliveriesEventType | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WebhookDeliveryList
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
        limit=limit,
        offset=offset,
        status=status,
        event_type=event_type,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ListDeliveriesStatus | None | Unset = UNSET,
    event_type: ListDeliveriesEventType | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WebhookDeliveryList]:
    """Delivery history, newest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ListDeliveriesStatus | None | Unset):
        event_type (ListDeliveriesEventType | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WebhookDeliveryList]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        limit=limit,
        offset=offset,
        status=status,
        event_type=event_type,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    status: ListDeliveriesStatus | None | Unset = UNSET,
    event_type: ListDeliveriesEventType | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> WebhookDeliveryList | None:
    """Delivery history, newest first (VIEW_WEBHOOKS)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, WEBHOOK_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        webhook_id (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        status (ListDeliveriesStatus | None | Unset):
        event_type (ListDeliveriesEventType | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WebhookDeliveryList
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
            limit=limit,
            offset=offset,
            status=status,
            event_type=event_type,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
