#!/usr/bin/env python3
"""Trafilatura's side of `make bench` section 4: runs trafilatura.extract (default
settings, as `make quality` does) on pages the benchmark wrote, one process, and prints
one JSON line: version, pages, process CPU seconds spent inside extract, errors.

Usage (with the Python of the venv quality/quality.py installs trafilatura into):
  trafilatura_cpu.py LIST ROUNDS
LIST holds one `<path>\t<url>` line per page (UTF-8 HTML, as Distill decoded it)."""
import json
import sys
import time

import trafilatura


def main():
    list_path, rounds = sys.argv[1], int(sys.argv[2])
    with open(list_path, encoding="utf-8") as f:
        jobs = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]
    pages = []
    for path, url in jobs:
        with open(path, encoding="utf-8") as f:
            pages.append((f.read(), url))
    cpu, errors, done = 0.0, 0, 0
    for _ in range(rounds):
        for html, url in pages:
            started = time.process_time()
            try:
                trafilatura.extract(html, url=url)
            except Exception:  # noqa: BLE001 - counted, like an empty result
                errors += 1
            cpu += time.process_time() - started
            done += 1
    print(json.dumps({"version": trafilatura.__version__, "pages": done, "cpu_s": cpu,
                      "errors": errors}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
