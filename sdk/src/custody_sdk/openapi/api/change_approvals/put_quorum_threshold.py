from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.threshold_answer import ThresholdAnswer
from ...models.threshold_update import ThresholdUpdate
from ...types import Response


def _get_kwargs(
    tenant_uuid: UUID,
    *,
    body: ThresholdUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/quorum/threshold".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ThresholdAnswer | None:
    if response.status_code == 200:
        response_200 = ThresholdAnswer.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ThresholdAnswer]:
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
    body: ThresholdUpdate,
) -> Response[ThresholdAnswer]:
    """Set the administrator threshold (same rights as the rules)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        body (ThresholdUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ThresholdAnswer]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
    body: ThresholdUpdate,
) -> ThresholdAnswer | None:
    """Set the administrator threshold (same rights as the rules)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        body (ThresholdUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ThresholdAnswer
    """

    return sync_detailed(
        tenant_uuid=tenant_uuid,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
    body: ThresholdUpdate,
) -> Response[ThresholdAnswer]:
    """Set the administrator threshold (same rights as the rules)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        body (ThresholdUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ThresholdAnswer]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_uuid: UUID,
    *,
    client: AuthenticatedClient,
    body: ThresholdUpdate,
) -> ThresholdAnswer | None:
    """Set the administrator threshold (same rights as the rules)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        body (ThresholdUpdate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ThresholdAnswer
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            client=client,
            body=body,
        )
    ).parsed
