// ARGS: --global 4 --arg out=float[4]
// Work-group reductions combine scalars: a vector is a type error at the argument.
__kernel void sum_vectors(__global float *out)
{
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 s = work_group_reduce_add(v);
    out[get_global_id(0)] = s.x;
}
