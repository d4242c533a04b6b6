#!/usr/bin/env bash
# `make fuzz`: installs cargo-fuzz into target/tools/fuzz when missing, seeds
# the corpora under target/fuzz/corpus from the repo's fixtures, builds the
# targets (stable toolchain: RUSTC_BOOTSTRAP=1 for the flags cargo-fuzz
# passes) and runs each for FUZZ_SECONDS; exits non-zero on the first crash,
# leak of time (-timeout) or memory (-rss_limit_mb). One summary line per
# target (executions, coverage) goes to target/fuzz/summary.txt.
#
# FUZZ_TARGETS overrides the list; FUZZ_HOST=0 skips the server-crate targets
# (their instrumented build of the server's dependencies is long).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=${FUZZ_SECONDS:-60}
tools=$root/target/tools/fuzz
out=$root/target/fuzz
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
export RUSTC_BOOTSTRAP=1

light="html_page markdown convert_pdf convert_docx convert_pptx convert_spreadsheet convert_xlsb convert_odf convert_epub convert_doc convert_ppt convert_rtf convert_csv robots sitemap llm_json"
host="request_json parse_multipart"
if [ -n "${FUZZ_TARGETS:-}" ]; then
  targets=$FUZZ_TARGETS
elif [ "${FUZZ_HOST:-1}" = 0 ]; then
  targets=$light
else
  targets="$light $host"
fi

if [ ! -x "$tools/bin/cargo-fuzz" ]; then
  cargo install cargo-fuzz --version 0.13.2 --locked --root "$tools"
fi
fuzz() { "$tools/bin/cargo-fuzz" fuzz "$@"; }

wanted=""
for t in $targets; do
  case $t in
    request_json | parse_multipart) wanted="$wanted,host" ;;
    llm_json) wanted="$wanted,llm" ;;
  esac
done
features=()
[ -z "$wanted" ] || features=(--features "${wanted#,}")

"$root/fuzz/seed.sh" "$out/corpus"
common=(--fuzz-dir "$root/fuzz" --target-dir "$out/build" --sanitizer none "${features[@]}")
if [ -n "${FUZZ_TARGETS:-}" ]; then
  # Only the chosen targets (and the crates they link) are built.
  for t in $targets; do fuzz build "${common[@]}" "$t"; done
else
  fuzz build "${common[@]}"
fi

mkdir -p "$out/logs"
: > "$out/summary.txt"
for t in $targets; do
  mkdir -p "$out/artifacts/$t" "$out/corpus/$t"
  log=$out/logs/$t.log
  echo "fuzz: $t for ${seconds}s"
  status=0
  fuzz run "${common[@]}" "$t" "$out/corpus/$t" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$t/" > "$log" 2>&1 || status=$?
  runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*' || true)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  line="$t seconds=$seconds runs=${runs:-?} cov=${cov:-?} ft=${ft:-?} exit=$status"
  echo "$line" | tee -a "$out/summary.txt"
  if [ "$status" != 0 ]; then
    echo "fuzz: $t failed; see $log and $out/artifacts/$t/" >&2
    tail -40 "$log" >&2
    exit 1
  fi
done
