// ARGS: --global 2 --local 2 --arg out=float[2] --arg exps=int[1]
// The second result of frexp is an ordinary store: two work-items storing it to the same
// element race, and a store past the end of a buffer is out of bounds.
__kernel void shared_exponent(__global float *out, __global int *exps)
{
    int id = get_global_id(0);
    out[id] = frexp(8.0f * (id + 1), &exps[0]);
    if (id == 1) {
        out[0] = fract(1.5f, (__global float *)&exps[1]);
    }
}
