#!/usr/bin/env python3
"""The whole server's instructions per fresh markdown scrape, thread by thread
(BENCHMARKS.md, issue 16): what a scrape costs outside `scrape_once`.

Serves a wcxb-dev page on loopback (meter_site.py), starts the server binary
under callgrind (all threads, one file per thread), sends W warm scrapes, zeroes
the counters, sends N fresh scrapes (`maxAge: 0`, a distinct query each) on one
connection, dumps, and prints instructions per request for each thread and the
total. `callgrind_annotate [--inclusive=yes] OUT-NNN` reads the dump by function.

usage: server_instructions.py BIN [PAGE=4036] [N=200] [OUT=/tmp/server-cg]
env: PLUGINS (where markdown.wasm is; default target/release/plugins), STRACE=1 instead attaches `strace -f -c` for the N scrapes (system calls per request).
The plugin pool's reservation is cut to 256 MiB (valgrind cannot map 4 GiB
slots), so the plugin's compiled code has bounds checks: compare builds with
one another here, not with `scrape-instructions`."""
import glob, http.client, os, re, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meter_site import ROOT, scrape, serve_pages, start

binary = sys.argv[1]
page = sys.argv[2] if len(sys.argv) > 2 else "4036"
n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
out = sys.argv[4] if len(sys.argv) > 4 else "/tmp/server-cg"
os.makedirs(out, exist_ok=True)
port = serve_pages((page,))
data = f"{out}/data"
subprocess.run(["rm", "-rf", data])
# Only the markdown plugin: valgrind's start-up with every plugin takes minutes.
plugins = f"{out}/plugins"
os.makedirs(plugins, exist_ok=True)
src = os.environ.get("PLUGINS", os.path.join(ROOT, "target/release/plugins"))
subprocess.run(["cp", f"{src}/markdown.wasm", plugins], check=True)
extra = {"DISTILL_PLUGINS_DIR": plugins, "DISTILL_PLUGIN_MEMORY_RESERVATION_MIB": "256", "DISTILL_PLUGIN_MAX_MEMORY_MIB": "256"}
# The first start (native) fills the compiled-plugin cache the measured start loads.
p, _ = start(binary, data, extra); p.terminate(); p.wait()
strace = os.environ.get("STRACE")
if strace:
    p, addr = start(binary, data, extra)
else:
    for f in glob.glob(f"{out}/cg.out*"): os.remove(f)
    tool = f"valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file={out}/cg.out"
    # start() runs one program: a script that execs valgrind on the binary.
    open(f"{out}/run.sh", "w").write(f"#!/bin/sh\nexec {tool} {os.path.abspath(binary)} 2>>{out}/tool.log\n")
    os.chmod(f"{out}/run.sh", 0o755)
    p, addr = start(f"{out}/run.sh", data, extra)
conn = http.client.HTTPConnection(addr, timeout=120)
for i in range(20): scrape(conn, port, page, f"?warm{i}")
time.sleep(1)
if strace:  # attached to every thread for the N scrapes only
    tracer = subprocess.Popen(["strace", "-f", "-c", "-o", f"{out}/strace.txt", "-p", str(p.pid)],
                              stderr=subprocess.DEVNULL)
    time.sleep(1)
else:
    subprocess.run(["callgrind_control", "-z", str(p.pid)], capture_output=True)
t0 = time.time()
for i in range(n): scrape(conn, port, page, f"?{i}")
time.sleep(1)  # the cache writer's linger (200 ms) and commit
wall = time.time() - t0
if strace:
    tracer.send_signal(2); tracer.wait(); p.terminate(); p.wait()
    print(f"{binary} page {page}: strace -f -c over {n} fresh scrapes (calls / {n} = per request)")
    for line in open(f"{out}/strace.txt"):
        f = line.split()
        if len(f) >= 5 and f[3].isdigit():
            print(f"  {f[-1]:24} {int(f[3]) / n:7.2f}/request  errors {f[4] if len(f) == 6 else 0}")
    sys.exit()
subprocess.run(["callgrind_control", "-d", str(p.pid)], capture_output=True)
p.terminate(); p.wait()
total, rows = 0, []
for f in sorted(glob.glob(f"{out}/cg.out.1-*")):  # part 1: the dump after the N scrapes
    body = open(f, errors="replace").read()
    m = re.search(r"^summary: (\d+)", body, re.M) or re.search(r"^totals: (\d+)", body, re.M)
    if not m:
        continue
    top = subprocess.run(["callgrind_annotate", f], capture_output=True, text=True).stdout
    fns = [l for l in top.splitlines() if re.match(r"^\s*[\d,]+ \(", l)][:4]
    rows.append((int(m.group(1)), f, fns))
    total += int(m.group(1))
rows.sort(reverse=True)
print(f"{binary} page {page}: {n} fresh scrapes, {wall:.1f} s under callgrind")
for ir, f, fns in rows:
    if ir / n < 1000: continue
    print(f"  {os.path.basename(f):14} {ir / n / 1e6:8.3f} M/request")
    for l in fns: print("        ", l.strip()[:150])
print(f"  total          {total / n / 1e6:8.3f} M/request")
# Inclusive counts of named parts, summed over threads (entries of recursive
# cycles, `'2`, left out): what of the total is the page's work and what not.
PARTS = {
    "pipeline: parse, clean, metadata (prepare_sync)": "distill::pipeline::prepare::prepare_sync",
    "pipeline: script-rendered check": "distill::pipeline::fallback::looks_script_rendered",
    "plugin: instantiate": "FormatPre<_T>::instantiate_async::{{closure}}",
    "plugin: finish": "distill::plugins::call::Call::finish",
    "plugin: store drop": "core::ptr::drop_in_place<wasmtime::runtime::store::StoreInner<",
    "response JSON (respond::success)": "distill::server::respond::success",
    "cache: result entry JSON (result_to_bytes)": "distill::cache::entry::result_to_bytes",
    "cache: result entry JSON, escaped strings copied (result_to_bytes_escaped)": "distill::cache::entry::result_to_bytes_escaped",
    "cache: long strings escaped once (Escaped::of)": "distill::cache::escaped::Escaped::of",
    "response JSON from the escaped strings (respond::success_escaped)": "distill::server::respond::success_escaped",
    "cache: keys": "distill::cache::key::keys_for",
    "cache: puts (header and shared body)": "as distill::cache::store::CacheStore>::put_shared::{{closure}}",
    "cache writer thread (write_puts)": "distill::cache::writer::write_puts",
    "cache commits on the blocking pool (Disk::commit)": "distill::cache::disk::Disk::commit",
    "fetch (fetch_routed)": "distill::fetch::routing::fetch_routed::{{closure}}",
    "request JSON (ScrapeRequest::from_json)": "distill::api::scrape_request::ScrapeRequest::from_json",
    "job queue commits (jobs::embedded write_with)": "distill::jobs::embedded::Inner::write_with",
}
sums = dict.fromkeys(PARTS, 0)
for _, f, _ in rows:
    incl = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f],
                          capture_output=True, text=True).stdout
    for line in incl.splitlines():
        m = re.match(r"^\s*([\d,]+) \([^)]*\)\s+\S*?:(.*) \[", line)
        if not m or "'2" in m.group(2):
            continue
        for part, fn in PARTS.items():
            if m.group(2).endswith(fn) or (fn.endswith("<") and fn in m.group(2)):
                sums[part] += int(m.group(1).replace(",", ""))
print("  named parts (inclusive, M/request):")
for part, v in sums.items():
    print(f"    {v / n / 1e6:7.3f}  {part}")
