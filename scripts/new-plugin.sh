#!/usr/bin/env bash
# Creates a plugin crate from sdk/template/<kind>.
#   scripts/new-plugin.sh NAME KIND [DIR]
# NAME: lower-case letters, digits and '-' (the format name or file extension);
# KIND: format | converter; DIR: where to create it (default plugins/NAME).
# Inside plugins/ the crate joins the workspace (plugins/* is a member glob) and
# `make plugins` builds and installs it; elsewhere it is a standalone crate.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
name="${1:-}"; kind="${2:-}"; dir="${3:-$root/plugins/$name}"
if [[ ! "$name" =~ ^[a-z][a-z0-9-]*$ ]]; then
  echo "NAME must be lower-case letters, digits and '-', starting with a letter (got '$name')" >&2; exit 2
fi
if [[ "$kind" != "format" && "$kind" != "converter" ]]; then
  echo "KIND must be 'format' or 'converter' (got '$kind')" >&2; exit 2
fi
if [[ -e "$dir" ]]; then echo "$dir already exists" >&2; exit 2; fi
# CamelCase type name: reading-time -> ReadingTime
type="$(echo "$name" | sed -E 's/(^|-)([a-z0-9])/\U\2/g')"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
sdk_path="$(python3 -c 'import os,sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$root/sdk" "$dir")"
cp -r "$root/sdk/template/$kind/." "$dir/"
find "$dir" -type f -print0 | xargs -0 sed -i \
  -e "s/{{name}}/$name/g" -e "s/{{Type}}/$type/g" -e "s#{{sdk_path}}#$sdk_path#g"
case "$dir" in
  "$root"/plugins/*) ;;
  *) printf '\n# Standalone: not a member of the Distill workspace.\n[workspace]\n\n[profile.release]\nopt-level = 3\nlto = true\ncodegen-units = 1\nstrip = true\npanic = "abort"\n' >> "$dir/Cargo.toml" ;;
esac
echo "created $kind plugin '$name' in $dir"
echo "next: edit $dir/src/lib.rs, then 'make plugins' (inside plugins/) or"
echo "      'cargo build --target wasm32-wasip2 --release' in $dir and copy the .wasm into the plugins directory"
