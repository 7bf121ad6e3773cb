#!/usr/bin/env bash
# Builds the consumer against its copy of generated/swift and runs it inside the Swift
# environment (generators/targets/swift/toolchain/swift-test.sh stages both and calls this):
# every step in one process, then the replay across a process killed with SIGKILL.
#
#   run.sh <scratch-dir>     build products go to <scratch-dir>/build, state to a temporary folder in it
set -euo pipefail
# The package is in SwiftConsumer/: SwiftPM names a path dependency after its folder, and this
# folder's name would be the same as generated/swift's ("cyclic dependency").
here=$(cd "$(dirname "$0")/SwiftConsumer" && pwd)
scratch=$1
swift build --package-path "$here" --scratch-path "$scratch/build"
bin="$(swift build --package-path "$here" --scratch-path "$scratch/build" --show-bin-path)/SwiftConsumer"
state=$(mktemp -d "$scratch/state.XXXXXX")
pid=
cleanup() {
  [ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true
  rm -rf "$state"
}
trap cleanup EXIT

"$bin" check "$here/Fixtures" "$state"

# A process records the request in a file store, says so, and is killed; a new process must then
# reject the same request as replayed.
store="$state/killed-process.log"
"$bin" record "$store" >"$state/record.out" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
  grep -qx admitted "$state/record.out" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if ! grep -qx admitted "$state/record.out"; then
  echo "consumer: the recording process did not admit the request:" >&2
  cat "$state/record.out" >&2
  exit 1
fi
kill -KILL "$pid"
status=0
wait "$pid" || status=$?
pid=
[ "$status" = 137 ] || { echo "consumer: the recording process ended with status $status, not by SIGKILL" >&2; exit 1; }
echo "ok: the recording process was killed with SIGKILL after admitting"
"$bin" replay "$store"
echo "Swift consumer: every step passed"
