// Independent reads of independent writes: threads 0 and 1 write x and y; threads 2 and 3
// read them in opposite orders. Weak outcome: the readers disagree on which write came
// first (r0 = 1, r1 = 0, r2 = 1, r3 = 0).
#define THREADS 4
#define REGS 4
__device__ void thread0(int *x, int *y, int *r) { STORE(x, 1); }
__device__ void thread1(int *x, int *y, int *r) { STORE(y, 1); }
__device__ void thread2(int *x, int *y, int *r) { r[0] = LOAD(x); FENCE(2); r[1] = LOAD(y); }
__device__ void thread3(int *x, int *y, int *r) { r[2] = LOAD(y); FENCE(3); r[3] = LOAD(x); }
