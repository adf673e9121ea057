// Write-to-read causality: thread 0 writes x; thread 1 reads x, then writes y; thread 2 reads
// y, then x. Weak outcome: thread 1 saw the new x (r0 = 1) and thread 2 saw the write of y
// that came after it (r1 = 1), yet thread 2 still reads the old x (r2 = 0).
#define THREADS 3
#define REGS 3
__device__ void thread0(int *x, int *y, int *r) { STORE(x, 1); }
__device__ void thread1(int *x, int *y, int *r) { r[0] = LOAD(x); FENCE(1); STORE(y, 1); }
__device__ void thread2(int *x, int *y, int *r) { r[1] = LOAD(y); FENCE(2); r[2] = LOAD(x); }
__device__ void thread3(int *x, int *y, int *r) {}
