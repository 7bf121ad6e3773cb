#!/usr/bin/env bash
# Builds and tests the generated SwiftPM package (generated/swift by default).
#
# Where `swift` is on PATH (macOS, Linux with a toolchain) it is used directly. Otherwise, on a
# Debian machine where we are root, Swift 6.0.3 comes from Debian 13's `swiftlang` package in a
# Debian 13 root made with debootstrap (created once, then reused): the package folder is
# bind-mounted into that root and built there. Anywhere else the suite is skipped with one line
# saying why (or, with SWIFT_REQUIRE=1, fails with that line). Exit status: 0 when the build and
# the tests pass (or the suite was skipped), non-zero
# on any failure, including a failed provisioning (a machine that could provision but did not is
# a CI failure, not a skip).
#
#   swift-test.sh [package-dir]        build the library (warnings are errors, Swift 6 mode), then test
#   SWIFT_ROOT=/path swift-test.sh     use or create the Debian 13 root there
#   SWIFT_PROVISION=0 swift-test.sh    never create a root (skip instead when none exists)
#   SWIFT_REQUIRE=1 swift-test.sh      fail instead of skipping (CI: .ci/run sets it)
#   SWIFT_CONSUMER=0 swift-test.sh     skip the consumer package (property-tests/consumers/swift)
#   SWIFT_TEST_ENV='A=1 B=2' swift-test.sh   run the tests with these variables set (inside the root too)
#
# For the repository's generated/swift, the consumer package then builds against a copy of it (both
# copied, without .build, to a folder outside the repository) and runs: see consumer_stage below.
#   SWIFT_COMMAND='...' swift-test.sh dir   run that shell command in dir instead of build and test
#                                      (`make bench` runs its release-mode Swift bench this way)
set -euo pipefail

package_dir=$(cd "${1:-generated/swift}" && pwd)
root=${SWIFT_ROOT:-/var/cache/agent-contracts/swift-trixie}
repo=$(cd "$(dirname "$0")/../../../.." && pwd)
consumer=
if [ "${SWIFT_CONSUMER:-1}" != 0 ] && [ "$package_dir" = "$repo/generated/swift" ] && [ -f "$repo/property-tests/consumers/swift/run.sh" ]; then
  consumer=yes
  # Its fixture is a copy of an outside vector; a drifted copy would test nothing real.
  cmp -s "$repo/property-tests/consumers/swift/SwiftConsumer/Fixtures/local-echo-1.0.0.package.json" \
    "$repo/property-tests/vectors/agent-connector/generated/valid/local-echo-1.0.0.package.json" ||
    { echo "swift: property-tests/consumers/swift/SwiftConsumer/Fixtures/local-echo-1.0.0.package.json differs from the Meldwork vector" >&2; exit 1; }
fi

# Copies generated/swift and the consumer (keeping the repository layout the consumer's path
# dependency names) to $1/src; $1/build keeps the consumer's build products between runs, and tar
# keeps file times, so an unchanged package is not rebuilt. SwiftPM keeps its build plan there too
# and does not notice a source file that was removed ("missing inputs"): a changed list of sources
# starts the build products afresh.
consumer_stage() {
  rm -rf --one-file-system "$1/src"
  mkdir -p "$1/src" "$1/build"
  tar -C "$repo" --exclude=.build -cf - generated/swift property-tests/consumers/swift | tar -C "$1/src" -xf -
  sources=$(cd "$1/src" && find . -name '*.swift' | LC_ALL=C sort | cksum)
  if [ "$(cat "$1/build/.agent-contracts-sources" 2>/dev/null)" != "$sources" ]; then
    rm -rf --one-file-system "$1/build"
    mkdir -p "$1/build"
    printf '%s\n' "$sources" > "$1/build/.agent-contracts-sources"
  fi
}

# The library is built in Swift 6 language mode with warnings as errors, so a strict-concurrency
# regression fails; it has its own scratch path so the two builds do not invalidate each other. The
# tests build in the package's own language mode, warnings allowed: the XCTest discovery code
# SwiftPM derives on Linux neither compiles in Swift 6 mode nor builds without warnings.
# The library target is the project's module (spec/project.yaml packages.swift.module), as Package.swift names it.
# Read only when there is a Package.swift: without one, the skip paths below still say why first,
# and a build fails on its own.
module=
if [ -f "$package_dir/Package.swift" ]; then
  module=$(sed -n 's/^ *\.target(name: "\([A-Za-z0-9]*\)".*/\1/p' "$package_dir/Package.swift" | head -n 1)
  [ -n "$module" ] || { echo "swift: $package_dir/Package.swift names no .target" >&2; exit 1; }
fi
# SWIFT_TEST_ENV: assignments for the test run (the shared-case driver's files: property-tests/drivers).
default_cmd="swift build --scratch-path .build/strict --target $module -Xswiftc -swift-version -Xswiftc 6 -Xswiftc -warnings-as-errors && swift build --build-tests && ${SWIFT_TEST_ENV:+env $SWIFT_TEST_ENV }swift test --skip-build"
build_cmd=${SWIFT_COMMAND:-$default_cmd}

if command -v swift >/dev/null 2>&1; then
  echo "swift: using $(command -v swift) ($(swift --version 2>&1 | head -n 1))"
  if [ -n "$consumer" ]; then
    stage=$(mktemp -d)
    trap 'rm -rf "$stage"' EXIT
    consumer_stage "$stage"
    build_cmd="$build_cmd && bash '$stage/src/property-tests/consumers/swift/run.sh' '$stage'"
  fi
  cd "$package_dir"
  bash -c "$build_cmd"
  exit
fi

# CI sets SWIFT_REQUIRE=1 (.ci/run): there a suite that cannot run is a failure, not a skip.
skip() {
  if [ "${SWIFT_REQUIRE:-0}" = 1 ]; then
    echo "Swift suite required (SWIFT_REQUIRE=1) but cannot run: $1" >&2
    exit 1
  fi
  echo "Swift suite skipped: $1"
  exit 0
}

[ "$(id -u)" = 0 ] || skip "no swift on PATH, and provisioning a Debian 13 root needs root (chroot, mount)"
# Ubuntu and other derivatives carry /etc/debian_version too, but their mirrors hold no trixie.
os_id=$( (. /etc/os-release 2>/dev/null && echo "${ID:-}") || true)
[ "$os_id" = debian ] || skip "no swift on PATH, and provisioning needs a Debian machine (this is '${os_id:-unknown}'): install a Swift toolchain"
for tool in chroot mount unshare flock; do
  command -v "$tool" >/dev/null 2>&1 || skip "no swift on PATH, and provisioning needs $tool"
done

mirror() {
  # The machine's own Debian mirror: the first URIs: line of a deb822 source, else a sources.list line.
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n 1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' | grep -v -- '-security' | head -n 1 || true)
  echo "$uri"
}

# One run at a time per root, provisioning included: two first runs must not both debootstrap.
mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
if ! flock -n 9; then
  echo "swift: waiting for another run using $root"
  flock 9
fi

# Mounts are made in a private mount namespace (below), so they vanish with it however the run
# ends. Older versions of this script mounted in the host's namespace; a run of theirs killed hard
# could leave mounts behind, and under the lock any mount inside the root is such a leftover.
awk -v prefix="$root/" 'index($2, prefix) == 1 { print $2 }' /proc/mounts | sort -r | while read -r stale; do
  echo "swift: unmounting a leftover mount at $stale"
  umount -l "$stale" || true
done

# /usr/bin/swift in the root is an absolute symlink, so test the file it points to.
if [ ! -x "$root/usr/libexec/swift/bin/swift" ]; then
  [ "${SWIFT_PROVISION:-1}" != 0 ] || skip "no swift on PATH and no toolchain root at $root (SWIFT_PROVISION=0)"
  url=$(mirror)
  [ -n "$url" ] || skip "no swift on PATH, and no Debian mirror found in /etc/apt to provision one from"
  log="$root.partial.log"
  if ! command -v debootstrap >/dev/null 2>&1; then
    echo "swift: installing debootstrap (apt-get)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap) >"$log" 2>&1 ||
      { echo "swift: installing debootstrap failed:" >&2; tail -n 20 "$log" >&2; exit 1; }
  fi
  echo "swift: creating a Debian 13 root with swiftlang at $root from $url (about 3 GB, 1-5 minutes, once)"
  # --one-file-system: never follow a mount out of a half-made root.
  rm -rf --one-file-system "$root.partial"
  # In a private mount namespace: debootstrap mounts /proc in the target and can leave it mounted.
  unshare --mount --propagation private \
    debootstrap --variant=minbase --include=swiftlang,libswiftlang,libc6-dev trixie "$root.partial" "$url" >"$log" 2>&1 ||
    { echo "swift: debootstrap failed; its log: $log" >&2; tail -n 20 "$log" >&2; exit 1; }
  [ -x "$root.partial/usr/libexec/swift/bin/swift" ] || { echo "swift: debootstrap finished but $root.partial has no swift" >&2; exit 1; }
  rm -rf --one-file-system "$root"
  mv -T "$root.partial" "$root"
  rm -f "$log"
fi

# The package appears at its own path inside the root: paths in compiler messages are real, and
# SwiftPM's module cache (which records absolute paths) stays valid from one run to the next.
# Without /proc every swift binary dies ("libswiftCore.so: cannot open shared object file").
mkdir -p "$root$package_dir"
if [ -n "$consumer" ]; then
  # Inside the root's own file system, so nothing more is mounted; one folder per checkout.
  stage="/var/tmp/agent-contracts-consumer-$(printf %s "$repo" | cksum | cut -d ' ' -f 1)"
  consumer_stage "$root$stage"
  build_cmd="$build_cmd && bash '$stage/src/property-tests/consumers/swift/run.sh' '$stage'"
fi
status=0
unshare --mount --propagation private env ROOT="$root" WORK="$package_dir" BUILD="$build_cmd" bash -c '
  set -euo pipefail
  mount -t proc proc "$ROOT/proc"
  mount --bind "$WORK" "$ROOT$WORK"
  echo "swift: building and testing $WORK in the Debian 13 root at $ROOT ($(chroot "$ROOT" swift --version 2>&1 | head -n 1))"
  exec chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 WORK="$WORK" BUILD="$BUILD" bash -c "cd \"\$WORK\" && eval \"\$BUILD\""
' || status=$?

# The namespace is gone with its mounts; say so loudly if anything under the root is still mounted.
left=$(awk -v prefix="$root/" 'index($2, prefix) == 1 { print $2 }' /proc/mounts)
if [ -n "$left" ]; then
  echo "swift: still mounted after the run: $left" >&2
  exit 1
fi
exit "$status"
