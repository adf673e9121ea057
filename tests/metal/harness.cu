// A stressed litmus harness for NVIDIA GPUs: runs one litmus shape (shapes/*.cuh, written with
// the accesses of kinds.cuh) as many instances per launch and counts the outcomes seen.
//
// How it provokes weak behaviour (after Alglave et al., "GPU concurrency: weak behaviours and
// programming assumptions", ASPLOS 2015, and Sorensen and Donaldson, "Exposing errors related
// to weak memory in GPU applications", PLDI 2016):
// - every thread of a shape runs in a different block: the blocks of a launch are split into
//   one group per thread of the shape, plus stress blocks;
// - which block plays which part, which instance each thread runs, and where each instance's
//   locations lie (each on a cache line of its own, in a permuted order) are shuffled afresh
//   for every launch;
// - the threads of one instance meet at a counter of their own before they start, so they
//   run at nearly the same moment;
// - stress blocks hammer a scratch array with loads, stores and atomics meanwhile.
// The grid is sized to be resident all at once, so the meeting cannot wait forever; a thread
// that waits too long goes on anyway (counted as a timeout: its outcome is still one the GPU
// produced, just with less overlap).
//
// Build: nvcc -O3 -arch=sm_90 -DKIND=K -DFENCES=F -DSCOPE=S -DSHAPE='"shapes/NAME.cuh"' harness.cu
// Run:   ./a.out ITERATIONS SEED LABEL    (prints a `config` line and one `outcome` line per
//        distinct outcome; see run.sh, which runs every configuration)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <map>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "kinds.cuh"
#include SHAPE

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(2); } } while (0)

static const int BLOCK = 256;
// Ints between two locations: a 128-byte line each.
static const int LINE = 32;

struct Launch {
    int *mem;
    int *regs;
    const int *xoff, *yoff;
    const int *inst;
    const int *role_of_block, *slot_of_block;
    int *ready;
    int *scratch;
    int scratch_len, stress_iters, n, spin_limit;
    int *timeouts;
};

__device__ void stress(const Launch &L) {
    unsigned h = blockIdx.x * 2654435761u + threadIdx.x * 40503u + 1;
    for (int k = 0; k < L.stress_iters; k++) {
        h = h * 1664525u + 1013904223u;
        int j = (h >> 7) % L.scratch_len;
        if (k & 1) L.scratch[j] = k;
        else atomicAdd(&L.scratch[j], *(volatile int *)&L.scratch[(j + LINE) % L.scratch_len]);
    }
}

__global__ void litmus(Launch L) {
    int role = L.role_of_block[blockIdx.x];
    if (role < 0) { stress(L); return; }
    int slot = L.slot_of_block[blockIdx.x] * blockDim.x + threadIdx.x;
    int i = L.inst[role * L.n + slot];
    int *x = L.mem + L.xoff[i], *y = L.mem + L.yoff[i], *r = L.regs + i * REGS;
    atomicAdd(&L.ready[i], 1);
    int spins = 0;
    while (*(volatile int *)&L.ready[i] < THREADS) {
        if (++spins > L.spin_limit) { atomicAdd(L.timeouts, 1); break; }
    }
    switch (role) {
    case 0: thread0(x, y, r); break;
    case 1: thread1(x, y, r); break;
    case 2: thread2(x, y, r); break;
    case 3: thread3(x, y, r); break;
    }
}

// xorshift64*: the host's shuffles, seeded from the command line.
static uint64_t state;
static uint32_t next_u32() {
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return (uint32_t)((state * 2685821657736338717ull) >> 32);
}
static void shuffle(std::vector<int> &v) {
    for (size_t k = v.size(); k > 1; k--) std::swap(v[k - 1], v[next_u32() % k]);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s ITERATIONS SEED LABEL\n", argv[0]); return 2; }
    long iterations = atol(argv[1]);
    state = strtoull(argv[2], 0, 10) * 0x9E3779B97F4A7C15ull + 1;
    const char *label = argv[3];

    int device = 0, sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, litmus, BLOCK, 0));
    // Half of what fits at once, so every block is resident with room to spare.
    int total = sms * per_sm / 2;
    int stress_blocks = total / 4;
    int per_role = (total - stress_blocks) / THREADS;
    total = per_role * THREADS + stress_blocks;
    int n = per_role * BLOCK;

    std::vector<int> slots(2 * n), xoff(n), yoff(n), inst(THREADS * n), blocks(total);
    std::vector<int> role_of_block(total), slot_of_block(total), regs(n * REGS);
    for (int k = 0; k < 2 * n; k++) slots[k] = k;
    for (int k = 0; k < total; k++) blocks[k] = k;

    Launch L;
    int scratch_len = 1 << 20;
    CHECK(cudaMalloc(&L.mem, sizeof(int) * 2 * n * LINE));
    CHECK(cudaMalloc(&L.regs, sizeof(int) * n * REGS));
    CHECK(cudaMalloc((void **)&L.xoff, sizeof(int) * n));
    CHECK(cudaMalloc((void **)&L.yoff, sizeof(int) * n));
    CHECK(cudaMalloc((void **)&L.inst, sizeof(int) * THREADS * n));
    CHECK(cudaMalloc((void **)&L.role_of_block, sizeof(int) * total));
    CHECK(cudaMalloc((void **)&L.slot_of_block, sizeof(int) * total));
    CHECK(cudaMalloc(&L.ready, sizeof(int) * n));
    CHECK(cudaMalloc(&L.scratch, sizeof(int) * scratch_len));
    CHECK(cudaMalloc(&L.timeouts, sizeof(int)));
    CHECK(cudaMemset(L.scratch, 0, sizeof(int) * scratch_len));
    CHECK(cudaMemset(L.timeouts, 0, sizeof(int)));
    L.scratch_len = scratch_len;
    L.stress_iters = 256;
    L.n = n;
    L.spin_limit = 1 << 20;

    std::map<std::string, long long> seen;
    for (long it = 0; it < iterations; it++) {
        shuffle(slots);
        for (int k = 0; k < n; k++) { xoff[k] = slots[2 * k] * LINE; yoff[k] = slots[2 * k + 1] * LINE; }
        for (int role = 0; role < THREADS; role++) {
            std::vector<int> part(n);
            for (int k = 0; k < n; k++) part[k] = k;
            shuffle(part);
            std::copy(part.begin(), part.end(), inst.begin() + role * n);
        }
        shuffle(blocks);
        // Block blocks[k] plays role k / per_role (its slot k % per_role), or stresses.
        for (int k = 0; k < total; k++) {
            int b = blocks[k];
            role_of_block[b] = k < per_role * THREADS ? k / per_role : -1;
            slot_of_block[b] = k % per_role;
        }
        CHECK(cudaMemcpy((void *)L.xoff, xoff.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy((void *)L.yoff, yoff.data(), sizeof(int) * n, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy((void *)L.inst, inst.data(), sizeof(int) * THREADS * n, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy((void *)L.role_of_block, role_of_block.data(), sizeof(int) * total, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy((void *)L.slot_of_block, slot_of_block.data(), sizeof(int) * total, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(L.mem, 0, sizeof(int) * 2 * n * LINE));
        CHECK(cudaMemset(L.regs, 0, sizeof(int) * n * REGS));
        CHECK(cudaMemset(L.ready, 0, sizeof(int) * n));
        litmus<<<total, BLOCK>>>(L);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(regs.data(), L.regs, sizeof(int) * n * REGS, cudaMemcpyDeviceToHost));
        for (int k = 0; k < n; k++) {
            std::string key;
            for (int j = 0; j < REGS; j++) key += (j ? "," : "") + std::to_string(regs[k * REGS + j]);
            seen[key]++;
        }
    }
    int timeouts = 0;
    CHECK(cudaMemcpy(&timeouts, L.timeouts, sizeof(int), cudaMemcpyDeviceToHost));
    printf("config %s kind=%d fences=%d scope=%d instances=%lld timeouts=%d blocks=%d stress_blocks=%d\n", label, KIND,
           FENCES, SCOPE, (long long)iterations * n, timeouts, total, stress_blocks);
    for (auto &kv : seen) printf("outcome %s %lld\n", kv.first.c_str(), kv.second);
    return 0;
}
