// ARGS: --global 2 --arg flag=int[1] --exhaustive --max-memory-bytes 2000000
// Work-item 0 spins on a flag that work-item 1 sets: the exhaustive search follows the spin
// first, keeping a copy of the state at every step. When the states of that one path would
// hold more than the memory limit, the search stops, incomplete, with a step-limit finding
// that names the limit, instead of exhausting the host.
__kernel void wait_for_flag(__global volatile int *flag)
{
    if (get_global_id(0) == 0) {
        while (flag[0] == 0) {
        }
    } else {
        flag[0] = 1;
    }
}
