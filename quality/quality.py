#!/usr/bin/env python3
"""`make quality`: main-content extraction quality of Distill against trafilatura.

1. Serves the gunzipped pages of a corpus (default ../shared/corpus/wcxb-dev) from a
   fixture HTTP server on 127.0.0.1 (ephemeral port).
2. Starts target/release/distill on an ephemeral port (DISTILL_ALLOW_PRIVATE_TARGETS=true),
   or uses a running server given with --server, and POSTs /v2/scrape with
   formats ["markdown"] (default onlyMainContent) for every page; writes
   target/quality/distill/<id>.md.
3. Runs trafilatura (installed by this script into the venv target/tools/quality) on the
   same HTML; writes target/quality/trafilatura/<id>.txt.
4. Scores both with ../shared/tools/score_extraction.py and prints both per-page-type
   tables, a side-by-side summary and the issue's bar.

Python 3 standard library only; everything it creates stays under target/.
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))

# The version the corpus README's reference numbers were measured with.
TRAFILATURA_VERSION = "2.3.1"

# The bar of the issue.
BAR_F1 = 0.83
BAR_TYPE_F1 = 0.70
BAR_WITH = 0.72
BAR_WITHOUT = 0.06


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def load_pages(corpus):
    pages = []
    with open(os.path.join(corpus, "manifest.jsonl"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                pages.append(json.loads(line))
    return pages


# ---------------------------------------------------------------- fixture server

class Fixture:
    """Serves /<id>.html → the gunzipped corpus page, as text/html without a charset
    (the page's own BOM / <meta charset> decides, as for a server that sends none)."""

    def __init__(self, corpus, pages):
        self.bodies = {}
        for p in pages:
            path = os.path.join(corpus, "html", p["id"] + ".html.gz")
            with gzip.open(path, "rb") as f:
                self.bodies["/" + p["id"] + ".html"] = f.read()
        bodies = self.bodies

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                body = bodies.get(self.path.split("?", 1)[0])
                if body is None:
                    body, status, ctype = b"not found", 404, "text/plain"
                else:
                    status, ctype = 200, "text/html"
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, pid):
        return "%s/%s.html" % (self.base, pid)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# ---------------------------------------------------------------- distill

def start_distill(binary, plugins_dir, data_dir):
    env = dict(os.environ)
    env.update({
        "DISTILL_ALLOW_PRIVATE_TARGETS": "true",
        "DISTILL_HOST": "127.0.0.1",
        "DISTILL_PORT": "0",
        "DISTILL_PLUGINS_DIR": plugins_dir,
        "DISTILL_DATA_DIR": data_dir,
        "DISTILL_LOG": env.get("DISTILL_LOG", "warn"),
    })
    proc = subprocess.Popen([binary], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        line = line.strip()
        if line.startswith("distill listening on "):
            # Keep draining stdout so the server never blocks on a full pipe.
            threading.Thread(target=lambda: proc.stdout.read(), daemon=True).start()
            return proc, line[len("distill listening on "):]
    proc.kill()
    raise SystemExit("distill did not start (no listening line from %s)" % binary)


def scrape(server, url, timeout=60):
    body = json.dumps({"url": url, "formats": ["markdown"]}).encode()
    req = urllib.request.Request(server.rstrip("/") + "/v2/scrape", data=body,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            data = json.loads(r.read())
    except urllib.error.HTTPError as e:
        data = json.loads(e.read() or b"{}")
    if not data.get("success"):
        raise RuntimeError(data.get("error") or str(data)[:200])
    return data["data"].get("markdown") or ""


def run_distill(args, pages, fixture):
    out = os.path.join(args.out, "distill")
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    proc = None
    server = args.server
    if not server:
        proc, server = start_distill(args.bin, args.plugins_dir, args.data_dir)
    log("distill: %s, %d pages" % (server, len(pages)))
    failures = []

    def one(p):
        try:
            md = scrape(server, fixture.url(p["id"]))
        except Exception as e:  # noqa: BLE001 - reported, page scored as empty
            failures.append((p["id"], str(e)))
            return
        with open(os.path.join(out, p["id"] + ".md"), "w", encoding="utf-8") as f:
            f.write(md)

    started = time.time()
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            list(pool.map(one, pages))
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    log("distill: %d pages in %.1f s, %d failures" % (len(pages), time.time() - started, len(failures)))
    for pid, err in failures[:10]:
        log("  %s: %s" % (pid, err))
    return out


# ---------------------------------------------------------------- trafilatura

def ensure_trafilatura(venv):
    python = os.path.join(venv, "bin", "python")
    check = [python, "-c", "import trafilatura"]
    if os.path.exists(python) and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    log("installing trafilatura into %s" % venv)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    env = dict(os.environ, PIP_CACHE_DIR=os.path.join(venv, "pip-cache"))
    # lxml >= 5.2 moved lxml.html.clean (which jusText, a trafilatura dependency, imports)
    # into the separate lxml_html_clean package.
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "trafilatura==" + TRAFILATURA_VERSION, "lxml_html_clean"], check=True, env=env)
    return python


def run_trafilatura(args, pages):
    out = os.path.join(args.out, "trafilatura")
    python = ensure_trafilatura(args.venv)
    started = time.time()
    subprocess.run([python, os.path.join(HERE, "trafilatura_extract.py"),
                    "--corpus", args.corpus, "--out", out, "--jobs", str(args.jobs)],
                   check=True)
    log("trafilatura: %d pages in %.1f s" % (len(pages), time.time() - started))
    return out


# ---------------------------------------------------------------- scoring

def score(args, pred_dir, name):
    js = os.path.join(args.out, name + ".json")
    cmd = [sys.executable, args.scorer, "--corpus", args.corpus, "--pred-dir", pred_dir,
           "--json", js]
    if args.per_page:
        cmd.append("--per-page")
    table = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    with open(js, encoding="utf-8") as f:
        return table, json.load(f)


def verdict(s):
    worst = min(s["by_type"].items(), key=lambda kv: kv[1]["f1"])
    checks = [
        ("F1 >= %.2f" % BAR_F1, s["all"]["f1"] >= BAR_F1),
        ("every type >= %.2f (lowest %s %.3f)" % (BAR_TYPE_F1, worst[0], worst[1]["f1"]),
         worst[1]["f1"] >= BAR_TYPE_F1),
        ("with >= %.2f" % BAR_WITH, s["all"]["with_found"] >= BAR_WITH),
        ("without <= %.2f" % BAR_WITHOUT, s["all"]["without_kept"] <= BAR_WITHOUT),
    ]
    return checks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=os.path.normpath(os.path.join(REPO, "..", "shared", "corpus", "wcxb-dev")))
    ap.add_argument("--scorer", default=os.path.normpath(os.path.join(REPO, "..", "shared", "tools", "score_extraction.py")))
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "distill"))
    ap.add_argument("--plugins-dir", default=os.path.join(REPO, "target", "release", "plugins"))
    ap.add_argument("--data-dir", default=os.path.join(REPO, "target", "distill-data"))
    ap.add_argument("--out", default=os.path.join(REPO, "target", "quality"))
    ap.add_argument("--venv", default=os.path.join(REPO, "target", "tools", "quality"))
    ap.add_argument("--server", help="use this running Distill (it must allow private targets)")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--skip-trafilatura", action="store_true")
    ap.add_argument("--per-page", action="store_true", help="also print per-page scores")
    args = ap.parse_args()

    pages = load_pages(args.corpus)
    fixture = Fixture(args.corpus, pages)
    try:
        distill_dir = run_distill(args, pages, fixture)
    finally:
        fixture.close()
    results = [("Distill (markdown, onlyMainContent)", "distill", distill_dir)]
    if not args.skip_trafilatura:
        results.append(("trafilatura (plain text, defaults)", "trafilatura", run_trafilatura(args, pages)))

    summaries = {}
    for title, name, pred in results:
        table, summary = score(args, pred, name)
        summaries[name] = summary
        print("\n== %s ==" % title)
        print(table, end="")

    print("\n== side by side: F1 (with / without) ==")
    names = [n for _, n, _ in results]
    print("%-14s" % "type" + "".join("%-28s" % n for n in names))
    d = summaries["distill"]
    for t in list(d["by_type"]) + ["ALL"]:
        row = "%-14s" % t
        for n in names:
            v = summaries[n]["all"] if t == "ALL" else summaries[n]["by_type"][t]
            row += "%-28s" % ("%.3f (%.3f / %.3f)" % (v["f1"], v["with_found"], v["without_kept"]))
        print(row)

    checks = verdict(d)
    print("\nbar: " + ", ".join("%s %s" % (c, "ok" if ok else "MISSED") for c, ok in checks))
    line = "quality: distill F1=%.3f with=%.3f without=%.3f" % (
        d["all"]["f1"], d["all"]["with_found"], d["all"]["without_kept"])
    if "trafilatura" in summaries:
        t = summaries["trafilatura"]["all"]
        line += " | trafilatura F1=%.3f with=%.3f without=%.3f" % (t["f1"], t["with_found"], t["without_kept"])
    line += " | bar %s" % ("met" if all(ok for _, ok in checks) else "not met")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
