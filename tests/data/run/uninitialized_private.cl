// ARGS: --global 4 --arg in=int[16]:range=1:1 --arg out=int[4] --sched round-robin --json
// A classic slip: an accumulator declared without a value. Its first `+=` reads it before
// anything was written, which is reported once; a private array read where nothing was
// stored is reported too, while the initialised ones are not.
__kernel void sums(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int sum;
    int ready = 0;
    int scratch[4];
    int kept[2] = {5, 6};
    for (int k = 0; k < 4; k++)
        sum += in[i * 4 + k];
    scratch[i] = sum;
    out[i] = sum + ready + kept[1] + scratch[(i + 1) % 4];
}
