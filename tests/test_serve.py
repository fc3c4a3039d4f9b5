"""`liverpool serve`: the right server command line, and a real Voila answering on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import nbformat
import pytest

from liverpool.cli import build_parser
from liverpool.serve import HOST, build_command, page_urls, port_is_free


def test_voila_command_serves_the_folder_on_localhost_only() -> None:
    command = build_command(Path("/x/notebooks"), 9001)
    assert command[:3] == [sys.executable, "-m", "voila"]
    assert "/x/notebooks" in command
    assert "--port=9001" in command and f"--Voila.ip={HOST}" in command and HOST == "127.0.0.1"
    assert "--no-browser" in command


def test_lab_command_has_token_port_and_root() -> None:
    command = build_command(Path("/x/notebooks"), 9002, lab=True, token="secret")
    assert command[:3] == [sys.executable, "-m", "jupyterlab"]
    assert {"--ServerApp.ip=127.0.0.1", "--ServerApp.port=9002", "--ServerApp.root_dir=/x/notebooks"} <= set(command)
    assert "--IdentityProvider.token=secret" in command


def test_urls_list_each_language_folder_with_the_chosen_one_first(tmp_path: Path) -> None:
    for lang in ("en", "pt", "es"):
        (tmp_path / lang).mkdir()
    assert page_urls(tmp_path, 8866, first="pt") == [
        "http://127.0.0.1:8866/voila/tree/pt",
        "http://127.0.0.1:8866/voila/tree/en",
        "http://127.0.0.1:8866/voila/tree/es",
    ]
    assert page_urls(tmp_path, 8888, lab=True, token="t")[0] == "http://127.0.0.1:8888/lab/tree/en?token=t"


def test_serve_is_a_cli_command() -> None:
    args = build_parser().parse_args(["serve", "--port", "0", "--lab", "--language", "es"])
    assert (args.port, args.lab, args.language) == (0, True, "es")


def test_serve_starts_voila_that_answers_and_stops_on_sigterm(tmp_path: Path) -> None:
    folder = tmp_path / "notebooks" / "en"
    folder.mkdir(parents=True)
    cell = nbformat.v4.new_code_cell("print('served by liverpool')")  # type: ignore[no-untyped-call]
    notebook = nbformat.v4.new_notebook(cells=[cell])  # type: ignore[no-untyped-call]
    nbformat.write(notebook, folder / "hello.ipynb")  # type: ignore[no-untyped-call]
    env = dict(os.environ)
    for name in ("RUNTIME", "CONFIG", "DATA"):
        env[f"JUPYTER_{name}_DIR"] = str(tmp_path / f"jupyter-{name.lower()}")
    command = [sys.executable, "-m", "liverpool", "serve", "--port", "0", "--notebooks", str(tmp_path / "notebooks")]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        urls = []
        for line in server.stdout:  # ends if the command exits before printing an address
            if "http://" in line:
                urls.append(line.strip())
                break
        assert urls and urls[0].startswith("http://127.0.0.1:") and urls[0].endswith("/voila/tree/en"), urls
        with urllib.request.urlopen(urls[0], timeout=30) as listing:  # the list itself is drawn by JavaScript
            assert "voila-tree-main" in listing.read().decode()
        page = urls[0].replace("/voila/tree/en", "/voila/render/en/hello.ipynb")
        with urllib.request.urlopen(page, timeout=60) as rendered:
            assert "served by liverpool" in rendered.read().decode()
        port = int(urls[0].split(":")[2].split("/")[0])
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        if server.stdout is not None:
            server.stdout.close()
    assert port_is_free(port), "the Voila server outlived `liverpool serve`"


@pytest.mark.parametrize("missing", ["nowhere"])
def test_serve_refuses_a_missing_folder(missing: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from liverpool.cli import main

    assert main(["serve", "--notebooks", str(tmp_path / missing)]) == 2
    assert "no notebooks folder" in capsys.readouterr().err
