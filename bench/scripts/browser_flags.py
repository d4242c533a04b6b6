#!/usr/bin/env python3
"""Chromium flag experiments for the browser engine, by section 10's method.

`make bench` section 10 (bench/src/browser.rs) measures the pool with its
built-in flags. To try other flags without rebuilding the server, this script
runs the same measurement once per flag set: Chromium is started through a
wrapper that adds the set's flags to the pool's. Same page (2.9 KB static
article, no scripts), same request (`waitFor: 1`, `maxAge: 0`), same phases
(c=1 then c=4), same memory figure (PSS of the server and its Chromium tree
from /proc/PID/smaps_rollup: at rest after 5 warm-up scrapes and 3 s, peak
sampled every 250 ms under load). The server's wasm code cache is warmed by a
first, unmeasured start, as a restarted production server has it.

Usage: bench/scripts/browser_flags.py SERVER_BIN PLUGINS_DIR [--quick] [--sets NAME,...]
       [--rounds N] [--before-bin FILE] [--gap-ms MS] [--laps]
A set is Chromium flags (SETS) or server settings (ENV_SETS: environment given
to the server, e.g. the spare page off). --gap-ms adds a third phase: c=1
with MS of pause between requests (a client that does not ask back-to-back).
--laps logs each browser scrape's steps and prints the median of each step
in the c=1 phase (from the server's `distill::fetch::browser::laps` log).
Flag sets are in SETS below; rounds alternate between sets (and, with
--before-bin, between that binary and SERVER_BIN) so load drift on a shared
machine hits them alike. Memory at rest is read 3 s after the warm-up (as
section 10 does) and again 13 s after it (whatever the pool keeps for a
while after a scrape shows as the difference).
"""

import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

SETS = {
    "pool": [],
    "network-in-process": ["--enable-features=NetworkServiceInProcess2"],
    "one-renderer": ["--renderer-process-limit=1"],
    "no-site-isolation": ["--disable-site-isolation-trials", "--disable-features=IsolateOrigins,site-per-process"],
    "small-caches": ["--disk-cache-size=1", "--media-cache-size=1", "--aggressive-cache-discard"],
    "v8-lite": ["--js-flags=--lite-mode"],
    "network-and-gpu-in-process": ["--enable-features=NetworkServiceInProcess2", "--in-process-gpu"],
    # Browser-process services a scraper never uses (session 7).
    "lean-features": [
        "--disable-features=Translate,OptimizationHints,OptimizationGuideModelDownloading,MediaRouter,"
        "DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,"
        "InterestFeedContentSuggestions,PrivacySandboxSettings4,SafeBrowsing",
    ],
    "lean-all": [
        "--disable-features=Translate,OptimizationHints,OptimizationGuideModelDownloading,MediaRouter,"
        "DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,"
        "InterestFeedContentSuggestions,PrivacySandboxSettings4,SafeBrowsing",
        "--disable-breakpad",
        "--disable-client-side-phishing-detection",
        "--disable-domain-reliability",
        "--disable-crash-reporter",
        "--disable-notifications",
        "--disable-speech-api",
        "--disable-print-preview",
    ],
    # Session 8: the two zygote processes held ~40 MiB at rest; without them
    # each renderer is started by exec instead of fork.
    "no-zygote": ["--no-zygote"],
    "no-software-raster": ["--disable-software-rasterizer"],
    # Session 11: renderers as threads of the browser process (no process
    # start per context; no process isolation between pages).
    "single-process": ["--single-process"],
    "combined": [
        "--enable-features=NetworkServiceInProcess2",
        "--renderer-process-limit=1",
        "--disable-site-isolation-trials",
        "--disable-features=IsolateOrigins,site-per-process",
        "--disk-cache-size=1",
    ],
}


# Server settings compared like flag sets (the pool's flags, this environment).
ENV_SETS = {
    "spare": {},
    "no-spare": {"DISTILL_BROWSER_SPARE_IDLE_MS": "0"},
    # Session 10: besides after a scrape, a spare opens beside a working page
    # when its request had to wait for its spare ("when-waited"), or whenever
    # a request gets its page ("always-1", "always-2": at most one or two
    # spares), against session 9's after-close only ("after-close", the
    # default).
    "when-waited": {"DISTILL_BROWSER_SPARE_PAGES": "1", "DISTILL_BROWSER_SPARE_AHEAD": "waited"},
    "always-1": {"DISTILL_BROWSER_SPARE_PAGES": "1", "DISTILL_BROWSER_SPARE_AHEAD": "always"},
    "always-2": {"DISTILL_BROWSER_SPARE_PAGES": "2", "DISTILL_BROWSER_SPARE_AHEAD": "always"},
    "after-close": {"DISTILL_BROWSER_SPARE_PAGES": "1", "DISTILL_BROWSER_SPARE_AHEAD": "never"},
}


def page():
    html = ("<!DOCTYPE html><html><head><meta charset=utf-8><title>Static page</title></head>"
            "<body><main><h1>Static page</h1>")
    for i in range(40):
        html += f'<p>Paragraph {i}: plain text with a <a href="/p{i}">link</a> and <b>some</b> markup.</p>'
    return (html + "</main></body></html>").encode()


PAGE = page()


class Site(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(PAGE)))
        self.end_headers()
        try:
            self.wfile.write(PAGE)
        except BrokenPipeError:
            pass  # Chromium gave up on the connection (the page was already read).

    def log_message(self, *args):
        pass


def tree_pss(root):
    children = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = open(f"/proc/{name}/stat").read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(name))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        kib = 0
        try:
            for line in open(f"/proc/{pid}/smaps_rollup"):
                if line.startswith("Pss:"):
                    kib = int(line.split()[1])
                    break
        except OSError:
            pass
        out.append((pid, kib))
        todo.extend(children.get(pid, []))
    return out


def start_server(bin_path, plugins, data_dir, chromium, extra_env=None, stderr=None):
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DISTILL_HOST": "127.0.0.1",
        "DISTILL_PORT": "0",
        "DISTILL_ALLOW_PRIVATE_TARGETS": "true",
        "DISTILL_PLUGINS_DIR": plugins,
        "DISTILL_DATA_DIR": data_dir,
        "DISTILL_LOG": "warn",
        "DISTILL_CHROMIUM": chromium,
        **(extra_env or {}),
    }
    started = time.monotonic()
    proc = subprocess.Popen([bin_path], env=env, stdout=subprocess.PIPE,
                            stderr=stderr or subprocess.DEVNULL, text=True)
    for line in proc.stdout:
        prefix = "distill listening on http://"
        if line.strip().startswith(prefix):
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
            return proc, "http://" + line.strip()[len(prefix):], time.monotonic() - started
    raise RuntimeError("server exited before listening")


def scrape(base, body):
    started = time.monotonic()
    req = urllib.request.Request(base + "/v2/scrape", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        text = resp.read().decode()
    if "Static page" not in text:
        raise RuntimeError(text[:300])
    return (time.monotonic() - started) * 1000


def phase(base, body, concurrency, requests, gap=0.0):
    times, lock, counter = [], threading.Lock(), [0]

    def worker():
        while True:
            with lock:
                if counter[0] >= requests:
                    return
                counter[0] += 1
            t = scrape(base, body)
            with lock:
                times.append(t)
            time.sleep(gap)

    started = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    times.sort()
    pct = lambda p: times[min(len(times) - 1, int(round(p / 100 * (len(times) - 1))))]
    return {"c": concurrency, "n": len(times), "p50": pct(50), "p95": pct(95), "pps": len(times) / elapsed}


def step_medians(log_path, skip):
    """Median ms of each step over the laps lines after the first `skip`."""
    steps = {}
    lines = [l for l in open(log_path, errors="replace") if 'steps="' in l][skip:]
    for line in lines:
        for part in line.split('steps="')[1].split('"')[0].split():
            name, ms = part.split("=")
            steps.setdefault(name, []).append(float(ms))
    return {k: round(statistics.median(v), 1) for k, v in steps.items()}, len(lines)


def laps_count(log_path):
    return sum(1 for l in open(log_path, errors="replace") if 'steps="' in l)


def measure(bin_path, plugins, flags, quick, work, env=None, gap_ms=None, laps=False):
    wrapper = os.path.join(work, "chromium-" + str(abs(hash(tuple(flags)))))
    with open(wrapper, "w") as f:
        f.write("#!/bin/sh\nexec /usr/bin/chromium " + " ".join(flags) + ' "$@"\n')
    os.chmod(wrapper, 0o755)
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{site.server_address[1]}/page"
    body = json.dumps({"url": url, "formats": ["markdown"], "waitFor": 1, "maxAge": 0}).encode()
    data_dir = os.path.join(work, "data")
    env = dict(env or {})
    log_path, log = None, None
    if laps:
        env["DISTILL_LOG"] = "warn,distill::fetch::browser::laps=debug"
        log_path = os.path.join(work, "server.err")
        log = open(log_path, "w")
    proc, base, startup = start_server(bin_path, plugins, data_dir, wrapper, env, log)
    try:
        spawned = time.monotonic() - startup
        scrape(base, body)
        first = (time.monotonic() - spawned) * 1000
        for _ in range(5):
            scrape(base, body)
        time.sleep(3)
        rest = tree_pss(proc.pid)
        time.sleep(10)
        idle = tree_pss(proc.pid)
        peak, sampling = [0], [True]

        def sampler():
            while sampling[0]:
                peak[0] = max(peak[0], sum(k for _, k in tree_pss(proc.pid)))
                time.sleep(0.25)

        s = threading.Thread(target=sampler)
        s.start()
        before = laps_count(log_path) if laps else 0
        phases = [phase(base, body, 1, 30 if quick else 100)]
        step_ms = step_medians(log_path, before)[0] if laps else None
        phases.append(phase(base, body, 4, 60 if quick else 200))
        if gap_ms is not None:
            phases.append(phase(base, body, 1, 20 if quick else 60, gap_ms / 1000))
        sampling[0] = False
        s.join()
        return {
            "c1_steps_ms": step_ms,
            "startup_ms": startup * 1000,
            "first_page_ms": first,
            "rest_mib": sum(k for _, k in rest) / 1024,
            "rest_server_mib": rest[0][1] / 1024,
            "rest_procs": len(rest),
            "idle_mib": sum(k for _, k in idle) / 1024,
            "idle_procs": len(idle),
            "peak_mib": peak[0] / 1024,
            "phases": phases,
        }
    finally:
        proc.kill()
        proc.wait()
        site.shutdown()
        if log:
            log.close()


def main():
    args = sys.argv[1:]
    quick = "--quick" in args
    names = list(SETS)
    if "--sets" in args:
        names = args[args.index("--sets") + 1].split(",")
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 1
    bin_path, plugins = os.path.abspath(args[0]), os.path.abspath(args[1])
    bins = [("", bin_path)]
    if "--before-bin" in args:
        bins = [("before ", os.path.abspath(args[args.index("--before-bin") + 1])), ("", bin_path)]
    work = tempfile.mkdtemp(prefix="distill-browser-flags-")
    # Warm the wasm code cache (unmeasured): one start, one scrape.
    proc, base, _ = start_server(bin_path, plugins, os.path.join(work, "data"), "/usr/bin/chromium")
    try:
        time.sleep(1)
    finally:
        proc.kill()
        proc.wait()
    gap_ms = float(args[args.index("--gap-ms") + 1]) if "--gap-ms" in args else None
    laps = "--laps" in args
    results = {label + n: [] for label, _ in bins for n in names}
    for _ in range(rounds):
        for name in names:
            for label, path in bins:
                flags, env = (SETS[name], {}) if name in SETS else ([], ENV_SETS[name])
                load_before = os.getloadavg()[0]
                r = measure(path, plugins, flags, quick, work, env, gap_ms, laps)
                results[label + name].append(r)
                print(json.dumps({"set": label + name, "load_before": load_before, "load": os.getloadavg()[0], **r}),
                      flush=True)
    gap_head = f" c=1 +{gap_ms:.0f} ms gap p50 / p95 |" if gap_ms is not None else ""
    print("| set | rest MiB (server) | procs | idle MiB (procs) | peak MiB | c=1 p50 / p95 ms | c=4 p50 ms | c=4 pages/s |"
          + gap_head)
    print("|---|---|---|---|---|---|---|---|" + ("---|" if gap_ms is not None else ""))
    for name in results:
        rs = results[name]
        med = lambda f: statistics.median(f(r) for r in rs)
        print(f"| {name} | {med(lambda r: r['rest_mib']):.0f} ({med(lambda r: r['rest_server_mib']):.0f}) "
              f"| {med(lambda r: r['rest_procs']):.0f} "
              f"| {med(lambda r: r['idle_mib']):.0f} ({med(lambda r: r['idle_procs']):.0f}) | {med(lambda r: r['peak_mib']):.0f} "
              f"| {med(lambda r: r['phases'][0]['p50']):.0f} / {med(lambda r: r['phases'][0]['p95']):.0f} "
              f"| {med(lambda r: r['phases'][1]['p50']):.0f} | {med(lambda r: r['phases'][1]['pps']):.1f} |"
              + (f" {med(lambda r: r['phases'][2]['p50']):.0f} / {med(lambda r: r['phases'][2]['p95']):.0f} |"
                 if gap_ms is not None else ""))


if __name__ == "__main__":
    main()
