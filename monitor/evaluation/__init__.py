"""Offline evaluation (``ragmon eval``): score a test set of RAG answers."""
