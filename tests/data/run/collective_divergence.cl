// ARGS: --global 8 --local 4 --warp-size 2 --arg out=int[16] --json
// Collectives that only some work-items reach are barrier divergence, like barriers.
// Two groups of 4, each made of the sub-groups {l0, l1} and {l2, l3}.
// - Only l0 and l1 call work_group_reduce_add: l2 and l3 finish without it, so the group's
//   rendezvous reports divergence; the two that did call it combine their own values,
//   1 + 2 = 3.
// - l3 skips sub_group_reduce_add: its sub-group partner l2 waits alone and is reported,
//   receiving its own value 3. The sub-group {l0, l1} is complete: 1 + 2 = 3, no finding.
// out[2i..2i+2] = (r, s), per group: (3, 3), (3, 3), (-1, 3), (-1, -1).
// Both groups diverge at the same places, so each finding is reported once.
__kernel void diverge(__global int *out)
{
    int i = get_global_id(0);
    int l = get_local_id(0);
    int r = -1;
    int s = -1;
    if (l < 2) {
        r = work_group_reduce_add(l + 1);
    }
    if (l != 3) {
        s = sub_group_reduce_add(l + 1);
    }
    out[2 * i] = r;
    out[2 * i + 1] = s;
}
