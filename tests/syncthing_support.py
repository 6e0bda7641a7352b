"""Real Syncthing instances on the loopback for the tests of issue 30 (a club's record on every
laptop): two or three "laptops", each a data folder shared through its own `syncthing serve`
with its own home, GUI/REST port and listen port; discovery, relays, NAT and usage reports off;
a rescan every 2 s and the file watcher after 1 s, so a change travels in a second or two.

Pause a laptop's sync with SIGSTOP and resume it with SIGCONT (the Wi-Fi dropping and coming
back); kill one with SIGKILL and start it again (its database and folder stay). `wait_in_sync`
asks each instance to rescan, then polls the REST API (``/rest/db/status`` and
``/rest/db/completion`` for every other device) until every instance is idle, needs nothing and
sees every other device complete, twice in a row at the same sequences; then the shared files
of every folder must be the same bytes.

Skips (with the reason) when `syncthing` is not installed. Each laptop's companion runs in its
own process (`Companion`): a loop that runs one command line at a time through the real CLI, so
a test can SIGKILL a companion mid-command, as a laptop's shell killed would be.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from process_support import ended
from click.testing import CliRunner

from companion.terminal.cli import cli

FOLDER_ID = "club"
_RUNNING = threading.Lock()  # CliRunner swaps sys.stdout: one command line at a time
SYNCTHING = shutil.which("syncthing")


def need_syncthing() -> str:
    if SYNCTHING is None:
        pytest.skip("syncthing is not installed (apt-get install syncthing): the trials of issue 30 need the real "
                    "sync engine")
    return SYNCTHING


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _set(parent: ET.Element, tag: str, text: str) -> None:
    node = parent.find(tag)
    if node is None:
        node = ET.SubElement(parent, tag)
    node.text = text


class Syncthing:
    """One `syncthing serve` with its own home, ports and API key."""

    def __init__(self, home: Path, folder: Path, name: str):
        self.home, self.folder, self.name = home, folder, name
        self.gui_port, self.listen_port = free_port(), free_port()
        self.key = secrets.token_hex(16)
        self.proc: subprocess.Popen | None = None
        self.paused = False
        home.mkdir(parents=True, exist_ok=True)
        subprocess.run([need_syncthing(), "generate", f"--home={home}", "--no-default-folder", "--skip-port-probing"],
                       check=True, capture_output=True, timeout=60)
        self.device_id = subprocess.run([SYNCTHING, "serve", f"--home={home}", "--device-id"], check=True,
                                        capture_output=True, text=True, timeout=60).stdout.strip()
        # The GUI's HTTPS key, which a first start makes (0.7 s of CPU, though the GUI here speaks
        # plain HTTP on the loopback): the device's own key pair, just generated, serves instead.
        for name in ("cert.pem", "key.pem"):
            shutil.copy(home / name, home / f"https-{name}")

    def configure(self, peers: list["Syncthing"]) -> None:
        path = self.home / "config.xml"
        tree = ET.parse(path)
        root = tree.getroot()
        gui = root.find("gui")
        gui.set("enabled", "true")
        gui.set("tls", "false")
        _set(gui, "address", f"127.0.0.1:{self.gui_port}")
        _set(gui, "apikey", self.key)
        options = root.find("options")
        for tag, text in {"listenAddress": f"tcp://127.0.0.1:{self.listen_port}", "globalAnnounceEnabled": "false",
                          "localAnnounceEnabled": "false", "relaysEnabled": "false", "natEnabled": "false",
                          "startBrowser": "false", "urAccepted": "-1", "autoUpgradeIntervalH": "0",
                          "crashReportingEnabled": "false", "reconnectionIntervalS": "1", "setLowPriority": "false",
                          "restartOnWakeup": "false", "stunServer": "", "progressUpdateIntervalS": "-1"}.items():
            _set(options, tag, text)
        _set(options, "minHomeDiskFree", "0")
        for old in root.findall("folder"):
            root.remove(old)
        folder = ET.SubElement(root, "folder", {
            "id": FOLDER_ID, "label": FOLDER_ID, "path": str(self.folder), "type": "sendreceive",
            "rescanIntervalS": "2", "fsWatcherEnabled": "true", "fsWatcherDelayS": "1", "ignorePerms": "false",
            "autoNormalize": "true"})
        _set(folder, "filesystemType", "basic")
        for device in [self, *peers]:
            ET.SubElement(folder, "device", {"id": device.device_id, "introducedBy": ""})
        min_free = ET.SubElement(folder, "minDiskFree", {"unit": "%"})
        min_free.text = "0"
        _set(folder, "markerName", ".stfolder")
        for peer in peers:
            device = ET.SubElement(root, "device", {"id": peer.device_id, "name": peer.name, "compression": "metadata",
                                                    "introducer": "false", "skipIntroductionRemovals": "false",
                                                    "introducedBy": ""})
            _set(device, "address", f"tcp://127.0.0.1:{peer.listen_port}")
            _set(device, "paused", "false")
            _set(device, "autoAcceptFolders", "false")
        tree.write(path)
        (self.folder / ".stfolder").mkdir(parents=True, exist_ok=True)

    # -- the process -------------------------------------------------------------------------
    def start(self) -> None:
        # STHASHING: Go's own SHA-256, named, so no start measures two implementations first
        # (half of a start's CPU); the sync hashes and compares files exactly as with the other.
        env = {**os.environ, "STNOUPGRADE": "1", "STNORESTART": "1", "STMONITORED": "1", "STHASHING": "standard"}
        log = open(self.home / "syncthing.log", "ab")
        self.proc = subprocess.Popen([SYNCTHING, "serve", f"--home={self.home}", "--no-browser", "--no-restart",
                                      "--no-default-folder"], stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        self.paused = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError):
                if self.get("/rest/system/ping").get("ping") == "pong":
                    return
            if self.proc.poll() is not None:
                raise RuntimeError(f"syncthing {self.name} stopped: {(self.home / 'syncthing.log').read_text()[-2000:]}")
            time.sleep(0.1)
        raise RuntimeError(f"syncthing {self.name} did not answer within 60 s")

    def pause(self) -> None:
        """The Wi-Fi drops: the process is stopped where it stands (SIGSTOP)."""
        if self.proc and not self.paused:
            self.proc.send_signal(signal.SIGSTOP)
            self.paused = True

    def resume(self) -> None:
        if self.proc and self.paused:
            self.proc.send_signal(signal.SIGCONT)
            self.paused = False

    def kill(self) -> None:
        """kill -9, then started again on the same home and folder."""
        if self.proc:
            self.resume()
            self.proc.kill()
            self.proc.wait()
        self.start()

    def stop(self) -> None:
        if self.proc:
            self.resume()
            ended(self.proc)
            self.proc = None

    # -- the REST API ------------------------------------------------------------------------
    def _call(self, method: str, path: str, timeout: float = 10) -> dict:
        request = urllib.request.Request(f"http://127.0.0.1:{self.gui_port}{path}", method=method,
                                         headers={"X-API-Key": self.key})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body = answer.read()
        return json.loads(body) if body.strip() else {}

    def get(self, path: str) -> dict:
        return self._call("GET", path)

    def scan(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._call("POST", f"/rest/db/scan?folder={FOLDER_ID}", timeout=30)

    def settled(self, peers: list["Syncthing"]) -> tuple | None:
        """This instance's sequences when it is idle, needs nothing and sees each peer
        connected and complete; else None."""
        status = self.get(f"/rest/db/status?folder={FOLDER_ID}")
        if status.get("state") != "idle" or status.get("needTotalItems", 1) or status.get("pullErrors", 0):
            return None
        connected = self.get("/rest/system/connections").get("connections", {})
        marks = [status.get("sequence"), status.get("globalFiles"), status.get("globalDeleted")]
        for peer in peers:
            if not connected.get(peer.device_id, {}).get("connected"):
                return None
            done = self.get(f"/rest/db/completion?folder={FOLDER_ID}&device={peer.device_id}")
            if done.get("completion") != 100 or done.get("needItems", 1) or done.get("needDeletes", 0):
                return None
            marks.append(done.get("sequence"))
        return tuple(marks)


def shared_files(folder: Path) -> dict[str, bytes]:
    """What the sync carries of a data folder: every file but this laptop's own (.local/),
    Syncthing's marker and .stignore, and files being written."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if rel.parts[0] in (".local", ".stfolder", ".stignore", ".stversions") or path.name.endswith(".tmp"):
            continue
        if path.is_file() and not path.is_symlink():
            with contextlib.suppress(OSError):
                out[str(rel)] = path.read_bytes()
    return out


class Cluster:
    """``n`` laptops sharing one data folder through Syncthing."""

    def __init__(self, root: Path, n: int):
        need_syncthing()
        self.root = root
        self.folders = [root / f"laptop{i}" / "data" for i in range(n)]
        self.nodes = [Syncthing(root / f"laptop{i}" / "syncthing", folder, f"laptop{i}")
                      for i, folder in enumerate(self.folders)]
        for folder in self.folders:  # what a club does first: `companion sync setup` on every laptop
            folder.mkdir(parents=True, exist_ok=True)
            with _RUNNING:  # (the command line in this process: clubs start side by side in threads)
                done = CliRunner().invoke(cli, ["--data-dir", str(folder), "sync", "setup"], catch_exceptions=True)
            assert done.exit_code == 0, (done.output, done.stderr, done.exception)
        for node in self.nodes:
            node.configure([peer for peer in self.nodes if peer is not node])
        for node in self.nodes:
            node.start()

    def peers(self, node: Syncthing) -> list[Syncthing]:
        return [peer for peer in self.nodes if peer is not node]

    def pause(self, which) -> None:
        for node in which:
            node.pause()

    def resume_all(self) -> None:
        for node in self.nodes:
            node.resume()

    def wait_in_sync(self, timeout: float = 120) -> float:
        """Resume everything, rescan, and wait until every laptop has the same shared files;
        returns the seconds it took."""
        start = time.monotonic()
        self.resume_all()
        for node in self.nodes:
            node.scan()
        last = None
        deadline = start + timeout
        while time.monotonic() < deadline:
            try:
                marks = [node.settled(self.peers(node)) for node in self.nodes]
            except (OSError, ValueError, urllib.error.URLError):
                marks = [None]
            if all(m is not None for m in marks):
                if marks == last:
                    files = [shared_files(folder) for folder in self.folders]
                    if all(f == files[0] for f in files[1:]):
                        return time.monotonic() - start
                    for node in self.nodes:  # a change the watcher has not reported yet
                        node.scan()
                    marks = None
                last = marks
            else:
                last = None
            time.sleep(0.2)
        raise AssertionError(f"the laptops did not come in sync within {timeout:.0f} s: "
                             + "; ".join(f"{n.name}: {sorted(shared_files(f))[:8]}" for n, f in zip(self.nodes, self.folders)))

    def close(self) -> None:
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.stop()


WORKER = r"""
import json, sys
from click.testing import CliRunner
from companion.terminal.cli import cli
runner = CliRunner()
print("ready", flush=True)
for line in sys.stdin:
    args = json.loads(line)
    result = runner.invoke(cli, args, catch_exceptions=True)
    err = result.stderr if result.stderr_bytes is not None else ""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        err += "Traceback: " + repr(result.exception)
    print(json.dumps({"code": result.exit_code, "out": result.stdout, "err": err}), flush=True)
"""


class Companion:
    """One laptop's companion: a process that runs the real CLI on one data folder, a command
    line at a time (so a test can kill -9 it in the middle of one). Given ``warm`` (a
    tests/warm_support.Warm), the process is forked from it, the companion imported already."""

    def __init__(self, folder: Path, warm=None):
        self.folder, self.warm = folder, warm
        self.proc = None
        self.start()

    def start(self) -> None:
        env = {"COMPANION_HOME": str(self.folder), "NO_COLOR": "1", "COLUMNS": "100"}
        if self.warm is not None:
            self.proc = self.warm.start(WORKER, stdin=True, env=env)
        else:
            self.proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, env={**os.environ, **env})
        assert self.proc.stdout.readline().strip() == "ready"
        self.run("games", "--json")  # what a command imports, imported before the timed ones
        self.run("sessions", "--json")

    def run(self, *args: str) -> dict:
        """Run one command line (issue 30: at any moment; games started or ended in the same
        second on several laptops are listed alike on all)."""
        self.proc.stdin.write(json.dumps(list(args)) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise ProcessLookupError("the companion was killed")
        return json.loads(line)

    def kill(self) -> None:
        """kill -9 (whatever it is doing), then a new companion on the same folder."""
        self.proc.kill()
        self.proc.wait()
        self.start()

    def close(self) -> None:
        if self.proc:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            self.proc.kill()
            self.proc.wait()
