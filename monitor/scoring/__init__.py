"""Pure scorers, one metric family per module. No I/O, no asyncio."""
