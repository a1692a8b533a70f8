from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.presignature_registered import PresignatureRegistered
from ...models.presignature_registration import PresignatureRegistration
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run_id: UUID,
    *,
    body: PresignatureRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/co-signer/presignature-runs/{run_id}/presignature".format(
            run_id=quote(str(run_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PresignatureRegistered | None:
    if response.status_code == 200:
        response_200 = PresignatureRegistered.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[PresignatureRegistered]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    run_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PresignatureRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> Response[PresignatureRegistered]:
    """Threshold ECDSA: the co-signer stored its part of the run's presignature

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_COMMITMENT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        run_id (UUID):
        x_workspace_id (str | Unset):
        body (PresignatureRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PresignatureRegistered]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    run_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PresignatureRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> PresignatureRegistered | None:
    """Threshold ECDSA: the co-signer stored its part of the run's presignature

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_COMMITMENT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        run_id (UUID):
        x_workspace_id (str | Unset):
        body (PresignatureRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PresignatureRegistered
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    run_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PresignatureRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> Response[PresignatureRegistered]:
    """Threshold ECDSA: the co-signer stored its part of the run's presignature

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_COMMITMENT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        run_id (UUID):
        x_workspace_id (str | Unset):
        body (PresignatureRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PresignatureRegistered]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PresignatureRegistration,
    x_workspace_id: str | Unset = UNSET,
) -> PresignatureRegistered | None:
    """Threshold ECDSA: the co-signer stored its part of the run's presignature

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_COMMITMENT,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY; 413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        run_id (UUID):
        x_workspace_id (str | Unset):
        body (PresignatureRegistration):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PresignatureRegistered
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
