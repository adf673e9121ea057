// What the host programs of this folder share. engine/tests/metal.rs writes each program from
// a scenario of the gallery (`UPDATE_EXPECT=1 cargo test -p interleave-engine --test metal`
// writes them again); tests/metal/gallery.sh compiles and runs them.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("error %s\n", cudaGetErrorString(e)); exit(1); } } while (0)

template <typename T> inline std::string show(T v) { return std::to_string(v); }
inline std::string show(float v) { char b[32]; snprintf(b, sizeof b, "%.9g", v); return b; }
inline std::string show(double v) { char b[32]; snprintf(b, sizeof b, "%.17g", v); return b; }

// A kernel argument in device memory: its contents at launch, set again before every run.
template <typename T, int N> struct Buffer {
    const char *name;
    const T *init;
    T *device;
    Buffer(const char *name, const T (&init)[N]) : name(name), init(init) { CHECK(cudaMalloc(&device, sizeof(T) * N)); }
    ~Buffer() { CHECK(cudaFree(device)); }
    void reset() { CHECK(cudaMemcpy(device, init, sizeof(T) * N, cudaMemcpyHostToDevice)); }
    // Appends `NAME=V,V,...` with the values after a run to an outcome's key.
    void append(std::string &key) {
        T out[N];
        CHECK(cudaMemcpy(out, device, sizeof out, cudaMemcpyDeviceToHost));
        key += (key.empty() ? "" : " ") + std::string(name) + "=";
        for (int k = 0; k < N; k++) key += (k ? "," : "") + show(out[k]);
    }
};

// Runs the kernel as many times as the command line says (once by default): `reset` sets the
// buffers, `launch` launches, `report` appends the reported buffers to the outcome's key.
// Prints each distinct outcome with how many runs ended in it.
template <typename Reset, typename Launch, typename Report>
int tally(int argc, char **argv, Reset reset, Launch launch, Report report) {
    long runs = argc > 1 ? atol(argv[1]) : 1;
    std::map<std::string, long> seen;
    for (long run = 0; run < runs; run++) {
        reset();
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::string key;
        report(key);
        seen[key]++;
    }
    for (auto &kv : seen) printf("outcome %s %ld\n", kv.first.c_str(), kv.second);
    return 0;
}
