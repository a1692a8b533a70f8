from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.receive_run_messages_phase import (
    ReceiveRunMessagesPhase,
)
from ...models.run_messages import RunMessages
from ...types import UNSET, Response, Unset


def _get_kwargs(
    run_id: UUID,
    *,
    phase: ReceiveRunMessagesPhase,
    wait: float | Unset = 5.0,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    json_phase: str = phase
    params["phase"] = json_phase

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/co-signer/presignature-runs/{run_id}/messages".format(
            run_id=quote(str(run_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> RunMessages | None:
    if response.status_code == 200:
        response_200 = RunMessages.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[RunMessages]:
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
    phase: ReceiveRunMessagesPhase,
    wait: float | Unset = 5.0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[RunMessages]:
    """Threshold ECDSA: the run's signer's messages for the co-signer (waits up to `wait` s)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        run_id (UUID):
        phase (ReceiveRunMessagesPhase):
        wait (float | Unset):  Default: 5.0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RunMessages]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        phase=phase,
        wait=wait,
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
    phase: ReceiveRunMessagesPhase,
    wait: float | Unset = 5.0,
    x_workspace_id: str | Unset = UNSET,
) -> RunMessages | None:
    """Threshold ECDSA: the run's signer's messages for the co-signer (waits up to `wait` s)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        run_id (UUID):
        phase (ReceiveRunMessagesPhase):
        wait (float | Unset):  Default: 5.0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RunMessages
    """

    return sync_detailed(
        run_id=run_id,
        client=client,
        phase=phase,
        wait=wait,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    run_id: UUID,
    *,
    client: AuthenticatedClient,
    phase: ReceiveRunMessagesPhase,
    wait: float | Unset = 5.0,
    x_workspace_id: str | Unset = UNSET,
) -> Response[RunMessages]:
    """Threshold ECDSA: the run's signer's messages for the co-signer (waits up to `wait` s)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        run_id (UUID):
        phase (ReceiveRunMessagesPhase):
        wait (float | Unset):  Default: 5.0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[RunMessages]
    """

    kwargs = _get_kwargs(
        run_id=run_id,
        phase=phase,
        wait=wait,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    run_id: UUID,
    *,
    client: AuthenticatedClient,
    phase: ReceiveRunMessagesPhase,
    wait: float | Unset = 5.0,
    x_workspace_id: str | Unset = UNSET,
) -> RunMessages | None:
    """Threshold ECDSA: the run's signer's messages for the co-signer (waits up to `wait` s)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    NOT_FOUND, PRESIGNATURE_RUN_NOT_FOUND, WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        run_id (UUID):
        phase (ReceiveRunMessagesPhase):
        wait (float | Unset):  Default: 5.0.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        RunMessages
    """

    return (
        await asyncio_detailed(
            run_id=run_id,
            client=client,
            phase=phase,
            wait=wait,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
