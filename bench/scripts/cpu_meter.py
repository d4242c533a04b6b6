#!/usr/bin/env python3
"""Server CPU per fresh markdown scrape, binaries side by side (BENCHMARKS.md).

Serves three wcxb-dev pages on loopback (4036 ~30 KB, 0402 ~500 KB, 0541), starts
each binary twice (the first start fills its compiled-plugin cache), then per page
three rounds alternating the binaries at c=1 (N scrapes; N/8 of 0402), then a c=16
mix (12 clients on 4036, 4 on 0402, N/4 scrapes each) with VmHWM/VmRSS.

usage: cpu_meter.py N BIN [NAME=VALUE:BIN ...]   (run from the repository root)
env: PLUGINS (default target/release/plugins), PERF=1 perf-records the last binary.
NAME=VALUE:BIN sets an environment variable for that binary only (e.g. its own DISTILL_PLUGINS_DIR)."""
import http.client, os, subprocess, sys, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meter_site import ROOT, cpu, rss, scrape as scrape_page, serve_pages, start as start_server
WORK = os.path.join(ROOT, "target/cpu-meter")
port = serve_pages(("4036", "0402", "0541"))
def start(binary, tag, fresh=True):
    data = f"{WORK}/data-{tag}"
    if fresh: subprocess.run(["rm", "-rf", data]); os.makedirs(data)
    extra = {}
    if "=" in binary:
        kv, binary = binary.split(":", 1); k, v = kv.split("=", 1); extra[k] = v
    return start_server(binary, data, extra)
def scrape(conn, page, i):
    return scrape_page(conn, port, page, f"?{i}")
n = int(sys.argv[1]); bins = sys.argv[2:]
# First start fills each data dir's compiled-plugin cache; measure the second.
for k, b in enumerate(bins):
    p, _ = start(b, f"s{k}"); p.terminate(); p.wait()
servers = [start(b, f"s{k}", fresh=False) for k, b in enumerate(bins)]
time.sleep(2)
for k, (p, addr) in enumerate(servers):
    print(bins[k], "rest", list(rss(p.pid)))
for page in ("4036", "0402", "0541"):
    reps = n if page != "0402" else max(n // 8, 5)
    for rnd in range(3):
        for k, (p, addr) in enumerate(servers):
            conn = http.client.HTTPConnection(addr)
            for i in range(10): scrape(conn, page, i)
            perf = None
            if os.environ.get("PERF") and k == len(servers) - 1 and rnd == 0:
                perf = subprocess.Popen(["perf", "record", "-F", "1500"] + os.environ.get("PERFARGS", "-g").split() + [ "-o", f"{WORK}/perf-{page}.data", "-p", str(p.pid)], stderr=subprocess.DEVNULL)
                time.sleep(0.5)
            c0, t0 = cpu(p.pid), time.time()
            for i in range(reps): scrape(conn, page, i)
            c1, t1 = cpu(p.pid), time.time()
            if perf: perf.send_signal(2); perf.wait()
            print(f"{page} round {rnd} {os.path.basename(bins[k])}#{k}: cpu {1000*(c1-c0)/reps:.3f} ms/scrape, wall {1000*(t1-t0)/reps:.3f} ms")
# c=16 on the article (RSS under load), threads with their own connections.
def worker(addr, page, reps):
    conn = http.client.HTTPConnection(addr)
    for i in range(reps): scrape(conn, page, i)
for k, (p, addr) in enumerate(servers):
    c0, t0 = cpu(p.pid), time.time()
    ts = [threading.Thread(target=worker, args=(addr, page, n // 4)) for page in ("4036",) * 12 + ("0402",) * 4]
    [t.start() for t in ts]; [t.join() for t in ts]
    c1, t1 = cpu(p.pid), time.time()
    print(f"c=16 mixed {os.path.basename(bins[k])}#{k}: cpu {c1-c0:.2f} s, wall {t1-t0:.2f} s", list(rss(p.pid)))
for k, (p, addr) in enumerate(servers):
    print(bins[k], "end", list(rss(p.pid))); p.terminate()
