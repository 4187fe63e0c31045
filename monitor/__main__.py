"""``python -m monitor`` is ``ragmon``."""

from monitor.cli import main

raise SystemExit(main())
