from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cosigner_designation import CosignerDesignation
from ...models.cosigner_designation_update import CosignerDesignationUpdate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CosignerDesignationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_workspace_id, Unset):
        headers["X-Workspace-Id"] = x_workspace_id

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/co-signer/designation",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CosignerDesignation | None:
    if response.status_code == 200:
        response_200 = CosignerDesignation.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CosignerDesignation]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CosignerDesignationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[CosignerDesignation]:
    """Owner: designate the co-signer, an API user or a paired device (MANAGE_SIGNING_POLICY)

     Only the designated co-signer takes the seat of new key sets; seated key sets keep their co-signer.
    The designee's role must hold SIGN_TRANSACTION; a person is designated by their paired device.
    Audited (cosigner.designated) and announced to the owner and the administrators.

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_NOT_ELIGIBLE, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, USER_NOT_FOUND, WORKSPACE_NOT_FOUND;
    413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerDesignationUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CosignerDesignation]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CosignerDesignationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> CosignerDesignation | None:
    """Owner: designate the co-signer, an API user or a paired device (MANAGE_SIGNING_POLICY)

     Only the designated co-signer takes the seat of new key sets; seated key sets keep their co-signer.
    The designee's role must hold SIGN_TRANSACTION; a person is designated by their paired device.
    Audited (cosigner.designated) and announced to the owner and the administrators.

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_NOT_ELIGIBLE, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, USER_NOT_FOUND, WORKSPACE_NOT_FOUND;
    413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerDesignationUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CosignerDesignation
    """

    return sync_detailed(
        client=client,
        body=body,
        x_workspace_id=x_workspace_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CosignerDesignationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> Response[CosignerDesignation]:
    """Owner: designate the co-signer, an API user or a paired device (MANAGE_SIGNING_POLICY)

     Only the designated co-signer takes the seat of new key sets; seated key sets keep their co-signer.
    The designee's role must hold SIGN_TRANSACTION; a person is designated by their paired device.
    Audited (cosigner.designated) and announced to the owner and the administrators.

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_NOT_ELIGIBLE, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, USER_NOT_FOUND, WORKSPACE_NOT_FOUND;
    413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerDesignationUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CosignerDesignation]
    """

    kwargs = _get_kwargs(
        body=body,
        x_workspace_id=x_workspace_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CosignerDesignationUpdate | Unset = UNSET,
    x_workspace_id: str | Unset = UNSET,
) -> CosignerDesignation | None:
    """Owner: designate the co-signer, an API user or a paired device (MANAGE_SIGNING_POLICY)

     Only the designated co-signer takes the seat of new key sets; seated key sets keep their co-signer.
    The designee's role must hold SIGN_TRANSACTION; a person is designated by their paired device.
    Audited (cosigner.designated) and announced to the owner and the administrators.

    Errors (raised as custody_sdk.CustodyApiError): 400 COSIGNER_NOT_ELIGIBLE, DUPLICATE_HEADER,
    INVALID_WORKSPACE_ID, MALFORMED_JSON, VALIDATION_ERROR, WORKSPACE_REQUIRED; 401 INVALID_TOKEN,
    UNAUTHENTICATED; 403 PERMISSION_DENIED; 404 DEVICE_NOT_FOUND, USER_NOT_FOUND, WORKSPACE_NOT_FOUND;
    413 PAYLOAD_TOO_LARGE; 415 UNSUPPORTED_MEDIA_TYPE.

    Args:
        x_workspace_id (str | Unset):
        body (CosignerDesignationUpdate | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CosignerDesignation
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_workspace_id=x_workspace_id,
        )
    ).parsed
