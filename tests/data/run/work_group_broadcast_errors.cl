// ARGS: --global 4 --local 4 --arg out=int[8] --json
// work_group_broadcast needs one source, named alike by every work-item and inside the group.
// Work-item l brings x = 10 * l.
// - broadcast(x, l % 2) names two different sources: a divergence finding. Each work-item
//   still receives the value of the one it named: 0, 10, 0, 10.
// - broadcast(x, 7) names a work-item beyond the group of 4: an out-of-bounds finding, and 0.
// out[2l..2l+2] = (0, 0), (10, 0), (0, 0), (10, 0).
__kernel void broadcast_errors(__global int *out)
{
    int l = get_local_id(0);
    int x = 10 * l;
    out[2 * l] = work_group_broadcast(x, l % 2);
    out[2 * l + 1] = work_group_broadcast(x, 7);
}
