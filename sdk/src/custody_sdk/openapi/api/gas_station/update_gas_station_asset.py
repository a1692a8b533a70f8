from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.asset_configuration import AssetConfiguration
from ...models.asset_configuration_update import AssetConfigurationUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    currency_id: str,
    *,
    body: AssetConfigurationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/gas_station/configuration/currency/{currency_id}".format(
            currency_id=quote(str(currency_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AssetConfiguration | None:
    if response.status_code == 200:
        response_200 = AssetConfiguration.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AssetConfiguration]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    currency_id: str,
    *,
    client: AuthenticatedClient,
    body: AssetConfigurationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AssetConfiguration]:
    """Change the station's configuration of one base asset (EDIT_WORKSPACE); omitted fields stay

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, GAS_STATION_INVALID_LIMITS,
    GAS_STATION_NETWORK_MISMATCH, GAS_STATION_UNSUPPORTED_CURRENCY, INVALID_AMOUNT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, GAS_STATION_NOT_FOUND, NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        currency_id (str):
        x_workspace_id (str | Unset):
        body (AssetConfigurationUpdate | Unset): A partial update: a field left out (or null)
            stays as it is.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssetConfiguration]
    """

    kwargs = _get_kwargs(
        currency_id=currency_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    currency_id: str,
    *,
    client: AuthenticatedClient,
    body: AssetConfigurationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> AssetConfiguration | None:
    """Change the station's configuration of one base asset (EDIT_WORKSPACE); omitted fields stay

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, GAS_STATION_INVALID_LIMITS,
    GAS_STATION_NETWORK_MISMATCH, GAS_STATION_UNSUPPORTED_CURRENCY, INVALID_AMOUNT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, GAS_STATION_NOT_FOUND, NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        currency_id (str):
        x_workspace_id (str | Unset):
        body (AssetConfigurationUpdate | Unset): A partial update: a field left out (or null)
            stays as it is.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssetConfiguration
    """

    return sync_detailed(
        currency_id=currency_id,
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    currency_id: str,
    *,
    client: AuthenticatedClient,
    body: AssetConfigurationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AssetConfiguration]:
    """Change the station's configuration of one base asset (EDIT_WORKSPACE); omitted fields stay

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, GAS_STATION_INVALID_LIMITS,
    GAS_STATION_NETWORK_MISMATCH, GAS_STATION_UNSUPPORTED_CURRENCY, INVALID_AMOUNT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, GAS_STATION_NOT_FOUND, NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        currency_id (str):
        x_workspace_id (str | Unset):
        body (AssetConfigurationUpdate | Unset): A partial update: a field left out (or null)
            stays as it is.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AssetConfiguration]
    """

    kwargs = _get_kwargs(
        currency_id=currency_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    currency_id: str,
    *,
    client: AuthenticatedClient,
    body: AssetConfigurationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> AssetConfiguration | None:
    """Change the station's configuration of one base asset (EDIT_WORKSPACE); omitted fields stay

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, GAS_STATION_INVALID_LIMITS,
    GAS_STATION_NETWORK_MISMATCH, GAS_STATION_UNSUPPORTED_CURRENCY, INVALID_AMOUNT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, GAS_STATION_NOT_FOUND, NOT_FOUND,
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        currency_id (str):
        x_workspace_id (str | Unset):
        body (AssetConfigurationUpdate | Unset): A partial update: a field left out (or null)
            stays as it is.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AssetConfiguration
    """

    return (
        await asyncio_detailed(
            currency_id=currency_id,
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
