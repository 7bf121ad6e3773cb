#!/usr/bin/env bash
# Runs the Rust shared-case driver (the crate's examples/shared_case_driver) on a case file: one
# cargo build of the example, then one process answers every case. Called by
# property-tests/drivers/drivers.test.ts. Build output in CARGO_TARGET_DIR (default
# ~/.cache/agent-contracts/rust-target, as make rust), never in the crate.
#   driver.sh <crate folder> <cases.json> <verdicts.json>
#   DRIVER_FULL=1 driver.sh ...   first the crate's whole cargo-test.sh run (build, clippy, tests;
#                                 make examples), then the driver
# Without cargo it prints "Rust driver skipped: <why>" and succeeds; with RUST_REQUIRE=1 it fails.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: driver.sh <crate folder> <cases.json> <verdicts.json>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
crate=$(cd "$1" && pwd)
cases=$(realpath "$2")
verdicts=$(realpath -m "$3")
export PATH="$PATH:$HOME/.cargo/bin"
if ! command -v cargo >/dev/null 2>&1; then
  if [ "${RUST_REQUIRE:-0}" = 1 ]; then echo "Rust driver required (RUST_REQUIRE=1) but cannot run: no cargo on PATH or in ~/.cargo/bin" >&2; exit 1; fi
  echo "Rust driver skipped: no cargo on PATH or in ~/.cargo/bin"
  exit 0
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-contracts/rust-target}"
if [ "${DRIVER_FULL:-0}" = 1 ]; then
  RUST_CONSUMER=0 bash "$here/cargo-test.sh" "$crate"
fi
cd "$crate"
cargo build --locked --quiet --example shared_case_driver
# Bounded: a hung driver fails the run instead of stalling make test.
timeout 600 "$CARGO_TARGET_DIR/debug/examples/shared_case_driver" "$cases" "$verdicts"
