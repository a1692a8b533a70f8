from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.signing_policy import SigningPolicy
from ...models.signing_policy_update import SigningPolicyUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: SigningPolicyUpdate,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/co-signer/policy",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> SigningPolicy | None:
    if response.status_code == 200:
        response_200 = SigningPolicy.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[SigningPolicy]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SigningPolicyUpdate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[SigningPolicy]:
    """Owner: require (or not) the co-signer's share for every signature (MANAGE_SIGNING_POLICY)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (SigningPolicyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SigningPolicy]
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
    body: SigningPolicyUpdate,
    x_workspace_id: str | Unset = UNSET,
) -> SigningPolicy | None:
    """Owner: require (or not) the co-signer's share for every signature (MANAGE_SIGNING_POLICY)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (SigningPolicyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SigningPolicy
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SigningPolicyUpdate,
    x_workspace_id: str | Unset = UNSET,
) -> Response[SigningPolicy]:
    """Owner: require (or not) the co-signer's share for every signature (MANAGE_SIGNING_POLICY)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (SigningPolicyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[SigningPolicy]
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
    body: SigningPolicyUpdate,
    x_workspace_id: str | Unset = UNSET,
) -> SigningPolicy | None:
    """Owner: require (or not) the co-signer's share for every signature (MANAGE_SIGNING_POLICY)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (SigningPolicyUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        SigningPolicy
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
