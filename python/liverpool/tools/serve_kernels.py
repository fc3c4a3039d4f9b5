"""A kernel manager with a cap on running kernels, for ``liverpool serve``.

Every Voila page load starts a kernel (about 60 MB), and Jupyter Server has no limit on
their number; idle ones are culled by its own settings (``cull_idle_timeout``), but only
after the timeout. This manager keeps at most ``max_kernels``: before starting one more
it shuts down the least recently active kernel that no page is connected to, and when
every kernel has a page connected it refuses the new page (HTTP 503) instead of growing.

Used by the Voila server (``VoilaConfiguration.multi_kernel_manager_class``) and by
JupyterLab (``ServerApp.kernel_manager_class``); imported only by those servers.
"""

from __future__ import annotations

import asyncio
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

#: Kernels kept at most by default: a learner has the six notebooks and the welcome page open.
DEFAULT_MAX_KERNELS = 8


class BoundedKernelManager(AsyncMappingKernelManager):
    """``AsyncMappingKernelManager`` that never runs more than ``max_kernels`` kernels."""

    max_kernels = Integer(
        DEFAULT_MAX_KERNELS,
        config=True,
        help="Most kernels running at once; an older kernel with no page connected makes room, "
        "else the new page is refused (503).",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        # One start at a time: counting and starting must not interleave, or two page
        # loads could both see room for one more.
        self._starting = asyncio.Lock()

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        kernel_id = kwargs.get("kernel_id")
        if kernel_id is not None and kernel_id in self:  # an existing kernel (a restart, a reconnect)
            started: str = await super().start_kernel(*args, **kwargs)
            return started
        async with self._starting:
            await self._make_room()
            new: str = await super().start_kernel(*args, **kwargs)
            return new

    async def _make_room(self) -> None:
        while len(self.list_kernel_ids()) >= self.max_kernels:
            unwatched = [k for k in self.list_kernel_ids() if self._kernel_connections.get(k, 0) == 0]
            if not unwatched:
                raise web.HTTPError(
                    503,
                    f"{self.max_kernels} pages are open, each with its running notebook: close one and reload",
                )
            # `last_activity` is set by Jupyter Server on every kernel it starts.
            oldest = min(unwatched, key=lambda k: getattr(self.get_kernel(k), "last_activity"))
            self.log.info("Kernel cap %d reached: shutting down %s (no page connected)", self.max_kernels, oldest)
            await self.shutdown_kernel(oldest)  # type: ignore[no-untyped-call]
