from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.whitelisted_wallet import WhitelistedWallet
from ...models.whitelisted_wallet_create import WhitelistedWalletCreate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: WhitelistedWalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/whitelist/wallets",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> WhitelistedWallet | None:
    if response.status_code == 201:
        response_201 = WhitelistedWallet.from_dict(response.json())

        return response_201

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[WhitelistedWallet]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WhitelistedWalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WhitelistedWallet]:
    """Whitelist an external address for a currency (EDIT_WORKSPACE)

     The address is validated and normalized for the currency's network. An address of one of the
    workspace's vaults is refused (send to it with target_wallet_id).

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INTERNAL_ADDRESS, INVALID_ADDRESS, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 CURRENCY_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    QUORUM_NO_ELIGIBLE_APPROVERS, WHITELISTED_WALLET_EXISTS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (WhitelistedWalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WhitelistedWallet]
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
    body: WhitelistedWalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> WhitelistedWallet | None:
    """Whitelist an external address for a currency (EDIT_WORKSPACE)

     The address is validated and normalized for the currency's network. An address of one of the
    workspace's vaults is refused (send to it with target_wallet_id).

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INTERNAL_ADDRESS, INVALID_ADDRESS, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 CURRENCY_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    QUORUM_NO_ELIGIBLE_APPROVERS, WHITELISTED_WALLET_EXISTS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (WhitelistedWalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WhitelistedWallet
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WhitelistedWalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[WhitelistedWallet]:
    """Whitelist an external address for a currency (EDIT_WORKSPACE)

     The address is validated and normalized for the currency's network. An address of one of the
    workspace's vaults is refused (send to it with target_wallet_id).

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INTERNAL_ADDRESS, INVALID_ADDRESS, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 CURRENCY_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    QUORUM_NO_ELIGIBLE_APPROVERS, WHITELISTED_WALLET_EXISTS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (WhitelistedWalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[WhitelistedWallet]
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
    body: WhitelistedWalletCreate,
    x_workspace_id: str | Unset = UNSET,
) -> WhitelistedWallet | None:
    """Whitelist an external address for a currency (EDIT_WORKSPACE)

     The address is validated and normalized for the currency's network. An address of one of the
    workspace's vaults is refused (send to it with target_wallet_id).

    Errors (raised as custody_sdk.CustodyApiError): 400 CURRENCY_NETWORK_MISMATCH, DUPLICATE_HEADER,
    INTERNAL_ADDRESS, INVALID_ADDRESS, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR,
    WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 CURRENCY_NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    QUORUM_NO_ELIGIBLE_APPROVERS, WHITELISTED_WALLET_EXISTS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        x_workspace_id (str | Unset):
        body (WhitelistedWalletCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        WhitelistedWallet
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
