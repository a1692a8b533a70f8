from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.key_generation import KeyGeneration
from ...models.round_1_submission import Round1Submission
from ...types import UNSET, Response, Unset


def _get_kwargs(
    key_set_id: UUID,
    *,
    body: Round1Submission,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/co-signer/key-generations/{key_set_id}/round1".format(
            key_set_id=quote(str(key_set_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> KeyGeneration | None:
    if response.status_code == 200:
        response_200 = KeyGeneration.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[KeyGeneration]:
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
    body: Round1Submission,
    x_workspace_id: str | Unset = UNSET,
) -> Response[KeyGeneration]:
    """DKG round 1: commitments, proof of knowledge, X25519 transport key (takes the co-signer seat)

     Repeating the same package returns the key generation unchanged.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_DKG_PACKAGE,
    INVALID_PROOF_OF_KNOWLEDGE, INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 DKG_PACKAGE_ALREADY_SUBMITTED,
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (Round1Submission):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[KeyGeneration]
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
    body: Round1Submission,
    x_workspace_id: str | Unset = UNSET,
) -> KeyGeneration | None:
    """DKG round 1: commitments, proof of knowledge, X25519 transport key (takes the co-signer seat)

     Repeating the same package returns the key generation unchanged.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_DKG_PACKAGE,
    INVALID_PROOF_OF_KNOWLEDGE, INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 DKG_PACKAGE_ALREADY_SUBMITTED,
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (Round1Submission):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        KeyGeneration
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
    body: Round1Submission,
    x_workspace_id: str | Unset = UNSET,
) -> Response[KeyGeneration]:
    """DKG round 1: commitments, proof of knowledge, X25519 transport key (takes the co-signer seat)

     Repeating the same package returns the key generation unchanged.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_DKG_PACKAGE,
    INVALID_PROOF_OF_KNOWLEDGE, INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 DKG_PACKAGE_ALREADY_SUBMITTED,
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (Round1Submission):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[KeyGeneration]
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
    body: Round1Submission,
    x_workspace_id: str | Unset = UNSET,
) -> KeyGeneration | None:
    """DKG round 1: commitments, proof of knowledge, X25519 transport key (takes the co-signer seat)

     Repeating the same package returns the key generation unchanged.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_DKG_PACKAGE,
    INVALID_PROOF_OF_KNOWLEDGE, INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    KEY_GENERATION_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 DKG_PACKAGE_ALREADY_SUBMITTED,
    KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        key_set_id (UUID):
        x_workspace_id (str | Unset):
        body (Round1Submission):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        KeyGeneration
    """

    return (
        await asyncio_detailed(
            key_set_id=key_set_id,
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
