// static/examples/wrapping_counters.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/wrapping_counters.cu"

int main(int argc, char **argv)
{
    static const unsigned int init_counters[2] = {0u, 0u};
    Buffer<unsigned int, 2> b_counters("counters", init_counters);
    static const unsigned int init_seen_inc[8] = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    Buffer<unsigned int, 8> b_seen_inc("seen_inc", init_seen_inc);
    static const unsigned int init_seen_dec[8] = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    Buffer<unsigned int, 8> b_seen_dec("seen_dec", init_seen_dec);
    return tally(
        argc, argv,
        [&] { b_counters.reset(); b_seen_inc.reset(); b_seen_dec.reset(); },
        [&] { wrapping<<<dim3(2, 1, 1), dim3(4, 1, 1)>>>(b_counters.device, b_seen_inc.device, b_seen_dec.device); },
        [&](std::string &key) { b_counters.append(key); b_seen_inc.append(key); b_seen_dec.append(key); });
}
