from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.device import Device
from ...models.device_confirm import DeviceConfirm
from ...types import Response


def _get_kwargs(
    device_id: UUID,
    *,
    body: DeviceConfirm,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/auth/devices/{device_id}/confirm".format(
            device_id=quote(str(device_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Device | None:
    if response.status_code == 200:
        response_200 = Device.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Device]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    device_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeviceConfirm,
) -> Response[Device]:
    """Owner: confirm the fingerprint shown on the device; the device becomes active (MANAGE_DEVICES)

     Errors (raised as custody_sdk.CustodyApiError): 400 DEVICE_FINGERPRINT_MISMATCH, DUPLICATE_HEADER,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    DEVICE_CONFIRMED_BY_OPERATOR, PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, NOT_FOUND; 409
    DEVICE_NOT_PENDING; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        device_id (UUID):
        body (DeviceConfirm):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Device]
    """

    kwargs = _get_kwargs(
        device_id=device_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    device_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeviceConfirm,
) -> Device | None:
    """Owner: confirm the fingerprint shown on the device; the device becomes active (MANAGE_DEVICES)

     Errors (raised as custody_sdk.CustodyApiError): 400 DEVICE_FINGERPRINT_MISMATCH, DUPLICATE_HEADER,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    DEVICE_CONFIRMED_BY_OPERATOR, PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, NOT_FOUND; 409
    DEVICE_NOT_PENDING; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        device_id (UUID):
        body (DeviceConfirm):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Device
    """

    return sync_detailed(
        device_id=device_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    device_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeviceConfirm,
) -> Response[Device]:
    """Owner: confirm the fingerprint shown on the device; the device becomes active (MANAGE_DEVICES)

     Errors (raised as custody_sdk.CustodyApiError): 400 DEVICE_FINGERPRINT_MISMATCH, DUPLICATE_HEADER,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    DEVICE_CONFIRMED_BY_OPERATOR, PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, NOT_FOUND; 409
    DEVICE_NOT_PENDING; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        device_id (UUID):
        body (DeviceConfirm):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Device]
    """

    kwargs = _get_kwargs(
        device_id=device_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    device_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeviceConfirm,
) -> Device | None:
    """Owner: confirm the fingerprint shown on the device; the device becomes active (MANAGE_DEVICES)

     Errors (raised as custody_sdk.CustodyApiError): 400 DEVICE_FINGERPRINT_MISMATCH, DUPLICATE_HEADER,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    DEVICE_CONFIRMED_BY_OPERATOR, PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, NOT_FOUND; 409
    DEVICE_NOT_PENDING; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        device_id (UUID):
        body (DeviceConfirm):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Device
    """

    return (
        await asyncio_detailed(
            device_id=device_id,
            client=client,
            body=body,
        )
    ).parsed
