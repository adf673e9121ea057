// ARGS: --global 2 --granularity statement --sched round-robin --arg out=int[2] --json
// With the statement granularity every statement is a step of its own, private ones too, so
// a lesson can walk through a kernel line by line.
__kernel void lines(__global int *out)
{
    int i = get_global_id(0);
    int square = i * i;
    square += 1;
    out[i] = square;
}
