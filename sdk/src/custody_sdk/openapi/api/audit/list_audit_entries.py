import datetime
from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_entry_page import AuditEntryPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    action: None | str | Unset = UNSET,
    actor_id: None | Unset | UUID = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    cursor: int | Unset = 0,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    params: dict[str, Any] = {}

    json_action: None | str | Unset
    if isinstance(action, Unset):
        json_action = UNSET
    else:
        json_action = action
    params["action"] = json_action

    json_actor_id: None | str | Unset
    if isinstance(actor_id, Unset):
        json_actor_id = UNSET
    elif isinstance(actor_id, UUID):
        json_actor_id = str(actor_id)
    else:
        json_actor_id = actor_id
    params["actor_id"] = json_actor_id

    json_object_type: None | str | Unset
    if isinstance(object_type, Unset):
        json_object_type = UNSET
    else:
        json_object_type = object_type
    params["object_type"] = json_object_type

    json_object_id: None | str | Unset
    if isinstance(object_id, Unset):
        json_object_id = UNSET
    else:
        json_object_id = object_id
    params["object_id"] = json_object_id

    json_since: None | str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    elif isinstance(since, datetime.datetime):
        json_since = since.isoformat()
    else:
        json_since = since
    params["since"] = json_since

    json_until: None | str | Unset
    if isinstance(until, Unset):
        json_until = UNSET
    elif isinstance(until, datetime.datetime):
        json_until = until.isoformat()
    else:
        json_until = until
    params["until"] = json_until

    params["cursor"] = cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit/entries",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditEntryPage | None:
    if response.status_code == 200:
        response_200 = AuditEntryPage.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditEntryPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | Unset | UUID = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    cursor: int | Unset = 0,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AuditEntryPage]:
    """The workspace's chained audit entries with their hashes, filtered and paged (VIEW_AUDIT_LOG)

     Oldest first. Each entry carries the hash of the one before; the signed head (chain.head) proves,
    against a pinned key, that nothing before it was removed or rewritten. Entries are served once
    chained (chain.pending says how many wait, usually seconds).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        action (None | str | Unset):
        actor_id (None | Unset | UUID):
        object_type (None | str | Unset):
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset):
        until (datetime.datetime | None | Unset):
        cursor (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEntryPage]
    """

    kwargs = _get_kwargs(
        action=action,
        actor_id=actor_id,
        object_type=object_type,
        object_id=object_id,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | Unset | UUID = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    cursor: int | Unset = 0,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> AuditEntryPage | None:
    """The workspace's chained audit entries with their hashes, filtered and paged (VIEW_AUDIT_LOG)

     Oldest first. Each entry carries the hash of the one before; the signed head (chain.head) proves,
    against a pinned key, that nothing before it was removed or rewritten. Entries are served once
    chained (chain.pending says how many wait, usually seconds).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        action (None | str | Unset):
        actor_id (None | Unset | UUID):
        object_type (None | str | Unset):
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset):
        until (datetime.datetime | None | Unset):
        cursor (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEntryPage
    """

    return sync_detailed(
        client=client,
        action=action,
        actor_id=actor_id,
        object_type=object_type,
        object_id=object_id,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | Unset | UUID = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    cursor: int | Unset = 0,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> Response[AuditEntryPage]:
    """The workspace's chained audit entries with their hashes, filtered and paged (VIEW_AUDIT_LOG)

     Oldest first. Each entry carries the hash of the one before; the signed head (chain.head) proves,
    against a pinned key, that nothing before it was removed or rewritten. Entries are served once
    chained (chain.pending says how many wait, usually seconds).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        action (None | str | Unset):
        actor_id (None | Unset | UUID):
        object_type (None | str | Unset):
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset):
        until (datetime.datetime | None | Unset):
        cursor (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEntryPage]
    """

    kwargs = _get_kwargs(
        action=action,
        actor_id=actor_id,
        object_type=object_type,
        object_id=object_id,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    action: None | str | Unset = UNSET,
    actor_id: None | Unset | UUID = UNSET,
    object_type: None | str | Unset = UNSET,
    object_id: None | str | Unset = UNSET,
    since: datetime.datetime | None | Unset = UNSET,
    until: datetime.datetime | None | Unset = UNSET,
    cursor: int | Unset = 0,
    limit: int | Unset = 100,
    x_workspace_id: str | Unset = UNSET,
) -> AuditEntryPage | None:
    """The workspace's chained audit entries with their hashes, filtered and paged (VIEW_AUDIT_LOG)

     Oldest first. Each entry carries the hash of the one before; the signed head (chain.head) proves,
    against a pinned key, that nothing before it was removed or rewritten. Entries are served once
    chained (chain.pending says how many wait, usually seconds).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_WORKSPACE_ID,
    VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404
    WORKSPACE_NOT_FOUND; 413 PAYLOAD_TOO_LARGE.

    Args:
        action (None | str | Unset):
        actor_id (None | Unset | UUID):
        object_type (None | str | Unset):
        object_id (None | str | Unset):
        since (datetime.datetime | None | Unset):
        until (datetime.datetime | None | Unset):
        cursor (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.
        x_workspace_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEntryPage
    """

    return (
        await asyncio_detailed(
            client=client,
            action=action,
            actor_id=actor_id,
            object_type=object_type,
            object_id=object_id,
            since=since,
            until=until,
            cursor=cursor,
            limit=limit,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
