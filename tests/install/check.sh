#!/usr/bin/env bash
# Install check: install a finished build into a throw-away prefix outside the loader's paths, then
# build and run a tiny host program against it, through find_package(sepax) (shared and static) and
# through pkg-config with no other .pc file in sight (cglm's hidden), and run the installed
# programs from the prefix, and again after moving it.
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
"$tmp/cmake-consumer/consumer_static"

echo "== install check: pkg-config consumer"
pc=$(find "$prefix" -name sepax.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || { echo "install check: no sepax.pc under $prefix" >&2; exit 1; }
# sepax.pc works out its prefix from where it lies (${pcfiledir}), so this install, made under a
# prefix other than the one configured, must still give paths inside it.
# PKG_CONFIG_LIBDIR replaces the system's folders: only sepax.pc is found, as on a host without
# cglm's development files. Using sepax must not need them.
pkgconf() { PKG_CONFIG_LIBDIR="$(dirname "$pc")" PKG_CONFIG_PATH="" pkg-config "$@" sepax; }
pkgconf --static --libs >/dev/null
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

echo "== install check: the installed programs"
# Each must find libsepax.so.0 in its own prefix: no LD_LIBRARY_PATH, the prefix in no loader path.
programs() {
    local bin=$1
    env -u LD_LIBRARY_PATH "$bin/sepax-car" --tmax 1 >/dev/null
    if [ -x "$bin/sepax" ]; then
        env -u LD_LIBRARY_PATH "$bin/sepax" run --steps 5 >/dev/null
        env -u LD_LIBRARY_PATH "$bin/sepax" help >/dev/null
    fi
    echo "   $bin: sepax-car$([ -x "$bin/sepax" ] && echo ", sepax") run"
}
bindir=$(dirname "$(find "$prefix" -name sepax-car -type f | head -n 1)")
programs "$bindir"
mv "$prefix" "$tmp/moved"
programs "${bindir/#$prefix/$tmp/moved}"

echo "== install check: passed"
