// ARGS: --global 4 --local 4 --arg ints=int[4]:range=1:1 --arg floats=float[4]:range=0.5:1 --json
// A template device function instantiated for int and for float at its call sites.
template <typename T>
__device__ T twice_max(T a, T b)
{
    T m = a > b ? a : b;
    return m + m;
}

template <typename T>
__device__ void scale(T *p, T k)
{
    *p = *p * k;
}

__global__ void both(int *ints, float *floats)
{
    int i = threadIdx.x;
    ints[i] = twice_max(ints[i], 2);
    floats[i] = twice_max(floats[i], 1.0f);
    scale(&ints[i], 10);
    scale(&floats[i], 0.5f);
}
