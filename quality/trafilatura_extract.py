#!/usr/bin/env python3
"""Runs trafilatura (plain text, default settings but include_comments=False: comments are
not main content, and Distill's onlyMainContent leaves them out too) on every page of a
corpus and writes OUT/<id>.txt. Run with the Python of the venv `quality.py` installs
trafilatura into."""
import argparse
import gzip
import json
import os
import sys
import time
from multiprocessing import Pool

import trafilatura


def extract(job):
    corpus, out, page = job
    with gzip.open(os.path.join(corpus, "html", page["id"] + ".html.gz"), "rb") as f:
        raw = f.read()
    started = time.process_time()
    try:
        text = trafilatura.extract(raw, url=page.get("url"), include_comments=False) or ""
    except Exception:  # noqa: BLE001 - an extractor failure scores as empty output
        text = ""
    cpu = time.process_time() - started
    with open(os.path.join(out, page["id"] + ".txt"), "w", encoding="utf-8") as f:
        f.write(text)
    return cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name in os.listdir(a.out):
        os.remove(os.path.join(a.out, name))
    with open(os.path.join(a.corpus, "manifest.jsonl"), encoding="utf-8") as f:
        pages = [json.loads(line) for line in f if line.strip()]
    jobs = [(a.corpus, a.out, p) for p in pages]
    with Pool(max(1, a.jobs)) as pool:
        cpu = sum(pool.map(extract, jobs, chunksize=4))
    print("trafilatura %s: %d pages, %.1f ms CPU per page"
          % (trafilatura.__version__, len(pages), 1000 * cpu / max(1, len(pages))),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
