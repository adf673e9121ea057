// ARGS: --global 10 --local 6 --warp-size 4 --arg q=int[60] --arg c=int[60] --arg f=float[10] --arg u=ulong[10] --arg n=int[10] --sched random --seed 3 --json
// OpenCL 2.0 sub-group queries and collectives. Sub-groups are warps of 4 consecutive
// work-items of a group, and the groups are 6 and 4 work-items (the launch is not uniform),
// so group 0 has sub-groups {l0..l3} and {l4, l5} and group 1 the one sub-group {l0..l3}.
// Work-item l of group g brings x = vals[l] + 10 * g:
//   group 0: 3, -1, 4, 1 | -5, 9      group 1: 13, 9, 14, 11
//
// q[6i..6i+6] = get_sub_group_size, get_max_sub_group_size, get_num_sub_groups,
// get_enqueued_num_sub_groups, get_sub_group_id, get_sub_group_local_id:
//   group 0, l0..l3: 4, 4, 2, 2, 0, l          l4, l5: 2, 4, 2, 2, 1, l - 4
//   group 1, l0..l3: 4, 4, 1, 2, 0, l  (4 work-items make 1 sub-group; 6 would make 2)
// c[6i..6i+6] = reduce_add, scan_exclusive_min, scan_inclusive_max, broadcast(x, 1),
// all(x > 0), any(x > 5):
//   group 0 {3, -1, 4, 1}: 7; 2147483647, 3, -1, -1; 3, 3, 4, 4; -1; 0; 0
//   group 0 {-5, 9}:       4; 2147483647, -5;        -5, 9;      9;  0; 1
//   group 1 {13, 9, 14, 11}: 47; 2147483647, 13, 9, 9; 13, 13, 14, 14; 9; 1; 1
// f[i] = reduce_add of x * 0.5 as float: 3.5 (x4), 2 (x2), 23.5 (x4).
// u[i] = scan_exclusive_add of (ulong)(l + 1): 0, 1, 3, 6 | 0, 5 || 0, 1, 3, 6.
// n[i] = the x of the next lane of the sub-group (wrapping), exchanged through local memory
// across sub_group_barrier: -1, 4, 1, 3 | 9, -5 || 9, 14, 11, 13.
__kernel void sub_groups(__global int *q, __global int *c, __global float *f, __global ulong *u, __global int *n)
{
    __local int tmp[6];
    int vals[6] = {3, -1, 4, 1, -5, 9};
    int i = get_global_id(0);
    int l = get_local_id(0);
    int x = vals[l] + 10 * (int)get_group_id(0);

    q[6 * i + 0] = get_sub_group_size();
    q[6 * i + 1] = get_max_sub_group_size();
    q[6 * i + 2] = get_num_sub_groups();
    q[6 * i + 3] = get_enqueued_num_sub_groups();
    q[6 * i + 4] = get_sub_group_id();
    q[6 * i + 5] = get_sub_group_local_id();

    c[6 * i + 0] = sub_group_reduce_add(x);
    c[6 * i + 1] = sub_group_scan_exclusive_min(x);
    c[6 * i + 2] = sub_group_scan_inclusive_max(x);
    c[6 * i + 3] = sub_group_broadcast(x, 1);
    c[6 * i + 4] = sub_group_all(x > 0);
    c[6 * i + 5] = sub_group_any(x > 5);

    f[i] = sub_group_reduce_add((float)x * 0.5f);
    u[i] = sub_group_scan_exclusive_add((ulong)(l + 1));

    tmp[l] = x;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    uint size = get_sub_group_size();
    uint first = get_sub_group_id() * get_max_sub_group_size();
    n[i] = tmp[first + (get_sub_group_local_id() + 1) % size];
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
}
