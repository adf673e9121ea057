// ARGS:
// A legacy warp vote parses and checks, with a warning naming the _sync form to write; the
// exit status stays 0.
__global__ void any_negative(const int *values, int *out)
{
    out[threadIdx.x / 32] = __any(values[threadIdx.x] < 0);
}
