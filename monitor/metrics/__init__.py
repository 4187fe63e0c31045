"""Prometheus metrics of the worker (DESIGN section 9); the registry is always passed in."""
