from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cosigner_part import CosignerPart
from ...models.cosigner_part_registration import CosignerPartRegistration
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CosignerPartRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/co-signer/part",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CosignerPart | None:
    if response.status_code == 201:
        response_201 = CosignerPart.from_dict(response.json())

        return response_201

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CosignerPart]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CosignerPartRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> Response[CosignerPart]:
    """Register the co-signer's encrypted secret part for a key generation (intent_id)

     Repeating the same config returns the same part (201).

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_PART_MISMATCH, DUPLICATE_HEADER,
    INVALID_COSIGNER_CONFIG, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 INTENT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 COSIGNER_PART_EXISTS, KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE;
    415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerPartRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CosignerPart]
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
    body: CosignerPartRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> CosignerPart | None:
    """Register the co-signer's encrypted secret part for a key generation (intent_id)

     Repeating the same config returns the same part (201).

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_PART_MISMATCH, DUPLICATE_HEADER,
    INVALID_COSIGNER_CONFIG, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 INTENT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 COSIGNER_PART_EXISTS, KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE;
    415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerPartRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CosignerPart
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CosignerPartRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> Response[CosignerPart]:
    """Register the co-signer's encrypted secret part for a key generation (intent_id)

     Repeating the same config returns the same part (201).

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_PART_MISMATCH, DUPLICATE_HEADER,
    INVALID_COSIGNER_CONFIG, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 INTENT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 COSIGNER_PART_EXISTS, KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE;
    415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerPartRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CosignerPart]
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
    body: CosignerPartRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> CosignerPart | None:
    """Register the co-signer's encrypted secret part for a key generation (intent_id)

     Repeating the same config returns the same part (201).

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_PART_MISMATCH, DUPLICATE_HEADER,
    INVALID_COSIGNER_CONFIG, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 INTENT_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 COSIGNER_PART_EXISTS, KEY_GENERATION_WRONG_ROUND; 413 PAYLOAD_TOO_LARGE;
    415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerPartRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CosignerPart
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
