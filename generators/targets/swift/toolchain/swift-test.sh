#!/usr/bin/env bash
# Builds and tests the generated SwiftPM package (generated/swift by default).
#
# Where `swift` is on PATH (macOS, Linux with a toolchain) it is used directly. Otherwise, on a
# Debian machine where we are root, Swift 6.0.3 comes from Debian 13's `swiftlang` package in a
# Debian 13 root made with debootstrap (created once, then reused): the package folder is
# bind-mounted into that root and built there. Anywhere else the suite is skipped with one line
# saying why. Exit status: 0 when the build and the tests pass (or the suite was skipped), non-zero
# on any failure.
#
#   swift-test.sh [package-dir]        build the library (warnings are errors, Swift 6 mode), then test
#   SWIFT_ROOT=/path swift-test.sh     use or create the Debian 13 root there
#   SWIFT_PROVISION=0 swift-test.sh    never create a root (skip instead when none exists)
set -euo pipefail

package_dir=$(cd "${1:-generated/swift}" && pwd)
root=${SWIFT_ROOT:-/var/cache/agent-contracts/swift-trixie}
suite="$package_dir"

# The library is built in Swift 6 language mode with warnings as errors, so a strict-concurrency
# regression fails; it has its own scratch path so the two builds do not invalidate each other. The
# tests build in the package's own language mode, warnings allowed: the XCTest discovery code
# SwiftPM derives on Linux neither compiles in Swift 6 mode nor builds without warnings.
build_cmd='swift build --scratch-path .build/strict --target AgentContracts -Xswiftc -swift-version -Xswiftc 6 -Xswiftc -warnings-as-errors && swift build --build-tests && swift test --skip-build'

if command -v swift >/dev/null 2>&1; then
  echo "swift: using $(command -v swift) ($(swift --version 2>&1 | head -n 1))"
  cd "$package_dir"
  exec bash -c "$build_cmd"
fi

skip() {
  echo "Swift suite skipped: $1"
  exit 0
}

[ "$(id -u)" = 0 ] || skip "no swift on PATH, and provisioning a Debian 13 root needs root"
[ -r /etc/debian_version ] || skip "no swift on PATH, and provisioning needs a Debian machine (debootstrap + apt mirror)"

mirror() {
  # The machine's own Debian mirror: the first URIs: line of a deb822 source, else a sources.list line.
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | head -n 1 || true)
  [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | awk '{print $2}' | grep -v -- '-security' | head -n 1 || true)
  echo "$uri"
}

# /usr/bin/swift in the root is an absolute symlink, so test the file it points to.
if [ ! -x "$root/usr/libexec/swift/bin/swift" ]; then
  [ "${SWIFT_PROVISION:-1}" != 0 ] || skip "no swift on PATH and no toolchain root at $root (SWIFT_PROVISION=0)"
  url=$(mirror)
  [ -n "$url" ] || skip "no swift on PATH, and no Debian mirror found in /etc/apt to provision one from"
  if ! command -v debootstrap >/dev/null 2>&1; then
    echo "swift: installing debootstrap (apt-get)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap) >/dev/null
  fi
  echo "swift: creating a Debian 13 root with swiftlang at $root from $url (about 3 GB, 1-3 minutes, once)"
  rm -rf "$root.partial"
  mkdir -p "$(dirname "$root")"
  debootstrap --variant=minbase --include=swiftlang,libswiftlang,libc6-dev trixie "$root.partial" "$url" >"$root.partial.log" 2>&1 ||
    { echo "swift: debootstrap failed; its log: $root.partial.log" >&2; tail -n 20 "$root.partial.log" >&2; exit 1; }
  rm -rf "$root"
  mv -T "$root.partial" "$root"
  rm -f "$root.partial.log"
fi

# One run at a time per root: runs share its /proc mount.
exec 9>"$root.lock"
flock 9

# The package appears at its own path inside the root: paths in compiler messages are real, and
# SwiftPM's module cache (which records absolute paths) stays valid from one run to the next.
work="$package_dir"
cleanup() {
  umount "$root$work" 2>/dev/null || true
  umount "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mkdir -p "$root$work"
mount --bind "$package_dir" "$root$work"

echo "swift: building and testing $suite in the Debian 13 root at $root ($(chroot "$root" swift --version 2>&1 | head -n 1))"
chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root bash -c "cd $work && $build_cmd"
