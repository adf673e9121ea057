// static/examples/threadfence_xy.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/threadfence_xy.cu"

int main(int argc, char **argv)
{
    static const int init_seen[2] = {0, 0};
    Buffer<int, 2> b_seen("seen", init_seen);
    static const unsigned char global_X[4] = {1u, 0u, 0u, 0u};
    static const unsigned char global_Y[4] = {2u, 0u, 0u, 0u};
    return tally(
        argc, argv,
        [&] { b_seen.reset(); CHECK(cudaMemcpyToSymbol(X, global_X, sizeof global_X)); CHECK(cudaMemcpyToSymbol(Y, global_Y, sizeof global_Y)); },
        [&] { writer_and_reader<<<dim3(2, 1, 1), dim3(1, 1, 1)>>>(b_seen.device); },
        [&](std::string &key) { b_seen.append(key); });
}
