"""A watcher of one file, for bench_serve.py's "watch": prints the time it noticed each
replacement of the file (another process writes a temporary file and renames it over, as the
companion's store does), or with --idle N watches an unchanging file for N seconds and prints
the CPU seconds it used.

    python benchmarks/watch_probe.py poll:0.05 FILE [--idle 20]
    python benchmarks/watch_probe.py inotify FILE [--idle 20]

The poll is the live channel's (companion.web.live): an asyncio loop waking every INTERVAL
seconds to compare the file's (inode, size, time). inotify is Linux's, through ctypes: the
folder watched for a file moved in (IN_MOVED_TO) or written and closed (IN_CLOSE_WRITE); the
live channel's own is companion.web.watch.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import os
import resource
import struct
import sys
import time

IN_CLOSE_WRITE, IN_MOVED_TO, IN_NONBLOCK = 0x8, 0x80, 0o4000


def signature(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


async def poll(path: str, interval: float, report) -> None:
    loop = asyncio.get_running_loop()
    seen = signature(path)
    wake = asyncio.Event()
    while True:
        timer = loop.call_later(interval, wake.set)
        await wake.wait()
        timer.cancel()
        wake.clear()
        now = signature(path)
        if now != seen:
            seen = now
            report()


async def inotify(path: str, report) -> None:
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    fd = libc.inotify_init1(IN_NONBLOCK)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    folder, name = os.path.split(os.path.abspath(path))
    if libc.inotify_add_watch(fd, folder.encode(), IN_MOVED_TO | IN_CLOSE_WRITE) < 0:
        raise OSError(ctypes.get_errno(), "inotify_add_watch")
    loop = asyncio.get_running_loop()
    wanted = name.encode()

    def readable() -> None:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        hit, offset = False, 0
        while offset < len(data):
            _wd, _mask, _cookie, length = struct.unpack_from("iIII", data, offset)
            event_name = data[offset + 16: offset + 16 + length].rstrip(b"\0")
            offset += 16 + length
            hit = hit or event_name == wanted
        if hit:
            report()

    loop.add_reader(fd, readable)
    await asyncio.Event().wait()


def main() -> None:
    kind, path = sys.argv[1], sys.argv[2]
    idle = float(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--idle" else None

    def report() -> None:
        if idle is None:
            print(f"{time.time():.6f}", flush=True)

    async def run() -> None:
        watching = poll(path, float(kind.split(":")[1]), report) if kind.startswith("poll:") else inotify(path, report)
        task = asyncio.ensure_future(watching)
        await asyncio.sleep(0.2)
        if task.done():
            task.result()  # raises: not available here
        if idle is None:
            print("ready", flush=True)
            await task
        else:
            before = resource.getrusage(resource.RUSAGE_SELF)
            await asyncio.sleep(idle)
            after = resource.getrusage(resource.RUSAGE_SELF)
            print(f"cpu {after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime:.4f}", flush=True)
            task.cancel()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
