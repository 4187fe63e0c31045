"""The offline evaluation runner of ``ragmon eval`` (the I/O shell around the pure
metrics): :mod:`.evaluate` runs one evaluation, :mod:`.suite` picks the cases of a
suite, :mod:`.judge_stage` runs the optional LLM judge, :mod:`.command` is the command
(files, gate, exit code).
"""
