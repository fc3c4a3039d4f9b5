"""Progress bars for long runs, drawn by tqdm: a text bar on standard error in a
terminal, tqdm's widget in a notebook (``tqdm.auto``). Never on standard output, so
piped output and JSON stay clean.

>>> import io
>>> out = io.StringIO()
>>> bar = ProgressBar(total=4, label="games", file=out, enabled=True)
>>> bar(2, 4)
>>> bar(4, 4)
>>> bar.close()
>>> "4/4" in out.getvalue() and "100%" in out.getvalue()
True
"""

from __future__ import annotations

import sys
from typing import TextIO


class ProgressBar:
    """A ``progress(done, total)`` callback (see :func:`liverpool.simulate`) drawing a tqdm bar.

    ``enabled=None`` draws only when ``file`` is a terminal (or in a notebook, where
    tqdm shows its widget); ``bar.close()`` finishes the bar.
    """

    def __init__(self, total: int, label: str = "", file: TextIO | None = None, enabled: bool | None = None) -> None:
        import tqdm
        import tqdm.auto

        # tqdm.auto draws a widget in a notebook; elsewhere plain tqdm writes text.
        bar_class = tqdm.auto.tqdm if file is None and enabled is not False and _in_notebook() else tqdm.tqdm
        stream = file if file is not None else sys.stderr
        disable = None if enabled is None else not enabled  # None: tqdm draws only on a terminal
        self._bar = bar_class(total=max(total, 0), unit=label.rstrip("s") or "it", desc=label or None, file=stream, disable=disable)

    def __call__(self, done: int, total: int | None = None) -> None:
        if total is not None and total != self._bar.total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        """Finish the bar (a no-op when it is disabled)."""
        self._bar.close()


def _in_notebook() -> bool:
    """Whether we run inside a Jupyter kernel (tqdm then draws a widget)."""
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    ipython = getattr(shell, "get_ipython", lambda: None)()
    return ipython is not None and type(ipython).__name__ == "ZMQInteractiveShell"
