// Seed 004's fence example. X and Y start at 1 and 2; block 0 writes X = 10 and then Y = 20,
// block 1 reads Y and then X. Volatile accesses are relaxed: without fences the reader may
// see the new Y with the old X (threadfence_xy_nofence.cu). Here __threadfence() between the
// writes and between the reads forbids that: a reader that sees Y == 20 also sees X == 10.
__device__ volatile int X = 1, Y = 2;

__device__ void writeXY()
{
    X = 10;
    __threadfence();
    Y = 20;
}

__device__ void readYX(int *seen)
{
    int y = Y;
    __threadfence();
    int x = X;
    seen[0] = y;
    seen[1] = x;
}

__global__ void writer_and_reader(int *seen)
{
    if (blockIdx.x == 0) {
        writeXY();
    } else {
        readYX(seen);
    }
}
