from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.quorum_action_update import QuorumActionUpdate
from ...models.quorum_rule_answer import QuorumRuleAnswer
from ...types import Response


def _get_kwargs(
    tenant_uuid: UUID,
    action_key: str,
    *,
    body: QuorumActionUpdate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/quorum/actions/{action_key}".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
            action_key=quote(str(action_key), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> QuorumRuleAnswer | None:
    if response.status_code == 200:
        response_200 = QuorumRuleAnswer.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[QuorumRuleAnswer]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tenant_uuid: UUID,
    action_key: str,
    *,
    client: AuthenticatedClient,
    body: QuorumActionUpdate,
) -> Response[QuorumRuleAnswer]:
    """Set an action's rule (owner: MANAGE_QUORUM_SETTINGS; administrators propose while Manage approvals
    is on)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        action_key (str):
        body (QuorumActionUpdate): A rule: on or off, its mode, the group (group mode), owner
            confirmation on top.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[QuorumRuleAnswer]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        action_key=action_key,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tenant_uuid: UUID,
    action_key: str,
    *,
    client: AuthenticatedClient,
    body: QuorumActionUpdate,
) -> QuorumRuleAnswer | None:
    """Set an action's rule (owner: MANAGE_QUORUM_SETTINGS; administrators propose while Manage approvals
    is on)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        action_key (str):
        body (QuorumActionUpdate): A rule: on or off, its mode, the group (group mode), owner
            confirmation on top.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        QuorumRuleAnswer
    """

    return sync_detailed(
        tenant_uuid=tenant_uuid,
        action_key=action_key,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    tenant_uuid: UUID,
    action_key: str,
    *,
    client: AuthenticatedClient,
    body: QuorumActionUpdate,
) -> Response[QuorumRuleAnswer]:
    """Set an action's rule (owner: MANAGE_QUORUM_SETTINGS; administrators propose while Manage approvals
    is on)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        action_key (str):
        body (QuorumActionUpdate): A rule: on or off, its mode, the group (group mode), owner
            confirmation on top.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[QuorumRuleAnswer]
    """

    kwargs = _get_kwargs(
        tenant_uuid=tenant_uuid,
        action_key=action_key,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tenant_uuid: UUID,
    action_key: str,
    *,
    client: AuthenticatedClient,
    body: QuorumActionUpdate,
) -> QuorumRuleAnswer | None:
    """Set an action's rule (owner: MANAGE_QUORUM_SETTINGS; administrators propose while Manage approvals
    is on)

     Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, MALFORMED_JSON,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED,
    QUORUM_APPROVAL_REQUIRED, QUORUM_CHANGE_REQUESTS_DISABLED; 404 GROUP_NOT_FOUND, NOT_FOUND,
    QUORUM_ACTION_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED,
    QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE, QUORUM_NO_ELIGIBLE_APPROVERS; 413 PAYLOAD_TOO_LARGE; 415
    UNSUPPORTED_MEDIA_TYPE; 503 CHANGE_APPROVAL_UNAVAILABLE.

    Args:
        tenant_uuid (UUID):
        action_key (str):
        body (QuorumActionUpdate): A rule: on or off, its mode, the group (group mode), owner
            confirmation on top.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        QuorumRuleAnswer
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            action_key=action_key,
            client=client,
            body=body,
        )
    ).parsed
