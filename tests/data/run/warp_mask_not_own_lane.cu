// ARGS: --global 4 --local 4 --warp-size 4 --arg out=int[4]
// Every lane syncs with the mask of lane 0 only: lanes 1 to 3 call __syncwarp with a mask that
// does not name them, which CUDA does not allow.
__global__ void only_lane_zero(int *out)
{
    int t = threadIdx.x;
    out[t] = t;
    __syncwarp(1u);
}
