// ARGS: --global 8 --local 4 --arg data=int[8] --json
// Work-item i writes i: the smallest kernel with a visible result.
__kernel void ids(__global int *data)
{
    int i = get_global_id(0);
    data[i] = i;
}
