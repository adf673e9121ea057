// ARGS: --grid 1 --block 4 --arg out=int[16] --arg f=float[12] --arg u=uint[2] --arg scoped=int[2] --sched round-robin
// CUDA's math library and intrinsics, computed by the engine's built-ins (and a
// __launch_bounds__ hint, which changes nothing). Expected, in order:
// out: __ffs 0, 4, 32; __popc 8; __clz 31; __sad 14; __float2int_rn/ru/rd/rz 2, 3, -3, -2;
//      __float_as_int(1.0f) 1065353216; __umulhi 2; __mul24 12; __ffsll 41; llabs 7; umin 3
// f:   sqrtf(2) 1.4142135; __fdividef(1, 3) 0.33333334; __saturatef 1 and 0; __frcp_rn(4)
//      0.25; powf(2, 10) 1024; __expf(1) 2.7182817; fminf -1; __ldg of f[0]; __int_as_float 2
// u:   __brev(1u) 2147483648, __brev(0xF0u) 251658240
// scoped: atomicAdd_block and atomicAdd_system by every thread, 4 each
__global__ void __launch_bounds__(4) library(int *out, float *f, unsigned *u, int *scoped)
{
    if (threadIdx.x == 0) {
        out[0] = __ffs(0);
        out[1] = __ffs(8);
        out[2] = __ffs(0x80000000);
        out[3] = __popc(0xFFu);
        out[4] = __clz(1);
        out[5] = __sad(1, 5, 10);
        out[6] = __float2int_rn(2.5f);
        out[7] = __float2int_ru(2.1f);
        out[8] = __float2int_rd(-2.1f);
        out[9] = __float2int_rz(-2.9f);
        out[10] = __float_as_int(1.0f);
        out[11] = __umulhi(0x80000000u, 4u);
        out[12] = __mul24(3, 4);
        out[13] = __ffsll(1LL << 40);
        out[14] = (int)llabs(-7LL);
        out[15] = umin(3u, 9u);
        u[0] = __brev(1u);
        u[1] = __brev(0xF0u);
        f[0] = sqrtf(2.0f);
        f[1] = __fdividef(1.0f, 3.0f);
        f[2] = __saturatef(1.5f);
        f[3] = __saturatef(-0.5f);
        f[4] = __frcp_rn(4.0f);
        f[5] = powf(2.0f, 10.0f);
        f[6] = __expf(1.0f);
        f[7] = fminf(3.0f, -1.0f);
        f[8] = __ldg(&f[0]);
        f[9] = __int_as_float(0x40000000);
    }
    atomicAdd_block(&scoped[0], 1);
    atomicAdd_system(&scoped[1], 1);
}
