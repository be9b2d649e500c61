#!/usr/bin/env bash
# Instructions a step of each engine on the world scenes (bench/README.md, "World scenes").
#
# Runs `sepax_bench world --steps-only -s=<scene> -e=<engine>` under callgrind with collection on
# only inside bench_world_run_steps, the function that makes the steps: building the world,
# reading and measuring it are left out. The total instruction count divided by the steps is the
# figure; it repeats exactly from run to run (a machine's load does not change it).
#
#   bench/world_callgrind.sh [program]        # default build-bench/bench/sepax_bench
#   SCENES="pyramid-1.0" ENGINES="sepax bullet" STEPS=60 bench/world_callgrind.sh
#   NOTE="what the machine is" bench/world_callgrind.sh > world_instructions.csv
#   ARGS="--simd=baseline" bench/world_callgrind.sh   # more options for the world suite
#
# Prints CSV on stdout (after a few "# " lines saying what ran): scene, engine, steps, instructions, instructions a step, and sepax's
# instructions a step over this engine's. Under callgrind a run is 50 to 100 times slower than
# natively: the whole set (three scenes, three engines) takes about 3 minutes.
set -euo pipefail

program=${1:-build-bench/bench/sepax_bench}
scenes=${SCENES:-falling falling_mesh pyramid-1.0 pyramid-1.1 mesh_pile}
engines=${ENGINES:-sepax bullet ode}
steps_option=${STEPS:+--steps=$STEPS}
extra_options=${ARGS:-}

. "$(dirname "$0")/callgrind_common.sh"
callgrind_begin world_callgrind.sh "$program" "world --steps-only, --toggle-collect=bench_world_run_steps"
if [ -n "$extra_options" ]; then echo "# options: $extra_options"; fi
echo "scene,engine,steps,instructions,instructions_per_step,ratio_sepax_engine"
for scene in $scenes; do
    sepax_per_step=""
    for engine in $engines; do
        out="$work/callgrind.$scene.$engine"
        status=0
        # shellcheck disable=SC2086 # steps_option and extra_options are words to split
        valgrind --tool=callgrind --toggle-collect=bench_world_run_steps --callgrind-out-file="$out" \
            "$program" world --steps-only -s="$scene" -e="$engine" $steps_option $extra_options 2>"$work/log" || status=$?
        # 4: this engine does not run this scene (the mesh pile is sepax's alone).
        if [ "$status" = 4 ]; then continue; fi
        if [ "$status" != 0 ]; then cat "$work/log" >&2; exit 1; fi
        steps=$(sed -n 's/^sepax_bench world: .*: \([0-9]*\) steps.*/\1/p' "$work/log")
        total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out")
        if [ -z "$steps" ] || [ -z "$total" ]; then
            echo "world_callgrind: no count for $scene, $engine" >&2
            exit 1
        fi
        per_step=$((total / steps))
        [ "$engine" = sepax ] && sepax_per_step=$per_step
        ratio=""
        [ -n "$sepax_per_step" ] && ratio=$(awk -v a="$sepax_per_step" -v b="$per_step" 'BEGIN { printf "%.3f", a / b }')
        echo "$scene,$engine,$steps,$total,$per_step,$ratio"
    done
done
