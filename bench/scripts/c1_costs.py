#!/usr/bin/env python3
"""What a fresh markdown scrape at c=1 costs the server besides instructions
(BENCHMARKS.md, "The c=1 gap"): per request, the client's wall time, CPU of all threads (schedstat, ns),
user and system time (/proc ticks), minor page faults, and CPU and faults by
thread name; binaries side by side, rounds interleaved, a new URL per scrape
(a new cache entry each). Pages: wcxb-dev 4036 (~30 KB), 0402 (~500 KB, N/4
scrapes), 0541 (9 KB), served on loopback by meter_site.py.

usage: c1_costs.py N ROUNDS BIN [NAME=VALUE:BIN ...]   (run from the repository root)
env: PAGES=4036,0402,0541; NOCACHE=1 sends storeInCache: false; REPEAT=1 scrapes
     the same URL every time (one entry replaced over and over, as the peer bench does);
     STRACE=1 then attaches `strace -f -c` to each server for N more scrapes
     per page and prints system calls per request by kind.
Note: tokio's blocking pool threads (the cache's 1 s durable commit) carry the
workers' name, tokio-rt-worker."""
import collections, http.client, json, os, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meter_site import ROOT, rss, serve_pages, start as start_server

PAGES = os.environ.get("PAGES", "4036,0402,0541").split(",")
NOCACHE = os.environ.get("NOCACHE") == "1"
REPEAT = os.environ.get("REPEAT") == "1"
WORK = os.path.join(ROOT, "target/c1-costs")


def scrape(conn, port, page, q):
    if REPEAT:
        q = 0
    body = {"url": f"http://127.0.0.1:{port}/{page}?{q}", "formats": ["markdown"], "maxAge": 0}
    if NOCACHE:
        body["storeInCache"] = False
    conn.request("POST", "/v2/scrape", json.dumps(body), {"content-type": "application/json"})
    r = conn.getresponse()
    out = r.read()
    assert r.status == 200, out[:300]


def threads(pid):
    """tid -> (name, CPU ns, minor faults)."""
    res = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            st = open(f"/proc/{pid}/task/{t}/stat").read()
            ns = int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0])
        except FileNotFoundError:
            continue
        res[t] = (st[st.index("(") + 1:st.rindex(")")], ns, int(st.rsplit(")", 1)[1].split()[7]))
    return res


def ticks(pid):
    """(user ms, system ms) of the process."""
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    ms = 1000 / os.sysconf("SC_CLK_TCK")
    return int(f[11]) * ms, int(f[12]) * ms


def spec(arg):
    """NAME=VALUE:...:BIN -> (BIN, {NAME: VALUE})."""
    extra = {}
    while ":" in arg and "=" in arg.split(":", 1)[0]:
        kv, arg = arg.split(":", 1)
        k, v = kv.split("=", 1)
        extra[k] = v
    return arg, extra


def measure(p, conn, port, page, reps, q):
    t0, u0 = threads(p.pid), ticks(p.pid)
    w0 = time.perf_counter()
    for i in range(reps):
        scrape(conn, port, page, q + i)
    wall = (time.perf_counter() - w0) / reps * 1e3
    t1, u1 = threads(p.pid), ticks(p.pid)
    by = collections.defaultdict(lambda: [0, 0])
    for t, (name, ns, flt) in t1.items():
        _, ns0, flt0 = t0.get(t, (name, 0, 0))
        by[name][0] += ns - ns0
        by[name][1] += flt - flt0
    cpu = sum(v[0] for v in by.values()) / reps / 1e6
    flt = sum(v[1] for v in by.values()) / reps
    return cpu, (u1[0] - u0[0]) / reps, (u1[1] - u0[1]) / reps, flt, by, wall


def main():
    n, rounds, bins = int(sys.argv[1]), int(sys.argv[2]), [spec(a) for a in sys.argv[3:]]
    port = serve_pages(tuple(PAGES))
    servers = []
    for k, (b, extra) in enumerate(bins):
        data = f"{WORK}/s{k}"
        subprocess.run(["rm", "-rf", data])
        p, _ = start_server(b, data, extra)  # the first start compiles the plugins
        p.terminate()
        p.wait()
        servers.append(start_server(b, data, extra))
    time.sleep(2)
    names = sys.argv[3:]
    for k, (p, _) in enumerate(servers):
        print(names[k], "rest", list(rss(p.pid)))
    q = 0
    for page in PAGES:
        reps = n if page != "0402" else max(n // 4, 5)
        rows = collections.defaultdict(list)
        for rnd in range(rounds):
            order = range(len(servers)) if rnd % 2 == 0 else reversed(range(len(servers)))
            for k in order:
                p, addr = servers[k]
                conn = http.client.HTTPConnection(addr)
                for _ in range(10):
                    q += 1
                    scrape(conn, port, page, q)
                cpu, user, system, flt, by, wall = measure(p, conn, port, page, reps, q)
                q += reps
                per = " ".join(f"{nm}:{v[0] / reps / 1e6:.3f}ms/{v[1] / reps:.1f}f"
                               for nm, v in sorted(by.items()) if v[0] > 0)
                print(f"{page} round {rnd} #{k}: wall {wall:.3f} ms, cpu {cpu:.3f} ms (user {user:.3f} sys {system:.3f}) "
                      f"faults {flt:.1f} | {per}", flush=True)
                rows[k].append((cpu, system, flt, wall))
        for k, rs in sorted(rows.items()):
            col = [sorted(r[i] for r in rs) for i in range(4)]
            med = [c[len(c) // 2] for c in col]
            print(f"== {page} #{k} {names[k]}: wall median {med[3]:.3f} [{col[3][0]:.3f}-{col[3][-1]:.3f}] ms, "
                  f"cpu median {med[0]:.3f} [{col[0][0]:.3f}-{col[0][-1]:.3f}] ms, "
                  f"sys {med[1]:.3f} ms, faults {med[2]:.1f} [{col[2][0]:.1f}-{col[2][-1]:.1f}]")
    if os.environ.get("STRACE") == "1":
        for page in PAGES:
            reps = n if page != "0402" else max(n // 4, 5)
            for k, (p, addr) in enumerate(servers):
                conn = http.client.HTTPConnection(addr)
                out = f"{WORK}/strace-{k}-{page}.txt"
                s = subprocess.Popen(["strace", "-f", "-c", "-o", out, "-p", str(p.pid)],
                                     stderr=subprocess.DEVNULL)
                time.sleep(1)
                for _ in range(reps):
                    q += 1
                    scrape(conn, port, page, q)
                s.send_signal(2)
                s.wait()
                calls = {}
                for line in open(out).read().splitlines()[2:]:
                    f = line.split()
                    if len(f) >= 5 and f[3].isdigit() and f[-1] != "total":
                        calls[f[-1]] = int(f[3]) / reps
                top = sorted(calls.items(), key=lambda kv: -kv[1])
                print(f"syscalls {page} #{k}: {sum(calls.values()):.1f}/request: "
                      + ", ".join(f"{c} {v:.2f}" for c, v in top if v >= 0.05))
    for k, (p, _) in enumerate(servers):
        print(names[k], "end", list(rss(p.pid)))
        p.terminate()


if __name__ == "__main__":
    main()
