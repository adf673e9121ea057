// ARGS: --global 16 --local 8 --arg red=int[48] --arg incl=int[48] --arg excl=int[48] --arg f=float[32] --arg misc=int[80] --arg big=long[16] --json
// OpenCL 2.0 work-group collectives over two groups of 8. Work-item l of group g brings
// x = vals[l] + 10 * g:
//   group 0: x = 5, -3, 7, 0, -8, 2, 9, -1
//   group 1: x = 15, 7, 17, 10, 2, 12, 19, 9
// Every work-item stores what it received, so each group's 8 items must agree.
//
// red[3i..3i+3] = reduce add, min, max:
//   group 0: 11, -8, 9     group 1: 91, 2, 19
// incl[3i..3i+3] = inclusive scan add, min, max (in local id order):
//   group 0: add 5, 2, 9, 9, 1, 3, 12, 11
//            min 5, -3, -3, -3, -8, -8, -8, -8
//            max 5, 5, 7, 7, 7, 7, 9, 9
//   group 1: add 15, 22, 39, 49, 51, 63, 82, 91
//            min 15, 7, 7, 7, 2, 2, 2, 2
//            max 15, 15, 17, 17, 17, 17, 19, 19
// excl[3i..3i+3] = exclusive scan add, min, max: the inclusive scan of the previous item,
// and the identity for local id 0 (0, INT_MAX = 2147483647, INT_MIN = -2147483648):
//   group 0: add 0, 5, 2, 9, 9, 1, 3, 12
//            min 2147483647, 5, -3, -3, -3, -8, -8, -8
//            max -2147483648, 5, 5, 7, 7, 7, 7, 9
//   group 1: add 0, 15, 22, 39, 49, 51, 63, 82
//            min 2147483647, 15, 7, 7, 7, 2, 2, 2
//            max -2147483648, 15, 15, 17, 17, 17, 17, 19
// f[i] = float reduce add of fv = 1e8, 1, -1e8, 1, 0.5, 0.25, 0.125, 0.125 (both groups).
//   Combined in local id order: 1e8 + 1 rounds back to 1e8 (floats near 1e8 are 8 apart),
//   minus 1e8 is 0, then 1 + 0.5 + 0.25 + 0.125 + 0.125 = 2. So 2 for every item (the exact
//   sum, 3, would show that the items were combined in some other order).
// f[16 + i] = float inclusive scan add of fv: 1e8, 1e8, 0, 1, 1.5, 1.75, 1.875, 2.
// misc[5i..5i+5] = all(x >= 0), any(x < -5), broadcast(x, 6), reduce_min((uint)x), and the
// exclusive scan min over double (1000 marks the identity +INFINITY):
//   group 0: 0, 1, 9, 0 (negative values are huge as uint; the smallest is 0 at l = 3),
//            dexcl 1000, 5, -3, -3, -3, -8, -8, -8
//   group 1: 1, 0, 19, 2, dexcl 1000, 15, 7, 7, 7, 2, 2, 2
// big[i] = inclusive scan add of (long)x * 1000000000, beyond the range of int:
//   group 0: 5e9, 2e9, 9e9, 9e9, 1e9, 3e9, 12e9, 11e9
//   group 1: 15e9, 22e9, 39e9, 49e9, 51e9, 63e9, 82e9, 91e9
__kernel void collectives(__global int *red, __global int *incl, __global int *excl, __global float *f,
                          __global int *misc, __global long *big)
{
    int vals[8] = {5, -3, 7, 0, -8, 2, 9, -1};
    float fvals[8] = {1e8f, 1.0f, -1e8f, 1.0f, 0.5f, 0.25f, 0.125f, 0.125f};
    int i = get_global_id(0);
    int l = get_local_id(0);
    int x = vals[l] + 10 * (int)get_group_id(0);
    float fv = fvals[l];

    red[3 * i + 0] = work_group_reduce_add(x);
    red[3 * i + 1] = work_group_reduce_min(x);
    red[3 * i + 2] = work_group_reduce_max(x);
    incl[3 * i + 0] = work_group_scan_inclusive_add(x);
    incl[3 * i + 1] = work_group_scan_inclusive_min(x);
    incl[3 * i + 2] = work_group_scan_inclusive_max(x);
    excl[3 * i + 0] = work_group_scan_exclusive_add(x);
    excl[3 * i + 1] = work_group_scan_exclusive_min(x);
    excl[3 * i + 2] = work_group_scan_exclusive_max(x);

    f[i] = work_group_reduce_add(fv);
    f[16 + i] = work_group_scan_inclusive_add(fv);

    misc[5 * i + 0] = work_group_all(x >= 0);
    misc[5 * i + 1] = work_group_any(x < -5);
    misc[5 * i + 2] = work_group_broadcast(x, 6);
    misc[5 * i + 3] = (int)work_group_reduce_min((uint)x);
    double e = work_group_scan_exclusive_min((double)x);
    misc[5 * i + 4] = e == INFINITY ? 1000 : (int)e;

    big[i] = work_group_scan_inclusive_add((long)x * 1000000000L);
}
