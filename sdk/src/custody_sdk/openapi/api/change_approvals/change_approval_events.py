from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    access_token: str | Unset = UNSET,
    after: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["access_token"] = access_token

    params["after"] = after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/admin/change-approvals/ws",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any:
    if response.status_code == 101:
        return None

    return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    access_token: str | Unset = UNSET,
    after: str | Unset = UNSET,
) -> Response[Any]:
    """Follow change approval progress: a WebSocket of JSON messages (ready, event, error)

     Open it as a WebSocket (`GET` with `Upgrade: websocket`); a plain HTTP request is
    refused. Authenticate with `Authorization: Bearer <token>` or `?access_token=<token>` (browsers
    cannot set headers on a WebSocket). The server only sends; every message is one JSON object:

    - `{"type": "ready", "cursor": N, "user_uuid": "..."}`: first, once signed in. `N` is the cursor of
      the latest event (or the `after` given); events after it follow.
    - `{"type": "event", "cursor": N, "event": "...", "tenant_uuid": "...", "request_uuid": "...",
      "data": {...}, "created_at": "..."}`: one per change approval event the caller may see (the
      initiator, the approvers, members with VIEW_CHANGE_APPROVALS), in order. `event` names what
      happened: `change_approval.voted` (`data.voter_uuid`, `data.vote`), or the request's new status
      (`change_approval.approved`, `.rejected`, `.cancelled`, `.expired`, `.executed`, ...); `data`
      summarizes the request (`request_uuid`, `tenant_uuid`, `action`, `operation`, `mode`,
      `status`, `initiator_uuid`, `expires_at`); docs/change-approvals.md "Events".
    - `{"type": "error", "code": "INVALID_TOKEN" | "UNAUTHENTICATED", "error": "..."}`: the token is
      missing, invalid, expired or revoked (checked again every 30 seconds); the socket is then closed
      with code 4401.

    `?after=N` resumes after cursor `N` (a reconnecting client passes the last cursor it saw).

    Args:
        access_token (str | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
    """

    kwargs = _get_kwargs(
        access_token=access_token,
        after=after,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    access_token: str | Unset = UNSET,
    after: str | Unset = UNSET,
) -> Response[Any]:
    """Follow change approval progress: a WebSocket of JSON messages (ready, event, error)

     Open it as a WebSocket (`GET` with `Upgrade: websocket`); a plain HTTP request is
    refused. Authenticate with `Authorization: Bearer <token>` or `?access_token=<token>` (browsers
    cannot set headers on a WebSocket). The server only sends; every message is one JSON object:

    - `{"type": "ready", "cursor": N, "user_uuid": "..."}`: first, once signed in. `N` is the cursor of
      the latest event (or the `after` given); events after it follow.
    - `{"type": "event", "cursor": N, "event": "...", "tenant_uuid": "...", "request_uuid": "...",
      "data": {...}, "created_at": "..."}`: one per change approval event the caller may see (the
      initiator, the approvers, members with VIEW_CHANGE_APPROVALS), in order. `event` names what
      happened: `change_approval.voted` (`data.voter_uuid`, `data.vote`), or the request's new status
      (`change_approval.approved`, `.rejected`, `.cancelled`, `.expired`, `.executed`, ...); `data`
      summarizes the request (`request_uuid`, `tenant_uuid`, `action`, `operation`, `mode`,
      `status`, `initiator_uuid`, `expires_at`); docs/change-approvals.md "Events".
    - `{"type": "error", "code": "INVALID_TOKEN" | "UNAUTHENTICATED", "error": "..."}`: the token is
      missing, invalid, expired or revoked (checked again every 30 seconds); the socket is then closed
      with code 4401.

    `?after=N` resumes after cursor `N` (a reconnecting client passes the last cursor it saw).

    Args:
        access_token (str | Unset):
        after (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
    """

    kwargs = _get_kwargs(
        access_token=access_token,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)
