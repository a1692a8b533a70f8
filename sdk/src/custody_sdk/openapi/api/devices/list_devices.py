from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.device_list import DeviceList
from ...models.list_devices_status import ListDevicesStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    tenant_uuid: UUID,
    status: ListDevicesStatus | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_tenant_uuid = str(tenant_uuid)
    params["tenant_uuid"] = json_tenant_uuid

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/auth/devices",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DeviceList | None:
    if response.status_code == 200:
        response_200 = DeviceList.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DeviceList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    tenant_uuid: UUID,
    status: ListDevicesStatus | None | Unset = UNSET,
) -> Response[DeviceList]:
    """The workspace's devices (MANAGE_DEVICES: every one, to find those to confirm), else the caller's own

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        status (ListDevicesStatus | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeviceList]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        status=status,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    tenant_uuid: UUID,
    status: ListDevicesStatus | None | Unset = UNSET,
) -> DeviceList | None:
    """The workspace's devices (MANAGE_DEVICES: every one, to find those to confirm), else the caller's own

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        status (ListDevicesStatus | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeviceList
    """

    return sync_detailed(
        client=client,
        tenant_uuid=tenant_uuid,
        status=status,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    tenant_uuid: UUID,
    status: ListDevicesStatus | None | Unset = UNSET,
) -> Response[DeviceList]:
    """The workspace's devices (MANAGE_DEVICES: every one, to find those to confirm), else the caller's own

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        status (ListDevicesStatus | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeviceList]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        status=status,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    tenant_uuid: UUID,
    status: ListDevicesStatus | None | Unset = UNSET,
) -> DeviceList | None:
    """The workspace's devices (MANAGE_DEVICES: every one, to find those to confirm), else the caller's own

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        status (ListDevicesStatus | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeviceList
    """

    return (
        await asyncio_detailed(
            client=client,
            tenant_uuid=tenant_uuid,
            status=status,
        )
    ).parsed
