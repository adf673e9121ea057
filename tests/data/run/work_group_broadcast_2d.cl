// ARGS: --global 4,4 --local 4,2 --arg out=int[64] --json
// Work-group collectives in a 2-D launch: two groups of 4 x 2 work-items, group 0 holding
// rows y = 0, 1 and group 1 rows y = 2, 3. Work-item (lx, ly) of group (0, gy) brings
// x = lx + 10 * ly + 100 * gy, and stores to out[4i..4i+4], i = the global linear id:
//   broadcast(x, 2, 1)    = 2 + 10 + 100 gy: 12 in group 0, 112 in group 1
//   broadcast(x, 3, 0, 0) = 3 + 100 gy:      3, 103
//   broadcast(x, 1)       = 1 + 100 gy:      1, 101 (the 1-D form names (1, 0, 0))
//   scan_inclusive_add(x), in local linear id order lx + 4 ly:
//     group 0: x = 0, 1, 2, 3, 10, 11, 12, 13 -> 0, 1, 3, 6, 16, 27, 39, 52
//     group 1: x = 100, ..., 113              -> 100, 201, 303, 406, 516, 627, 739, 852
// Work-item i is local linear id i % 8 of group i / 8, so the scans appear in that order.
__kernel void broadcast_2d(__global int *out)
{
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    int x = lx + 10 * ly + 100 * (int)get_group_id(1);
    int i = get_global_id(0) + 4 * get_global_id(1);
    out[4 * i + 0] = work_group_broadcast(x, 2, 1);
    out[4 * i + 1] = work_group_broadcast(x, 3, 0, 0);
    out[4 * i + 2] = work_group_broadcast(x, (size_t)1);
    out[4 * i + 3] = work_group_scan_inclusive_add(x);
}
