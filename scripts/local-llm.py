#!/usr/bin/env python3
"""Serves a GGUF model with llama.cpp's own HTTP server (PyPI xllamacpp) on
127.0.0.1: an OpenAI-compatible /v1/chat/completions for Distill's `llm`
capability (docs/LLM.md, ../shared/notes/local-llm.md).

    local-llm.py --model M.gguf [--port 8080] [--ctx 4096] [--threads 1]

Prints `local-llm listening on http://127.0.0.1:PORT/v1` once /health
answers, then stays up until SIGTERM/SIGINT or until its parent dies (Linux:
PR_SET_PDEATHSIG), so a test harness that is killed never leaves it behind.
One thread by default: on a busy 2-core machine two threads were 10x slower.
"""

import argparse
import ctypes
import signal
import sys
import time
import urllib.request


def die_with_parent():
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="path of the .gguf file")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--ctx", type=int, default=4096, help="context window in tokens")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--parallel", type=int, default=1, help="requests decoded at once")
    args = ap.parse_args()
    die_with_parent()

    import xllamacpp  # imported late: --help works without it

    p = xllamacpp.CommonParams()
    p.model.path = args.model
    p.n_ctx = args.ctx * args.parallel
    p.n_parallel = args.parallel
    p.cpuparams.n_threads = args.threads
    p.cpuparams_batch.n_threads = args.threads
    p.hostnames = ["127.0.0.1"]
    p.port = args.port
    p.use_jinja = True
    server = xllamacpp.Server(p)

    health = f"http://127.0.0.1:{args.port}/health"
    until = time.time() + 120
    while True:
        try:
            with urllib.request.urlopen(health, timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if time.time() > until:
            print("local-llm: /health did not answer within 120 s", file=sys.stderr)
            sys.exit(1)
        time.sleep(0.2)
    print(f"local-llm listening on http://127.0.0.1:{args.port}/v1", flush=True)

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    while not stop:
        time.sleep(0.5)
    del server


if __name__ == "__main__":
    main()
