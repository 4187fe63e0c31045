"""``ragmon backtest``: recorded events through the worker's path, no broker.

:mod:`monitor.backtest.engine` is the pure engine; :mod:`monitor.backtest.command` reads
the file and writes the notifications and the summary."""
