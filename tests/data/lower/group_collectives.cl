// ARGS: --ir
// OpenCL 2.0 work-group and sub-group collectives and the sub-group queries.
kernel void groups(global int *out) {
    int x = (int)get_local_id(0);
    int sum = work_group_reduce_add(x);
    int first = sub_group_broadcast(x, 0);
    float m = work_group_scan_inclusive_max((float)x);
    out[get_global_id(0)] = sum + first + (int)m + (int)get_sub_group_local_id();
}
