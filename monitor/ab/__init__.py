"""A/B statistics on mergeable aggregates (never on raw lists); pure.

DESIGN section 8. Everything reads :class:`~monitor.ab.summary.Summary` values (count,
mean, sample variance: a merged :class:`~monitor.windows.aggregate.Aggregate` is one):

- :mod:`~monitor.ab.summary`: the ``Summary`` protocol, ``Moments``, ``EMPTY``;
- :mod:`~monitor.ab.distributions`: normal, Student t and chi-square (``scipy.special``);
- :mod:`~monitor.ab.welch`: Welch's t-test, interval and Cohen's d (``welch``);
- :mod:`~monitor.ab.proportions`: two-proportion z-test, Newcombe/Wilson intervals,
  Cohen's h (``two_proportions``);
- :mod:`~monitor.ab.msprt`: the mixture SPRT, an always-valid p-value and confidence
  sequence (``SequentialTest``);
- :mod:`~monitor.ab.homogeneity`: has the effect changed across windows
  (``HomogeneityTest``);
- :mod:`~monitor.ab.guardrail`: the one-sided always-valid test "treatment worse beyond a
  margin" (``GuardrailTest``);
- :mod:`~monitor.ab.srm`: the sample-ratio-mismatch check (``sample_ratio_mismatch``);
- :mod:`~monitor.ab.verdict`: a comparison's verdict from the confidence sequence;
- :mod:`~monitor.ab.since`: the analysis of an experiment from a point in time onward;
- :mod:`~monitor.ab.numbers`, :mod:`~monitor.ab.table`: the text of ``ragmon ab``;
- :mod:`~monitor.ab.analysis`: ``analyse``, one experiment's ``AbResult`` per window.

>>> from monitor.ab.analysis import AB_METRICS
>>> AB_METRICS["quality.overall"], AB_METRICS["safety.leakage.detected"]
('mean', 'proportion')
"""
