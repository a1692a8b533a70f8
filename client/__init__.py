"""Client-side reference code for integrators (no dependency on the service's packages)."""
