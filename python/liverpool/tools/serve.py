"""``liverpool serve``: the teaching notebooks as web pages on this machine.

By default Voila shows each notebook as an app (code hidden, widgets live); ``--lab``
opens the same folder in JupyterLab instead, to read and change the code. Either way the
server listens on 127.0.0.1 only and the command prints one address: the welcome page
(``<lang>/00-welcome.ipynb``) of the chosen language, with a token. Ctrl-C stops it.

What the server is told (docs/notebooks.md, "Serving"):

* only ``Host: 127.0.0.1:PORT`` or ``localhost:PORT`` is answered (DNS rebinding; Voila:
  :mod:`liverpool.tools.serve_voila`, Lab: ``ServerApp.allow_remote_access=False``);
* cross-site checks stay on (XSRF, websocket Origin) and a token guards every page;
* kernels with no page connected are culled after ``CULL_IDLE_SECONDS`` and at most
  ``MAX_KERNELS`` run (:mod:`liverpool.tools.serve_kernels`);
* ``--rules NAME|FILE`` reaches the notebooks through ``LIVERPOOL_RULES``, read by
  :func:`notebook_rules`.
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
import urllib.error
import urllib.request
from pathlib import Path

from liverpool import LiverpoolError, RuleSet
from liverpool.i18n import LANGUAGES

HOST = "127.0.0.1"
DEFAULT_PORT = 8866
READY_TIMEOUT_SECONDS = 120.0
#: The welcome page's file in each language folder (``scripts/build_notebooks.py``).
WELCOME = "00-welcome.ipynb"
#: The environment variable carrying ``--rules`` to the notebooks' kernels.
RULES_ENV = "LIVERPOOL_RULES"
#: A kernel with no page connected is shut down after this long idle (Jupyter Server culling).
CULL_IDLE_SECONDS = 600
CULL_INTERVAL_SECONDS = 60
#: Kernels running at most (:class:`liverpool.tools.serve_kernels.BoundedKernelManager`).
MAX_KERNELS = 8
#: Never listed: the notebooks' one-source folder (``src/``) and editor leftovers.
HIDDEN = ["src", "__pycache__", "*.pyc", ".*", "*~", ".ipynb_checkpoints"]
#: The host names this machine's browser uses for the server (with the port).
LOCAL_NAMES = ("127.0.0.1", "localhost")


def host_is_local(host: str, port: int) -> bool:
    """True for exactly ``127.0.0.1:port`` or ``localhost:port`` (any letter case): the
    only Host headers the server answers.

    >>> host_is_local("localhost:8866", 8866), host_is_local("evil.example:8866", 8866)
    (True, False)
    >>> host_is_local("127.0.0.1", 8866), host_is_local("127.0.0.1:1", 8866)
    (False, False)
    """
    return host.lower() in {f"{name}:{port}" for name in LOCAL_NAMES}


def _has_languages(folder: Path) -> bool:
    return any((folder / lang).is_dir() for lang in LANGUAGES)


def default_notebooks_dir() -> Path:
    """The notebooks this ``liverpool`` ships: ``liverpool/teach/notebooks/`` inside the
    package (an installed wheel carries them there; in the source checkout it is a link to
    the repository's ``notebooks/``), else the checkout's ``notebooks/``, else ``./notebooks``."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "teach" / "notebooks", package.parents[1] / "notebooks", Path.cwd() / "notebooks"):
        if candidate.is_dir() and _has_languages(candidate):
            return candidate.resolve()
    return Path.cwd() / "notebooks"


def notebook_rules() -> RuleSet:
    """The rule set the notebooks play by: ``liverpool serve --rules NAME|FILE`` (through
    the ``LIVERPOOL_RULES`` environment variable the server's kernels inherit), else the
    default profile L. A notebook's code calls this instead of ``RuleSet()``.

    >>> os.environ.pop(RULES_ENV, None) and None
    >>> notebook_rules().name == RuleSet().name
    True
    """
    spec = os.environ.get(RULES_ENV, "").strip()
    return RuleSet.load(spec) if spec else RuleSet()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--lab", action="store_true", help="JupyterLab (code visible and editable) instead of Voila")
    parser.add_argument("--notebooks", type=Path, default=None, help="folder to serve (default: the notebooks shipped)")
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="the welcome page's language (default en)")
    parser.add_argument(
        "--max-kernels",
        type=int,
        default=MAX_KERNELS,
        help=f"notebook pages running at once (each has a kernel, ~60 MB; default {MAX_KERNELS})",
    )
    parser.add_argument(
        "--rules",
        default=None,
        metavar="NAME|FILE",
        help="the notebooks' default rule set: a preset or a rule set file (docs/rule-options.md)",
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


def _list(option: str, values: list[str]) -> list[str]:
    """A list option on a Jupyter command line: the option once per value (traitlets
    reads ``--X.y=[...]`` as one string)."""
    return [f"--{option}={value}" for value in values]


def kernel_options(manager: str, max_kernels: int = MAX_KERNELS) -> list[str]:
    """Culling and the kernel cap, the same for Voila and Lab (``manager`` is the
    configurable class the server uses for its kernels)."""
    return [
        f"--{manager}.cull_idle_timeout={CULL_IDLE_SECONDS}",
        f"--{manager}.cull_interval={CULL_INTERVAL_SECONDS}",
        f"--{manager}.cull_connected=False",
        f"--BoundedKernelManager.max_kernels={max_kernels}",
    ]


def build_command(
    notebooks: Path,
    port: int,
    lab: bool = False,
    token: str = "",
    language: str = "en",
    max_kernels: int = MAX_KERNELS,
) -> list[str]:
    """The server's command line: Voila, or JupyterLab with ``lab=True``, on ``HOST:port``.

    >>> build_command(Path("nb"), 8866)[1:5]
    ['-m', 'liverpool.tools.serve_voila', 'nb', '--no-browser']
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
            # Only this machine's names in the Host header (DNS rebinding); XSRF stays on.
            "--ServerApp.allow_remote_access=False",
            *_list("ServerApp.local_hostnames", ["localhost"]),
            "--ServerApp.kernel_manager_class=liverpool.tools.serve_kernels.BoundedKernelManager",
            *kernel_options("MappingKernelManager", max_kernels),
            *_list("ContentsManager.hide_globs", HIDDEN),
            f"--ServerApp.default_url=/lab/tree/{language}/{WELCOME}",
            *as_root,
        ]
    return [
        sys.executable,
        "-m",
        "liverpool.tools.serve_voila",
        str(notebooks),
        "--no-browser",
        f"--port={port}",
        "--Voila.port_retries=0",
        f"--Voila.ip={HOST}",
        f"--Voila.token={token}",
        "--welcome",
        f"voila/render/{language}/{WELCOME}",
        "--VoilaConfiguration.multi_kernel_manager_class=liverpool.tools.serve_kernels.BoundedKernelManager",
        *kernel_options("BoundedKernelManager", max_kernels),
        *_list("LargeFileManager.hide_globs", HIDDEN),
        # A learner who breaks something should see why.
        "--show_tracebacks=True",
    ]


def welcome_url(
    port: int, language: str = "en", lab: bool = False, token: str = "", notebooks: Path | None = None
) -> str:
    """The address ``liverpool serve`` prints: the welcome page in ``language`` (in a
    folder without one, the language's file list).

    >>> welcome_url(8866, "pt", token="abc")
    'http://127.0.0.1:8866/voila/render/pt/00-welcome.ipynb?token=abc'
    >>> welcome_url(8888, "es", lab=True)
    'http://127.0.0.1:8888/lab/tree/es/00-welcome.ipynb'
    >>> welcome_url(8866, "en", notebooks=Path("/nowhere"))
    'http://127.0.0.1:8866/voila/tree/en'
    """
    query = f"?token={token}" if token else ""
    if notebooks is not None and not (notebooks / language / WELCOME).is_file():
        return f"http://{HOST}:{port}/{'lab' if lab else 'voila'}/tree/{language}{query}"
    route = "lab/tree" if lab else "voila/render"
    return f"http://{HOST}:{port}/{route}/{language}/{WELCOME}{query}"


def wait_until_answering(url: str, server: subprocess.Popen[bytes], timeout: float = READY_TIMEOUT_SECONDS) -> bool:
    """True once ``url`` answers; False if the server exits or ``timeout`` passes first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return False
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return True
        except urllib.error.HTTPError:  # any HTTP answer (a 404, a login page): it is up
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
    language: str = args.language
    env = dict(os.environ)
    env.pop(RULES_ENV, None)
    if args.rules:
        # Checked here, so a wrong name or file is reported now and not in every notebook.
        try:
            RuleSet.load(args.rules)
        except LiverpoolError as exc:
            print(f"liverpool serve: error: {exc} [{exc.code}]", file=sys.stderr)
            return 2
        spec = Path(args.rules)
        # A file is passed as an absolute path: the kernels run in the notebooks' folder.
        env[RULES_ENV] = str(spec.resolve()) if spec.is_file() else args.rules
    port: int = args.port
    if port == 0 or not port_is_free(port):
        if port:
            print(f"liverpool serve: port {port} is busy, using another one", file=sys.stderr)
        port = free_port()
    token = secrets.token_urlsafe(16)
    # Stopped with SIGTERM, leave through the `finally` below so the server goes too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if args.max_kernels < 1:
        print("liverpool serve: --max-kernels must be at least 1", file=sys.stderr)
        return 2
    command = build_command(notebooks, port, lab=args.lab, token=token, language=language, max_kernels=args.max_kernels)
    server = subprocess.Popen(command, cwd=notebooks, env=env)
    try:
        # A cheap address (no notebook runs for it): Lab's status, Voila's static files.
        probe = f"http://{HOST}:{port}/" + ("api/status" if args.lab else "voila/static/")
        if not wait_until_answering(probe, server):
            print("liverpool serve: the server did not start (see its messages above)", file=sys.stderr)
            stop(server)
            return 1
        print(f"\nThe Liverpool notebooks ({'JupyterLab' if args.lab else 'Voila'}) are served on this machine only.")
        if args.rules:
            print(f"Rule set: {args.rules}")
        print("Open this address in your browser (the welcome page; it links to every notebook):")
        print(f"    {welcome_url(port, language, lab=args.lab, token=token, notebooks=notebooks)}")
        print("Ctrl-C stops the server.\n", flush=True)
        return server.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        stop(server)
