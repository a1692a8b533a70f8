from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.wallet_create import WalletCreate
from ...models.wallet_created import WalletCreated
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: WalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/wallet",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> WalletCreated | None:
    if response.status_code == 201:
        response_201 = WalletCreated.from_dict(response.json())

        return response_201

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[WalletCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WalletCreated]:
    """Open the wallet of a currency in a vault, with its receiving address (EDIT_WORKSPACE)

     A token wallet also opens the native coin's wallet of the vault when it has none: the token and its
    gas share one address. The answer lists every wallet the request opened.

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, VAULT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, VAULT_FROZEN, WALLET_ALREADY_EXISTS; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (WalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WalletCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: WalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> WalletCreated | None:
    """Open the wallet of a currency in a vault, with its receiving address (EDIT_WORKSPACE)

     A token wallet also opens the native coin's wallet of the vault when it has none: the token and its
    gas share one address. The answer lists every wallet the request opened.

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, VAULT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, VAULT_FROZEN, WALLET_ALREADY_EXISTS; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (WalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WalletCreated
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WalletCreated]:
    """Open the wallet of a currency in a vault, with its receiving address (EDIT_WORKSPACE)

     A token wallet also opens the native coin's wallet of the vault when it has none: the token and its
    gas share one address. The answer lists every wallet the request opened.

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, VAULT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, VAULT_FROZEN, WALLET_ALREADY_EXISTS; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (WalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WalletCreated]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> WalletCreated | None:
    """Open the wallet of a currency in a vault, with its receiving address (EDIT_WORKSPACE)

     A token wallet also opens the native coin's wallet of the vault when it has none: the token and its
    gas share one address. The answer lists every wallet the request opened.

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 CURRENCY_NOT_FOUND, VAULT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, VAULT_FROZEN, WALLET_ALREADY_EXISTS; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (WalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WalletCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
