from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.device import Device
from ...models.device_register import DeviceRegister
from ...types import Response


def _get_kwargs(
    *,
    body: DeviceRegister,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/auth/devices/pairing/register",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Device | None:
    if response.status_code == 201:
        response_201 = Device.from_dict(response.json())

        return response_201

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
    *,
    client: AuthenticatedClient | Client,
    body: DeviceRegister,
) -> Response[Device]:
    """Device: register its Ed25519 public key with the pairing token (no bearer)

     The token is a pairing token, or the owner's enrollment secret (cwo_...): the operator then confirms
    that device (custody owner confirm-device) after comparing its fingerprint with the owner.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    PAIRING_TOKEN_INVALID, VALIDATION_ERROR; 409 PAIRING_TOKEN_USED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (DeviceRegister):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Device]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceRegister,
) -> Device | None:
    """Device: register its Ed25519 public key with the pairing token (no bearer)

     The token is a pairing token, or the owner's enrollment secret (cwo_...): the operator then confirms
    that device (custody owner confirm-device) after comparing its fingerprint with the owner.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    PAIRING_TOKEN_INVALID, VALIDATION_ERROR; 409 PAIRING_TOKEN_USED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (DeviceRegister):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Device
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceRegister,
) -> Response[Device]:
    """Device: register its Ed25519 public key with the pairing token (no bearer)

     The token is a pairing token, or the owner's enrollment secret (cwo_...): the operator then confirms
    that device (custody owner confirm-device) after comparing its fingerprint with the owner.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    PAIRING_TOKEN_INVALID, VALIDATION_ERROR; 409 PAIRING_TOKEN_USED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (DeviceRegister):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Device]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: DeviceRegister,
) -> Device | None:
    """Device: register its Ed25519 public key with the pairing token (no bearer)

     The token is a pairing token, or the owner's enrollment secret (cwo_...): the operator then confirms
    that device (custody owner confirm-device) after comparing its fingerprint with the owner.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    PAIRING_TOKEN_INVALID, VALIDATION_ERROR; 409 PAIRING_TOKEN_USED; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        body (DeviceRegister):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Device
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
