// ARGS: --grid 1 --block 1
// A namespace that is never closed is a syntax error at its keyword.
namespace a {
__global__ void k(int *o){ o[0] = 1; }
