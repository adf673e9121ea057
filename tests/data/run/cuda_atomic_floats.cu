// ARGS: --global 4 --local 4 --arg d=double[1]:values=1 --arg f=float[2]:values=1,0 --json
// atomicAdd on double adds the values, not their bit patterns: 1 + 4 x 0.25 = 2. On float it
// is PTX's atom.add.f32, which flushes a subnormal operand to zero, so f[1] stays 0.
__global__ void sums(double *d, float *f)
{
    atomicAdd(d, 0.25);
    atomicAdd(&f[0], 0.5f);
    atomicAdd(&f[1], 1.0e-40f);
}
