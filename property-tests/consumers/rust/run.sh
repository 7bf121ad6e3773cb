#!/usr/bin/env bash
# The Rust consumer: copied outside the repository, its dependency pointed at the crate under test
# (generated/rust by default), built with the crate's pinned versions, and run twice on one SQLite
# file: the first run admits the signed trigger, the second (a restart) must reject its replay.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
crate="$(cd "${1:-$here/../../../generated/rust}" && pwd)"
export PATH="$PATH:$HOME/.cargo/bin"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$here/Cargo.toml" "$here/src" "$work/"
sed -i "s|CRATE_PATH|$crate|" "$work/Cargo.toml"
# The crate's lock pins every shared dependency; cargo adds only the consumer's own entry.
cp "$crate/Cargo.lock" "$work/Cargo.lock"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/agent-contracts/rust-target}"
(cd "$work" && cargo build --quiet)
bin="$CARGO_TARGET_DIR/debug/agent-contracts-consumer"
"$bin" "$work/replay.sqlite" first "$crate/tests/cases/agent-connector/content-ids.json"
"$bin" "$work/replay.sqlite" second "$crate/tests/cases/agent-connector/content-ids.json"
echo "Rust consumer: passed (replay rejected across a restart)"
