"""First-run set-up for an operator: a company, a workspace, its owner and an API user.

What ``custody bootstrap`` creates, in one transaction (docs/users.md, "The owner's first device"):

1. the company and its workspace;
2. the workspace's OWNER, a person (the one OWNER not passed on by a transfer), and a one-time
   **owner enrollment secret** for their device: the operator hands it to the owner, whose
   device registers its key with it; the operator then confirms the fingerprint with the owner
   (``custody owner confirm-device``). From that device the owner does everything only an owner
   may do;
3. an API user with a fresh Ed25519 key (its seed is shown once, the service keeps the public key),
   designated as the workspace's co-signer (``custody cosigner run`` with the same credentials),
   which the owner may change (PUT /api/v1/co-signer/designation).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import datetime

from nacl.signing import SigningKey

from domain import companies, devices, users, workspaces
from domain.permissions import PlatformRole, WorkspaceRole
from domain.signing import cosigner


@dataclass(frozen=True)
class BootstrapResult:
    company_id: str
    workspace_id: str
    owner_id: str
    client_id: str
    #: The API user's Ed25519 seed, base64. Shown once; the service keeps only the public key.
    private_key: str
    public_key: str
    #: The owner's one-time enrollment secret (the service keeps its SHA-256) and its expiry.
    owner_enrollment_secret: str
    owner_enrollment_expires_at: datetime


async def bootstrap(
    *, company_name: str, company_email: str, workspace_name: str, network_type: str, owner_email: str,
    api_user_name: str = "bootstrap", api_user_role: str = WorkspaceRole.ADMIN, platform_admin: bool = False,
    cosigner_seat: bool = True,
) -> BootstrapResult:
    """Create everything a new user needs for a first signed call and the owner's device (call
    inside a unit of work)."""
    company = await companies.create_company(principal=None, name=company_name, email=company_email)
    workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name=workspace_name,
                                                  network_type=network_type)
    # The operator's first owner of the new workspace (the one OWNER not passed on by a transfer).
    owner = await users.add_person(workspace_id=workspace.id, email=owner_email, role=WorkspaceRole.OWNER)
    enrollment = await devices.start_owner_enrollment(workspace_id=workspace.id)
    signing_key = SigningKey.generate()
    public_key = bytes(signing_key.verify_key)
    api_user = await users.create_api_user(
        principal=None, workspace_id=workspace.id, name=api_user_name, role=api_user_role, public_key=public_key,
        platform_role=PlatformRole.PLATFORM_ADMIN if platform_admin else None,
    )
    if cosigner_seat:
        # The operator's choice at set-up, audited and announced to the owner, who may change it.
        await cosigner.designate(principal=None, workspace_id=workspace.id, user_id=api_user.user.id)
    return BootstrapResult(
        company_id=str(company.id),
        workspace_id=str(workspace.id),
        owner_id=str(owner.user.id),
        client_id=str(api_user.user.id),
        private_key=base64.b64encode(bytes(signing_key)).decode(),
        public_key=base64.b64encode(public_key).decode(),
        owner_enrollment_secret=enrollment.pairing_token,
        owner_enrollment_expires_at=enrollment.expires_at,
    )
