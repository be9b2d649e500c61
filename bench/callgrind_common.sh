# Sourced by bench/query_callgrind.sh and bench/world_callgrind.sh: checks valgrind and the program,
# makes the work folder (removed on exit) and prints the "# " lines that say what the counts were
# taken with. They repeat exactly for the same program, libraries and CPU (glibc and the peers pick
# code paths by the CPU's features).
#
#   callgrind_begin <script name> <program> <what runs>
callgrind_begin() {
    local name=$1 program=$2 what=$3
    command -v valgrind >/dev/null || { echo "$name: valgrind not found (apt-get install valgrind)" >&2; exit 2; }
    [ -x "$program" ] || { echo "$name: $program is not an executable" >&2; exit 2; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    echo "# $name: $(valgrind --version), $what"
    echo "# program: $program  date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)  os: $(uname -srm)"
    if [ -n "${NOTE:-}" ]; then echo "# note: $NOTE"; fi
}
