from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.change_approval_list import ChangeApprovalList
from ...models.list_all_change_approvals_scope import (
    ListAllChangeApprovalsScope,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListAllChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
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
        "url": "/api/v2/admin/change-approvals",
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
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListAllChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> Response[ChangeApprovalList]:
    """Change approval requests of every workspace of the token, one shared page

     Scope ALL covers only the workspaces where the caller has VIEW_CHANGE_APPROVALS (none: 403).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListAllChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeApprovalList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        scope=scope,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListAllChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> ChangeApprovalList | None:
    """Change approval requests of every workspace of the token, one shared page

     Scope ALL covers only the workspaces where the caller has VIEW_CHANGE_APPROVALS (none: 403).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListAllChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeApprovalList
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        scope=scope,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListAllChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> Response[ChangeApprovalList]:
    """Change approval requests of every workspace of the token, one shared page

     Scope ALL covers only the workspaces where the caller has VIEW_CHANGE_APPROVALS (none: 403).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListAllChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeApprovalList]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        scope=scope,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    offset: int | Unset = 0,
    scope: ListAllChangeApprovalsScope | Unset = "PENDING_MY_VOTE",
) -> ChangeApprovalList | None:
    """Change approval requests of every workspace of the token, one shared page

     Scope ALL covers only the workspaces where the caller has VIEW_CHANGE_APPROVALS (none: 403).

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, VALIDATION_ERROR; 401
    INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 413 PAYLOAD_TOO_LARGE.

    Args:
        limit (int | Unset):  Default: 50.
        offset (int | Unset):  Default: 0.
        scope (ListAllChangeApprovalsScope | Unset):  Default: 'PENDING_MY_VOTE'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeApprovalList
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            scope=scope,
        )
    ).parsed
