"""Roles and the one table that maps each role to its permissions.

Permission names are the spec's UPPER_SNAKE spellings (the spec also writes ``EditWorkspace``
for ``EDIT_WORKSPACE``); every permission the spec names is here, plus the ones this service
needs for its own endpoints. A role with no entry has no permission.
"""

from __future__ import annotations

from enum import StrEnum


class WorkspaceRole(StrEnum):
    OWNER = "OWNER"
    ADMIN = "ADMIN"
    NON_SIGNING_ADMIN = "NON_SIGNING_ADMIN"
    SIGNER = "SIGNER"
    APPROVER = "APPROVER"
    EDITOR = "EDITOR"
    VIEWER = "VIEWER"


class PlatformRole(StrEnum):
    PLATFORM_ADMIN = "PLATFORM_ADMIN"
    PLATFORM_SUPPORT = "PLATFORM_SUPPORT"


class Permission(StrEnum):
    # Named by the spec.
    VIEW_WORKSPACE = "VIEW_WORKSPACE"
    EDIT_WORKSPACE = "EDIT_WORKSPACE"
    VIEW_CHANGE_APPROVALS = "VIEW_CHANGE_APPROVALS"
    VIEW_QUORUM_SETTINGS = "VIEW_QUORUM_SETTINGS"
    MANAGE_QUORUM_SETTINGS = "MANAGE_QUORUM_SETTINGS"
    PROPOSE_QUORUM_SETTINGS = "PROPOSE_QUORUM_SETTINGS"
    # The service's own.
    VIEW_USERS = "VIEW_USERS"
    MANAGE_USERS = "MANAGE_USERS"
    MANAGE_DEVICES = "MANAGE_DEVICES"
    CREATE_TRANSACTION = "CREATE_TRANSACTION"
    APPROVE_TRANSACTION = "APPROVE_TRANSACTION"
    SIGN_TRANSACTION = "SIGN_TRANSACTION"
    VIEW_WEBHOOKS = "VIEW_WEBHOOKS"
    MANAGE_WEBHOOKS = "MANAGE_WEBHOOKS"
    MANAGE_BACKUP = "MANAGE_BACKUP"
    #: Whether signatures need the client co-signer's share (threshold signing).
    MANAGE_SIGNING_POLICY = "MANAGE_SIGNING_POLICY"
    #: Turning a tag's protection on or off: protected tags are what policy rules evaluate.
    MANAGE_PROTECTED_TAGS = "MANAGE_PROTECTED_TAGS"
    VIEW_AUDIT_LOG = "VIEW_AUDIT_LOG"
    #: Publish and roll back Transfer and AML policies (docs/policies.md).
    MANAGE_POLICIES = "MANAGE_POLICIES"
    #: Start (and cancel) the transfer of the workspace's ownership to another member.
    TRANSFER_OWNERSHIP = "TRANSFER_OWNERSHIP"
    # Platform level (not tied to a workspace).
    VIEW_COMPANIES = "VIEW_COMPANIES"
    MANAGE_COMPANIES = "MANAGE_COMPANIES"


_P = Permission
_READ = frozenset({_P.VIEW_WORKSPACE})
_ADMIN_COMMON = frozenset(
    {
        _P.VIEW_WORKSPACE,
        _P.EDIT_WORKSPACE,
        _P.VIEW_CHANGE_APPROVALS,
        _P.VIEW_QUORUM_SETTINGS,
        _P.PROPOSE_QUORUM_SETTINGS,
        _P.VIEW_USERS,
        _P.MANAGE_USERS,
        _P.CREATE_TRANSACTION,
        _P.APPROVE_TRANSACTION,
        _P.VIEW_WEBHOOKS,
        _P.MANAGE_WEBHOOKS,
        _P.VIEW_AUDIT_LOG,
        _P.MANAGE_POLICIES,
    }
)

#: The roles-to-permissions table. Why each row is as it is:
#: OWNER alone changes approval settings, exports key backups, decides whether signing needs the
#: client co-signer and confirms paired devices (the spec has the owner check the device
#: fingerprint); ADMIN proposes settings
#: changes; NON_SIGNING_ADMIN is an ADMIN that never holds a signing role; SIGNER signs and
#: creates transactions; APPROVER approves transactions; EDITOR configures the workspace
#: (tags, wallets, webhooks) without moving money; VIEWER reads.
#: OWNER alone also turns a tag's protection on or off: protected tags are what policy rules see.
ROLE_PERMISSIONS: dict[WorkspaceRole, frozenset[Permission]] = {
    WorkspaceRole.OWNER: _ADMIN_COMMON
    | {_P.MANAGE_QUORUM_SETTINGS, _P.SIGN_TRANSACTION, _P.MANAGE_BACKUP, _P.MANAGE_DEVICES,
       _P.MANAGE_SIGNING_POLICY, _P.MANAGE_PROTECTED_TAGS, _P.TRANSFER_OWNERSHIP},
    WorkspaceRole.ADMIN: _ADMIN_COMMON | {_P.SIGN_TRANSACTION},
    WorkspaceRole.NON_SIGNING_ADMIN: _ADMIN_COMMON,
    WorkspaceRole.SIGNER: _READ | {_P.CREATE_TRANSACTION, _P.SIGN_TRANSACTION, _P.VIEW_WEBHOOKS},
    WorkspaceRole.APPROVER: _READ | {_P.APPROVE_TRANSACTION, _P.VIEW_CHANGE_APPROVALS},
    WorkspaceRole.EDITOR: _READ | {_P.EDIT_WORKSPACE, _P.CREATE_TRANSACTION, _P.VIEW_WEBHOOKS, _P.MANAGE_WEBHOOKS},
    WorkspaceRole.VIEWER: _READ,
}

#: Platform staff permissions; they apply across companies, not inside a workspace.
PLATFORM_PERMISSIONS: dict[PlatformRole, frozenset[Permission]] = {
    PlatformRole.PLATFORM_ADMIN: frozenset({_P.VIEW_COMPANIES, _P.MANAGE_COMPANIES}),
    PlatformRole.PLATFORM_SUPPORT: frozenset({_P.VIEW_COMPANIES}),
}


#: Roles that use no device: their holders never pair one, vote or sign from one (docs/users.md).
#: Every other workspace role is used from a paired device (people) or an API key.
NO_DEVICE_ROLES = frozenset({WorkspaceRole.VIEWER.value})


def uses_device(role: str) -> bool:
    """Whether a member with ``role`` may pair and use a device (every role but VIEWER)."""
    return role in ROLE_PERMISSIONS and role not in NO_DEVICE_ROLES


def permissions_of(role: str) -> frozenset[Permission]:
    """The permissions of a workspace role (empty for an unknown role)."""
    try:
        return ROLE_PERMISSIONS[WorkspaceRole(role)]
    except ValueError:
        return frozenset()


def grantable(role: str, *, by: str) -> bool:
    """Whether a member whose role is ``by`` may give ``role`` to someone (or act on a member who
    holds it: change that member's role, remove them).

    Nobody grants more than they hold: ``role``'s permissions must be a subset of ``by``'s.
    OWNER is never grantable: it passes only by an ownership transfer (domain/ownership.py),
    which the current owner starts and the new owner accepts.
    """
    if role == WorkspaceRole.OWNER or role not in ROLE_PERMISSIONS:
        return False
    return permissions_of(role) <= permissions_of(by)


def platform_permissions_of(role: str | None) -> frozenset[Permission]:
    if role is None:
        return frozenset()
    try:
        return PLATFORM_PERMISSIONS[PlatformRole(role)]
    except ValueError:
        return frozenset()
