// A long run for the seek benchmark: 256 work-items each make 1,303 rounds of one atomic add
// and one plain read-modify-write (three steps), 1,000,704 steps in all under any scheduler.
__kernel void busy(__global int *counters)
{
    for (int k = 0; k < 1303; k++) {
        atomic_add(&counters[0], 1);
        counters[1] = counters[1] + 1;
    }
}
