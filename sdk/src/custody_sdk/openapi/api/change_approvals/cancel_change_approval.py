from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.change_approval_card import ChangeApprovalCard
from ...types import Response


def _get_kwargs(
    tenant_uuid: UUID,
    request_uuid: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/change-approvals/{request_uuid}/cancel".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
            request_uuid=quote(str(request_uuid), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ChangeApprovalCard | None:
    if response.status_code == 200:
        response_200 = ChangeApprovalCard.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ChangeApprovalCard]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_uuid: UUID,
    request_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[ChangeApprovalCard]:
    """Cancel (the initiator); cancelling a cancelled request answers its card

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 CHANGE_REQUEST_CANCEL_NOT_ALLOWED, PERMISSION_DENIED; 404
    CHANGE_REQUEST_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 CHANGE_REQUEST_ALREADY_FINALIZED; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        request_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeApprovalCard]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        request_uuid=request_uuid,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_uuid: UUID,
    request_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> ChangeApprovalCard | None:
    """Cancel (the initiator); cancelling a cancelled request answers its card

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 CHANGE_REQUEST_CANCEL_NOT_ALLOWED, PERMISSION_DENIED; 404
    CHANGE_REQUEST_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 CHANGE_REQUEST_ALREADY_FINALIZED; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        request_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeApprovalCard
    """

    return sync_detailed(
        tenant_uuid=tenant_uuid,
        request_uuid=request_uuid,
        client=client,
    ).parsed


async def asyncio_detailed(
    tenant_uuid: UUID,
    request_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[ChangeApprovalCard]:
    """Cancel (the initiator); cancelling a cancelled request answers its card

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 CHANGE_REQUEST_CANCEL_NOT_ALLOWED, PERMISSION_DENIED; 404
    CHANGE_REQUEST_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 CHANGE_REQUEST_ALREADY_FINALIZED; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        request_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChangeApprovalCard]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        request_uuid=request_uuid,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_uuid: UUID,
    request_uuid: UUID,
    *,
    client: AuthenticatedClient,
) -> ChangeApprovalCard | None:
    """Cancel (the initiator); cancelling a cancelled request answers its card

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 CHANGE_REQUEST_CANCEL_NOT_ALLOWED, PERMISSION_DENIED; 404
    CHANGE_REQUEST_NOT_FOUND, NOT_FOUND, WORKSPACE_NOT_FOUND; 409 CHANGE_REQUEST_ALREADY_FINALIZED; 413
    PAYLOAD_TOO_LARGE.

    Args:
        tenant_uuid (UUID):
        request_uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChangeApprovalCard
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            request_uuid=request_uuid,
            client=client,
        )
    ).parsed
