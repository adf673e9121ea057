// ARGS: --global 256 --local 16 --resident-groups 1 --arg out=int[16] --max-memory-bytes 1000000
// With one resident group at a time, groups get their private memory only when they start,
// but every group starts eventually and a finished work-item keeps its state: the launch is
// charged for all of them and refused up front, not when the sixteenth group starts.
__kernel void k(__global int *out)
{
    int a[1024];
    for (int i = 0; i < 1024; i++)
        a[i] = i;
    out[get_global_id(0) % 16] = a[get_global_id(0) % 1024];
}
