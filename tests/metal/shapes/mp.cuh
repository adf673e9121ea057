// Message passing: thread 0 writes the data x, then the flag y; thread 1 reads the flag, then
// the data. Weak outcome: flag seen (r0 = 1) with old data (r1 = 0).
#define THREADS 2
#define REGS 2
__device__ void thread0(int *x, int *y, int *r) { STORE(x, 1); FENCE(0); STORE(y, 1); }
__device__ void thread1(int *x, int *y, int *r) { r[0] = LOAD(y); FENCE(1); r[1] = LOAD(x); }
__device__ void thread2(int *x, int *y, int *r) {}
__device__ void thread3(int *x, int *y, int *r) {}
