#!/usr/bin/env bash
# Install check: install a finished build into a throw-away prefix, then build and run a tiny host
# program against it twice, once through find_package(sepax) and once through pkg-config.
#   usage: tests/install/check.sh [BUILD_DIR]   (default: build, relative to the repository root)
# BUILD_DIR must be fully built, and not with -DSEPAX_SANITIZE=ON: a plain host program cannot load
# a library that needs the sanitizer runtime first.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
case "$build" in /*) ;; *) build="$root/$build" ;; esac
[ -f "$build/CMakeCache.txt" ] || { echo "install check: no configured build in $build" >&2; exit 2; }
if grep -q '^SEPAX_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "install check: $build is a sanitizer build; give a plain one" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sepax-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

echo "== install check: cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }

echo "== install check: find_package(sepax) consumer"
cmake -S "$here/consumer" -B "$tmp/cmake-consumer" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/configure.log" \
    || { cat "$tmp/configure.log"; exit 1; }
# CMAKE_PREFIX_PATH only adds places to look: make sure the package came from the fresh prefix,
# not from a copy installed system-wide earlier.
found=$(sed -n 's/^sepax_DIR:PATH=//p' "$tmp/cmake-consumer/CMakeCache.txt")
case "$found" in
    "$prefix"/*) echo "   sepax found in $found" ;;
    *) echo "install check: find_package(sepax) used '$found', not the fresh prefix" >&2; exit 1 ;;
esac
cmake --build "$tmp/cmake-consumer" -j2
"$tmp/cmake-consumer/consumer"

echo "== install check: pkg-config consumer"
pc=$(find "$prefix" -name sepax.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || { echo "install check: no sepax.pc under $prefix" >&2; exit 1; }
# sepax.pc works out its prefix from where it lies (${pcfiledir}), so this install, made under a
# prefix other than the one configured, must still give paths inside it.
pkgconf() { PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config "$@" sepax; }
flags=$(pkgconf --cflags --libs)
libdir=$(pkgconf --variable=libdir)
case "$libdir" in
    "$prefix"/*) echo "   pkg-config: $flags" ;;
    *) echo "install check: pkg-config gives libdir '$libdir', not under the fresh prefix" >&2; exit 1 ;;
esac
# The library sits outside the loader's search path: an rpath lets the program find it.
# shellcheck disable=SC2086 # flags are a list of words by design
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror "$here/consumer/main.c" -o "$tmp/pkg-consumer" $flags -lm -Wl,-rpath,"$libdir"
"$tmp/pkg-consumer"

echo "== install check: passed"
