// ARGS: --global 8 --local 2 --arg out=int[8]
// The kernel demands work-groups of 4; a launch with groups of 2 is refused.
__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void fixed(__global int *out)
{
    out[get_global_id(0)] = get_local_size(0);
}
