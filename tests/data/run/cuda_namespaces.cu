// ARGS: --grid 1 --block 4 --arg out=int[4]
// C++ namespaces in CUDA code are flattened: declarations keep file scope, using-declarations go
// and a qualified name is its last part. Expected: out 8 10 12 14.
namespace util {
  __device__ int twice(int x) { return 2 * x; }
  namespace deep { __device__ int inc(int x) { return x + 1; } }
}
namespace { __device__ int hidden() { return 5; } }
using namespace util;
using util::twice;
__global__ void k(int *out) {
  out[threadIdx.x] = util::twice(threadIdx.x) + util::deep::inc(0) + ::hidden() + twice(1);
}
