"""The scheduler process: periodic jobs that only enqueue work, run by one elected leader."""
