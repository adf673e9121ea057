// static/examples/syncthreads_divergent.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/syncthreads_divergent.cu"

int main(int argc, char **argv)
{
    static const int init_in[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    Buffer<int, 16> b_in("in", init_in);
    static const int init_sums[2] = {0, 0};
    Buffer<int, 2> b_sums("sums", init_sums);
    return tally(
        argc, argv,
        [&] { b_in.reset(); b_sums.reset(); },
        [&] { block_sums<<<dim3(2, 1, 1), dim3(8, 1, 1)>>>(b_in.device, b_sums.device, (int)12); },
        [&](std::string &key) { b_sums.append(key); });
}
