"""The metrics of an offline evaluation (pure): the metric catalogue and 003's targets
(:mod:`.catalogue`), one case's metrics (:mod:`.case_metrics`), ROC summaries
(:mod:`.roc`) and the run's aggregates and breakdowns (:mod:`.summary`).
"""
