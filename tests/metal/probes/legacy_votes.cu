// The warp votes without a member mask, removed from sm_70 on: nvcc refuses them there.
__global__ void votes(const int *in, unsigned *out) {
    int p = in[threadIdx.x] > 0;
    out[0] = __ballot(p);
    out[1] = __all(p);
    out[2] = __any(p);
}
