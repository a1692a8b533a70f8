"""AML screening (docs/aml.md): providers, the workspace's screener settings, screening records,
the decision from risk to action, and the hook of the AML policy.

- :mod:`~domain.aml.providers`: the provider interface (register a transfer, its result, later
  updates), the registry, the built-in rule-based screener;
- :mod:`~domain.aml.settings`: the workspace's configuration (lists, categories, thresholds);
- :mod:`~domain.aml.decisions`: :class:`AmlFacts` → :class:`AmlDecision`, the policy evaluator hook
  :func:`register_policy_evaluator` and the built-in default;
- :mod:`~domain.aml.screening`: records, the withdrawal check ``aml``, deposits, release, updates.

This ``__init__`` imports only the decisions module (the cross-helper contract), so the policy
engine can ``from domain.aml import register_policy_evaluator, AmlFacts, AmlDecision`` without
pulling in the withdrawal pipeline.
"""

from domain.aml.decisions import AmlDecision, AmlFacts, register_policy_evaluator

__all__ = ["AmlDecision", "AmlFacts", "register_policy_evaluator"]
