// A spin lock that the threads of one warp take in turn. With independent thread scheduling
// (sm_70 and later) the winner goes on and releases it. In lockstep (GPUs before Volta) the
// warp runs the losers' retry loop and holds the winner back until they leave it, which they
// never do: the warp hangs.
__global__ void warp_lock(int *lock, int *count)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ; // spin until the holder releases it
    __threadfence();
    count[0] = count[0] + 1;
    __threadfence();
    atomicExch(lock, 0);
}
