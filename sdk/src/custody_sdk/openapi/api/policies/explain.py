from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.explain import Explain
from ...models.explain_request import ExplainRequest
from ...types import Response


def _get_kwargs(
    tenant_uuid: UUID,
    policy_type: str,
    *,
    body: ExplainRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/admin/tenants/{tenant_uuid}/policies/{policy_type}/explain".format(
            tenant_uuid=quote(str(tenant_uuid), safe=""),
            policy_type=quote(str(policy_type), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Explain | None:
    if response.status_code == 200:
        response_200 = Explain.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Explain]:
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
    body: ExplainRequest,
) -> Response[Explain]:
    """Evaluate a hypothetical withdrawal against the published policy or a draft: every rule's verdict and
    why, the matched rule, window usage (VIEW_WORKSPACE)

     Nothing is created, locked or counted. Transfer policies only.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_ADDRESS,
    INVALID_AMOUNT, INVALID_POLICY_RULE, MALFORMED_JSON, POLICY_TYPE_NOT_EXPLAINABLE,
    SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS, TARGET_CURRENCY_MISMATCH,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    POLICY_NOT_PUBLISHED, POLICY_TYPE_NOT_FOUND, TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND,
    WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 TARGET_WALLET_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (ExplainRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Explain]
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
    body: ExplainRequest,
) -> Explain | None:
    """Evaluate a hypothetical withdrawal against the published policy or a draft: every rule's verdict and
    why, the matched rule, window usage (VIEW_WORKSPACE)

     Nothing is created, locked or counted. Transfer policies only.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_ADDRESS,
    INVALID_AMOUNT, INVALID_POLICY_RULE, MALFORMED_JSON, POLICY_TYPE_NOT_EXPLAINABLE,
    SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS, TARGET_CURRENCY_MISMATCH,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    POLICY_NOT_PUBLISHED, POLICY_TYPE_NOT_FOUND, TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND,
    WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 TARGET_WALLET_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (ExplainRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Explain
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
    body: ExplainRequest,
) -> Response[Explain]:
    """Evaluate a hypothetical withdrawal against the published policy or a draft: every rule's verdict and
    why, the matched rule, window usage (VIEW_WORKSPACE)

     Nothing is created, locked or counted. Transfer policies only.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_ADDRESS,
    INVALID_AMOUNT, INVALID_POLICY_RULE, MALFORMED_JSON, POLICY_TYPE_NOT_EXPLAINABLE,
    SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS, TARGET_CURRENCY_MISMATCH,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    POLICY_NOT_PUBLISHED, POLICY_TYPE_NOT_FOUND, TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND,
    WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 TARGET_WALLET_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (ExplainRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Explain]
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
    body: ExplainRequest,
) -> Explain | None:
    """Evaluate a hypothetical withdrawal against the published policy or a draft: every rule's verdict and
    why, the matched rule, window usage (VIEW_WORKSPACE)

     Nothing is created, locked or counted. Transfer policies only.

    Errors (raised as custody_sdk.CustodyApiError): 400 DUPLICATE_HEADER, INVALID_ADDRESS,
    INVALID_AMOUNT, INVALID_POLICY_RULE, MALFORMED_JSON, POLICY_TYPE_NOT_EXPLAINABLE,
    SAME_SOURCE_AND_TARGET, TARGET_ADDRESS_MISMATCH, TARGET_AMBIGUOUS, TARGET_CURRENCY_MISMATCH,
    VALIDATION_ERROR; 401 INVALID_TOKEN, UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 NOT_FOUND,
    POLICY_NOT_PUBLISHED, POLICY_TYPE_NOT_FOUND, TARGET_WALLET_NOT_FOUND, WALLET_NOT_FOUND,
    WHITELISTED_WALLET_NOT_FOUND, WORKSPACE_NOT_FOUND; 409 TARGET_WALLET_NOT_FOUND; 413
    PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        tenant_uuid (UUID):
        policy_type (str):
        body (ExplainRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Explain
    """

    return (
        await asyncio_detailed(
            tenant_uuid=tenant_uuid,
            policy_type=policy_type,
            client=client,
            body=body,
        )
    ).parsed
