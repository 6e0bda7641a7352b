"""`companion serve`: piped links, the background server in the shell, --stop, --links,
--new-links, and `companion --version` loading none of the web stack."""

from __future__ import annotations

import json
import re
import urllib.parse
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from serve_support import PLAYERS, hands, new_trans


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def start_serve(home, *extra):
    """`companion serve --port 0` in its own process, piped; returns (process, {who: url})."""
    env = dict(os.environ, COMPANION_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    from browser_support import link_line

    links = {}
    for _ in range(1 + len(PLAYERS)):
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        kind, name, url = link_line(line)
        links["table" if kind == "table" else name] = url
    return proc, links


def stop(home, proc) -> str:
    env = dict(os.environ, COMPANION_HOME=str(home))
    done = subprocess.run([sys.executable, "-m", "companion", "serve", "--stop"], capture_output=True, text=True,
                          env=env, timeout=20)
    assert done.returncode == 0, done.stderr
    proc.wait(timeout=20)
    return proc.stderr.read()


def test_piped_serve_prints_one_line_per_link_and_stops(run, home):
    sid = new_trans(run)
    proc, links = start_serve(home)
    try:
        assert list(links) == ["table", *PLAYERS]
        assert all(url.startswith("http://127.0.0.1:") for url in links.values())
        status, page = fetch(links["Ann"])
        assert status == 200 and all(c in page for c in hands(home, sid)["Ann"])
        assert fetch(links["table"])[0] == 200
        assert fetch(links["Ann"] + "x")[0] == 404
        again = run(["serve", "--links"], expect=0).stdout.split("\n")
        assert again[:5] == [f"table {links['table']}"] + [f"player {p} {links[p]}" for p in PLAYERS]
    finally:
        err = stop(home, proc)
    assert proc.returncode == 0 and "The server is stopped." in err
    assert "No server is running" in run(["serve", "--stop"], expect=1).stderr


def test_new_links_replace_the_running_servers_links(run, home):
    new_trans(run)
    proc, links = start_serve(home)
    try:
        result = run(["serve", "--new-links"], expect=0).stdout
        fresh = {line.split()[-2]: line.split()[-1] for line in result.splitlines() if line.startswith("player ")}
        assert fetch(links["Ann"])[0] == 404 and fetch(fresh["Ann"])[0] == 200
    finally:
        stop(home, proc)


def test_tokens_stay_out_of_status_log_export_and_are_owner_only(run, home):
    new_trans(run)
    proc, links = start_serve(home)
    for url in links.values():
        assert fetch(url)[0] == 200
    stop(home, proc)
    tokens = [url.rsplit("/", 1)[1] for url in links.values()]
    assert all(len(t) >= 22 for t in tokens)  # 24 URL-safe characters: 144 bits
    shown = (run(["status", "--json"], expect=0).stdout + run(["log", "--json"], expect=0).stdout
             + run(["export", "--format", "json"], expect=None).stdout)
    for path in (home / "sessions").iterdir():
        shown += path.read_text()
    shown += (home / ".local" / "web" / "access.log").read_text()
    assert not any(t in shown for t in tokens)
    assert oct((home / ".local" / "web" / "tokens.json").stat().st_mode & 0o777) == "0o600"
    assert oct((home / ".local" / "web").stat().st_mode & 0o777) == "0o700"


def test_a_port_in_use_is_one_clear_line(run, home):
    import socket

    new_trans(run)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        result = run(["serve", "--port", str(port)], expect=1)
    assert result.stderr.startswith(f"Error: Port {port} is in use") and len(result.stderr.splitlines()) == 1


def printed_until(capsys, text: str, timeout: float = 20.0) -> str:
    """What the shell printed until ``text`` came (polled, not slept for), or all of it."""
    out = ""
    deadline = time.monotonic() + timeout
    while text not in out and time.monotonic() < deadline:
        time.sleep(0.02)
        out += capsys.readouterr().out
    return out


def test_in_the_shell_the_server_runs_in_the_background(run, home, capsys):
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from companion.core.app import App
    from companion.terminal.cli import run_shell
    from companion.web import server

    sid = new_trans(run)
    app = App(home)
    with create_pipe_input() as pipe:
        pipe.send_text("serve --port 0 --player-codes\nstatus --json\n")
        with create_app_session(input=pipe, output=DummyOutput()):
            import threading

            shell = threading.Thread(target=run_shell, args=(app,), kwargs={"input": pipe, "output": DummyOutput()})
            shell.start()
            deadline = time.monotonic() + 20
            while server.running(home) is None and time.monotonic() < deadline:
                time.sleep(0.05)
            running = server.running(home)
            assert running is not None
            out = printed_until(capsys, '"session"')  # `status --json` ran after `serve`
            table = next(line for line in out.splitlines() if "/t/" in line).strip()
            assert fetch(table)[0] == 200  # the prompt came back and the server still answers
            assert '"session"' in out  # `status --json` ran after `serve`
            ann_url = next(re.search(r"http://\S+/p/\S+", line).group(0) for line in out.splitlines() if "/p/" in line)
            form = re.search(r'name="form" value="([0-9]+\.[0-9a-f]+\.[0-9a-f]+)"', fetch(ann_url)[1]).group(1)
            city = hands(home, sid)["Ann"][0]
            body = urllib.parse.urlencode({"form": form, "choice": city}).encode()
            with urllib.request.urlopen(urllib.request.Request(ann_url + "/choose", data=body), timeout=5) as r:
                assert r.status == 200 and "Chosen to pass left" in r.read().decode()  # after the redirect
            told = printed_until(capsys, "Ann has chosen.")
            assert "Ann has chosen." in told and city not in told
            pipe.send_text("serve --stop\nexit\n")
            shell.join(timeout=20)
    assert server.running(home) is None
    assert "The server is stopped" in capsys.readouterr().out


def test_version_loads_no_web_stack():
    code = ("import sys\nfrom companion.terminal.cli import cli\ntry:\n    cli(['--version'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'starlette', 'uvicorn', 'segno', 'anyio', 'httpx'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert out.strip().endswith("[]"), out


def test_the_qr_code_fits_an_80_by_24_terminal():
    pytest.importorskip("segno")
    from companion.web.command import qr_text

    import re

    text = qr_text("http://192.168.100.200:65535/p/" + "x" * 24)
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in text.splitlines()]  # what the terminal shows
    assert len(lines) <= 19 and max(len(line) for line in lines) <= 80  # with its link: 20 rows


def test_lan_names_the_local_network_address_or_says_why_not(run, home):
    new_trans(run)
    env = dict(os.environ, COMPANION_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--lan", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    first = proc.stdout.readline()
    if not first:  # no local network on this machine: one clear line, no traceback
        proc.wait(timeout=20)
        err = proc.stderr.read()
        assert proc.returncode == 1 and err.startswith("Error: This computer is on no local network"), err
        return
    try:
        host = first.split()[1].split("//")[1].split(":")[0]
        assert first.startswith("table http://") and not host.startswith("127.")
        assert fetch(first.split()[1])[0] == 200
    finally:
        for _ in PLAYERS:
            proc.stdout.readline()
        err = stop(home, proc)
    assert f"on the local network at {host}" in err


@pytest.mark.parametrize("pid", [0, -1, 1, "-5"])
def test_a_damaged_server_note_stops_nothing(run, home, pid):
    """`serve --stop` signals the process the server noted; a damaged note naming 0 or a
    negative number (a whole process group: the user's own terminal) or init is no server."""
    from companion.web import server

    new_trans(run)
    note = server._note(home)
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text(json.dumps({"pid": pid, "base": "http://127.0.0.1:1", "session": "x"}))
    assert "No server is running" in run(["serve", "--stop"], expect=1).stderr
    assert "No server is running" in run(["serve", "--links"], expect=1).stderr
