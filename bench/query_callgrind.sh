#!/usr/bin/env bash
# Instructions a query of sepax and of the peers on the hot pair sets (bench/README.md,
# "Instruction counts with callgrind").
#
# Runs `sepax_bench collide -s=hot -r=1 --min-ms=0 -q=<query>$` under callgrind, one query at a time, and
# reads from the caller tree the inclusive count of each function that answers it and how often it
# was called. The counts repeat exactly from run to run (a machine's load does not change them).
#
#   bench/query_callgrind.sh [program]          # default build-bench/bench/sepax_bench
#   QUERIES="overlap_obb_obb sweep_obb_obb" bench/query_callgrind.sh
#   NOTE="what the build is" bench/query_callgrind.sh > query_instructions.csv
#
# Prints CSV on stdout: query, engine, function, calls, instructions, instructions a call, pairs a
# call (a batch answers every pair of the set in one call), instructions a pair, and sepax's
# single call over this row per pair. A second table counts the pairs handed to the exact double
# path: of spx_penetration_obb_obb (its float screen undecided: calls of
# spx_penetration_obb_obb_exact), of the single sweep (its float screen undecided: calls of
# spx_sweep_obb_obb_exact from spx_sweep_obb_obb) and of the batched sweep (its calls from every
# other caller: the batch's own functions, whichever of them the compiler kept).
set -euo pipefail

program=${1:-build-bench/bench/sepax_bench}
queries=${QUERIES:-overlap_obb_obb penetration_obb_obb manifold_obb_obb manifold_obb_obb_resting overlap_obb_tri penetration_obb_tri overlap_tri_tri penetration_tri_tri sweep_obb_obb sweep_obb_tri sweep_tri_tri manifold_obb_tri}
hot=${HOT:-256}

. "$(dirname "$0")/callgrind_common.sh"
callgrind_begin query_callgrind.sh "$program" "collide -s=hot --hot=$hot -r=1 --min-ms=0"
echo "query,engine,function,calls,instructions,instructions_per_call,pairs_per_call,instructions_per_pair,ratio_sepax_engine"

# engine|function pattern (as callgrind_annotate names it)|pairs a call
functions_of() {
    case "$1" in
    overlap_obb_obb) printf '%s\n' 'sepax|spx_overlap_obb_obb|1' 'sepax-checked|spx_overlap_obb_obb_checked|1' \
        "sepax-batch|spx_overlap_obb_obb_batch|$hot" \
        'fcl-double|fcl::OBB<double>::overlap(|1' 'fcl-float|fcl::OBB<float>::overlap(|1' 'ode|dBoxTouchesBox|1' ;;
    manifold_obb_obb | manifold_obb_obb_resting) printf '%s\n' 'sepax|spx_manifold_obb_obb|1' 'ode|dBoxBox|1' \
        'bullet|btBoxBoxDetector::getClosestPoints(|1' ;;
    manifold_obb_tri) printf '%s\n' 'sepax|spx_manifold_obb_triangle|1' \
        'bullet|btGjkPairDetector::getClosestPoints(|1' ;;
    penetration_obb_obb) echo 'sepax|spx_penetration_obb_obb|1' ;;
    penetration_obb_tri) echo 'sepax|spx_penetration_obb_triangle|1' ;;
    penetration_tri_tri) echo 'sepax|spx_penetration_triangle_triangle|1' ;;
    overlap_obb_tri) echo 'sepax|spx_overlap_obb_triangle|1' ;;
    overlap_tri_tri) echo 'sepax|spx_overlap_triangle_triangle|1' ;;
    sweep_obb_obb) printf '%s\n' 'sepax|spx_sweep_obb_obb|1' "sepax-batch|spx_sweep_obb_obb_batch|$hot" ;;
    sweep_obb_tri) echo 'sepax|spx_sweep_obb_triangle|1' ;;
    sweep_tri_tri) echo 'sepax|spx_sweep_triangle_triangle|1' ;;
    esac
}

exact_rows=""
penetration_row=""
for query in $queries; do
    out="$work/callgrind.$query"
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$program" collide -s=hot --hot="$hot" -r=1 --min-ms=0 -q="$query\$" >"$work/log" 2>&1 \
        || { cat "$work/log" >&2; exit 1; }
    callgrind_annotate --threshold=100 --inclusive=yes --tree=caller "$out" >"$work/tree" 2>/dev/null
    sepax_per_pair=""
    while IFS='|' read -r engine function pairs; do
        # The "*" line of a function is its inclusive count; the "<" lines above it, its callers
        # with (Nx) calls each.
        read -r calls total < <(awk -v f="$function" '
            /^ *[0-9,]+ .*  < / { caller[n++] = $0; next }
            /^ *[0-9,]+ .*  \*  / {
                name = $0; sub(/^.*\*  [^:]*:/, "", name)
                if (index(name, f) == 1 && (length(name) == length(f) || substr(name, length(f) + 1, 1) ~ /[ (]/ || substr(f, length(f)) == "(")) {
                    c = 0
                    for (k = 0; k < n; ++k) if (match(caller[k], /\(([0-9]+)x\)/)) c += substr(caller[k], RSTART + 1, RLENGTH - 3)
                    ir = $1; gsub(/,/, "", ir); calls += c; total += ir
                }
                n = 0; next }
            { n = 0 }
            END { print calls + 0, total + 0 }' "$work/tree")
        [ "$calls" -gt 0 ] || continue
        per_call=$(awk -v t="$total" -v c="$calls" 'BEGIN { printf "%.1f", t / c }')
        per_pair=$(awk -v t="$total" -v c="$calls" -v p="$pairs" 'BEGIN { printf "%.1f", t / c / p }')
        [ "$engine" = sepax ] && sepax_per_pair=$per_pair
        ratio=""
        [ -n "$sepax_per_pair" ] && ratio=$(awk -v a="$sepax_per_pair" -v b="$per_pair" 'BEGIN { printf "%.3f", a / b }')
        echo "$query,$engine,$function,$calls,$total,$per_call,$pairs,$per_pair,$ratio"
    done < <(functions_of "$query")
    if [ "$query" = penetration_obb_obb ]; then
        exact=$(awk '/  < .*spx_penetration_obb_obb / { if (match($0, /\(([0-9]+)x\)/)) c = substr($0, RSTART + 1, RLENGTH - 3) }
                     /  \*  .*spx_penetration_obb_obb_exact/ { print c + 0; exit } /^$/ { c = 0 }' "$work/tree")
        penetration_row="penetration_obb_obb,hot,$((3 * hot)),${exact:-0}"
    fi
    if [ "$query" = sweep_obb_obb ]; then
        # The "<" lines above spx_sweep_obb_obb_exact's "*" line: the single call's, and the batch's (the query
        # runs nothing else) from whichever of its functions calls it.
        read -r single batch < <(awk '
            /^ *[0-9,]+ .*  < / { caller[n++] = $0; next }
            /  \*  .*spx_sweep_obb_obb_exact/ {
                for (k = 0; k < n; ++k) if (match(caller[k], /\(([0-9]+)x\)/)) {
                    c = substr(caller[k], RSTART + 1, RLENGTH - 3)
                    if (caller[k] ~ /:spx_sweep_obb_obb \(/) s += c; else b += c
                }
                print s + 0, b + 0; exit }
            { n = 0 }' "$work/tree")
        exact_rows="sweep_obb_obb-batch,hot,$((3 * hot)),${batch:-0}"
        exact_rows="sweep_obb_obb,hot,$((3 * hot)),${single:-0}
$exact_rows"
    fi
done
if [ -n "$exact_rows$penetration_row" ]; then
    echo
    echo "query,set,pairs,pairs_on_exact_double_path"
    [ -z "$penetration_row" ] || echo "$penetration_row"
    [ -z "$exact_rows" ] || echo "$exact_rows"
fi
