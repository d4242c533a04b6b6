#!/usr/bin/env python3
"""Server CPU per fresh markdown scrape, servers on given data directories
(BENCHMARKS.md, "A restarted server"): e.g. one on a new directory beside one on
a copy of a used one, and two binaries, in interleaved rounds (alternating
order); per round utime, stime and minor page faults per scrape from /proc.

usage: data_dir_ab.py ROUNDS REPS PAGE[,PAGE] NAME=DATADIR[@BIN][|VAR=VALUE...] ...
  (wcxb-dev page ids; BIN defaults to target/release/distill; VAR=VALUE sets an
  environment variable for that server only)
env: SAMEURL=1: the same URL every request (as the peer bench); else a new one
     each time (a new cache entry). FILL=N: N untimed scrapes per page first.
     C16=N: then a c=16 mixed load (12 clients on 4036, 4 on 0402, N scrapes
     each) with VmHWM/VmRSS. PLUGINS: plugin dir (default target/release/plugins)."""
import http.client, os, sys, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meter_site import ROOT, cpu, parts, rss, scrape as scrape_page, serve_pages, start
SAME = os.environ.get("SAMEURL") == "1"
def scrape(conn, page, i):
    scrape_page(conn, port, page, "" if SAME else f"?{i}")
if __name__ == "__main__":
    rounds, reps = int(sys.argv[1]), int(sys.argv[2])
    pages = sys.argv[3].split(",")
    needed = set(pages) | ({"4036", "0402"} if os.environ.get("C16") else set())
    port = serve_pages(sorted(needed))
    specs = []
    for a in sys.argv[4:]:
        name, rest = a.split("=", 1)
        rest, _, envs = rest.partition("|")
        data, _, b = rest.partition("@")
        extra = dict(kv.split("=", 1) for kv in envs.split("|") if kv) if envs else {}
        specs.append((name, data, b or os.path.join(ROOT, "target/release/distill"), extra))
    servers = [start(b, d, e) for (_, d, b, e) in specs]
    time.sleep(1)
    fill = int(os.environ.get("FILL", "0"))
    tot = {}
    for page in pages:
        for k, (p, addr) in enumerate(servers):
            conn = http.client.HTTPConnection(addr)
            for i in range(fill): scrape(conn, page, 100000 + i)
        for rnd in range(rounds):
            order = list(range(len(servers)))
            if rnd % 2: order.reverse()
            for k in order:
                p, addr = servers[k]
                conn = http.client.HTTPConnection(addr)
                for i in range(5): scrape(conn, page, 50000 + rnd * 1000 + i)
                pa = parts(p.pid)
                c0, t0 = cpu(p.pid), time.time()
                for i in range(reps): scrape(conn, page, rnd * reps + i)
                c1, t1 = cpu(p.pid), time.time()
                pb = parts(p.pid)
                ms = 1000 * (c1 - c0) / reps
                print(f"   user {1000*(pb[0]-pa[0])/reps:.2f} sys {1000*(pb[1]-pa[1])/reps:.2f} minflt {(pb[2]-pa[2])/reps:.0f}")
                tot.setdefault((page, specs[k][0]), []).append(ms)
                print(f"{page} r{rnd} {specs[k][0]}: cpu {ms:.3f} ms/scrape wall {1000*(t1-t0)/reps:.3f}", flush=True)
    if os.environ.get("C16"):
        n16 = int(os.environ["C16"])
        def worker(addr, page, reps, base):
            conn = http.client.HTTPConnection(addr)
            for i in range(reps): scrape(conn, page, base + i)
        for k, (p, addr) in enumerate(servers):
            print(f"rest {specs[k][0]}: {' '.join(rss(p.pid))}")
        for k, (p, addr) in enumerate(servers):
            c0, t0 = cpu(p.pid), time.time()
            ts = [threading.Thread(target=worker, args=(addr, pg, n16, 200000 + j * 10000)) for j, pg in enumerate(("4036",) * 12 + ("0402",) * 4)]
            [t.start() for t in ts]; [t.join() for t in ts]
            c1, t1 = cpu(p.pid), time.time()
            print(f"c=16 mixed {specs[k][0]}: cpu {c1-c0:.2f} s wall {t1-t0:.2f} s after: {' '.join(rss(p.pid))}", flush=True)
        time.sleep(12)
        for k, (p, addr) in enumerate(servers):
            print(f"12 s later {specs[k][0]}: {' '.join(rss(p.pid))}")
    for (page, name), v in tot.items():
        print(f"SUMMARY {page} {name}: mean {sum(v)/len(v):.3f} ms  rounds {' '.join(f'{x:.2f}' for x in v)}")
    for (_, d, _, _), (p, _) in zip(specs, servers):
        p.terminate(); p.wait()
        for root, _, files in os.walk(d):
            for f in files:
                fp = os.path.join(root, f)
                if f.endswith(".redb"): print("size", fp, os.path.getsize(fp))
