"""Contains all the data models used in inputs/outputs"""

from .access_token import AccessToken
from .active_token import ActiveToken
from .active_token_subject_type import ActiveTokenSubjectType
from .address import Address
from .address_exposure import AddressExposure
from .address_type import AddressType
from .all_tags import AllTags
from .all_tags_order_by import AllTagsOrderBy
from .all_tags_order_dir import AllTagsOrderDir
from .aml_screening import AmlScreening
from .aml_screening_direction import AmlScreeningDirection
from .aml_screening_page import AmlScreeningPage
from .aml_screening_post_screening_action import AmlScreeningPostScreeningAction
from .aml_screening_pre_screening_action import AmlScreeningPreScreeningAction
from .aml_screening_risk_level import AmlScreeningRiskLevel
from .aml_screening_status import AmlScreeningStatus
from .aml_screening_update import AmlScreeningUpdate
from .aml_screening_update_risk_level import AmlScreeningUpdateRiskLevel
from .aml_settings import AmlSettings
from .aml_settings_address_exposures_item import AmlSettingsAddressExposuresItem
from .aml_settings_blocked_addresses_item import AmlSettingsBlockedAddressesItem
from .aml_settings_categories_item import AmlSettingsCategoriesItem
from .aml_settings_thresholds import AmlSettingsThresholds
from .aml_settings_trusted_addresses_item import AmlSettingsTrustedAddressesItem
from .aml_settings_update import AmlSettingsUpdate
from .api_user_create import ApiUserCreate
from .api_user_create_role import ApiUserCreateRole
from .approval_requirement import ApprovalRequirement
from .approval_vote import ApprovalVote
from .approver_set import ApproverSet
from .asset import Asset
from .asset_configuration import AssetConfiguration
from .asset_configuration_update import AssetConfigurationUpdate
from .asset_list import AssetList
from .audit_chain_state import AuditChainState
from .audit_entry_page import AuditEntryPage
from .audit_log_entry import AuditLogEntry
from .audit_log_entry_details import AuditLogEntryDetails
from .audit_signed_head import AuditSignedHead
from .audit_signing_key_resource import AuditSigningKeyResource
from .audit_signing_keys import AuditSigningKeys
from .autofuel import Autofuel
from .backup import Backup
from .backup_group_signature import BackupGroupSignature
from .backup_group_signature_schema import BackupGroupSignatureSchema
from .backup_start import BackupStart
from .backup_status import BackupStatus
from .backup_verification import BackupVerification
from .balance_amounts import BalanceAmounts
from .balance_snapshot import BalanceSnapshot
from .balances import Balances
from .blocked_address import BlockedAddress
from .change_approval_card import ChangeApprovalCard
from .change_approval_list import ChangeApprovalList
from .change_approval_list_item import ChangeApprovalListItem
from .change_approval_list_item_status import ChangeApprovalListItemStatus
from .change_approval_request import ChangeApprovalRequest
from .change_approval_request_display import ChangeApprovalRequestDisplay
from .change_approval_request_mode import ChangeApprovalRequestMode
from .change_approval_request_payload import ChangeApprovalRequestPayload
from .change_approval_request_status import ChangeApprovalRequestStatus
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
from .cosigner_designation import CosignerDesignation
from .cosigner_designation_update import CosignerDesignationUpdate
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
from .device_list import DeviceList
from .device_register import DeviceRegister
from .device_status import DeviceStatus
from .dkg_complaint import DkgComplaint
from .error_code import ErrorCode
from .error_envelope import ErrorEnvelope
from .error_envelope_details import ErrorEnvelopeDetails
from .explain import Explain
from .explain_approval import ExplainApproval
from .explain_request import ExplainRequest
from .explain_request_no_match_action import ExplainRequestNoMatchAction
from .explain_request_rules_type_0_item import ExplainRequestRulesType0Item
from .exposure import Exposure
from .gas_station import GasStation
from .gas_station_state import GasStationState
from .gated_action import GatedAction
from .gated_action_list import GatedActionList
from .group import Group
from .group_create import GroupCreate
from .group_list import GroupList
from .group_members_change import GroupMembersChange
from .group_update import GroupUpdate
from .health import Health
from .health_status import HealthStatus
from .hypothetical_withdrawal import HypotheticalWithdrawal
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
from .list_all_change_approvals_scope import ListAllChangeApprovalsScope
from .list_aml_screenings_direction import ListAmlScreeningsDirection
from .list_aml_screenings_risk_level import ListAmlScreeningsRiskLevel
from .list_aml_screenings_status import ListAmlScreeningsStatus
from .list_change_approvals_scope import ListChangeApprovalsScope
from .list_deliveries_event_type import ListDeliveriesEventType
from .list_deliveries_status import ListDeliveriesStatus
from .list_devices_status import ListDevicesStatus
from .list_invitations_status import ListInvitationsStatus
from .list_tags_order_by import ListTagsOrderBy
from .list_tags_order_dir import ListTagsOrderDir
from .list_transaction_approvals_scope import ListTransactionApprovalsScope
from .list_transactions_direction import ListTransactionsDirection
from .list_transactions_status_item import ListTransactionsStatusItem
from .list_vaults_tag_match_mode import ListVaultsTagMatchMode
from .matched_risk import MatchedRisk
from .owner_enrollment_cancel import OwnerEnrollmentCancel
from .owner_enrollment_cancelled import OwnerEnrollmentCancelled
from .ownership_transfer import OwnershipTransfer
from .ownership_transfer_start import OwnershipTransferStart
from .ownership_transfer_status import OwnershipTransferStatus
from .pairing_initiate import PairingInitiate
from .pairing_invitation import PairingInvitation
from .pairing_invitation_kind import PairingInvitationKind
from .participant import Participant
from .policy_list import PolicyList
from .policy_publish import PolicyPublish
from .policy_publish_no_match_action import PolicyPublishNoMatchAction
from .policy_publish_rules_item import PolicyPublishRulesItem
from .policy_rollback import PolicyRollback
from .policy_state import PolicyState
from .policy_version import PolicyVersion
from .policy_version_page import PolicyVersionPage
from .policy_version_rules_item import PolicyVersionRulesItem
from .presignature_registered import PresignatureRegistered
from .presignature_registration import PresignatureRegistration
from .presignature_run import PresignatureRun
from .presignature_run_request import PresignatureRunRequest
from .presignature_run_request_signer import PresignatureRunRequestSigner
from .quorum_action import QuorumAction
from .quorum_action_fixed_mode import QuorumActionFixedMode
from .quorum_action_list import QuorumActionList
from .quorum_action_update import QuorumActionUpdate
from .quorum_action_update_mode import QuorumActionUpdateMode
from .quorum_group import QuorumGroup
from .quorum_rule import QuorumRule
from .quorum_rule_answer import QuorumRuleAnswer
from .quorum_rule_fixed_mode import QuorumRuleFixedMode
from .quorum_rule_mode import QuorumRuleMode
from .quorum_settings import QuorumSettings
from .readiness import Readiness
from .readiness_status import ReadinessStatus
from .receive_run_messages_phase import ReceiveRunMessagesPhase
from .rejected_tag_operation import RejectedTagOperation
from .rejected_tag_operation_operation import RejectedTagOperationOperation
from .rejected_tag_operation_reason import RejectedTagOperationReason
from .release_request import ReleaseRequest
from .replay_request import ReplayRequest
from .risk_category import RiskCategory
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
from .rule_verdict import RuleVerdict
from .rule_verdict_conditions_item import RuleVerdictConditionsItem
from .rule_verdict_window import RuleVerdictWindow
from .run_message_submission import RunMessageSubmission
from .run_message_submission_phase import RunMessageSubmissionPhase
from .run_messages import RunMessages
from .server_time import ServerTime
from .set_approver import SetApprover
from .settings_set import SettingsSet
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
from .threshold_answer import ThresholdAnswer
from .threshold_update import ThresholdUpdate
from .thresholds import Thresholds
from .token_access import TokenAccess
from .token_access_permissions_item import TokenAccessPermissionsItem
from .token_access_role import TokenAccessRole
from .token_request import TokenRequest
from .transaction import Transaction
from .transaction_approval import TransactionApproval
from .transaction_approval_page import TransactionApprovalPage
from .transaction_create import TransactionCreate
from .transaction_destination_type import TransactionDestinationType
from .transaction_page import TransactionPage
from .transaction_side import TransactionSide
from .transaction_status import TransactionStatus
from .transaction_type import TransactionType
from .trusted_address import TrustedAddress
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
from .vote_body import VoteBody
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
    "AddressExposure",
    "AddressType",
    "AllTags",
    "AllTagsOrderBy",
    "AllTagsOrderDir",
    "AmlScreening",
    "AmlScreeningDirection",
    "AmlScreeningPage",
    "AmlScreeningPostScreeningAction",
    "AmlScreeningPreScreeningAction",
    "AmlScreeningRiskLevel",
    "AmlScreeningStatus",
    "AmlScreeningUpdate",
    "AmlScreeningUpdateRiskLevel",
    "AmlSettings",
    "AmlSettingsAddressExposuresItem",
    "AmlSettingsBlockedAddressesItem",
    "AmlSettingsCategoriesItem",
    "AmlSettingsThresholds",
    "AmlSettingsTrustedAddressesItem",
    "AmlSettingsUpdate",
    "ApiUserCreate",
    "ApiUserCreateRole",
    "ApprovalRequirement",
    "ApprovalVote",
    "ApproverSet",
    "Asset",
    "AssetConfiguration",
    "AssetConfigurationUpdate",
    "AssetList",
    "AuditChainState",
    "AuditEntryPage",
    "AuditLogEntry",
    "AuditLogEntryDetails",
    "AuditSignedHead",
    "AuditSigningKeyResource",
    "AuditSigningKeys",
    "Autofuel",
    "Backup",
    "BackupGroupSignature",
    "BackupGroupSignatureSchema",
    "BackupStart",
    "BackupStatus",
    "BackupVerification",
    "BalanceAmounts",
    "Balances",
    "BalanceSnapshot",
    "BlockedAddress",
    "ChangeApprovalCard",
    "ChangeApprovalList",
    "ChangeApprovalListItem",
    "ChangeApprovalListItemStatus",
    "ChangeApprovalRequest",
    "ChangeApprovalRequestDisplay",
    "ChangeApprovalRequestMode",
    "ChangeApprovalRequestPayload",
    "ChangeApprovalRequestStatus",
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
    "CosignerDesignation",
    "CosignerDesignationUpdate",
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
    "DeviceList",
    "DeviceRegister",
    "DeviceStatus",
    "DkgComplaint",
    "ErrorCode",
    "ErrorEnvelope",
    "ErrorEnvelopeDetails",
    "Explain",
    "ExplainApproval",
    "ExplainRequest",
    "ExplainRequestNoMatchAction",
    "ExplainRequestRulesType0Item",
    "Exposure",
    "GasStation",
    "GasStationState",
    "GatedAction",
    "GatedActionList",
    "Group",
    "GroupCreate",
    "GroupList",
    "GroupMembersChange",
    "GroupUpdate",
    "Health",
    "HealthStatus",
    "HypotheticalWithdrawal",
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
    "ListAllChangeApprovalsScope",
    "ListAmlScreeningsDirection",
    "ListAmlScreeningsRiskLevel",
    "ListAmlScreeningsStatus",
    "ListChangeApprovalsScope",
    "ListDeliveriesEventType",
    "ListDeliveriesStatus",
    "ListDevicesStatus",
    "ListInvitationsStatus",
    "ListTagsOrderBy",
    "ListTagsOrderDir",
    "ListTransactionApprovalsScope",
    "ListTransactionsDirection",
    "ListTransactionsStatusItem",
    "ListVaultsTagMatchMode",
    "MatchedRisk",
    "OwnerEnrollmentCancel",
    "OwnerEnrollmentCancelled",
    "OwnershipTransfer",
    "OwnershipTransferStart",
    "OwnershipTransferStatus",
    "PairingInitiate",
    "PairingInvitation",
    "PairingInvitationKind",
    "Participant",
    "PolicyList",
    "PolicyPublish",
    "PolicyPublishNoMatchAction",
    "PolicyPublishRulesItem",
    "PolicyRollback",
    "PolicyState",
    "PolicyVersion",
    "PolicyVersionPage",
    "PolicyVersionRulesItem",
    "PresignatureRegistered",
    "PresignatureRegistration",
    "PresignatureRun",
    "PresignatureRunRequest",
    "PresignatureRunRequestSigner",
    "QuorumAction",
    "QuorumActionFixedMode",
    "QuorumActionList",
    "QuorumActionUpdate",
    "QuorumActionUpdateMode",
    "QuorumGroup",
    "QuorumRule",
    "QuorumRuleAnswer",
    "QuorumRuleFixedMode",
    "QuorumRuleMode",
    "QuorumSettings",
    "Readiness",
    "ReadinessStatus",
    "ReceiveRunMessagesPhase",
    "RejectedTagOperation",
    "RejectedTagOperationOperation",
    "RejectedTagOperationReason",
    "ReleaseRequest",
    "ReplayRequest",
    "RiskCategory",
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
    "RuleVerdict",
    "RuleVerdictConditionsItem",
    "RuleVerdictWindow",
    "RunMessages",
    "RunMessageSubmission",
    "RunMessageSubmissionPhase",
    "ServerTime",
    "SetApprover",
    "SettingsSet",
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
    "ThresholdAnswer",
    "Thresholds",
    "ThresholdUpdate",
    "TokenAccess",
    "TokenAccessPermissionsItem",
    "TokenAccessRole",
    "TokenRequest",
    "Transaction",
    "TransactionApproval",
    "TransactionApprovalPage",
    "TransactionCreate",
    "TransactionDestinationType",
    "TransactionPage",
    "TransactionSide",
    "TransactionStatus",
    "TransactionType",
    "TrustedAddress",
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
    "VoteBody",
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
