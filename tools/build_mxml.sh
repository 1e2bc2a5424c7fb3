#!/usr/bin/env bash
# Build Mini-XML 3.3.1 (the version Debian 12 ships) as a static, position-independent library
# into PREFIX/include and PREFIX/lib, for the wheel builds (cibuildwheel's before-all on Linux
# and macOS, .github/workflows/wheels.yml). Mini-XML is never kept in this repository: the
# release is downloaded and checked against the SHA-512 that vcpkg's mxml port pins for it.
#
#   tools/build_mxml.sh PREFIX        (environment: CC, CFLAGS, ARCHFLAGS, MACOSX_DEPLOYMENT_TARGET)
set -euo pipefail
prefix="${1:?usage: tools/build_mxml.sh PREFIX}"
commit=fd47c7d115191c8a6bce2c781ffee41e179530f2     # the release-3.3.1 tag
sha512=29bb9785de32d3ba72535179856247f9b4ef466857f42a0576ed88175c807ca64fe4f9ee4cfef1ba57fb44780af26649316fb7baa1770e7d298d1cf13dff17cc
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
curl -fsSL -o mxml.tar.gz "https://github.com/michaelrsweet/mxml/archive/$commit.tar.gz"
if command -v sha512sum >/dev/null; then sum="$(sha512sum mxml.tar.gz)"; else sum="$(shasum -a 512 mxml.tar.gz)"; fi
[ "${sum%% *}" = "$sha512" ] || { echo "build_mxml.sh: checksum mismatch for Mini-XML 3.3.1" >&2; exit 1; }
tar xzf mxml.tar.gz
cd "mxml-$commit"
# ARCHFLAGS (macOS: "-arch arm64" / "-arch x86_64", set by cibuildwheel) picks the target
CFLAGS="${CFLAGS:--O2} -fPIC ${ARCHFLAGS:-}" ./configure --disable-shared --disable-threads \
    --prefix="$prefix"
make -j2 libmxml.a
mkdir -p "$prefix/include" "$prefix/lib"
cp mxml.h "$prefix/include/"
cp libmxml.a "$prefix/lib/"
echo "Mini-XML 3.3.1: $prefix/lib/libmxml.a"
