#!/usr/bin/env bash
# Runs the Kotlin shared-case driver (generated/kotlin's SharedCaseDriver.kt, a test source) on a
# case file: compiles a copy of the Maven project (outside the repository, without target/), then
# answers every case in one JVM. Called by property-tests/drivers/drivers.test.ts; Maven takes
# the shared ~/.m2 lock (flock /tmp/kotlin.lock), as every Maven run on this machine must.
#   driver.sh <kotlin project folder> <cases.json> <verdicts.json>
#   DRIVER_MAVEN_GOAL=test driver.sh ...   also run the project's JUnit suites in the same Maven run
#                                          (make examples: one Maven run per example project)
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: driver.sh <kotlin project folder> <cases.json> <verdicts.json>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=maven.sh
. "$here/maven.sh"
src=$(cd "$1" && pwd)
cases=$(realpath "$2")
verdicts=$(realpath -m "$3")
work=$(mktemp -d "${TMPDIR:-/tmp}/agent-contracts-kotlin-driver-XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$src" && tar --exclude=./target -cf - .) | (cd "$work" && tar -xf -)
cd "$work"
flock /tmp/kotlin.lock bash -c ". '$here/maven.sh' && maven -q ${DRIVER_MAVEN_GOAL:-test-compile} org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath -Dmdep.outputFile=classpath.txt -Dmdep.includeScope=test"
# The main class sits in the project's own package (spec/project.yaml packages.maven.package).
main=$(cd target/test-classes && find . -name SharedCaseDriverKt.class | sed 's|^\./||; s|\.class$||; s|/|.|g')
[ -n "$main" ] || { echo "kotlin driver: no SharedCaseDriverKt.class in target/test-classes" >&2; exit 1; }
# Bounded: a hung JVM fails the run instead of stalling make test.
timeout 600 java -Xss8m -cp "target/classes:target/test-classes:$(cat classpath.txt)" "$main" "$cases" "$verdicts"
