# Distill — build, run, test, benchmark.
#
#   make run    install what is missing, build plugins and server, serve on 127.0.0.1:3002
#   make test   the same set-up, then the whole test suite
#   make bench  benchmarks, written to BENCHMARKS.md
#
# Everything built or cached stays under target/.

SHELL := /bin/bash
CARGO ?= cargo
WASM_TARGET := wasm32-wasip2
WASM_OUT := target/$(WASM_TARGET)/wasm

# Plugin crates shipped with the server, and test-only plugins.
PLUGINS := distill-markdown
TEST_PLUGINS := distill-misbehave distill-legacy-abi distill-future-abi distill-markdown-v2

BIN := target/release/distill
PLUGINS_DIR := target/release/plugins
TEST_PLUGINS_DIR := target/test-plugins

export DISTILL_DATA_DIR ?= $(CURDIR)/target/distill-data

.PHONY: run test build setup plugins test-plugins host bench clean

run: build
	$(BIN)

build: plugins host

## Installs what is missing: the wasm32-wasip2 target, and the C headers the
## official SDK's TLS stack (used by the tests) links against.
setup:
	@rustup target list --installed 2>/dev/null | grep -qx '$(WASM_TARGET)' || rustup target add $(WASM_TARGET)
	@if ! dpkg -s libssl-dev pkg-config >/dev/null 2>&1; then \
	  echo "installing libssl-dev pkg-config"; \
	  (apt-get update -qq && apt-get install -y -qq libssl-dev pkg-config) >/dev/null; \
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
	$(CARGO) build --profile wasm --target $(WASM_TARGET) $(addprefix -p ,$(PLUGINS) $(TEST_PLUGINS))
	$(call install_plugin,$(PLUGINS),$(PLUGINS_DIR))
	$(call install_plugin,$(TEST_PLUGINS),$(TEST_PLUGINS_DIR))

host: setup
	$(CARGO) build --release --workspace

test: build
	DISTILL_BIN=$(CURDIR)/$(BIN) \
	DISTILL_TEST_PLUGINS_DIR=$(CURDIR)/$(TEST_PLUGINS_DIR) \
	DISTILL_SHIPPED_PLUGINS_DIR=$(CURDIR)/$(PLUGINS_DIR) \
	$(CARGO) test --release --workspace --no-fail-fast -- --test-threads 4

bench: build
	$(CARGO) run --release -p distill-bench -- --out BENCHMARKS.md

clean:
	$(CARGO) clean
