"""``liverpool serve``: the teaching notebooks as web pages on this machine.

By default Voila shows each notebook as an app (code hidden, widgets live); ``--lab``
opens the same folder in JupyterLab instead, to read and change the code. Either way
the server listens on 127.0.0.1 only, and the command prints the address to open.
Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from liverpool.i18n import LANGUAGES

HOST = "127.0.0.1"
DEFAULT_PORT = 8866
READY_TIMEOUT_SECONDS = 120.0


def default_notebooks_dir() -> Path:
    """``./notebooks`` if there is one, else the ``notebooks/`` of the source checkout."""
    here = Path.cwd() / "notebooks"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "notebooks"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--lab", action="store_true", help="JupyterLab (code visible and editable) instead of Voila")
    parser.add_argument("--notebooks", type=Path, default=None, help="folder to serve (default: notebooks/)")
    parser.add_argument(
        "--language", choices=LANGUAGES, default=None, help="print the address of this language's notebooks first"
    )


def port_is_free(port: int) -> bool:
    """True when nothing listens on ``port`` (connections closed a moment ago, in
    TIME_WAIT, do not count: servers reuse such ports, and so does this probe)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError:
            return False
        return True


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def build_command(notebooks: Path, port: int, lab: bool = False, token: str = "") -> list[str]:
    """The server's command line: Voila, or JupyterLab with ``lab=True``, on ``HOST:port``.

    >>> build_command(Path("nb"), 8866)[1:5]
    ['-m', 'voila', 'nb', '--no-browser']
    >>> "--ServerApp.ip=127.0.0.1" in build_command(Path("nb"), 8888, lab=True, token="t")
    True
    """
    if lab:
        # Lab refuses to start as root (containers, CI) unless told it may.
        as_root = ["--ServerApp.allow_root=True"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        return [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--ServerApp.ip={HOST}",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={notebooks}",
            f"--IdentityProvider.token={token}",
            *as_root,
        ]
    return [
        sys.executable,
        "-m",
        "voila",
        str(notebooks),
        "--no-browser",
        f"--port={port}",
        f"--Voila.ip={HOST}",
        # Voila shuts a page's kernel down with a request that carries no XSRF token;
        # without this every closed tab would leave its kernel running.
        "--Voila.tornado_settings={'disable_check_xsrf': True}",
        # A learner who breaks something should see why.
        "--show_tracebacks=True",
    ]


def page_urls(notebooks: Path, port: int, lab: bool = False, token: str = "", first: str | None = None) -> list[str]:
    """Addresses to print: one per language folder present (``first`` on top), else the root.

    >>> page_urls(Path("/nowhere"), 8866)
    ['http://127.0.0.1:8866/']
    """
    base = f"http://{HOST}:{port}"
    folders = [lang for lang in LANGUAGES if (notebooks / lang).is_dir()]
    if first in folders:
        folders.remove(first)
        folders.insert(0, first)
    if lab:
        query = f"?token={token}" if token else ""
        return [f"{base}/lab/tree/{lang}{query}" for lang in folders] or [f"{base}/lab{query}"]
    return [f"{base}/voila/tree/{lang}" for lang in folders] or [f"{base}/"]


def wait_until_answering(url: str, server: subprocess.Popen[bytes], timeout: float = READY_TIMEOUT_SECONDS) -> bool:
    """True once ``url`` answers; False if the server exits or ``timeout`` passes first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return False
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return True
        except OSError:
            time.sleep(0.25)
    return False


def stop(server: subprocess.Popen[bytes]) -> int:
    """SIGTERM (a backgrounded Voila may ignore SIGINT), then kill if it lingers."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return server.returncode


def run(args: argparse.Namespace) -> int:
    notebooks: Path = (args.notebooks or default_notebooks_dir()).resolve()
    if not notebooks.is_dir():
        print(f"liverpool serve: no notebooks folder at {notebooks} (use --notebooks PATH)", file=sys.stderr)
        return 2
    port: int = args.port
    if port == 0 or not port_is_free(port):
        if port:
            print(f"liverpool serve: port {port} is busy, using another one", file=sys.stderr)
        port = free_port()
    token = secrets.token_urlsafe(16) if args.lab else ""
    # Stopped with SIGTERM, leave through the `finally` below so the server goes too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = subprocess.Popen(build_command(notebooks, port, lab=args.lab, token=token), cwd=notebooks)
    try:
        probe = f"http://{HOST}:{port}/" + ("api/status" + (f"?token={token}" if token else "") if args.lab else "")
        if not wait_until_answering(probe, server):
            print("liverpool serve: the server did not start (see its messages above)", file=sys.stderr)
            stop(server)
            return 1
        print(f"\nThe Liverpool notebooks ({'JupyterLab' if args.lab else 'Voila'}) are served on this machine only.")
        for url in page_urls(notebooks, port, lab=args.lab, token=token, first=args.language):
            print(f"    {url}")
        print("Open an address in your browser. Ctrl-C stops the server.\n", flush=True)
        return server.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        stop(server)
