// static/examples/threadfence_xy_nofence.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/threadfence_xy_nofence.cu"

int main(int argc, char **argv)
{
    static const int init_seen[2] = {0, 0};
    Buffer<int, 2> b_seen("seen", init_seen);
    return tally(
        argc, argv,
        [&] { b_seen.reset(); },
        [&] { writer_and_reader<<<dim3(2, 1, 1), dim3(1, 1, 1)>>>(b_seen.device); },
        [&](std::string &key) { b_seen.append(key); });
}
