"""The ``ragmon demo`` pieces: traffic generator and live table."""
