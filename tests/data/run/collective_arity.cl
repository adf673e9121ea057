// ARGS: --global 4 --arg out=int[4]
// sub_group_broadcast takes a value and one sub-group local id; the 2-D form exists only for
// work-groups, so three arguments are an error with the accepted form as help.
__kernel void broadcast_2d_sub_group(__global int *out)
{
    int i = get_global_id(0);
    out[i] = sub_group_broadcast(i, 0, 1);
}
