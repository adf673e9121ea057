// ARGS: --global 8 --local 8 --warp-size 8 --arg out=uint[3] --json
// The legacy votes without a mask still run (as votes of every lane that has not finished),
// each with a warning that nvcc 13 no longer compiles them for sm_70 and later and the _sync
// call to write instead; the warnings are in the report and change no exit status.
__global__ void votes(unsigned int *out)
{
    int t = threadIdx.x;
    unsigned int b = __ballot(t > 4);
    int all = __all(t >= 0);
    int any = __any(t == 7);
    if (t == 0) {
        out[0] = b;
        out[1] = all;
        out[2] = any;
    }
}
