"""Alerts: pure rules (:mod:`monitor.alerts.rules`) and delivery to on-call endpoints."""
