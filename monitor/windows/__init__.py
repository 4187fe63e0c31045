"""Event-time windows and mergeable aggregates: pure functions on integer milliseconds."""
