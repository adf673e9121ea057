// ARGS: --ir
// CUDA's math library and intrinsics mapped onto the built-in library, a device printf and
// the device heap.
__global__ void lib(float *out, float x) {
    float r = sqrtf(x) + __fdividef(x, 3.0f);
    int n = __float2int_rn(r);
    int *scratch = (int *)malloc(4 * sizeof(int));
    scratch[0] = __popc(n);
    printf("thread %d: %d\n", threadIdx.x, scratch[0]);
    free(scratch);
    out[threadIdx.x] = r;
}
