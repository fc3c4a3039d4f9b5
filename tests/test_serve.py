"""`liverpool serve`: the server's command line, the notebooks an installed package ships,
and a real Voila on 127.0.0.1 that answers only this machine's host names, keeps its
cross-site checks and a bounded number of kernels (issue 17), opening on the welcome page
of the chosen language (issue 15).

The real-server tests use loopback only and bounded loops (a handful of page loads).
"""

from __future__ import annotations

import html
import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from glob import glob
from pathlib import Path

import nbformat
import pytest

from liverpool import RuleSet
from liverpool.tools.cli import build_parser, main
from liverpool.tools.serve import (
    HIDDEN,
    HOST,
    RULES_ENV,
    WELCOME,
    build_command,
    default_notebooks_dir,
    notebook_rules,
    port_is_free,
    welcome_url,
)

ROOT = Path(__file__).resolve().parent.parent
PYTHON_ENV = {"PYTHONPATH": str(ROOT / "python")}


# ---------------------------------------------------------------- the command lines


def test_voila_command_is_local_guarded_and_bounded() -> None:
    command = build_command(Path("/x/notebooks"), 9001, token="tok", language="pt", max_kernels=5)
    assert command[:3] == [sys.executable, "-m", "liverpool.tools.serve_voila"]  # the Host-checking Voila
    assert "/x/notebooks" in command and "--no-browser" in command
    assert {"--port=9001", f"--Voila.ip={HOST}", "--Voila.token=tok", "--Voila.port_retries=0"} <= set(command)
    assert HOST == "127.0.0.1"
    assert not any("disable_check_xsrf" in part for part in command)  # XSRF stays on
    assert "--VoilaConfiguration.multi_kernel_manager_class=liverpool.tools.serve_kernels.BoundedKernelManager" in command
    assert "--BoundedKernelManager.max_kernels=5" in command
    assert any(part.startswith("--BoundedKernelManager.cull_idle_timeout=") for part in command)
    assert "--LargeFileManager.hide_globs=src" in command  # no src/ in any listing
    assert command[command.index("--welcome") + 1] == f"voila/render/pt/{WELCOME}"


def test_lab_command_has_token_port_root_and_the_same_guards() -> None:
    command = build_command(Path("/x/notebooks"), 9002, lab=True, token="secret", language="es")
    assert command[:3] == [sys.executable, "-m", "jupyterlab"]
    assert {"--ServerApp.ip=127.0.0.1", "--ServerApp.port=9002", "--ServerApp.root_dir=/x/notebooks"} <= set(command)
    assert "--IdentityProvider.token=secret" in command
    assert {"--ServerApp.allow_remote_access=False", "--ServerApp.local_hostnames=localhost"} <= set(command)
    assert "--ServerApp.kernel_manager_class=liverpool.tools.serve_kernels.BoundedKernelManager" in command
    assert any(part.startswith("--MappingKernelManager.cull_idle_timeout=") for part in command)
    assert "--ContentsManager.hide_globs=src" in command
    assert f"--ServerApp.default_url=/lab/tree/es/{WELCOME}" in command


def test_the_printed_address_is_the_welcome_page_of_the_language(tmp_path: Path) -> None:
    assert welcome_url(8866, "pt", token="t") == f"http://127.0.0.1:8866/voila/render/pt/{WELCOME}?token=t"
    assert welcome_url(8888, "es", lab=True, token="t") == f"http://127.0.0.1:8888/lab/tree/es/{WELCOME}?token=t"
    (tmp_path / "en").mkdir()  # a folder without a welcome page: its file list
    assert welcome_url(8866, "en", notebooks=tmp_path) == "http://127.0.0.1:8866/voila/tree/en"


def test_serve_is_a_cli_command() -> None:
    args = build_parser().parse_args(["serve", "--port", "0", "--lab", "--language", "es", "--rules", "shanghai"])
    assert (args.port, args.lab, args.language, args.rules) == (0, True, "es", "shanghai")
    assert build_parser().parse_args(["serve"]).language == "en"


def test_serve_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--notebooks", str(tmp_path / "nowhere")]) == 2
    assert "no notebooks folder" in capsys.readouterr().err


def test_serve_refuses_an_unknown_rule_set_before_starting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--rules", "no-such-rules", "--notebooks", str(ROOT / "notebooks")]) == 2
    err = capsys.readouterr().err
    assert "liverpool serve: error:" in err and "[invalid_rules]" in err


# ---------------------------------------------------------------- --rules reaches the notebooks


def test_notebook_rules_reads_the_servers_rule_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(RULES_ENV, raising=False)
    assert notebook_rules().name == RuleSet().name
    monkeypatch.setenv(RULES_ENV, "shanghai")
    assert notebook_rules().name == RuleSet.load("shanghai").name != RuleSet().name
    rules_file = tmp_path / "mine.toml"
    rules_file.write_text('base = "liverpool"\nname = "mine"\n', encoding="utf-8")
    monkeypatch.setenv(RULES_ENV, str(rules_file))
    assert notebook_rules().name == RuleSet.load(str(rules_file)).name


# ---------------------------------------------------------------- the notebooks an installed package ships


def _wheel_layout(target: Path) -> Path:
    """``liverpool`` laid out as the wheel has it: the package's files, and the files
    pyproject's ``[tool.maturin] include`` matches, placed as maturin places them (the
    ``python/`` source prefix stripped)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["maturin"]
    source = ROOT / config["python-source"]
    shutil.copytree(source / "liverpool", target / "liverpool", symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "liverpool" / "teach" / "notebooks").unlink()  # the checkout's link is not in a wheel
    for entry in config["include"]:
        if "wheel" not in entry["format"]:
            continue
        for match in sorted(glob(str(ROOT / entry["path"]))):
            inside = Path(match).relative_to(source)
            (target / inside).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(match, target / inside)
    return target


def test_an_installed_package_serves_the_notebooks_it_ships(tmp_path: Path) -> None:
    site = _wheel_layout(tmp_path / "site-packages")
    shipped = site / "liverpool" / "teach" / "notebooks"
    for lang in ("en", "pt", "es"):
        names = sorted(p.name for p in (shipped / lang).iterdir())
        assert names == sorted(p.name for p in (ROOT / "notebooks" / lang).glob("*.ipynb")) and WELCOME in names
    assert not (shipped / "src").exists()  # the sources are not shipped
    elsewhere = tmp_path / "elsewhere"  # not the checkout, no ./notebooks
    elsewhere.mkdir()
    found = subprocess.run(
        [sys.executable, "-c", "from liverpool.tools.serve import default_notebooks_dir; print(default_notebooks_dir())"],
        cwd=elsewhere,
        env={**os.environ, "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(found) == shipped.resolve()


def test_the_checkout_serves_its_notebooks_folder() -> None:
    assert default_notebooks_dir() == (ROOT / "notebooks").resolve()


# ---------------------------------------------------------------- a real server


@dataclass
class Served:
    url: str  # the printed welcome address, with its token
    port: int
    token: str
    process: subprocess.Popen[str]

    def path(self, path: str, token: bool = True) -> str:
        return path + (("&" if "?" in path else "?") + f"token={self.token}" if token else "")


def _request(
    port: int, method: str, path: str, headers: dict[str, str] | None = None, body: str | None = None
) -> http.client.HTTPResponse:
    """A raw HTTP request to 127.0.0.1:port with exactly these headers (Host included)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str, http.client.HTTPMessage]:
    connection = http.client.HTTPConnection(HOST, port, timeout=120)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, body, response.headers


def _start(tmp_path: Path, *args: str) -> Served:
    env = dict(os.environ)
    for name in ("RUNTIME", "CONFIG", "DATA"):
        env[f"JUPYTER_{name}_DIR"] = str(tmp_path / f"jupyter-{name.lower()}")
    env["IPYTHONDIR"] = str(tmp_path / "ipython")
    command = [sys.executable, "-m", "liverpool", "serve", "--port", "0", *args]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    for line in process.stdout:  # ends if the command exits before printing an address
        if "http://" in line:
            url = line.strip()
            break
    else:
        pytest.fail("liverpool serve printed no address")
    parts = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(parts.query)["token"][0]
    assert parts.port is not None
    return Served(url, parts.port, token, process)


def _stop(served: Served) -> None:
    served.process.send_signal(signal.SIGTERM)
    served.process.wait(timeout=60)
    if served.process.stdout is not None:
        served.process.stdout.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    pytest.importorskip("voila")
    server = _start(tmp_path_factory.mktemp("serve"), "--language", "pt", "--max-kernels", "3")
    try:
        yield server
    finally:
        _stop(server)
    assert port_is_free(server.port), "the Voila server outlived `liverpool serve`"


KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def _open_page(served: Served, path: str) -> tuple[str, str, dict[str, str]]:
    """GET a notebook page with the token: (html, its kernel id, the cookies it set)."""
    status, page, headers = _get(served.port, served.path(path), {"Host": f"{HOST}:{served.port}"})
    assert status == 200, (status, page[:300])
    found = KERNEL_ID.search(page)
    assert found, "no kernel id on the page"
    cookies = {}
    for header in headers.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        cookies[name] = rest.split(";")[0]
    return page, found.group(1), cookies


def test_serve_prints_the_welcome_page_in_the_chosen_language(served: Served) -> None:
    assert served.url.startswith(f"http://127.0.0.1:{served.port}/voila/render/pt/{WELCOME}?token=")
    page, _, _ = _open_page(served, f"/voila/render/pt/{WELCOME}")
    assert "<title>Liverpool Rummy: aprenda o jogo aqui</title>" in page  # a title in words
    for link in ("01-first-look.ipynb", "06-your-own-bot.ipynb", "../en/00-welcome.ipynb", "../es/00-welcome.ipynb"):
        assert f'href="{link}"' in page, link
    text = html.unescape(page)
    assert "Glossário" in text and "| coringa |" not in text and "coringa" in text  # the glossary, as a table


def test_a_foreign_host_header_is_refused(served: Served) -> None:
    # DNS rebinding: a page of evil.example whose name now points at 127.0.0.1.
    for path in (served.path(f"/voila/render/pt/{WELCOME}"), "/voila/static/", "/", served.path("/voila/tree/pt")):
        assert _request(served.port, "GET", path, {"Host": f"evil.example:{served.port}"}).status == 403, path
    assert _request(served.port, "GET", "/", {"Host": f"localhost:{served.port}"}).status in (200, 302)


def test_pages_need_the_token(served: Served) -> None:
    status, _, headers = _get(served.port, f"/voila/render/pt/{WELCOME}", {"Host": f"{HOST}:{served.port}"})
    assert status in (302, 403) and "/login" in (headers.get("Location") or "/login")


def test_the_file_list_hides_the_sources(served: Served) -> None:
    status, listing, _ = _get(served.port, served.path("/voila/api/contents/"), {"Host": f"{HOST}:{served.port}"})
    assert status == 200
    names = re.findall(r'"name":\s*"([^"]*)"', listing)
    assert {"en", "pt", "es"} <= set(names) and "src" not in names and set(HIDDEN).isdisjoint(names)


def test_cross_site_requests_are_refused(served: Served) -> None:
    _, kernel, cookies = _open_page(served, f"/voila/render/pt/{WELCOME}")
    login = "; ".join(f"{k}={v}" for k, v in cookies.items() if k != "_xsrf")
    assert login, "the token login set no cookie"
    local = {"Host": f"{HOST}:{served.port}", "Cookie": login}
    # A form on another site posting to the kernel shutdown with the learner's cookie and no
    # XSRF token: refused by the Origin check (Jupyter answers 404 there, to reveal nothing),
    # and without an Origin header by the XSRF check (403).
    form = {**local, "Content-Type": "application/x-www-form-urlencoded"}
    shutdown = f"/voila/api/shutdown/{kernel}"
    assert _request(served.port, "POST", shutdown, {**form, "Origin": "http://evil.example"}, body="").status in (403, 404)
    assert _request(served.port, "POST", shutdown, form, body="").status == 403
    assert _request(served.port, "GET", f"/api/kernels/{kernel}", local).status == 200  # still running
    # A websocket to the kernel opened by another site's page.
    upgrade = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    channels = f"/api/kernels/{kernel}/channels"
    assert _request(served.port, "GET", channels, {**local, **upgrade, "Origin": "http://evil.example"}).status == 403
    rebound = {**local, **upgrade, "Host": f"evil.example:{served.port}", "Origin": f"http://evil.example:{served.port}"}
    assert _request(served.port, "GET", channels, rebound).status == 403
    # The page's own beacon (same site, with the page's XSRF cookie and field) still shuts its kernel down.
    xsrf = cookies.get("_xsrf")
    assert xsrf, "the notebook page set no _xsrf cookie: its closing beacon would be refused"
    own = {**form, "Cookie": f"{login}; _xsrf={xsrf}", "Origin": f"http://{HOST}:{served.port}"}
    body = urllib.parse.urlencode({"_xsrf": urllib.parse.unquote(xsrf)})
    assert _request(served.port, "POST", shutdown, own, body=body).status == 204
    assert _request(served.port, "GET", f"/api/kernels/{kernel}", local).status == 404


def test_the_number_of_kernels_stays_bounded(served: Served) -> None:
    # Six page loads with nobody connected to them, on a server capped at 3 kernels.
    kernels = [_open_page(served, f"/voila/render/pt/{WELCOME}")[1] for _ in range(6)]
    local = {"Host": f"{HOST}:{served.port}"}
    alive = [k for k in kernels if _request(served.port, "GET", served.path(f"/api/kernels/{k}"), local).status == 200]
    assert 1 <= len(alive) <= 3, alive
    assert kernels[-1] in alive  # the newest page keeps its kernel: the oldest made room


def test_serve_starts_voila_on_any_folder_passes_rules_and_stops_on_sigterm(tmp_path: Path) -> None:
    pytest.importorskip("voila")
    folder = tmp_path / "notebooks" / "en"
    folder.mkdir(parents=True)
    code = "from liverpool.tools.serve import notebook_rules\nprint('served by liverpool:', notebook_rules().name)"
    cell = nbformat.v4.new_code_cell(code)  # type: ignore[no-untyped-call]
    notebook = nbformat.v4.new_notebook(cells=[cell])  # type: ignore[no-untyped-call]
    nbformat.write(notebook, folder / "hello.ipynb")  # type: ignore[no-untyped-call]
    served = _start(tmp_path, "--notebooks", str(tmp_path / "notebooks"), "--rules", "shanghai")
    try:
        assert served.url == f"http://127.0.0.1:{served.port}/voila/tree/en?token={served.token}"  # no welcome here
        status, page, _ = _get(served.port, served.path("/voila/render/en/hello.ipynb"), {"Host": f"{HOST}:{served.port}"})
        # --rules reached the notebook's kernel (LIVERPOOL_RULES, read by notebook_rules).
        assert status == 200 and f"served by liverpool: {RuleSet.load('shanghai').name}" in html.unescape(page)
    finally:
        _stop(served)
    assert port_is_free(served.port), "the Voila server outlived `liverpool serve`"


def test_lab_answers_only_local_hosts_and_opens_the_welcome_page(tmp_path: Path) -> None:
    pytest.importorskip("jupyterlab")
    served = _start(tmp_path, "--lab", "--language", "es")
    try:
        assert served.url == f"http://127.0.0.1:{served.port}/lab/tree/es/{WELCOME}?token={served.token}"
        local = {"Host": f"{HOST}:{served.port}"}
        assert _request(served.port, "GET", served.path("/api/status"), local).status == 200
        foreign = {"Host": f"evil.example:{served.port}"}
        assert _request(served.port, "GET", served.path("/api/status"), foreign).status == 403
        assert _request(served.port, "GET", "/api/status", local).status == 403  # no token
        status, listing, _ = _get(served.port, served.path("/api/contents"), local)
        assert status == 200 and "src" not in re.findall(r'"name":\s*"([^"]*)"', listing)
    finally:
        _stop(served)
    assert port_is_free(served.port)


# ---------------------------------------------------------------- the way in: links and titles


@pytest.mark.parametrize("lang", ["en", "pt", "es"])
def test_every_notebook_links_onwards_and_has_a_title_in_words(lang: str) -> None:
    folder = ROOT / "notebooks" / lang
    stems = sorted(p.stem for p in folder.glob("*.ipynb"))
    assert stems[0] == WELCOME.removesuffix(".ipynb") and len(stems) == 7
    welcome = nbformat.read(folder / WELCOME, as_version=4)  # type: ignore[no-untyped-call]
    welcome_text = "\n".join(cell.source for cell in welcome.cells if cell.cell_type == "markdown")
    for stem in stems[1:]:
        assert f"]({stem}.ipynb)" in welcome_text, stem  # the welcome page lists all six
        notebook = nbformat.read(folder / f"{stem}.ipynb", as_version=4)  # type: ignore[no-untyped-call]
        title = notebook.metadata["title"]
        assert title and not title.endswith(".ipynb") and title == notebook.cells[0].source.splitlines()[0][2:]
        last = notebook.cells[-1].source
        at = stems.index(stem)
        assert f"]({WELCOME})" in last  # back to the welcome page
        if at > 1:
            assert f"]({stems[at - 1]}.ipynb)" in last
        if at + 1 < len(stems):
            assert f"]({stems[at + 1]}.ipynb)" in last
    for other in {"en", "pt", "es"} - {lang}:  # the language switch
        assert f"](../{other}/{WELCOME})" in welcome_text
