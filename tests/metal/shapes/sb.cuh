// Store buffering: each thread writes its location, then reads the other's. Weak outcome:
// both read the initial value (r0 = 0, r1 = 0).
#define THREADS 2
#define REGS 2
__device__ void thread0(int *x, int *y, int *r) { STORE(x, 1); FENCE(0); r[0] = LOAD(y); }
__device__ void thread1(int *x, int *y, int *r) { STORE(y, 1); FENCE(1); r[1] = LOAD(x); }
__device__ void thread2(int *x, int *y, int *r) {}
__device__ void thread3(int *x, int *y, int *r) {}
