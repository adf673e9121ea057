// ARGS: --global 16 --local 4 --arg sums=int[4] --arg total=int[1] --arg locks=int[1] --arg data=int[16]:range=1:1 --seed 2 --json
// Work-groups combine partial sums through a lock on global memory, after the
// inter-work-group reduction seed: atomic_or takes the lock, atomic_add(.., 0) polls it,
// atomic_xchg releases it. Here every work-group's leader waits for the lock itself.
__kernel void reduce(__global int *sums, __global int *total, __global int *locks, __global const int *data)
{
    __local int part[4];
    int lid = get_local_id(0);
    part[lid] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int s = part[0] + part[1] + part[2] + part[3];
        sums[get_group_id(0)] = s;
        while (atomic_or(&locks[0], 1) != 0) {
            while (atomic_add(&locks[0], 0) != 0) { }
        }
        total[0] += s;
        atomic_xchg(&locks[0], 0);
    }
}
