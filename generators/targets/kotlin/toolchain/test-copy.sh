#!/usr/bin/env bash
# `make kotlin`: proves generated/kotlin stands on its own. Copies the folder (without target/)
# to a temporary directory outside the repository, runs its JUnit suites there (the tests read
# their vectors from the copy's own test resources, so nothing outside it is reachable by a
# relative path), then installs the artifact into ~/.m2 exactly as the docs tell a consumer
# (`mvn install -DskipTests`). Offline, with the shared ~/.m2 (see maven.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=maven.sh
. "$here/maven.sh"
src=$(cd "${1:-generated/kotlin}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/agent-contracts-kotlin-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bindings"
(cd "$src" && tar --exclude=./target -cf - .) | (cd "$work/bindings" && tar -xf -)
echo "kotlin: testing a copy of $src in $work/bindings"
cd "$work/bindings"
maven clean test
maven -q install -DskipTests
echo "kotlin: the copy built, passed its tests and installed"
