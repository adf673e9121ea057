// ARGS: --ir
// An asynchronous copy into local memory and the wait for it.
kernel void stage(global const int *src, global int *dst) {
    local int tile[16];
    event_t e = async_work_group_copy(tile, src, 16, 0);
    wait_group_events(1, &e);
    dst[get_global_id(0)] = tile[get_local_id(0)];
}
