"""The Voila server ``liverpool serve`` runs: ``python -m liverpool.tools.serve_voila [voila options]``.

Standalone Voila answers requests with any ``Host`` header (it sets
``allow_remote_access=True``), so a page on another site could reach it by DNS
rebinding. This subclass answers only the names the server is really reached by on this
machine, ``127.0.0.1:PORT`` and ``localhost:PORT`` — every other Host gets 403, before any
handler (pages, static files, the kernel websocket) runs — and keeps Jupyter Server's own
checks on (``allow_remote_access=False``, XSRF, websocket Origin). ``/`` opens the welcome
page (``--welcome PATH``) instead of the file list.
"""

from __future__ import annotations

import sys
from typing import Any

from tornado import httputil, web
from tornado.routing import Matcher, Rule
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from liverpool.tools.serve import host_is_local


class ForeignHost(Matcher):
    """Matches a request whose Host header is not this server's local name."""

    def __init__(self, port: int) -> None:
        self.port = port

    def match(self, request: httputil.HTTPServerRequest) -> dict[str, Any] | None:
        return None if host_is_local(request.host, self.port) else {}


class RefuseForeignHost(web.RequestHandler):
    """403 for every method: the request named another host (DNS rebinding)."""

    def prepare(self) -> None:
        raise web.HTTPError(403, "only 127.0.0.1 and localhost are served")

    def check_xsrf_cookie(self) -> None:  # refused above, before any XSRF question
        pass


class WelcomeRedirect(web.RequestHandler):
    def initialize(self, target: str) -> None:
        self.target = target

    def get(self) -> None:
        self.redirect(self.target)


class PageWithXsrfCookie(TornadoVoilaHandler):  # type: ignore[misc]
    """Voila's notebook page, setting the ``_xsrf`` cookie as Jupyter's own pages do: the
    page's "shut my kernel down" beacon on closing sends it, and with XSRF checks on the
    beacon is refused without it (the kernel would then wait for culling)."""

    async def prepare(self) -> None:
        await super().prepare()
        self.xsrf_token  # noqa: B018 - reading it sets the cookie


class LocalVoila(Voila):  # type: ignore[misc]
    """Voila answering only this machine's host names, with Jupyter Server's checks on."""

    welcome = ""  # set from --welcome before the application starts

    def init_settings(self) -> dict[str, Any]:
        settings: dict[str, Any] = super().init_settings()
        settings["allow_remote_access"] = False  # Jupyter Server's own Host check, as a second line
        settings["local_hostnames"] = ["localhost"]
        settings.pop("disable_check_xsrf", None)
        return settings

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = super().init_handlers()
        handlers = [
            (entry[0], PageWithXsrfCookie, *entry[2:]) if len(entry) > 1 and entry[1] is TornadoVoilaHandler else entry
            for entry in handlers
        ]
        if self.welcome:
            handlers.insert(0, (r"/", WelcomeRedirect, {"target": self.base_url.rstrip("/") + "/" + self.welcome}))
        return handlers

    def listen(self) -> None:
        # First rule of the router: a foreign Host is refused whatever the path.
        self.app.default_router.rules.insert(0, Rule(ForeignHost(self.port), RefuseForeignHost))
        self.app.settings.pop("disable_check_xsrf", None)  # tornado_settings may not turn XSRF off
        super().listen()


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    welcome = ""
    if "--welcome" in args:
        at = args.index("--welcome")
        welcome = args[at + 1]
        del args[at : at + 2]
    LocalVoila.welcome = welcome
    LocalVoila.launch_instance(argv=args)


if __name__ == "__main__":
    main()
