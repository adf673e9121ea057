// static/examples/warp_votes.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/warp_votes.cu"

int main(int argc, char **argv)
{
    static const int init_values[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, -1, 62, -1, 64};
    Buffer<int, 64> b_values("values", init_values);
    static const unsigned int init_warp_out[6] = {0u, 0u, 0u, 0u, 0u, 0u};
    Buffer<unsigned int, 6> b_warp_out("warp_out", init_warp_out);
    static const int init_block_out[3] = {0, 0, 0};
    Buffer<int, 3> b_block_out("block_out", init_block_out);
    return tally(
        argc, argv,
        [&] { b_values.reset(); b_warp_out.reset(); b_block_out.reset(); },
        [&] { votes<<<dim3(1, 1, 1), dim3(64, 1, 1)>>>(b_values.device, b_warp_out.device, b_block_out.device); },
        [&](std::string &key) { b_warp_out.append(key); b_block_out.append(key); });
}
