from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.change_approval_list import ChangeApprovalList
from ...models.list_change_approvals_scope import (
    ListChangeApprovalsScope,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    tenant_uuid: UUID,
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_scope: str | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = scope

    params["scope"] = json_scope

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/change-approvals".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChangeApprovalList | None:
    if response.status_code == 200:
        response_200 = ChangeApprovalList.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChangeApprovalList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> Response[ChangeApprovalList]:
    """Change approval requests of one workspace, newest first

     Scope PENDING_MY_VOTE (default), INITIATED_BY_ME, or ALL (VIEW_CHANGE_APPROVALS). A device sees
    PENDING_MY_VOTE and INITIATED_BY_ME of the user who paired it.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeApprovalList]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        limit=limit,
        offset=offset,
        scope=scope,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> ChangeApprovalList | None:
    """Change approval requests of one workspace, newest first

     Scope PENDING_MY_VOTE (default), INITIATED_BY_ME, or ALL (VIEW_CHANGE_APPROVALS). A device sees
    PENDING_MY_VOTE and INITIATED_BY_ME of the user who paired it.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeApprovalList
    """

    return sync_detailed(
        tenant_uuid=tenant_uuid,
        client=client,
        limit=limit,
        offset=offset,
        scope=scope,
    ).parsed


async def asyncio_detailed(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> Response[ChangeApprovalList]:
    """Change approval requests of one workspace, newest first

     Scope PENDING_MY_VOTE (default), INITIATED_BY_ME, or ALL (VIEW_CHANGE_APPROVALS). A device sees
    PENDING_MY_VOTE and INITIATED_BY_ME of the user who paired it.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeApprovalList]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        limit=limit,
        offset=offset,
        scope=scope,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> ChangeApprovalList | None:
    """Change approval requests of one workspace, newest first

     Scope PENDING_MY_VOTE (default), INITIATED_BY_ME, or ALL (VIEW_CHANGE_APPROVALS). A device sees
    PENDING_MY_VOTE and INITIATED_BY_ME of the user who paired it.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND, WORKSPACE_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeApprovalList
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            client=client,
            limit=limit,
            offset=offset,
            scope=scope,
        )
    ).parsed
