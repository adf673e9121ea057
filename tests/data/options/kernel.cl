// The kernel the option tests (cli/tests/options.rs) run with every option of `run`,
// `explore` and `link`: each option changes what it prints. The schedule decides how many of
// the plain counter's updates are lost; BIAS, the sub-group size, the global offset, the
// default buffer, printf and a weak compare-exchange each leave their mark in `out`; group
// 0 waits for the last group's flag, so with fewer resident groups the progress model
// decides whether it ever comes; and the plain counter races.
#ifndef BIAS
#define BIAS 0
#endif

__kernel void k(__global int *out, __global int *data, __global atomic_int *flag, __local int *tmp)
{
    size_t i = get_global_id(0);
    tmp[get_local_id(0)] = (int)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = out[0];
    out[0] = v + 1 + BIAS;
    atomic_add((__global int *)&out[1], (int)get_sub_group_size());
    atomic_add((__global int *)&out[2], (int)get_global_offset(0));
    atomic_add((__global int *)&out[4], data[i % 4] + tmp[0]);
    int expected = 0;
    if (!atomic_compare_exchange_weak(&flag[1], &expected, 1))
        atomic_add((__global int *)&out[5], 1);
    printf("%d\n", (int)i);
    if (get_group_id(0) == get_num_groups(0) - 1 && get_local_id(0) == 0)
        atomic_store(&flag[0], 1);
    if (get_group_id(0) == 0)
        while (atomic_load(&flag[0]) == 0) {
        }
}
