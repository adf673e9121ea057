// ARGS: --global 4 --local 4 --arg out=int[4] --arg f=float[4] --json
// C++ conveniences common in CUDA kernels: constexpr sizes, auto, references, static_cast.
constexpr int N = 4;

__device__ void swap_ints(int &a, int &b)
{
    int t = a;
    a = b;
    b = t;
}

__device__ void bump(float &x) { x += 0.5f; }

__global__ void conveniences(int *out, float *f)
{
    __shared__ int tile[N];
    auto t = threadIdx.x;
    int mine = static_cast<int>(t) * 10;
    int other = -1;
    swap_ints(mine, other);
    tile[t] = mine + other;
    __syncthreads();
    out[t] = tile[(t + 1) % N];
    float v = 1.0f;
    bump(v);
    bump(v);
    f[t] = v;
}
