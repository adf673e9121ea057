// Load buffering: each thread reads one location, then writes the other. Weak outcome: both
// read the other's later write (r0 = 1, r1 = 1).
#define THREADS 2
#define REGS 2
__device__ void thread0(int *x, int *y, int *r) { r[0] = LOAD(x); FENCE(0); STORE(y, 1); }
__device__ void thread1(int *x, int *y, int *r) { r[1] = LOAD(y); FENCE(1); STORE(x, 1); }
__device__ void thread2(int *x, int *y, int *r) {}
__device__ void thread3(int *x, int *y, int *r) {}
