"""Where the time goes on the server from a phone's post to its 7 live streams (issue 31).

    python benchmarks/bench_serve_path.py [RUNS]

A six-player Trans Europa round ("pass three cities") served in this process (uvicorn on a
thread), 7 streams read as a browser reads them (six players' and the table's), Ann's pass
posted over HTTP as her page posts it, then taken back with `undo`, RUNS times. Each run
prints nothing; at the end, medians of: the post (its write, fsync included, and the 303),
when the live channel began drawing (from the post's start), how long its drawing and sending
took, the 7 pages' drawing alone, how many signatures of the served files were read, and when
the first and the last stream received its page. What is left between the write and a page
shown is the browsers' (bench_serve.py --only tap measures all of it in 7 Chromiums)."""
import os, sys, time, threading, tempfile, statistics, json, subprocess, urllib.error, urllib.request, urllib.parse
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
PLAYERS = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"]
home = Path(tempfile.mkdtemp(prefix="i31r-prof-"))
os.environ["COMPANION_HOME"] = str(home)
env = dict(os.environ)
subprocess.run([sys.executable, "-m", "companion", "new", "trans-europa", "--players", ",".join(PLAYERS), "--variant", "special-cards"], env=env, check=True, capture_output=True)
subprocess.run([sys.executable, "-m", "companion", "round", "start", "--special", "pass-three"], env=env, check=True, capture_output=True)
from companion.web import server, tokens, live
from companion.web.site import Site
from live_support import Stream
from serve_support import forms_on
from companion.core import session as sessions
from companion.core.store import Store
sid = json.loads(subprocess.run([sys.executable, "-m", "companion", "status", "--json"], env=env, capture_output=True, text=True).stdout)["session"]
links = tokens.links(home, sid, PLAYERS)
site = Site(home, sid)
sock = server.bind("127.0.0.1", 0); port = sock.getsockname()[1]
base = f"http://127.0.0.1:{port}"
running = server.start_background(site, sock, base)
T = {}
def mark(k, v=None): T.setdefault(k, []).append(time.perf_counter() if v is None else v)
orig_render = Site._render
def _render(self, who, *a, **k):
    t = time.perf_counter(); r = orig_render(self, who, *a, **k); mark("render " + ("table" if who == tokens.TABLE else "player"), time.perf_counter() - t); return r
Site._render = _render
orig_refresh = live.Live._refresh
async def _refresh(self):
    t = time.perf_counter(); mark("refresh start", t); await orig_refresh(self); mark("refresh took", time.perf_counter() - t)
live.Live._refresh = _refresh
orig_sig = Site.signature
def sig(self):
    t = time.perf_counter(); r = orig_sig(self); mark("signature", time.perf_counter() - t); return r
Site.signature = sig
got = {}
stop = threading.Event()
def reader(who, path):
    s = Stream("127.0.0.1", port, path)
    while not stop.is_set():
        try:
            s.page(timeout=1)
            got.setdefault(who, []).append(time.perf_counter())
        except (TimeoutError, OSError):
            continue
        except EOFError:
            return
ths = []
for who in ["table", *PLAYERS]:
    path = f"/t/{links[tokens.TABLE]}" if who == "table" else f"/p/{links[who]}"
    th = threading.Thread(target=reader, args=(who, path), daemon=True); th.start(); ths.append(th)
time.sleep(2)
store = Store(home)
rows = []
for n in range(int(sys.argv[1]) if len(sys.argv) > 1 else 15):
    for k in list(T): T[k].clear()
    got.clear()
    html = urllib.request.urlopen(f"{base}/p/{links['Ann']}").read().decode()
    form = next(f for f in forms_on(html) if any(b[0] == "city" for b in f["buttons"]))
    name, value = next(b for b in form["buttons"] if b[0] == "city")
    data = urllib.parse.urlencode({**form["hidden"], name: value}).encode()
    time.sleep(0.3); got.clear(); T.clear()
    t0 = time.perf_counter()
    req = urllib.request.Request(f"{base}{form['action'].replace('{token}', links['Ann'])}", data=data)
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k): return None
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(req)
    except urllib.error.HTTPError as e:
        assert e.code == 303, e.code
    t_resp = time.perf_counter()
    end = time.monotonic() + 5
    while len(got) < 7 and time.monotonic() < end:
        time.sleep(0.005)
    last = max(v[0] for v in got.values()) if got else float("nan")
    rs = T.get("refresh start", [float("nan")])[0]
    rows.append(dict(post=(t_resp - t0) * 1000, refresh_start=(rs - t0) * 1000, refresh=(T.get("refresh took", [0])[0]) * 1000,
                     renders=sum(T.get("render player", [])) * 1000 + sum(T.get("render table", [])) * 1000,
                     n_render=len(T.get("render player", [])) + len(T.get("render table", [])),
                     sigs=len(T.get("signature", [])), sig_ms=sum(T.get("signature", [])) * 1000,
                     first=(min(v[0] for v in got.values()) - t0) * 1000, last=(last - t0) * 1000, pages=len(got)))
    sessions.step(store, sid, "undo"); time.sleep(0.4)
stop.set(); running.stop()
for k in rows[0]:
    vals = [r[k] for r in rows]
    print(f"{k:>14}: median {statistics.median(vals):7.1f}  min {min(vals):7.1f}  max {max(vals):7.1f}")
print("load", os.getloadavg())
