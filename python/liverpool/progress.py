"""A small progress bar on standard error, with no dependency.

It draws only on a terminal (or when forced), rewriting one line with ``\\r``, and
never writes to standard output, so piped output and JSON stay clean.

>>> import io
>>> out = io.StringIO()
>>> bar = ProgressBar(total=4, label="games", file=out, enabled=True, width=8)
>>> bar(2, 4)
>>> bar.close()
>>> out.getvalue().split("\\r")[-1].split()[:3]
['[########]', '100%', '4/4']
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``bar(done, total)`` redraws; ``bar.close()`` finishes the line.

    ``enabled=None`` draws only when ``file`` is a terminal.
    """

    def __init__(
        self,
        total: int,
        label: str = "",
        file: TextIO | None = None,
        enabled: bool | None = None,
        width: int = 30,
    ) -> None:
        self.file = file if file is not None else sys.stderr
        self.enabled = self.file.isatty() if enabled is None else enabled
        self.total = max(total, 0)
        self.label = label
        self.width = width
        self.done = 0
        self.started = time.perf_counter()
        self._drawn = False

    def __call__(self, done: int, total: int | None = None) -> None:
        self.done = done
        if total is not None:
            self.total = total
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        fraction = 1.0 if self.total == 0 else min(self.done / self.total, 1.0)
        filled = round(fraction * self.width)
        elapsed = time.perf_counter() - self.started
        rate = f" {self.done / elapsed:,.0f}/s" if elapsed > 0 and self.done else ""
        bar = "#" * filled + "-" * (self.width - filled)
        self.file.write(f"\r[{bar}] {fraction:4.0%} {self.done}/{self.total} {self.label}{rate}")
        self.file.flush()
        self._drawn = True

    def close(self) -> None:
        """Draw the final state and end the line (only if anything was drawn)."""
        if self.enabled:
            self.done = self.total
            self._draw()
        if self._drawn:
            self.file.write("\n")
            self.file.flush()
