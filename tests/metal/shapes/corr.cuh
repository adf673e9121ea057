// Coherence of two reads of one location: thread 1 reads x twice while thread 0 writes it.
// Weak outcome: the new value, then the old one (r0 = 1, r1 = 0).
#define THREADS 2
#define REGS 2
__device__ void thread0(int *x, int *y, int *r) { STORE(x, 1); }
__device__ void thread1(int *x, int *y, int *r) { r[0] = LOAD(x); FENCE(1); r[1] = LOAD(x); }
__device__ void thread2(int *x, int *y, int *r) {}
__device__ void thread3(int *x, int *y, int *r) {}
