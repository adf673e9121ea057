// Coherence of two writes to one location: threads 0 and 1 write x with 1 and 2; threads 2
// and 3 each read x twice. Weak outcome: the readers see the writes in opposite orders
// (r0 = 1, r1 = 2 and r2 = 2, r3 = 1), which coherence forbids to atomics.
#define THREADS 4
#define REGS 4
__device__ void thread0(int *x, int *y, int *r) { STORE(x, 1); }
__device__ void thread1(int *x, int *y, int *r) { STORE(x, 2); }
__device__ void thread2(int *x, int *y, int *r) { r[0] = LOAD(x); FENCE(2); r[1] = LOAD(x); }
__device__ void thread3(int *x, int *y, int *r) { r[2] = LOAD(x); FENCE(3); r[3] = LOAD(x); }
