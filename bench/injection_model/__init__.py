"""The learned injection model: its development set, training and evaluation (issue 17)."""
