// One element per work-item: c = a + b over a million elements, the Oclgrind comparison's
// plain data-parallel workload (no local memory, no barriers, no sharing).
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
