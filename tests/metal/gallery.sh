#!/usr/bin/env bash
# Runs the gallery's CUDA scenarios on the NVIDIA GPU of this machine: each host program of
# tests/metal/gallery/ (engine/tests/metal.rs writes them from the scenario files) RUNS
# times, counting its outcomes, then once under each compute-sanitizer tool, and writes what
# it saw to OUTFILE in the format engine/tests/metal.rs reads.
#   tests/metal/gallery.sh RUNS OUTFILE    (RUNS spread over PROCESSES processes, default 10)
# Needs nvcc, compute-sanitizer and a GPU; nothing in `cargo xtask test` runs it.
set -euo pipefail
cd "$(dirname "$0")/gallery"
runs=$1 out=$2 processes=${PROCESSES:-10}
build=$(mktemp -d)
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)

ls *.cu | sed 's/\.cu$//' | xargs -P "$(nproc)" -I{} nvcc -O3 -arch="$arch" {}.cu -o "$build/{}"

{
    echo "# The gallery's CUDA scenarios on real hardware, by tests/metal/gallery.sh."
    echo "gpu $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    echo "driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
    echo "cuda $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    echo "sanitizer $(compute-sanitizer --version | sed -n 's/.*Version \([0-9.]*\).*/\1/p' | head -1)"
    echo "arch $arch"
    echo "runs $runs"
    echo "processes $processes"
    for f in *.cu; do
        name=${f%.cu}
        echo "example $name"
        # The runs are spread over PROCESSES processes: how a GPU schedules the blocks of a
        # small launch changes little within one process and more from one to the next. A run
        # that hangs (a lock that never opens) or fails says so instead of outcomes.
        : > "$build/all.txt"
        failed=
        for _ in $(seq "$processes"); do
            if timeout 60 "$build/$name" $((runs / processes)) > "$build/out.txt" 2>&1; then
                grep '^outcome ' "$build/out.txt" >> "$build/all.txt" || true
            else
                failed="failed $(tail -1 "$build/out.txt" | tr -s ' ')"
            fi
        done
        if [ -n "$failed" ]; then
            echo "$failed"
        else
            # The same outcome from several processes, counted once with the counts summed.
            awk '{ n = $NF; $NF = ""; sub(/ $/, ""); count[$0] += n } END { for (o in count) print o, count[o] }' "$build/all.txt" | sort
        fi
        for tool in memcheck racecheck synccheck initcheck; do
            extra=()
            if [ "$tool" = memcheck ]; then extra=(--leak-check full); fi
            timeout 60 compute-sanitizer --tool "$tool" "${extra[@]}" "$build/$name" 1 > "$build/san.txt" 2>&1 || true
            # Racecheck sums up its hazards instead of errors.
            errors=$(sed -n -e 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' -e 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$build/san.txt" | tail -1)
            echo "sanitizer $tool errors=${errors:-unknown}"
            # What it said, without the places and backtraces, for people reading the file.
            grep -E '^========= +[A-Z]' "$build/san.txt" \
                | grep -vE 'SUMMARY|COMPUTE-SANITIZER|Saved host backtrace|Host Frame|Device Frame|Program hit|Target application returned' \
                | sed -E 's/^========= +//; s/ at [^ ]+ in .*//; s/0x[0-9a-f]+/ADDR/g' | sort | uniq -c | head -6 \
                | sed -E 's/^ *([0-9]+) (.*)/  said \2 (x\1)/' || true
        done
    done
} > "$out"
