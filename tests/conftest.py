"""Shared test settings: hypothesis profiles.

``dev`` (the default) is quick for local runs; ``ci`` is what ``make test`` (and so
``.ci/run``) uses; ``long`` is the exhaustive budget of ``make test-long``, run before a
release (docs/testing.md). Pick one with ``HYPOTHESIS_PROFILE=dev|ci|long``; when only
``CI`` is set, ``ci`` is used.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# The reference search is slow by design, and planted hands are built from many
# draws: neither is a sign of a bad strategy, so those two health checks are off.
_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile("dev", max_examples=50, deadline=None, suppress_health_check=_SLOW_OK)
# `ci` was 100 until issue 19: the differential tests against the slow pure-Python
# reference and the state machine made up about half of pytest's time at that size. The
# exhaustive budget is `long` (make test-long); `ci` checks the same properties on fewer
# inputs per run.
settings.register_profile("ci", max_examples=50, deadline=None, suppress_health_check=_SLOW_OK)
settings.register_profile("long", max_examples=1000, deadline=None, suppress_health_check=_SLOW_OK)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))
