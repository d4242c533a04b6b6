#!/usr/bin/env python3
"""Server CPU per fresh markdown scrape, binaries side by side (BENCHMARKS.md).

Serves three wcxb-dev pages on loopback (4036 ~30 KB, 0402 ~500 KB, 0541), starts
each binary twice (the first start fills its compiled-plugin cache), then per page
three rounds alternating the binaries at c=1 (N scrapes; N/8 of 0402), then a c=16
mix (12 clients on 4036, 4 on 0402, N/4 scrapes each) with VmHWM/VmRSS.

usage: cpu_meter.py N BIN [NAME=VALUE:BIN ...]   (run from the repository root)
env: PLUGINS (default target/release/plugins), PERF=1 perf-records the last binary.
NAME=VALUE:BIN sets an environment variable for that binary only (e.g. its own DISTILL_PLUGINS_DIR)."""
import gzip, http.client, http.server, json, os, socketserver, subprocess, sys, threading, time
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "../shared/corpus/wcxb-dev/html")
WORK = os.path.join(ROOT, "target/cpu-meter")
PAGES = {i: gzip.open(f"{CORPUS}/{i}.html.gz").read() for i in ("4036", "0402", "0541")}
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 1 << 20
    def do_GET(self):
        body = PAGES[self.path.strip("/").split("?")[0]]
        self.send_response(200); self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer): daemon_threads = True
site = S(("127.0.0.1", 0), H); threading.Thread(target=site.serve_forever, daemon=True).start()
port = site.server_address[1]
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def rss(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith(("VmRSS", "VmHWM")): yield l.split()[0] + l.split()[1]
def start(binary, tag, fresh=True):
    data = f"{WORK}/data-{tag}"
    if fresh: subprocess.run(["rm", "-rf", data]); os.makedirs(data)
    extra = {}
    if "=" in binary:
        kv, binary = binary.split(":", 1); k, v = kv.split("="); extra[k] = v
    env = {"PATH": os.environ["PATH"], "DISTILL_HOST": "127.0.0.1", "DISTILL_PORT": "0",
           "DISTILL_ALLOW_PRIVATE_TARGETS": "true", "DISTILL_PLUGINS_DIR": os.environ.get("PLUGINS", os.path.join(ROOT, "target/release/plugins")),
           "DISTILL_DATA_DIR": data, "DISTILL_LOG": "warn", **extra}
    p = subprocess.Popen([binary], env=env, stdout=subprocess.PIPE, stderr=open(f"{data}.log", "w"), text=True)
    for line in p.stdout:
        if "listening on" in line.lower() or line.startswith("DISTILL_READY"):
            addr = line.strip().split()[-1]; break
    threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
    return p, addr.replace("http://", "")
def scrape(conn, page, i, dump=None):
    body = json.dumps({"url": f"http://127.0.0.1:{port}/{page}?{i}", "formats": ["markdown"], "maxAge": 0})
    conn.request("POST", "/v2/scrape", body, {"content-type": "application/json"})
    r = conn.getresponse(); out = r.read(); assert r.status == 200, out[:300]
    return out
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
