# agent-contracts. `make` installs what is missing and regenerates everything;
# `make test` runs every test; `make check` fails when generated/ is out of date.
SHELL := /bin/bash
NODE_STAMP := node_modules/.install-stamp
CLI := node bin/agent-contracts.mjs

.PHONY: all cli generate check test test-ts typecheck kotlin swift rust drivers examples suite-generated docs docs-serve chromium servers fresh-check bench fuzz mutation mutation-ts mutation-kotlin clean-install help

all: generate

help:
	@echo "make          install dependencies (npm ci) when missing and regenerate generated/"
	@echo "make check    fail when generated/ differs from a fresh generation, or the spec breaks the last release (releases.json)"
	@echo "make test     run every test (typecheck, vitest, Kotlin JUnit)"
	@echo "make kotlin   build and test the generated Kotlin bindings (Maven)"
	@echo "make swift    build and test the generated Swift package (provisions a Debian 13 Swift root when needed)"
	@echo "make rust     build, clippy (-D warnings) and test the generated Rust crate, then its consumer crate"
	@echo "make drivers  run every language's shared-case driver (TS, Kotlin, Swift) on the spec's cases and compare the verdicts"
	@echo "make examples generate each spec project of examples/ into a temporary folder and test its TS, Kotlin, Swift and Rust"
	@echo "make suite-generated  the JSON-Schema-Test-Suite as a spec project, through every language's generated validators"
	@echo "make fuzz     run the fuzz suite longer (FUZZ_RUNS, default 20000; FUZZ_SEED to vary); make test runs 200 per property"
	@echo "make bench    run the benchmarks (tables with ratios to the anchors; docs-site/bench/latest.md, kotlin.md, swift.md, rust.md)"
	@echo "               BENCH_ARGS=\"--only kotlin\" (or swift, validation, ...) runs some areas"
	@echo "make mutation mutation testing: Stryker over the TS runtime, PIT over the Kotlin runtime (reports/mutation/)"
	@echo "make fresh-check  CI's whole run on a fresh clone with empty caches (npm, Maven, Swift root) under a temporary HOME"
	@echo "make docs     build the documentation site into docs-site/dist (make docs-serve previews it)"

# npm before 11.16 ignores package.json's allowScripts and runs every dependency's install script
# (tree-sitter-cli's downloads a binary); refuse to install with it rather than run them.
NPM_MIN := 11.16

# better-sqlite3 compiles its addon when its prebuilt download cannot be reached (npm ci, and the
# installed-CLI tests' npm install); node-gyp then fetches Node's headers from nodejs.org unless told
# where they are. Point it at the headers the running Node ships with (PREFIX/include/node), for every
# npm that make starts, so a machine with an empty node-gyp cache and no nodedir in its npmrc builds
# from the npm registry alone (found by make fresh-check). An npm_config_nodedir already set wins.
NODE_PREFIX := $(shell node -p 'require("path").resolve(process.execPath, "../..")' 2>/dev/null)
ifeq ($(npm_config_nodedir),)
ifneq ($(wildcard $(NODE_PREFIX)/include/node/node_api.h),)
export npm_config_nodedir := $(NODE_PREFIX)
endif
endif
$(NODE_STAMP): package.json package-lock.json
	@v=$$(npm --version 2>/dev/null || echo 0); \
	if ! printf '%s\n%s\n' "$(NPM_MIN)" "$$v" | sort -V -C; then \
	  echo "agent-contracts: npm $$v is too old: npm >= $(NPM_MIN) is required, the first that honours allowScripts in package.json." >&2; \
	  echo "  Upgrade with: npm install -g npm@11 (or use a Node release that bundles npm 11.16+), then run make again." >&2; \
	  exit 1; \
	fi
	npm ci --no-audit --no-fund
	@touch $@

# The compiled CLI (dist/cli/, git-ignored): rebuilt when a source it was built from changed.
# bin/agent-contracts.mjs runs the same staleness check on every start in a checkout, so a stale
# bundle never runs even without make; this target just does the work up front.
cli: $(NODE_STAMP)
	@node generators/cli/build.mjs --if-stale

generate: $(NODE_STAMP) cli
	$(CLI) generate

check: $(NODE_STAMP) cli
	$(CLI) generate --check
	@bundle=$$(node generators/breaking/release.mjs --bundle) && echo "breaking: against the last release recorded in releases.json ($$bundle)" && $(CLI) breaking --against "$$bundle" --suggest-version

typecheck: $(NODE_STAMP) cli
	npx tsc -p tsconfig.json --noEmit

test-ts: $(NODE_STAMP) cli
	npx vitest run

# Kotlin: the generated Maven project (kotlin-maven-plugin, JUnit 5), tested from a copy of
# generated/kotlin outside the repository and installed into ~/.m2 (as the docs tell consumers),
# then the Maven consumer project (property-tests/consumers/kotlin) built against it and run twice,
# and the Kotlin client test against `agent-contracts mock` (property-tests/mock/kotlin-client).
# Offline once ~/.m2 holds the dependencies (a first run fetches them). -B -ntp keep Surefire's
# "Tests run:" lines visible.
kotlin:
	bash generators/targets/kotlin/toolchain/test-copy.sh generated/kotlin
	bash property-tests/consumers/kotlin/run.sh
	bash property-tests/mock/kotlin-client/run.sh

# The fuzz suite (property-tests/fuzz) at a larger count; `make test` runs it bounded, fixed seed.
fuzz: $(NODE_STAMP)
	FUZZ_RUNS=$(or $(FUZZ_RUNS),20000) npx vitest run property-tests/fuzz

# Benchmarks: tables with ratios against the anchors, also written to docs-site/bench/latest.md.
bench: $(NODE_STAMP) cli servers
	node --expose-gc --import tsx property-tests/bench/run.ts $(BENCH_ARGS)

# Mutation testing (slow, not part of `make test`): Stryker over generators/targets/ts/runtime/src and
# PIT over the Kotlin runtime, niced, one worker each, in groups (property-tests/mutation/groups/*.json:
# the files mutated and the tests that may kill them). Each group's result is committed under
# property-tests/mutation/results/ with the hashes of the files it was computed from, so only groups
# whose sources or tests changed are rerun (GROUPS="a b" picks some, MUTATION_ARGS=--all reruns all);
# HTML reports under reports/mutation/ (git-ignored). The score per folder is printed last, and the
# run fails when a goal is missed or a result is stale. `make test` checks the survivors list.
mutation: $(NODE_STAMP)
	node property-tests/mutation/run.mjs $(MUTATION_ARGS) $(GROUPS)
	node property-tests/mutation/summary.mjs --check

mutation-ts: $(NODE_STAMP)
	node property-tests/mutation/run.mjs --tool stryker $(MUTATION_ARGS) $(GROUPS)
	node property-tests/mutation/summary.mjs

mutation-kotlin: $(NODE_STAMP)
	node property-tests/mutation/run.mjs --tool pit $(MUTATION_ARGS) $(GROUPS)
	node property-tests/mutation/summary.mjs

# The docs site (docs-site/dist) and its browser test, which drives Debian's chromium.
docs: $(NODE_STAMP) cli
	$(CLI) docs

docs-serve: docs
	node --import tsx generators/targets/docs/serve.ts docs-site/dist --port $(or $(PORT),8000)

chromium:
	@command -v chromium >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

# The fleet store suites start real Redis and PostgreSQL servers on loopback: install Debian's
# packages when missing (as chromium above), so a fresh machine runs those suites instead of skipping.
servers:
	@missing=""; command -v redis-server >/dev/null || missing="redis-server"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi

# Swift: the generated SwiftPM package, built (library: Swift 6 mode, warnings as errors) and tested
# with XCTest. `swift` on PATH is used directly; otherwise, on Debian as root, inside a Debian 13
# root with the swiftlang package, created once (debootstrap, about 3 GB, 1-3 minutes) and reused.
swift:
	bash generators/targets/swift/toolchain/swift-test.sh generated/swift

# Rust: generated/rust built, linted (clippy -D warnings) and tested with cargo (crates from crates.io
# into ~/.cargo, pinned by Cargo.lock; build output in ~/.cache/agent-contracts/rust-target), then
# the consumer crate property-tests/consumers/rust run twice on one SQLite file.
rust:
	bash generators/targets/rust/toolchain/cargo-test.sh generated/rust

# Last, `make examples`: each example project's drivers, JUnit, XCTest and cargo suites (one Maven
# run, one Swift build and one cargo build per example).
test: $(NODE_STAMP) chromium servers typecheck test-ts kotlin swift rust drivers examples

# The shared cases (property-tests/drivers/README.md): the spec's examples, validation cases,
# lifecycle paths and RFC 8785 vectors, answered by one driver per language (one node, one JVM,
# one Swift test process, one Rust process) and compared with the spec's verdicts and with each other.
drivers: $(NODE_STAMP)
	npx vitest run --config property-tests/drivers/vitest.config.ts

# CI's whole run (.ci/run) on a fresh clone of HEAD with empty npm, Maven, node-gyp and Swift caches
# under a temporary HOME: proves that no step depends on a warm cache (property-tests/fresh-check).
fresh-check:
	bash property-tests/fresh-check/run.sh

# The spec projects of examples/ (issue 30), each generated into a temporary folder: its TS checked
# by generators/test/example-projects.test.ts, then the shared-case drivers of every language on its
# cases (property-tests/drivers), with AGENT_CONTRACTS_DRIVER_FULL=1: the same Maven run also runs
# its JUnit suites (one Maven run at a time on the shared ~/.m2), the same Swift build its library
# in strict mode and every XCTest.
examples: $(NODE_STAMP)
	AGENT_CONTRACTS_EXAMPLES=1 npx vitest run generators/test/example-projects.test.ts
	@set -e; projects=""; outs=(); trap 'rm -rf "$${outs[@]}"' EXIT; for dir in examples/*/; do \
	  name=$$(basename "$$dir"); out=$$(mktemp -d "$${TMPDIR:-/tmp}/agent-contracts-example-$$name-XXXXXX"); outs+=("$$out"); \
	  echo "examples: $$name -> $$out"; \
	  cp -r "$$dir/spec" "$$out/spec"; \
	  node bin/agent-contracts.mjs generate --spec "$$out"; \
	  ln -s "$(CURDIR)/node_modules" "$$out/node_modules"; \
	  projects="$$projects:$$out"; \
	done; \
	AGENT_CONTRACTS_DRIVER_FULL=1 AGENT_CONTRACTS_DRIVER_PROJECTS="$$projects" npx vitest run --config property-tests/drivers/vitest.config.ts

# The JSON-Schema-Test-Suite as a spec project (property-tests/json-schema-suite/suite-project.ts),
# generated into a temporary folder; its tests through every language's generated validators by the
# shared-case drivers; counts into property-tests/json-schema-suite/generated-suite.json.
suite-generated: $(NODE_STAMP)
	node --import tsx property-tests/json-schema-suite/suite-project-drivers.ts

clean-install:
	rm -rf node_modules
