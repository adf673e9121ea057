// static/examples/ring_buffer.toml on a real GPU: written by engine/tests/metal.rs, run by
// tests/metal/gallery.sh (driver.cuh says how).
#include "driver.cuh"
#include "../../../static/examples/ring_buffer.cu"

int main(int argc, char **argv)
{
    static const unsigned int init_head[1] = {0u};
    Buffer<unsigned int, 1> b_head("head", init_head);
    static const unsigned int init_tail[1] = {0u};
    Buffer<unsigned int, 1> b_tail("tail", init_tail);
    static const int init_slots[4] = {-1, -1, -1, -1};
    Buffer<int, 4> b_slots("slots", init_slots);
    static const unsigned int init_my_slot[8] = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    Buffer<unsigned int, 8> b_my_slot("my_slot", init_my_slot);
    static const unsigned int init_my_back[8] = {0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
    Buffer<unsigned int, 8> b_my_back("my_back", init_my_back);
    return tally(
        argc, argv,
        [&] { b_head.reset(); b_tail.reset(); b_slots.reset(); b_my_slot.reset(); b_my_back.reset(); },
        [&] { ring<<<dim3(2, 1, 1), dim3(4, 1, 1)>>>(b_head.device, b_tail.device, b_slots.device, b_my_slot.device, b_my_back.device); },
        [&](std::string &key) { b_head.append(key); b_tail.append(key); b_slots.append(key); b_my_slot.append(key); b_my_back.append(key); });
}
