// ARGS: --global 1 --arg out=int[1]
// vec_step takes a scalar or vector type or value, not a pointer.
__kernel void steps(__global int *out)
{
    out[0] = vec_step(float3) + vec_step(out);
}
