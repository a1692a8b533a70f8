"""First-run set-up for an operator: a company, a workspace, its owner and an API user."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from nacl.signing import SigningKey

from domain import companies, users, workspaces
from domain.permissions import PlatformRole, WorkspaceRole


@dataclass(frozen=True)
class BootstrapResult:
    company_id: str
    workspace_id: str
    owner_id: str
    client_id: str
    #: The API user's Ed25519 seed, base64. Shown once; the service keeps only the public key.
    private_key: str
    public_key: str


async def bootstrap(
    *, company_name: str, company_email: str, workspace_name: str, network_type: str, owner_email: str,
    api_user_name: str = "bootstrap", api_user_role: str = WorkspaceRole.ADMIN, platform_admin: bool = False,
) -> BootstrapResult:
    """Create everything a new user needs for a first signed call (call inside a unit of work)."""
    company = await companies.create_company(principal=None, name=company_name, email=company_email)
    workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name=workspace_name,
                                                  network_type=network_type)
    # The operator's first owner of the new workspace (the one OWNER not passed on by a transfer).
    owner = await users.add_person(workspace_id=workspace.id, email=owner_email, role=WorkspaceRole.OWNER)
    signing_key = SigningKey.generate()
    public_key = bytes(signing_key.verify_key)
    api_user = await users.create_api_user(
        principal=None, workspace_id=workspace.id, name=api_user_name, role=api_user_role, public_key=public_key,
        platform_role=PlatformRole.PLATFORM_ADMIN if platform_admin else None,
    )
    return BootstrapResult(
        company_id=str(company.id),
        workspace_id=str(workspace.id),
        owner_id=str(owner.user.id),
        client_id=str(api_user.user.id),
        private_key=base64.b64encode(bytes(signing_key)).decode(),
        public_key=base64.b64encode(public_key).decode(),
    )
