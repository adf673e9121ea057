// ARGS: --grid 1 --block 1 --arg out=float[1]
// A template call deduces its parameter from its argument's type, and its argument is lowered
// again for the call, so nesting doubles the work at each level: past a bound, the deduction
// stops with a diagnostic instead of hanging (here 40 levels, 2^40 deductions).
template <typename T> __device__ T twice(T a) { return a + a; }
__global__ void k(float *out)
{
    out[0] = twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(
             twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(
             1.5f))))))))))))))))))))))))))))))))))))))));
}
