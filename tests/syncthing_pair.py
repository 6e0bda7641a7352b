"""Two real Syncthing instances on the loopback sharing one companion data folder (issue 30).

Each instance has its own home (keys, config, database) and its own copy of the folder; discovery,
relays, NAT and usage reports are off, the rescan interval is one second and the file watcher on.
Machine-local files stay out through a ``.stignore`` written here (the companion's own `sync
setup` writes the same). ``pause``/``resume`` stop and continue an instance with SIGSTOP and
SIGCONT, as the Wi-Fi dropping would: what each laptop records meanwhile stays on it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

SYNCTHING = shutil.which("syncthing")
IGNORED = [".local", "cache", "locks", "index.json", "settings.json", ".lock", "errors.log", "shell-history", "web",
           "bin"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def device_id(home: Path) -> str:
    out = subprocess.run([SYNCTHING, "serve", "--home", str(home), "--device-id"], capture_output=True, text=True,
                         check=True, timeout=60)
    return out.stdout.strip()


CONFIG = """<configuration version="36">
    <folder id="companion" label="companion" path="{data}" type="sendreceive" rescanIntervalS="1"
            fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
{members}
        <minDiskFree unit="%">0</minDiskFree>
    </folder>
{devices}
    <gui enabled="true" tls="false" debugging="false">
        <address>127.0.0.1:{gui}</address>
        <apikey>companion-test-key</apikey>
    </gui>
    <options>
        <listenAddress>tcp://127.0.0.1:{port}</listenAddress>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <startBrowser>false</startBrowser>
        <urAccepted>-1</urAccepted>
        <crashReportingEnabled>false</crashReportingEnabled>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <reconnectionIntervalS>1</reconnectionIntervalS>
        <minHomeDiskFree unit="%">0</minHomeDiskFree>
    </options>
</configuration>
"""


class Pair:
    """Syncthing instances for the data folders ``datas`` (one each), all sharing one folder."""

    def __init__(self, root: Path, datas: list[Path]):
        self.root, self.datas = Path(root), [Path(d) for d in datas]
        self.homes = [self.root / f"st{n}" for n in range(len(datas))]
        self.procs: list[subprocess.Popen] = []
        self.ports = [free_port() for _ in datas]
        self.guis = [free_port() for _ in datas]
        self.ids = []
        for home in self.homes:
            subprocess.run([SYNCTHING, "generate", "--home", str(home), "--no-default-folder"], capture_output=True,
                           check=True, timeout=60)
            self.ids.append(device_id(home))
        for n, (home, data) in enumerate(zip(self.homes, self.datas)):
            data.mkdir(parents=True, exist_ok=True)
            (data / ".stfolder").mkdir(exist_ok=True)
            (data / ".stignore").write_text("\n".join(IGNORED) + "\n")
            members = "\n".join(f'        <device id="{i}"></device>' for i in self.ids)
            devices = "\n".join(f'    <device id="{i}" name="laptop{k}" compression="metadata">'
                                f"<address>tcp://127.0.0.1:{self.ports[k]}</address></device>"
                                for k, i in enumerate(self.ids))
            (home / "config.xml").write_text(CONFIG.format(data=data, members=members, devices=devices,
                                                           gui=self.guis[n], port=self.ports[n]))

    def __enter__(self) -> "Pair":
        env = dict(os.environ, STNORESTART="1", STNOUPGRADE="1")
        for home in self.homes:
            log = open(home / "syncthing.log", "w")
            self.procs.append(subprocess.Popen([SYNCTHING, "serve", "--home", str(home), "--no-browser",
                                                "--no-restart"], stdout=log, stderr=subprocess.STDOUT, env=env))
        return self

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            with _quiet():
                proc.send_signal(signal.SIGCONT)
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def pause(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGCONT)

    def shared(self, data: Path) -> dict[str, bytes]:
        out = {}
        for path in sorted(data.rglob("*")):
            rel = path.relative_to(data)
            if path.is_file() and rel.parts[0] not in IGNORED and not any(p.startswith(".") for p in rel.parts):
                out[str(rel)] = path.read_bytes()
        return out

    def converged(self, within: float = 90.0, settle: float = 3.0) -> bool:
        """Wait until every copy holds the same shared files, unchanged for ``settle`` seconds."""
        deadline = time.monotonic() + within
        same_since = None
        while time.monotonic() < deadline:
            copies = [self.shared(d) for d in self.datas]
            if all(c == copies[0] for c in copies[1:]):
                same_since = same_since or time.monotonic()
                if time.monotonic() - same_since >= settle:
                    return True
            else:
                same_since = None
            time.sleep(0.5)
        return False


class _quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], (OSError, ProcessLookupError))
