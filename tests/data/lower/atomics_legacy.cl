// ARGS: --ir
// OpenCL 1.x atomics: relaxed, at device scope on global memory and work-group scope on
// local memory.
kernel void legacy(global int *counter, local int *tile) {
    int old = atomic_inc(counter);
    atomic_add(tile, old);
    atomic_cmpxchg(counter, 1, 2);
    atomic_xchg(counter, 5);
}
