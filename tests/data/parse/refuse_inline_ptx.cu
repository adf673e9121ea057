// ARGS:
// Inline PTX is refused by name.
__global__ void lane(int *out)
{
    int id;
    asm("mov.u32 %0, %laneid;" : "=r"(id));
    out[threadIdx.x] = id;
}
