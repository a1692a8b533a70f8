from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.presignature_run import PresignatureRun
from ...models.presignature_run_request import PresignatureRunRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PresignatureRunRequest,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/co-signer/presignature-runs",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PresignatureRun | None:
    if response.status_code == 201:
        response_201 = PresignatureRun.from_dict(response.json())

        return response_201

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PresignatureRun]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PresignatureRunRequest,
    x_workspace_id: str | Unset = UNSET,
) -> Response[PresignatureRun]:
    """Threshold ECDSA: start making one presignature with a service signer

     The co-signer holding the key set's seat starts a run (two triples, then the presignature) with
    service signer 1 or 2; the service relays the protocol messages (POST/GET .../messages) to that
    signer, which stores its part. The co-signer keeps its own part and registers it (POST
    .../presignature). See docs/signing.md.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_PARTICIPANTS,
    INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, PRESIGNATURE_STOCK_FULL; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (PresignatureRunRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PresignatureRun]
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
    body: PresignatureRunRequest,
    x_workspace_id: str | Unset = UNSET,
) -> PresignatureRun | None:
    """Threshold ECDSA: start making one presignature with a service signer

     The co-signer holding the key set's seat starts a run (two triples, then the presignature) with
    service signer 1 or 2; the service relays the protocol messages (POST/GET .../messages) to that
    signer, which stores its part. The co-signer keeps its own part and registers it (POST
    .../presignature). See docs/signing.md.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_PARTICIPANTS,
    INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, PRESIGNATURE_STOCK_FULL; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (PresignatureRunRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PresignatureRun
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PresignatureRunRequest,
    x_workspace_id: str | Unset = UNSET,
) -> Response[PresignatureRun]:
    """Threshold ECDSA: start making one presignature with a service signer

     The co-signer holding the key set's seat starts a run (two triples, then the presignature) with
    service signer 1 or 2; the service relays the protocol messages (POST/GET .../messages) to that
    signer, which stores its part. The co-signer keeps its own part and registers it (POST
    .../presignature). See docs/signing.md.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_PARTICIPANTS,
    INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, PRESIGNATURE_STOCK_FULL; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (PresignatureRunRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PresignatureRun]
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
    body: PresignatureRunRequest,
    x_workspace_id: str | Unset = UNSET,
) -> PresignatureRun | None:
    """Threshold ECDSA: start making one presignature with a service signer

     The co-signer holding the key set's seat starts a run (two triples, then the presignature) with
    service signer 1 or 2; the service relays the protocol messages (POST/GET .../messages) to that
    signer, which stores its part. The co-signer keeps its own part and registers it (POST
    .../presignature). See docs/signing.md.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_PARTICIPANTS,
    INVALID_TRANSPORT_KEY, INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED;
    401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 KEY_GENERATION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 KEY_SET_NOT_READY, PRESIGNATURE_STOCK_FULL; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (PresignatureRunRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PresignatureRun
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
