#!/usr/bin/env python3
"""Runs the workspace's tests in parallel lanes (make test).

Most end-to-end suites wait on servers, Chromium, the model or timeouts rather
than compute, and `cargo test` runs its test binaries one after another. This
runner splits the run into units -- the unit tests of every crate, the doc
tests, and each integration-test target -- and lets LANES `cargo test`
processes take units from one queue, longest first (the durations of the last
run are kept in target/test-lanes.json; a clean clone starts from the hint
below). The tests must already be built (`cargo test --no-run` with the same
flags): every unit passes `--workspace`, so features resolve as in that build
and nothing is compiled again.

Each unit's output is printed whole when it finishes, then a summary; the exit
status is 1 if any unit failed (all units run, as with --no-fail-fast).

usage: test_lanes.py LANES [CARGO TEST FLAGS...] -- [TEST BINARY FLAGS...]
"""

import json
import os
import queue
import subprocess
import sys
import threading
import time

# Long suites of earlier runs, started first when no timings are recorded.
HINT = ["authoring", "llm_local", "abi_v3", "unit tests", "browser_safety", "interact", "browser"]
TIMINGS = os.path.join("target", "test-lanes.json")
CARGO = os.environ.get("CARGO", "cargo")


def test_targets():
    """Names of every integration-test target in the workspace."""
    meta = json.loads(
        subprocess.run(
            [CARGO, "metadata", "--no-deps", "--format-version", "1"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    names = set()
    for package in meta["packages"]:
        for target in package["targets"]:
            if "test" in target["kind"]:
                names.add(target["name"])
    return sorted(names)


def units():
    out = [("unit tests", ["--lib", "--bins"]), ("doc tests", ["--doc"])]
    out += [(name, ["--test", name]) for name in test_targets()]
    return out


def ordered(all_units):
    try:
        with open(TIMINGS) as f:
            last = json.load(f)
    except (OSError, ValueError):
        last = {}
    if last:
        return sorted(all_units, key=lambda u: -last.get(u[0], 1e9))
    rank = {name: i for i, name in enumerate(HINT)}
    return sorted(all_units, key=lambda u: (rank.get(u[0], len(HINT)), u[0]))


def main():
    args = sys.argv[1:]
    if not args or not args[0].isdigit():
        sys.exit(__doc__)
    lanes = int(args[0])
    split = args.index("--") if "--" in args else len(args)
    cargo_flags, binary_flags = args[1:split], args[split + 1 :]

    todo = queue.Queue()
    for unit in ordered(units()):
        todo.put(unit)
    results = {}
    print_lock = threading.Lock()

    def lane(number):
        while True:
            try:
                name, selection = todo.get_nowait()
            except queue.Empty:
                return
            cmd = [CARGO, "test", *cargo_flags, "--workspace", *selection, "--", *binary_flags]
            started = time.monotonic()
            run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
            seconds = time.monotonic() - started
            results[name] = (run.returncode, seconds)
            with print_lock:
                verdict = "ok" if run.returncode == 0 else f"FAILED (exit {run.returncode})"
                print(f"\n=== lane {number}: {name}: {verdict} in {seconds:.1f} s: {' '.join(cmd)}", flush=True)
                print(run.stdout, end="", flush=True)

    threads = [threading.Thread(target=lane, args=(n + 1,)) for n in range(lanes)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    os.makedirs(os.path.dirname(TIMINGS), exist_ok=True)
    with open(TIMINGS, "w") as f:
        json.dump({name: round(s, 1) for name, (_, s) in results.items()}, f, indent=1, sort_keys=True)
    failed = sorted(name for name, (code, _) in results.items() if code != 0)
    print(f"\n=== {len(results)} test units in {time.monotonic() - started:.0f} s on {lanes} lanes", flush=True)
    for name, (code, seconds) in sorted(results.items(), key=lambda r: -r[1][1]):
        print(f"  {seconds:7.1f} s  {'ok' if code == 0 else 'FAILED'}  {name}")
    if failed:
        print(f"=== FAILED: {', '.join(failed)}", flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
