#!/usr/bin/env bash
# MockClientTest (JUnit 5) against `agent-contracts mock agent-service`, built against the bindings
# artifact installed by generators/targets/kotlin/toolchain/test-copy.sh (run it first; `make
# kotlin` does). Starts the mock on a free port with scenario.yaml, waits for its "ready" line
# (bounded), runs the tests in a copy of this project in a temporary folder with the mock's URL,
# and stops the mock on every way out.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=../../../generators/targets/kotlin/toolchain/maven.sh
. "$root/generators/targets/kotlin/toolchain/maven.sh"
version=$(sed -n 's/^  version: *//p' "$root/spec/project.yaml")
[ -n "$version" ] || { echo "mock client: no version in spec/project.yaml" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/agent-contracts-mock-client-XXXXXX")
mock_pid=
cleanup() {
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
node "$root/bin/agent-contracts.mjs" mock agent-service --scenario "$here/scenario.yaml" > "$work/mock.log" 2>&1 &
mock_pid=$!
for _ in $(seq 600); do
  grep -q '^ready$' "$work/mock.log" && break
  kill -0 "$mock_pid" 2>/dev/null || break
  sleep 0.2
done
grep -q '^ready$' "$work/mock.log" || { echo "mock client: the mock did not start:" >&2; cat "$work/mock.log" >&2; exit 1; }
url=$(sed -n 's/^mock agent-service: base //p' "$work/mock.log")
cp -r "$here/pom.xml" "$here/src" "$work/"
cd "$work"
# Bounded: a hung JVM fails the run instead of stalling make test. Not -q: Surefire's "Tests run:" line shows.
timeout 600 bash -c ". '$root/generators/targets/kotlin/toolchain/maven.sh' && maven -DagentContracts.version='$version' -DmockUrl='$url' test"
echo "mock client: the Kotlin client tests passed against the mock at $url"
