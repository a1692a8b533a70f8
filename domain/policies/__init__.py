"""Policies: the Transfer and AML policies, their windows, explain (docs/policies.md).

- :mod:`~domain.policies.rules`: the rule schema of both types (pure parsing and validation);
- :mod:`~domain.policies.engine`: evaluation in order, the first match decides, with reasons;
- :mod:`~domain.policies.windows`: rolling windows, exact under concurrency, released and taken again;
- :mod:`~domain.policies.service`: publish, rollback, history, explain, the ``policy`` check,
  :func:`evaluate_aml_policy` and the group resolver hook.

Importing the package installs the ``policy`` check of the withdrawal check stage, the tag
reference provider (TAG_IS_USED_IN_POLICY_RULE) and the withdrawal transition listener that
releases windows; transaction approvals install theirs in domain.transaction_approvals.
"""

from domain.policies.service import (
    AmlPolicyVerdict,
    evaluate_aml_policy,
    install,
    publish_policy,
    rollback_policy,
    validate_policy,
)

install()

__all__ = ["AmlPolicyVerdict", "evaluate_aml_policy", "publish_policy",
           "rollback_policy", "validate_policy"]
