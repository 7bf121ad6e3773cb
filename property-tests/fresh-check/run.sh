#!/usr/bin/env bash
# `make fresh-check`: CI's whole run (.ci/run: make check, make test) on a fresh clone of HEAD, as a
# machine that has never built the project would do it: HOME, the npm cache, the Maven repository,
# node-gyp's header cache and the Swift root all start empty in a temporary folder. Proves that no
# build step depends on a warm cache (issue 38). System packages (chromium, redis-server,
# postgresql, debootstrap) are not removed: make test and .ci/run install them with apt-get when
# missing, which a new machine exercises.
#   FRESH_CHECK_KEEP=1   keep the temporary folder (it is removed otherwise, ~5 GB with the Swift root)
#   SWIFT_ROOT=DIR       reuse an existing Swift root instead of creating an empty one (faster, less fresh)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
head=$(git -C "$root" rev-parse HEAD)
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]; then
  echo "fresh-check: uncommitted changes are not part of the check (it clones HEAD $head)" >&2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agent-contracts-fresh-XXXXXX")
[ "${FRESH_CHECK_KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/m2"
git clone -q --no-checkout "$root" "$tmp/clone"
git -C "$tmp/clone" checkout -q "$head"
echo "fresh-check: $head in $tmp/clone, HOME=$tmp/home, empty npm cache, Maven repository and Swift root"
start=$(date +%s)
(
  cd "$tmp/clone"
  export HOME="$tmp/home" npm_config_cache="$tmp/home/.npm" MAVEN_OPTS="-Dmaven.repo.local=$tmp/m2 ${MAVEN_OPTS:-}"
  export SWIFT_ROOT="${SWIFT_ROOT:-$tmp/swift-root}" CI=true
  bash .ci/run
)
echo "fresh-check: passed in $(( $(date +%s) - start )) s"
