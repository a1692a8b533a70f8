from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.policy_rollback import PolicyRollback
from ...models.policy_version import PolicyVersion
from ...types import Response


def _get_kwargs(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    body: PolicyRollback,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/policies/{policy_type}/rollback".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
            policy_type=quote(str(policy_type), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PolicyVersion | None:
    if response.status_code == 201:
        response_201 = PolicyVersion.from_dict(response.json())

        return response_201

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PolicyVersion]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    body: PolicyRollback,
) -> Response[PolicyVersion]:
    """Publish a copy of an earlier version as the next one (MANAGE_POLICIES; Manage policies: rollback)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_POLICY_RULE,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND, POLICY_VERSION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (PolicyRollback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PolicyVersion]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        policy_type=policy_type,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    body: PolicyRollback,
) -> PolicyVersion | None:
    """Publish a copy of an earlier version as the next one (MANAGE_POLICIES; Manage policies: rollback)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_POLICY_RULE,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND, POLICY_VERSION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (PolicyRollback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PolicyVersion
    """

    return sync_detailed(
        tenant_uuid=tenant_uuid,
        policy_type=policy_type,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    body: PolicyRollback,
) -> Response[PolicyVersion]:
    """Publish a copy of an earlier version as the next one (MANAGE_POLICIES; Manage policies: rollback)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_POLICY_RULE,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND, POLICY_VERSION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (PolicyRollback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PolicyVersion]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        policy_type=policy_type,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    client: AuthenticatedClient,
    body: PolicyRollback,
) -> PolicyVersion | None:
    """Publish a copy of an earlier version as the next one (MANAGE_POLICIES; Manage policies: rollback)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_POLICY_RULE,
    MALFORMED_JSON, VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED; 404 NOT_FOUND, POLICY_TYPE_NOT_FOUND, POLICY_VERSION_NOT_FOUND,
    WORKSPACE_NOT_FOUND; 409 QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (PolicyRollback):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PolicyVersion
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            policy_type=policy_type,
            client=client,
            body=body,
        )
    ).parsed
