#!/usr/bin/env bash
# Runs every hardware litmus configuration on the NVIDIA GPU of this machine and writes the
# observed outcome counts to OUTFILE, in the format engine/tests/metal.rs reads; then compiles
# the CUDA examples with nvcc and writes what it said to NVCC_OUTFILE.
#   tests/metal/run.sh ITERATIONS OUTFILE NVCC_OUTFILE
# Needs nvcc and a GPU; nothing in `cargo xtask test` runs it.
set -euo pipefail
cd "$(dirname "$0")"
iterations=$1 out=$2 nvcc_out=$3
build=$(mktemp -d)
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)

# SHAPE KIND FENCES SCOPE: thread k fences when bit k of FENCES is set, at device scope
# (SCOPE 0) or block scope (1). CONFIGS="mp 2 3 1;sb 2 3 1" runs those alone.
configs=()
if [ -n "${CONFIGS:-}" ]; then
    IFS=';' read -ra configs <<< "$CONFIGS"
else
    for kind in 0 1 2; do
        for f in 0 1 2 3; do configs+=("mp $kind $f 0"); done
        for f in 0 1 3; do configs+=("sb $kind $f 0" "lb $kind $f 0"); done
        for f in 0 2; do configs+=("corr $kind $f 0"); done
        for f in 0 12; do configs+=("iriw $kind $f 0"); done
        for s in mp sb lb; do configs+=("$s $kind 3 1"); done
        configs+=("iriw $kind 12 1")
        for f in 0 6; do configs+=("wrc $kind $f 0" "rwc $kind $f 0"); done
        for f in 0 12; do configs+=("corr2 $kind $f 0"); done
        configs+=("wrc $kind 6 1" "rwc $kind 6 1")
    done
fi

printf '%s\n' "${configs[@]}" | xargs -P "$(nproc)" -L 1 bash -c '
    nvcc -O3 -arch='"$arch"' -DKIND=$1 -DFENCES=$2 -DSCOPE=$3 -DSHAPE="\"shapes/$0.cuh\"" harness.cu \
        -o '"$build"'/$0_$1_$2_$3'

{
    echo "# Litmus outcomes observed on real hardware by tests/metal/harness.cu (run.sh)."
    echo "gpu $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
    echo "driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)"
    echo "cuda $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    echo "arch $arch"
    echo "iterations $iterations"
    seed=1
    for c in "${configs[@]}"; do
        set -- $c
        "$build/$1_$2_$3_$4" "$iterations" "$seed" "$1"
        seed=$((seed + 1))
    done
} > "$out"

{
    echo "# nvcc -arch=$arch -c on each CUDA example (tests/metal/run.sh); cuda $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    for f in ../../static/examples/*.cu probes/*.cu; do
        [ -e "$f" ] || continue
        name=${f#../../}
        if msg=$(nvcc -arch="$arch" -c "$f" -o "$build/obj.o" 2>&1); then
            echo "ok $name"
        else
            echo "error $name"
            # ptxas names its temporary file: keep the line number and the message.
            echo "$msg" | grep -m3 'error' | sed -E 's#^ptxas [^,]*, (line [0-9]+); error +: #  error (\1): #'
        fi
    done
} > "$nvcc_out"
