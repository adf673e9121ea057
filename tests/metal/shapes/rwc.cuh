// Read-to-write causality: thread 0 writes x; thread 1 reads x, then y; thread 2 writes y,
// then reads x. Weak outcome: thread 1 saw the new x (r0 = 1) but the old y (r1 = 0), and
// thread 2, whose write of y thread 1 missed, also reads the old x (r2 = 0).
#define THREADS 3
#define REGS 3
__device__ void thread0(int *x, int *y, int *r) { STORE(x, 1); }
__device__ void thread1(int *x, int *y, int *r) { r[0] = LOAD(x); FENCE(1); r[1] = LOAD(y); }
__device__ void thread2(int *x, int *y, int *r) { STORE(y, 1); FENCE(2); r[2] = LOAD(x); }
__device__ void thread3(int *x, int *y, int *r) {}
