#!/usr/bin/env python3
"""The server's c=16 memory peak, many rounds per binary (BENCHMARKS.md).

cpu_meter.py's c=16 mix (12 clients on wcxb-dev 4036 ~30 KB, 4 on 0402 ~500 KB,
N/4 fresh markdown scrapes each) gives one VmHWM per binary, which moves by
several MiB from run to run. Here every round starts each binary afresh (on a
copy of the compiled plugins an earlier start made; the page cache file
grows from round to round unless EMPTY_CACHE=1), records
VmRSS at rest, warms it at c=1 (N/4 scrapes of 4036, N/32 of 0402, N/4 of
0541, like the meter's c=1 rounds), runs the c=16 mix and records VmHWM, VmRSS
and the server CPU per scrape; then resets the peak (/proc/PID/clear_refs)
and runs the mix again (a server that has seen a burst already). Binaries
take turns within a round, in a rotated order, one server at a time.
Prints each round, then per binary the median and range of every figure.

usage: rss_meter.py ROUNDS N BIN [NAME=VALUE:BIN ...]   (from the repository root)
NAME=VALUE[,NAME=VALUE...]:BIN sets environment variables for that binary only.
env: PLUGINS (default target/release/plugins); SAMPLE=1 also prints the RSS
sampled every 10 ms through the first burst of each round; BODY='{"k": v}' adds
fields to every scrape request (e.g. storeInCache false, to see the cache's share);
MIX=PAGE:CLIENTS[,PAGE:CLIENTS...] sets the burst's clients (default
4036:12,0402:4; MIX=0402:16 is the peer's c=16 of 500 KB pages alone)."""
import http.client, json, os, statistics, subprocess, sys, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meter_site import ROOT, cpu, scrape as scrape_page, serve_pages, start as start_server

WORK = os.path.join(ROOT, "target/rss-meter")
port = serve_pages(("4036", "0402", "0541"))


def parse(spec):
    """(label, binary, env) from BIN or NAME=VALUE[,NAME=VALUE]:BIN."""
    extra = {}
    if "=" in spec.split("/")[0]:
        kvs, spec_bin = spec.split(":", 1)
        for kv in kvs.split(","):
            k, v = kv.split("=", 1)
            extra[k] = v
        return f"{os.path.basename(spec_bin)} {kvs}", spec_bin, extra
    return os.path.basename(spec), spec, extra


def status(pid):
    """VmRSS and VmHWM of `pid` in MiB."""
    out = {}
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(("VmRSS", "VmHWM")):
            out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out["VmRSS"], out["VmHWM"]


def scrapes(addr, page, reps):
    conn = http.client.HTTPConnection(addr)
    for i in range(reps):
        if EXTRA:
            body = json.dumps({"url": f"http://127.0.0.1:{port}/{page}?{i}", "formats": ["markdown"], "maxAge": 0, **EXTRA})
            conn.request("POST", "/v2/scrape", body, {"content-type": "application/json"})
            r = conn.getresponse()
            assert r.status == 200, r.read()[:300]
            r.read()
        else:
            scrape_page(conn, port, page, f"?{i}")


def mix():
    """The burst's pages, one per client (MIX)."""
    pages = []
    for part in os.environ.get("MIX", "4036:12,0402:4").split(","):
        page, clients = part.split(":")
        pages += [page] * int(clients)
    return pages


def burst(p, addr, n, sample):
    """The c=16 mix; returns (VmHWM, VmRSS after, CPU ms per scrape, samples)."""
    clients = mix()
    ts = [threading.Thread(target=scrapes, args=(addr, page, n // 4)) for page in clients]
    seen, done = [], threading.Event()

    def sampler():
        while not done.is_set():
            seen.append(status(p.pid)[0])
            time.sleep(0.01)

    s = threading.Thread(target=sampler) if sample else None
    c0 = cpu(p.pid)
    if s:
        s.start()
    [t.start() for t in ts]
    [t.join() for t in ts]
    done.set()
    if s:
        s.join()
    c1 = cpu(p.pid)
    rss, hwm = status(p.pid)
    return hwm, rss, 1000 * (c1 - c0) / (len(clients) * (n // 4)), seen


rounds, n = int(sys.argv[1]), int(sys.argv[2])
bins = [parse(b) for b in sys.argv[3:]]
sample = os.environ.get("SAMPLE") == "1"
EXTRA = json.loads(os.environ.get("BODY", "{}"))
# Each binary compiles its plugins once; every data directory gets a copy, so
# all read code files made the same way (how a file came into the page cache
# changes how much of it a mapping holds resident: ~4 MiB at rest here).
compiled = {}
for k, (label, binary, extra) in enumerate(bins):
    if binary not in compiled:
        compiled[binary] = f"{WORK}/compile-{len(compiled)}"
        subprocess.run(["rm", "-rf", compiled[binary]])
        p, _ = start_server(binary, compiled[binary], extra)
        p.terminate()
        p.wait()
    data = f"{WORK}/data-{k}"
    subprocess.run(["rm", "-rf", data])
    os.makedirs(data)
    subprocess.run(["cp", "-r", f"{compiled[binary]}/wasm-cache", data])
figures = {k: [] for k in range(len(bins))}
names = ("rest", "hwm1", "rss1", "cpu1", "hwm2", "rss2", "cpu2")
for rnd in range(rounds):
    order = list(range(len(bins)))
    order = order[rnd % len(order):] + order[:rnd % len(order)]
    for k in order:
        label, binary, extra = bins[k]
        if os.environ.get("EMPTY_CACHE") == "1":
            subprocess.run(["rm", "-rf", f"{WORK}/data-{k}/cache"])
        p, addr = start_server(binary, f"{WORK}/data-{k}", extra)
        time.sleep(1)
        rest = status(p.pid)[0]
        scrapes(addr, "4036", n // 4)
        scrapes(addr, "0402", max(n // 32, 2))
        scrapes(addr, "0541", n // 4)
        hwm1, rss1, cpu1, seen = burst(p, addr, n, sample)
        with open(f"/proc/{p.pid}/clear_refs", "w") as f:
            f.write("5")
        hwm2, rss2, cpu2, _ = burst(p, addr, n, False)
        p.terminate()
        p.wait()
        row = (rest, hwm1, rss1, cpu1, hwm2, rss2, cpu2)
        figures[k].append(row)
        print(f"round {rnd} {label}: rest {rest:.1f} | burst 1 HWM {hwm1:.1f} RSS {rss1:.1f} cpu {cpu1:.3f} ms"
              f" | burst 2 HWM {hwm2:.1f} RSS {rss2:.1f} cpu {cpu2:.3f} ms", flush=True)
        if seen:
            print("  samples", " ".join(f"{x:.0f}" for x in seen[:: max(1, len(seen) // 60)]), flush=True)
print()
print("binary | " + " | ".join(names) + "   (median [min-max]; MiB, CPU ms per scrape)")
for k, (label, _, _) in enumerate(bins):
    cols = []
    for j, name in enumerate(names):
        xs = [r[j] for r in figures[k]]
        fmt = "{:.3f}" if name.startswith("cpu") else "{:.1f}"
        cols.append(f"{fmt.format(statistics.median(xs))} [{fmt.format(min(xs))}-{fmt.format(max(xs))}]")
    print(f"{label} | " + " | ".join(cols))
