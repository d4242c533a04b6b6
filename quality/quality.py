#!/usr/bin/env python3
"""`make quality`: main-content extraction quality of Distill against trafilatura, on every
corpus in ../shared/corpus (each directory with a manifest.jsonl: wcxb-dev, articles…).

For each corpus:

1. Serves its gunzipped pages from a fixture HTTP server on 127.0.0.1 (ephemeral port).
2. Starts target/release/distill on an ephemeral port (DISTILL_ALLOW_PRIVATE_TARGETS=true),
   or uses a running server given with --server, and POSTs /v2/scrape with
   formats ["markdown"] (default onlyMainContent) for every page; writes
   target/quality/<corpus>/distill/<id>.md. (With --distill-pred ROOT, the outputs already
   in ROOT/<corpus>/<id>.md are scored instead, e.g. those of html/examples/corpus.rs, and
   no server is needed.)
3. Runs trafilatura (installed by this script into the venv target/tools/quality) on the
   same HTML with include_comments=False; writes target/quality/<corpus>/trafilatura/<id>.txt.
4. Scores both with the functions of ../shared/tools/score_extraction.py (imported, so the
   tokenisation and snippet matching are the scorer's own): per page precision, recall, F1
   (bag of words), 'with' snippets found and 'without' snippets kept; macro-averaged per
   page type and per source (the id's prefix: `dragnet-0001` → dragnet; plain numeric ids
   take the corpus's name). On the articles corpus 'without' holds reader-comment
   sentences: it measures comment leakage.

Prints the tables and the issue's targets, writes target/quality/<corpus>/pages.tsv (every
page, both extractors) and rewrites the generated section of docs/QUALITY.md (between the
`quality:begin` / `quality:end` markers; the rest of the file is history and stays).

Python 3 standard library only; everything it creates stays under target/ (and the doc).
"""
import argparse
import datetime
import gzip
import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))

# The version the corpus README's reference numbers were measured with.
TRAFILATURA_VERSION = "2.3.1"

# Targets of the article-precision issue, on the development data.
BAR_ARTICLE_P = 0.95  # article precision, on every corpus
BAR_ARTICLE_R = 0.96  # article recall, on every corpus
BAR_F1 = 0.87  # wcxb-dev, all pages
BAR_WITHOUT = 0.05  # 'without' snippets kept, every corpus
# wcxb-dev F1 per page type before the issue (corpus example on main at f057991): no type
# may fall below it.
TYPE_FLOOR = {
    "article": 0.936,
    "collection": 0.681,
    "documentation": 0.932,
    "forum": 0.802,
    "listing": 0.697,
    "product": 0.618,
    "service": 0.828,
}
FLOOR_CORPUS = "wcxb-dev"

DOC_BEGIN = "<!-- quality:begin (written by quality/quality.py; edits here are overwritten) -->"
DOC_END = "<!-- quality:end -->"


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


def find_corpora(root):
    return sorted(
        os.path.join(root, d)
        for d in os.listdir(root)
        if os.path.isfile(os.path.join(root, d, "manifest.jsonl"))
    )


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


def run_distill(args, server, corpus, pages, out):
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    fixture = Fixture(corpus, pages)
    log("distill: %s, %s, %d pages" % (server, os.path.basename(corpus), len(pages)))
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
        fixture.close()
    wall = time.time() - started
    log("distill: %d pages in %.1f s, %d failures" % (len(pages), wall, len(failures)))
    for pid, err in failures[:10]:
        log("  %s: %s" % (pid, err))
    return "%d pages scraped over HTTP in %.1f s wall, %d failures" % (len(pages), wall, len(failures))


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


def run_trafilatura(args, corpus, pages, out):
    python = ensure_trafilatura(args.venv)
    started = time.time()
    res = subprocess.run([python, os.path.join(HERE, "trafilatura_extract.py"),
                          "--corpus", corpus, "--out", out, "--jobs", str(args.jobs)],
                         check=True, capture_output=True, text=True)
    note = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else ""
    log("trafilatura: %d pages in %.1f s (%s)" % (len(pages), time.time() - started, note))
    return note


# ---------------------------------------------------------------- scoring

def load_scorer(path):
    """The shared scorer as a module: its own tokenisation, markdown stripping and snippet
    matching (the file is not modified, only imported)."""
    spec = importlib.util.spec_from_file_location("score_extraction", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def source_of(corpus_name, gt):
    pid = gt["id"]
    if gt.get("source"):
        return gt["source"]
    return pid.rsplit("-", 1)[0] if "-" in pid else corpus_name


def score_pages(scorer, corpus, pred_dir):
    """Per page: id, type, source, P, R, F1, with found/total, without kept/total."""
    name = os.path.basename(os.path.normpath(corpus))
    gt_dir = os.path.join(corpus, "ground-truth")
    rows = []
    for fname in sorted(os.listdir(gt_dir)):
        with open(os.path.join(gt_dir, fname), encoding="utf-8") as f:
            g = json.load(f)
        pid = g["id"]
        text = ""
        for ext in (".md", ".txt"):
            path = os.path.join(pred_dir, pid + ext)
            if os.path.exists(path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if ext == ".md":
                    text = scorer.markdown_to_text(text)
                break
        p, r, f1 = scorer.prf(scorer.words(text), scorer.words(g["main_content"]))
        t = scorer.norm(text)
        w = g.get("with", [])
        wo = g.get("without", [])
        rows.append({
            "id": pid, "type": g["page_type"], "source": source_of(name, g),
            "p": p, "r": r, "f1": f1,
            "with": sum(scorer.norm(x) in t for x in w), "with_n": len(w),
            "without": sum(scorer.norm(x) in t for x in wo), "without_n": len(wo),
        })
    return rows


def summary(rows):
    """Macro averages over pages, snippet shares over all snippets (the scorer's way)."""
    n = max(1, len(rows))
    return {
        "pages": len(rows),
        "precision": sum(x["p"] for x in rows) / n,
        "recall": sum(x["r"] for x in rows) / n,
        "f1": sum(x["f1"] for x in rows) / n,
        "with_found": sum(x["with"] for x in rows) / max(1, sum(x["with_n"] for x in rows)),
        "without_kept": sum(x["without"] for x in rows) / max(1, sum(x["without_n"] for x in rows)),
        "without_n": sum(x["without_n"] for x in rows),
    }


def grouped(rows, key):
    groups = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r)
    return {k: summary(v) for k, v in sorted(groups.items())}


def summarize(rows):
    return {"all": summary(rows), "by_type": grouped(rows, "type"), "by_source": grouped(rows, "source")}


# ---------------------------------------------------------------- report

def cell(s):
    return "%.3f | %.3f / %.3f | %.3f | %.3f" % (
        s["f1"], s["precision"], s["recall"], s["with_found"], s["without_kept"])


def table(title, d, t):
    """Markdown rows: Distill beside trafilatura for one grouping."""
    head = ("| %s | Distill F1 | P / R | with | without | trafilatura F1 | P / R | with | without |\n"
            "|---|---|---|---|---|---|---|---|---|\n" % title)
    lines = []
    keys = list(d.keys())
    for k in keys:
        row = "| %s (%d) | %s |" % (k, d[k]["pages"], cell(d[k]))
        row += " %s |" % (cell(t[k]) if t and k in t else "– | – | – | –")
        lines.append(row)
    return head + "\n".join(lines) + "\n"


def checks(results):
    """The issue's targets, as (label, ok) pairs, on the corpora measured."""
    out = []
    for name, res in results.items():
        d = res["distill"]
        art = d["by_type"].get("article")
        if art:
            out.append(("%s article P >= %.2f (%.3f)" % (name, BAR_ARTICLE_P, art["precision"]),
                        art["precision"] >= BAR_ARTICLE_P))
            out.append(("%s article R >= %.2f (%.3f)" % (name, BAR_ARTICLE_R, art["recall"]),
                        art["recall"] >= BAR_ARTICLE_R))
        out.append(("%s without <= %.2f (%.3f)" % (name, BAR_WITHOUT, d["all"]["without_kept"]),
                    d["all"]["without_kept"] <= BAR_WITHOUT))
        if name == FLOOR_CORPUS:
            out.append(("%s F1 >= %.2f (%.3f)" % (name, BAR_F1, d["all"]["f1"]), d["all"]["f1"] >= BAR_F1))
            below = [
                "%s %.3f < %.3f" % (t, s["f1"], TYPE_FLOOR[t])
                for t, s in d["by_type"].items()
                if t in TYPE_FLOOR and round(s["f1"], 3) < round(TYPE_FLOOR[t], 3)
            ]
            out.append(("%s no type below its score before the issue%s"
                        % (name, " (" + ", ".join(below) + ")" if below else ""), not below))
    return out


def report(results, notes, commit):
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = [DOC_BEGIN, "",
             "## Latest run: %s, commit %s" % (when, commit), ""]
    for name, res in results.items():
        d, t = res["distill"], res.get("trafilatura")
        parts.append("### %s (%d pages)" % (name, d["all"]["pages"]))
        parts.append("")
        for line in notes.get(name, []):
            parts.append("- " + line)
        parts.append("")
        if name == "articles":
            parts.append("'without' holds reader-comment sentences here: it is comment leakage "
                         "(%d snippets)." % d["all"]["without_n"])
            parts.append("")
        tt = t["by_type"] if t else None
        parts.append(table("type", d["by_type"], tt).rstrip("\n"))
        parts.append("| **all (%d)** | **%s | %s |" % (
            d["all"]["pages"], cell(d["all"]).replace(" | ", "** | ", 1),
            cell(t["all"]) if t else "– | – | – | –"))
        parts.append("")
        if len(d["by_source"]) > 1:
            parts.append(table("source", d["by_source"], t["by_source"] if t else None).rstrip("\n"))
            parts.append("")
    parts.append("Targets: " + "; ".join("%s %s" % (c, "met" if ok else "MISSED") for c, ok in checks(results)) + ".")
    parts.append("")
    parts.append(DOC_END)
    return "\n".join(parts) + "\n"


def write_doc(path, section):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        text = "# Extraction quality (`make quality`)\n\n"
    if DOC_BEGIN in text and DOC_END in text:
        before = text[:text.index(DOC_BEGIN)]
        after = text[text.index(DOC_END) + len(DOC_END):].lstrip("\n")
        text = before + section + "\n" + after
    else:
        # After the title and its first paragraph.
        cut = text.find("\n## ")
        cut = len(text) if cut < 0 else cut + 1
        text = text[:cut] + section + "\n" + text[cut:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_pages(path, d_rows, t_rows):
    t_by = {r["id"]: r for r in t_rows or []}
    with open(path, "w", encoding="utf-8") as f:
        f.write("id\ttype\tsource\tP\tR\tF1\twith\twithout\ttraf_F1\n")
        for r in d_rows:
            t = t_by.get(r["id"])
            f.write("%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%d/%d\t%d/%d\t%s\n" % (
                r["id"], r["type"], r["source"], r["p"], r["r"], r["f1"], r["with"], r["with_n"],
                r["without"], r["without_n"], "%.3f" % t["f1"] if t else "-"))


def git_commit():
    try:
        return subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except Exception:  # noqa: BLE001 - the report just says unknown
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", default=os.path.join(SHARED, "corpus"),
                    help="directory whose sub-directories with a manifest.jsonl are scored")
    ap.add_argument("--corpus", action="append",
                    help="score only this corpus directory (repeatable)")
    ap.add_argument("--scorer", default=os.path.join(SHARED, "tools", "score_extraction.py"))
    ap.add_argument("--bin", default=os.path.join(REPO, "target", "release", "distill"))
    ap.add_argument("--plugins-dir", default=os.path.join(REPO, "target", "release", "plugins"))
    ap.add_argument("--data-dir", default=os.path.join(REPO, "target", "distill-data"))
    ap.add_argument("--out", default=os.path.join(REPO, "target", "quality"))
    ap.add_argument("--venv", default=os.path.join(REPO, "target", "tools", "quality"))
    ap.add_argument("--server", help="use this running Distill (it must allow private targets)")
    ap.add_argument("--distill-pred", metavar="ROOT",
                    help="score ROOT/<corpus>/<id>.md as Distill's output (no server)")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--skip-trafilatura", action="store_true")
    ap.add_argument("--reuse-trafilatura", action="store_true",
                    help="score trafilatura's outputs of an earlier run when they are there")
    ap.add_argument("--doc", default=os.path.join(REPO, "docs", "QUALITY.md"))
    ap.add_argument("--no-doc", action="store_true", help="do not rewrite the doc")
    ap.add_argument("--per-page", action="store_true", help="also print per-page scores")
    args = ap.parse_args()

    corpora = args.corpus or find_corpora(args.corpora)
    if not corpora:
        raise SystemExit("no corpus found under %s" % args.corpora)
    scorer = load_scorer(args.scorer)

    proc, server = None, args.server
    if not server and not args.distill_pred:
        proc, server = start_distill(args.bin, args.plugins_dir, args.data_dir)
    results, notes = {}, {}
    try:
        for corpus in corpora:
            name = os.path.basename(os.path.normpath(corpus))
            pages = load_pages(corpus)
            base = os.path.join(args.out, name)
            notes[name] = []
            if args.distill_pred:
                d_dir = os.path.join(args.distill_pred, name)
                notes[name].append("Distill: the outputs given with --distill-pred (e.g. html/examples/corpus.rs: "
                                   "the server's HTML step and markdown code, natively), not scraped here")
            else:
                d_dir = os.path.join(base, "distill")
                notes[name].append("Distill: " + run_distill(args, server, corpus, pages, d_dir))
            res = {"distill_rows": score_pages(scorer, corpus, d_dir)}
            if not args.skip_trafilatura:
                t_dir = os.path.join(base, "trafilatura")
                if args.reuse_trafilatura and os.path.isdir(t_dir) and len(os.listdir(t_dir)) == len(pages):
                    notes[name].append("trafilatura %s (include_comments=False): outputs of an earlier run"
                                       % TRAFILATURA_VERSION)
                else:
                    os.makedirs(t_dir, exist_ok=True)
                    note = run_trafilatura(args, corpus, pages, t_dir)
                    notes[name].append("trafilatura (include_comments=False): " + note)
                res["trafilatura_rows"] = score_pages(scorer, corpus, t_dir)
            res["distill"] = summarize(res["distill_rows"])
            if "trafilatura_rows" in res:
                res["trafilatura"] = summarize(res["trafilatura_rows"])
            os.makedirs(base, exist_ok=True)
            write_pages(os.path.join(base, "pages.tsv"), res["distill_rows"], res.get("trafilatura_rows"))
            results[name] = res
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()

    for name, res in results.items():
        d, t = res["distill"], res.get("trafilatura")
        print("\n== %s ==" % name)
        if args.per_page:
            for r in res["distill_rows"]:
                print("%s\t%s\t%s\tP=%.3f\tR=%.3f\tF1=%.3f" % (r["id"], r["type"], r["source"], r["p"], r["r"], r["f1"]))
        print(table("type", d["by_type"], t["by_type"] if t else None), end="")
        print("| all (%d) | %s | %s |" % (d["all"]["pages"], cell(d["all"]), cell(t["all"]) if t else "–"))
        if len(d["by_source"]) > 1:
            print(table("source", d["by_source"], t["by_source"] if t else None), end="")
    cs = checks(results)
    print("\ntargets: " + "; ".join("%s %s" % (c, "ok" if ok else "MISSED") for c, ok in cs))
    line = " | ".join(
        "%s: distill F1=%.3f P=%.3f R=%.3f without=%.3f" % (
            n, r["distill"]["all"]["f1"], r["distill"]["all"]["precision"],
            r["distill"]["all"]["recall"], r["distill"]["all"]["without_kept"])
        + (" (trafilatura F1=%.3f)" % r["trafilatura"]["all"]["f1"] if "trafilatura" in r else "")
        for n, r in results.items())
    print("quality: " + line + " | targets %s" % ("met" if all(ok for _, ok in cs) else "not met"))
    if not args.no_doc:
        write_doc(args.doc, report(results, notes, git_commit()))
        log("wrote %s" % args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
