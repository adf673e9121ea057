// static/examples/device_malloc_small_heap.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/device_malloc.cu"

int main(int argc, char **argv)
{
    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 256));
    static const int init_sums[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    Buffer<int, 8> b_sums("sums", init_sums);
    static const int init_got[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    Buffer<int, 8> b_got("got", init_got);
    return tally(
        argc, argv,
        [&] { b_sums.reset(); b_got.reset(); },
        [&] { scratch<<<dim3(2, 1, 1), dim3(4, 1, 1)>>>(b_sums.device, b_got.device); },
        [&](std::string &key) { b_sums.append(key); b_got.append(key); });
}
