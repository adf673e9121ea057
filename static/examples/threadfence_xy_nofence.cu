// Seed 004's fence example without the fences. X and Y start at 1 and 2; block 0 writes
// X = 10 and then Y = 20, block 1 reads Y and then X. Volatile accesses are relaxed and
// nothing orders them across blocks, so the reader may find the new Y with the old X:
// seen = {20, 1}, which no interleaving of the four accesses explains.
__device__ volatile int X = 1, Y = 2;

__device__ void writeXY()
{
    X = 10;
    Y = 20;
}

__device__ void readYX(int *seen)
{
    int y = Y;
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
