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
cd "$crate"
cargo build --locked
cargo clippy --locked --all-targets -- -D warnings
ES6_NUMBERS_100K="$CARGO_TARGET_DIR/es6testfile_100000.txt" cargo test --locked
if [ "${RUST_CONSUMER:-1}" = 1 ]; then
  bash "$repo/property-tests/consumers/rust/run.sh" "$crate"
fi
