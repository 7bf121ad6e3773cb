#!/usr/bin/env bash
# make rust: builds generated/rust, runs clippy with warnings as errors and `cargo test` (with the
# 100 000 ES6 number lines unpacked for canonical_json's es6_numbers_100000), then the consumer
# crate property-tests/consumers/rust against it (twice on one SQLite file: a replay across a restart).
# cargo and rustc come from PATH or ~/.cargo/bin; crates from crates.io into ~/.cargo, pinned by
# Cargo.lock (--locked). Build output goes to CARGO_TARGET_DIR (default
# ~/.cache/agent-contracts/rust-target), never into the repository.
set -euo pipefail
crate="$(cd "${1:-generated/rust}" && pwd)"
repo="$(cd "$(dirname "$0")/../../../.." && pwd)"
export PATH="$PATH:$HOME/.cargo/bin"
if ! command -v cargo >/dev/null 2>&1; then
  if [ "${RUST_REQUIRE:-0}" = 1 ]; then echo "Rust suite required (RUST_REQUIRE=1) but cannot run: no cargo on PATH or in ~/.cargo/bin" >&2; exit 1; fi
  echo "Rust suite skipped: no cargo on PATH or in ~/.cargo/bin"
  exit 0
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-contracts/rust-target}"
mkdir -p "$CARGO_TARGET_DIR"
gunzip -c "$repo/property-tests/vectors/jcs/es6numbers/es6testfile_100000.txt.gz" > "$CARGO_TARGET_DIR/es6testfile_100000.txt"
# The fleet stores (features redis, postgres) are built, linted and tested against real servers
# that tests/fleet_stores.rs starts on loopback: whenever redis-server and PostgreSQL are installed
# (`make servers`); without them they are left out with one line, or, with
# AGENT_CONTRACTS_REQUIRE_SERVERS=1 (CI), the run fails.
features=()
if command -v redis-server >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  features=(--features redis,postgres)
elif [ "${AGENT_CONTRACTS_REQUIRE_SERVERS:-0}" = 1 ]; then
  echo "Rust fleet store suite required (AGENT_CONTRACTS_REQUIRE_SERVERS=1) but cannot run: redis-server or PostgreSQL is not installed" >&2
  exit 1
else
  echo "Rust fleet store suite skipped: redis-server or PostgreSQL is not installed (make servers)"
fi
cd "$crate"
cargo build --locked "${features[@]}"
cargo clippy --locked --all-targets "${features[@]}" -- -D warnings
ES6_NUMBERS_100K="$CARGO_TARGET_DIR/es6testfile_100000.txt" cargo test --locked "${features[@]}"
if [ "${RUST_CONSUMER:-1}" = 1 ]; then
  bash "$repo/property-tests/consumers/rust/run.sh" "$crate"
fi
