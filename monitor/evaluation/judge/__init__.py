"""The optional LLM judge of ``ragmon eval --judge``.

One module per thing:

* :mod:`~monitor.evaluation.judge.client`: :class:`JudgeClient`, an OpenAI-compatible
  chat-completions client on httpx (OpenAI, vLLM, Ollama, llama.cpp servers) with
  temperature 0, JSON output validated by pydantic, retries, a rate limit and usage;
* :mod:`~monitor.evaluation.judge.rubrics`: the two rubrics (faithfulness and completeness
  1-5; groundedness and correctness 0-5), each with its ``prompt_version``;
* :mod:`~monitor.evaluation.judge.case` and :mod:`~monitor.evaluation.judge.verdict`: what
  is judged, and the record of a judgement (model, prompt version, the full judge input);
* :mod:`~monitor.evaluation.judge.progress`: the append-only progress file that makes a
  re-run after a crash skip what is done;
* :mod:`~monitor.evaluation.judge.runner`, :mod:`~monitor.evaluation.judge.spot_check`
  and :mod:`~monitor.evaluation.judge.aggregate`: judge a set, re-judge a seeded sample
  with a second judge, and reduce verdicts to metrics.

Nothing happens at import: modules only define things.
"""
