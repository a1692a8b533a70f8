"""Contains all the data models used in inputs/outputs"""

from .access_token import AccessToken
from .active_token import ActiveToken
from .active_token_subject_type import ActiveTokenSubjectType
from .address import Address
from .address_type import AddressType
from .all_tags import AllTags
from .all_tags_order_by import AllTagsOrderBy
from .all_tags_order_dir import AllTagsOrderDir
from .api_user_create import ApiUserCreate
from .api_user_create_role import ApiUserCreateRole
from .asset import Asset
from .asset_list import AssetList
from .backup import Backup
from .backup_group_signature import BackupGroupSignature
from .backup_group_signature_schema import BackupGroupSignatureSchema
from .backup_start import BackupStart
from .backup_status import BackupStatus
from .backup_verification import BackupVerification
from .balance_amounts import BalanceAmounts
from .balance_snapshot import BalanceSnapshot
from .balances import Balances
from .changes_page import ChangesPage
from .check import Check
from .commitment_submission import CommitmentSubmission
from .company import Company
from .company_application import CompanyApplication
from .company_application_status import CompanyApplicationStatus
from .company_application_submit import CompanyApplicationSubmit
from .company_create import CompanyCreate
from .company_list import CompanyList
from .converted_balance import ConvertedBalance
from .converted_balances import ConvertedBalances
from .cosigner_part import CosignerPart
from .cosigner_part_registration import CosignerPartRegistration
from .cosigner_part_status import CosignerPartStatus
from .cosigner_part_summary import CosignerPartSummary
from .cosigner_part_summary_status import CosignerPartSummaryStatus
from .currency import Currency
from .currency_balance import CurrencyBalance
from .currency_network_type import CurrencyNetworkType
from .current_workspace import CurrentWorkspace
from .current_workspace_network_type import CurrentWorkspaceNetworkType
from .current_workspace_permissions_item import CurrentWorkspacePermissionsItem
from .current_workspace_role import CurrentWorkspaceRole
from .device import Device
from .device_confirm import DeviceConfirm
from .device_register import DeviceRegister
from .device_status import DeviceStatus
from .dkg_complaint import DkgComplaint
from .error_code import ErrorCode
from .error_envelope import ErrorEnvelope
from .error_envelope_details import ErrorEnvelopeDetails
from .health import Health
from .health_status import HealthStatus
from .inactive_token import InactiveToken
from .invitation import Invitation
from .invitation_accept import InvitationAccept
from .invitation_accepted import InvitationAccepted
from .invitation_accepted_role import InvitationAcceptedRole
from .invitation_answer import InvitationAnswer
from .invitation_page import InvitationPage
from .invitation_role import InvitationRole
from .invitation_status import InvitationStatus
from .key_generation import KeyGeneration
from .key_generation_action import KeyGenerationAction
from .key_generation_failure import KeyGenerationFailure
from .key_generation_failure_status import KeyGenerationFailureStatus
from .key_generation_list import KeyGenerationList
from .key_generation_participant import KeyGenerationParticipant
from .key_generation_status import KeyGenerationStatus
from .key_set_request import KeySetRequest
from .key_set_request_scheme import KeySetRequestScheme
from .key_set_summary import KeySetSummary
from .key_set_summary_status import KeySetSummaryStatus
from .list_accounts_tag_match_mode import ListAccountsTagMatchMode
from .list_deliveries_event_type import ListDeliveriesEventType
from .list_deliveries_status import ListDeliveriesStatus
from .list_invitations_status import ListInvitationsStatus
from .list_tags_order_by import ListTagsOrderBy
from .list_tags_order_dir import ListTagsOrderDir
from .list_transactions_direction import ListTransactionsDirection
from .list_transactions_status_item import ListTransactionsStatusItem
from .list_vaults_tag_match_mode import ListVaultsTagMatchMode
from .ownership_transfer import OwnershipTransfer
from .ownership_transfer_start import OwnershipTransferStart
from .ownership_transfer_status import OwnershipTransferStatus
from .pairing_initiate import PairingInitiate
from .pairing_invitation import PairingInvitation
from .readiness import Readiness
from .readiness_status import ReadinessStatus
from .rejected_tag_operation import RejectedTagOperation
from .rejected_tag_operation_operation import RejectedTagOperationOperation
from .rejected_tag_operation_reason import RejectedTagOperationReason
from .replay_request import ReplayRequest
from .role_change import RoleChange
from .role_change_role import RoleChangeRole
from .round_1_broadcast import Round1Broadcast
from .round_1_package import Round1Package
from .round_1_package_sender import Round1PackageSender
from .round_1_package_view import Round1PackageView
from .round_1_submission import Round1Submission
from .round_2_delivery import Round2Delivery
from .round_2_package import Round2Package
from .round_2_package_recipient import Round2PackageRecipient
from .round_2_submission import Round2Submission
from .server_time import ServerTime
from .share_submission import ShareSubmission
from .signing_commitment_view import SigningCommitmentView
from .signing_policy import SigningPolicy
from .signing_policy_update import SigningPolicyUpdate
from .signing_request import SigningRequest
from .signing_request_action import SigningRequestAction
from .signing_request_list import SigningRequestList
from .signing_request_status import SigningRequestStatus
from .symbol_balance import SymbolBalance
from .symbol_total import SymbolTotal
from .tag import Tag
from .tag_create import TagCreate
from .tag_list import TagList
from .tag_list_item import TagListItem
from .tag_operation import TagOperation
from .tag_operation_operation import TagOperationOperation
from .tag_operations import TagOperations
from .tag_update import TagUpdate
from .tag_vault import TagVault
from .token_access import TokenAccess
from .token_access_permissions_item import TokenAccessPermissionsItem
from .token_access_role import TokenAccessRole
from .token_request import TokenRequest
from .transaction import Transaction
from .transaction_create import TransactionCreate
from .transaction_destination_type import TransactionDestinationType
from .transaction_page import TransactionPage
from .transaction_side import TransactionSide
from .transaction_status import TransactionStatus
from .transaction_type import TransactionType
from .user_add import UserAdd
from .user_add_role import UserAddRole
from .user_list import UserList
from .vault import Vault
from .vault_create import VaultCreate
from .vault_list import VaultList
from .vault_rename import VaultRename
from .vault_tags_change import VaultTagsChange
from .verification_group import VerificationGroup
from .verification_group_schema import VerificationGroupSchema
from .verification_groups import VerificationGroups
from .wallet_balance import WalletBalance
from .wallet_create import WalletCreate
from .wallet_created import WalletCreated
from .webhook import Webhook
from .webhook_attempt import WebhookAttempt
from .webhook_create import WebhookCreate
from .webhook_create_event_types_item import WebhookCreateEventTypesItem
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_detail import WebhookDeliveryDetail
from .webhook_delivery_detail_event_type import WebhookDeliveryDetailEventType
from .webhook_delivery_detail_status import WebhookDeliveryDetailStatus
from .webhook_delivery_event_type import WebhookDeliveryEventType
from .webhook_delivery_list import WebhookDeliveryList
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_event_types_item import WebhookEventTypesItem
from .webhook_list import WebhookList
from .webhook_replay import WebhookReplay
from .webhook_status import WebhookStatus
from .webhook_test_event import WebhookTestEvent
from .webhook_test_event_event_type import WebhookTestEventEventType
from .webhook_update import WebhookUpdate
from .webhook_update_event_types_item import WebhookUpdateEventTypesItem
from .webhook_update_status import WebhookUpdateStatus
from .webhook_with_secret import WebhookWithSecret
from .webhook_with_secret_event_types_item import WebhookWithSecretEventTypesItem
from .webhook_with_secret_status import WebhookWithSecretStatus
from .whitelist_settings import WhitelistSettings
from .whitelist_settings_update import WhitelistSettingsUpdate
from .whitelisted_wallet import WhitelistedWallet
from .whitelisted_wallet_create import WhitelistedWalletCreate
from .whitelisted_wallet_page import WhitelistedWalletPage
from .workspace import Workspace
from .workspace_balances import WorkspaceBalances
from .workspace_create import WorkspaceCreate
from .workspace_create_network_type import WorkspaceCreateNetworkType
from .workspace_list import WorkspaceList
from .workspace_network_type import WorkspaceNetworkType
from .workspace_user import WorkspaceUser
from .workspace_user_role import WorkspaceUserRole
from .workspace_user_status import WorkspaceUserStatus
from .workspace_user_user_type import WorkspaceUserUserType
from .workspace_with_role import WorkspaceWithRole
from .workspace_with_role_network_type import WorkspaceWithRoleNetworkType
from .workspace_with_role_role import WorkspaceWithRoleRole

__all__ = (
    "AccessToken",
    "ActiveToken",
    "ActiveTokenSubjectType",
    "Address",
    "AddressType",
    "AllTags",
    "AllTagsOrderBy",
    "AllTagsOrderDir",
    "ApiUserCreate",
    "ApiUserCreateRole",
    "Asset",
    "AssetList",
    "Backup",
    "BackupGroupSignature",
    "BackupGroupSignatureSchema",
    "BackupStart",
    "BackupStatus",
    "BackupVerification",
    "BalanceAmounts",
    "Balances",
    "BalanceSnapshot",
    "ChangesPage",
    "Check",
    "CommitmentSubmission",
    "Company",
    "CompanyApplication",
    "CompanyApplicationStatus",
    "CompanyApplicationSubmit",
    "CompanyCreate",
    "CompanyList",
    "ConvertedBalance",
    "ConvertedBalances",
    "CosignerPart",
    "CosignerPartRegistration",
    "CosignerPartStatus",
    "CosignerPartSummary",
    "CosignerPartSummaryStatus",
    "Currency",
    "CurrencyBalance",
    "CurrencyNetworkType",
    "CurrentWorkspace",
    "CurrentWorkspaceNetworkType",
    "CurrentWorkspacePermissionsItem",
    "CurrentWorkspaceRole",
    "Device",
    "DeviceConfirm",
    "DeviceRegister",
    "DeviceStatus",
    "DkgComplaint",
    "ErrorCode",
    "ErrorEnvelope",
    "ErrorEnvelopeDetails",
    "Health",
    "HealthStatus",
    "InactiveToken",
    "Invitation",
    "InvitationAccept",
    "InvitationAccepted",
    "InvitationAcceptedRole",
    "InvitationAnswer",
    "InvitationPage",
    "InvitationRole",
    "InvitationStatus",
    "KeyGeneration",
    "KeyGenerationAction",
    "KeyGenerationFailure",
    "KeyGenerationFailureStatus",
    "KeyGenerationList",
    "KeyGenerationParticipant",
    "KeyGenerationStatus",
    "KeySetRequest",
    "KeySetRequestScheme",
    "KeySetSummary",
    "KeySetSummaryStatus",
    "ListAccountsTagMatchMode",
    "ListDeliveriesEventType",
    "ListDeliveriesStatus",
    "ListInvitationsStatus",
    "ListTagsOrderBy",
    "ListTagsOrderDir",
    "ListTransactionsDirection",
    "ListTransactionsStatusItem",
    "ListVaultsTagMatchMode",
    "OwnershipTransfer",
    "OwnershipTransferStart",
    "OwnershipTransferStatus",
    "PairingInitiate",
    "PairingInvitation",
    "Readiness",
    "ReadinessStatus",
    "RejectedTagOperation",
    "RejectedTagOperationOperation",
    "RejectedTagOperationReason",
    "ReplayRequest",
    "RoleChange",
    "RoleChangeRole",
    "Round1Broadcast",
    "Round1Package",
    "Round1PackageSender",
    "Round1PackageView",
    "Round1Submission",
    "Round2Delivery",
    "Round2Package",
    "Round2PackageRecipient",
    "Round2Submission",
    "ServerTime",
    "ShareSubmission",
    "SigningCommitmentView",
    "SigningPolicy",
    "SigningPolicyUpdate",
    "SigningRequest",
    "SigningRequestAction",
    "SigningRequestList",
    "SigningRequestStatus",
    "SymbolBalance",
    "SymbolTotal",
    "Tag",
    "TagCreate",
    "TagList",
    "TagListItem",
    "TagOperation",
    "TagOperationOperation",
    "TagOperations",
    "TagUpdate",
    "TagVault",
    "TokenAccess",
    "TokenAccessPermissionsItem",
    "TokenAccessRole",
    "TokenRequest",
    "Transaction",
    "TransactionCreate",
    "TransactionDestinationType",
    "TransactionPage",
    "TransactionSide",
    "TransactionStatus",
    "TransactionType",
    "UserAdd",
    "UserAddRole",
    "UserList",
    "Vault",
    "VaultCreate",
    "VaultList",
    "VaultRename",
    "VaultTagsChange",
    "VerificationGroup",
    "VerificationGroups",
    "VerificationGroupSchema",
    "WalletBalance",
    "WalletCreate",
    "WalletCreated",
    "Webhook",
    "WebhookAttempt",
    "WebhookCreate",
    "WebhookCreateEventTypesItem",
    "WebhookDelivery",
    "WebhookDeliveryDetail",
    "WebhookDeliveryDetailEventType",
    "WebhookDeliveryDetailStatus",
    "WebhookDeliveryEventType",
    "WebhookDeliveryList",
    "WebhookDeliveryStatus",
    "WebhookEventTypesItem",
    "WebhookList",
    "WebhookReplay",
    "WebhookStatus",
    "WebhookTestEvent",
    "WebhookTestEventEventType",
    "WebhookUpdate",
    "WebhookUpdateEventTypesItem",
    "WebhookUpdateStatus",
    "WebhookWithSecret",
    "WebhookWithSecretEventTypesItem",
    "WebhookWithSecretStatus",
    "WhitelistedWallet",
    "WhitelistedWalletCreate",
    "WhitelistedWalletPage",
    "WhitelistSettings",
    "WhitelistSettingsUpdate",
    "Workspace",
    "WorkspaceBalances",
    "WorkspaceCreate",
    "WorkspaceCreateNetworkType",
    "WorkspaceList",
    "WorkspaceNetworkType",
    "WorkspaceUser",
    "WorkspaceUserRole",
    "WorkspaceUserStatus",
    "WorkspaceUserUserType",
    "WorkspaceWithRole",
    "WorkspaceWithRoleNetworkType",
    "WorkspaceWithRoleRole",
)
