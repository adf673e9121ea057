// ARGS: --global 8 --local 4 --arg c=int[2]:fill=0 --seed 3
// Lost updates: a plain read-modify-write races; the race needs no preemption at all, as
// happens-before finds it whichever order the work-items run in.
__kernel void count(__global int *c)
{
    c[0] = c[0] + 1;
    atomic_add(&c[1], 1);
}
