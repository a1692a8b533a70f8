from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.currency import Currency
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    testnet: bool | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    json_testnet: bool | None | Unset
    if isinstance(testnet, Unset):
        json_testnet = UNSET
    else:
        json_testnet = testnet
    params["testnet"] = json_testnet

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/currencies",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> list[Currency] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for componentsschemas_currency_list_item_data in _response_200:
            componentsschemas_currency_list_item = Currency.from_dict(componentsschemas_currency_list_item_data)

            response_200.append(componentsschemas_currency_list_item)

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[list[Currency]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    testnet: bool | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[list[Currency]]:
    """Currencies of the workspace's network type (testnet left out: the workspace's own)

     Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        testnet (bool | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[list[Currency]]
    """

    kwargs = _get_kwargs(
        testnet=testnet,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    testnet: bool | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> list[Currency] | None:
    """Currencies of the workspace's network type (testnet left out: the workspace's own)

     Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        testnet (bool | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        list[Currency]
    """

    return sync_detailed(
        client=client,
        testnet=testnet,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    testnet: bool | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[list[Currency]]:
    """Currencies of the workspace's network type (testnet left out: the workspace's own)

     Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        testnet (bool | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[list[Currency]]
    """

    kwargs = _get_kwargs(
        testnet=testnet,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    testnet: bool | None | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> list[Currency] | None:
    """Currencies of the workspace's network type (testnet left out: the workspace's own)

     Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        testnet (bool | None | Unset):
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        list[Currency]
    """

    return (
        await asyncio_detailed(
            client=client,
            testnet=testnet,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
