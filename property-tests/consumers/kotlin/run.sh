#!/usr/bin/env bash
# The Maven consumer (this folder, written from docs-site/guides/kotlin.md) against the bindings
# artifact installed by generators/targets/kotlin/toolchain/test-copy.sh (run it first; `make
# kotlin` does). Builds a copy of this project in a temporary directory, then runs it twice in two
# JVMs on one SQLite file: the first checks parsing, signing, lifecycle and package ids and records
# the trigger, the second must reject it as replayed. Expected values are read from spec/ vectors.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# shellcheck source=../../../generators/targets/kotlin/toolchain/maven.sh
. "$root/generators/targets/kotlin/toolchain/maven.sh"
version=$(sed -n 's/^  version: *//p' "$root/spec/project.yaml")
[ -n "$version" ] || { echo "consumer: no version in spec/project.yaml" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/agent-contracts-consumer-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$here/pom.xml" "$here/src" "$work/"
cd "$work"
maven -q -DagentContracts.version="$version" package org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath -Dmdep.outputFile=classpath.txt
cp="target/classes:$(cat classpath.txt)"
db="$work/replay.db"
# Bounded: a hung JVM fails the run instead of stalling make test.
timeout 300 java -cp "$cp" consumer.MainKt first "$root/spec" "$db"
timeout 300 java -cp "$cp" consumer.MainKt second "$root/spec" "$db"
echo "consumer: both runs passed"
