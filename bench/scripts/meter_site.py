"""What the server meters (cpu_meter.py, data_dir_ab.py) share: wcxb-dev pages
served on loopback, a distill server started on a data directory, its CPU,
page faults and memory read from /proc, and one fresh markdown scrape."""
import gzip, http.server, json, os, socketserver, subprocess, threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "../shared/corpus/wcxb-dev/html")


def serve_pages(ids):
    """Serves the wcxb-dev pages `ids` at http://127.0.0.1:PORT/ID; returns PORT."""
    pages = {i: gzip.open(f"{CORPUS}/{i}.html.gz").read() for i in ids}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        wbufsize = 1 << 20

        def do_GET(self):
            body = pages[self.path.strip("/").split("?")[0]]
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    site = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    return site.server_address[1]


def _stat(pid):
    return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()


def cpu(pid):
    """User + system CPU seconds of `pid`."""
    f = _stat(pid)
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def parts(pid):
    """(user s, system s, minor faults) of `pid`."""
    f = _stat(pid)
    tick = os.sysconf("SC_CLK_TCK")
    return int(f[11]) / tick, int(f[12]) / tick, int(f[7])


def rss(pid):
    """VmRSS and VmHWM of `pid`, as 'VmRSS:123' strings."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(("VmRSS", "VmHWM")):
            yield line.split()[0] + line.split()[1]


def start(binary, data, extra=None):
    """Starts `binary` on data directory `data` (log beside it in DATA.log);
    returns (process, host:port) once it listens."""
    os.makedirs(data, exist_ok=True)
    env = {"PATH": os.environ["PATH"], "DISTILL_HOST": "127.0.0.1", "DISTILL_PORT": "0",
           "DISTILL_ALLOW_PRIVATE_TARGETS": "true",
           "DISTILL_PLUGINS_DIR": os.environ.get("PLUGINS", os.path.join(ROOT, "target/release/plugins")),
           "DISTILL_DATA_DIR": data, "DISTILL_LOG": "warn", **(extra or {})}
    p = subprocess.Popen([binary], env=env, stdout=subprocess.PIPE, stderr=open(f"{data}.log", "w"), text=True)
    addr = None
    for line in p.stdout:
        if "listening on" in line.lower() or line.startswith("DISTILL_READY"):
            addr = line.strip().split()[-1]
            break
    if addr is None:
        raise SystemExit(f"{binary} exited before listening; see {data}.log")
    threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
    return p, addr.replace("http://", "")


def scrape(conn, port, page, query=""):
    """One fresh markdown scrape of page `page` (served on `port`) through `conn`."""
    body = json.dumps({"url": f"http://127.0.0.1:{port}/{page}{query}", "formats": ["markdown"], "maxAge": 0})
    conn.request("POST", "/v2/scrape", body, {"content-type": "application/json"})
    r = conn.getresponse()
    out = r.read()
    assert r.status == 200, out[:300]
    return out
