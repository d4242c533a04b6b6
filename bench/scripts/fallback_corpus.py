#!/usr/bin/env python3
"""How often the browser fallback would fire on real, server-rendered pages.

Serves every page of a corpus (`html/*.html.gz`, pages whose ground-truth
content is in the saved markup) from loopback and scrapes each through the
server with no browser installed (`DISTILL_CHROMIUM=/nonexistent`), so no
page is fetched again and nothing leaves the machine: a page the detector
calls script-rendered gets the fallback's warning naming its signal. Every
such page is a false positive (its content is in the HTML).

Usage: bench/scripts/fallback_corpus.py SERVER_BIN PLUGINS_DIR CORPUS_DIR...
"""

import collections
import gzip
import http.server
import json
import os
import re
import sys
import tempfile
import threading
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_flags as bf  # noqa: E402

PAGES = {}


class Site(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = PAGES.get(self.path.lstrip("/"), b"")
        self.send_response(200 if body else 404)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    bin_path, plugins, corpora = sys.argv[1], sys.argv[2], sys.argv[3:]
    for corpus in corpora:
        d = os.path.join(corpus, "html")
        for name in sorted(os.listdir(d)):
            if name.endswith(".html.gz"):
                PAGES[os.path.basename(corpus) + "/" + name[:-3]] = gzip.open(os.path.join(d, name)).read()
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    work = tempfile.mkdtemp(prefix="distill-fallback-corpus-")
    proc, base, _ = bf.start_server(bin_path, plugins, os.path.join(work, "data"), "/nonexistent/chromium")
    signals = collections.Counter()
    per_corpus = collections.Counter()
    flagged = []
    try:
        for path in PAGES:
            body = json.dumps({"url": f"http://127.0.0.1:{site.server_address[1]}/{path}",
                               "formats": ["markdown"], "maxAge": 0}).encode()
            req = urllib.request.Request(base + "/v2/scrape", data=body, headers={"content-type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=60) as resp:
                    data = json.load(resp).get("data", {})
            except Exception as e:  # noqa: BLE001
                print("failed", path, e, file=sys.stderr)
                continue
            m = re.search(r"looks script-rendered \((\w+)\)", data.get("warning") or "")
            if m:
                signals[m.group(1)] += 1
                per_corpus[path.split("/")[0]] += 1
                flagged.append((path, m.group(1), len(data.get("markdown") or "")))
    finally:
        proc.kill()
        proc.wait()
    print(f"{len(flagged)} of {len(PAGES)} pages flagged; by signal {dict(signals)}; by corpus {dict(per_corpus)}")
    for path, signal, md in flagged:
        print(f"  {path}: {signal}, markdown {md} chars")


if __name__ == "__main__":
    main()
