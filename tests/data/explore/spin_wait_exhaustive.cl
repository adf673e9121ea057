// ARGS: --global 2 --local 2 --arg data=int[1] --arg flag=int[1] --exhaustive --max-steps 200 --json
// One work-item publishes a value and raises a flag, the other spins until it sees the flag.
// A spinning work-item is not stepped again until someone writes, so the exhaustive
// exploration covers every execution instead of spinning ever longer.
__kernel void spin_wait(__global int *data, __global volatile int *flag) {
    if (get_local_id(0) == 0) {
        data[0] = 42;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        atomic_xchg(flag, 1);
    } else {
        while (atomic_add(flag, 0) == 0) {
        }
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        data[0] += 1;
    }
}
