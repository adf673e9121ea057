// ARGS:
// Device-side enqueue is refused by name.
__kernel void parent(__global int *d)
{
    queue_t q = get_default_queue();
}
