// static/examples/warp_lock.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/warp_lock.cu"

int main(int argc, char **argv)
{
    static const int init_lock[1] = {0};
    Buffer<int, 1> b_lock("lock", init_lock);
    static const int init_count[1] = {0};
    Buffer<int, 1> b_count("count", init_count);
    return tally(
        argc, argv,
        [&] { b_lock.reset(); b_count.reset(); },
        [&] { warp_lock<<<dim3(1, 1, 1), dim3(4, 1, 1)>>>(b_lock.device, b_count.device); },
        [&](std::string &key) { b_lock.append(key); b_count.append(key); });
}
