// ARGS: --global 2 --local 1 --arg seen=int[2] --seed 1 --json
// The reordering example of the device built-ins seed: one thread writes X then Y, another
// reads Y then X. With __threadfence() between the writes and between the reads, a reader
// that sees the new Y must also see the new X.
__device__ volatile int X = 1, Y = 2;

__device__ void writeXY()
{
    X = 10;
    __threadfence();
    Y = 20;
}

__device__ void readXY(int *seen)
{
    int y = Y;
    __threadfence();
    int x = X;
    seen[0] = x;
    seen[1] = y;
}

__global__ void fence_xy(int *seen)
{
    if (blockIdx.x == 0)
        writeXY();
    else
        readXY(seen);
}
