from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dkg_complaint import DkgComplaint
from ...models.key_generation_failure import KeyGenerationFailure
from ...types import UNSET, Response, Unset


def _get_kwargs(
    key_set_id: UUID,
    *,
    body: DkgComplaint,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/co-signer/key-generations/{key_set_id}/complaint".format(
            key_set_id=quote(str(key_set_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> KeyGenerationFailure | None:
    if response.status_code == 200:
        response_200 = KeyGenerationFailure.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[KeyGenerationFailure]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    key_set_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DkgComplaint,
    x_workspace_id: str | Unset = UNSET,
) -> Response[KeyGenerationFailure]:
    """Report a participant caught cheating; the key generation fails naming it

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (DkgComplaint):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[KeyGenerationFailure]
    """

    kwargs = _get_kwargs(
        key_set_id=key_set_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    key_set_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DkgComplaint,
    x_workspace_id: str | Unset = UNSET,
) -> KeyGenerationFailure | None:
    """Report a participant caught cheating; the key generation fails naming it

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (DkgComplaint):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        KeyGenerationFailure
    """

    return sync_detailed(
        key_set_id=key_set_id,
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    key_set_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DkgComplaint,
    x_workspace_id: str | Unset = UNSET,
) -> Response[KeyGenerationFailure]:
    """Report a participant caught cheating; the key generation fails naming it

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (DkgComplaint):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[KeyGenerationFailure]
    """

    kwargs = _get_kwargs(
        key_set_id=key_set_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    key_set_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DkgComplaint,
    x_workspace_id: str | Unset = UNSET,
) -> KeyGenerationFailure | None:
    """Report a participant caught cheating; the key generation fails naming it

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403
    PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (DkgComplaint):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        KeyGenerationFailure
    """

    return (
        await asyncio_detailed(
            key_set_id=key_set_id,
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
