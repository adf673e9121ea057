// ARGS: --global 1 --arg out=int[18]
// && and || on vectors work lane by lane, evaluate both operands and give -1 for true
// (OpenCL C 1.2 section 6.3.h). Expected: out 0 0 -1 0 | -1 0 -1 -1 | 0 -1 0 -1 | -1 0 -1 0 | 0 -1.
__kernel void k(__global int *out) {
  int4 a = (int4)(1, 0, 3, 0);
  int4 b = (int4)(0, 0, 5, 2);
  int4 and = a && b;
  int4 or = a || b;
  int4 not = !a;
  int4 mixed = a && 1;
  float2 f = (float2)(0.0f, 2.5f);
  int2 fo = f || (float2)(0.0f);
  vstore4(and, 0, out); vstore4(or, 1, out); vstore4(not, 2, out); vstore4(mixed, 3, out); vstore2(fo, 8, out);
}
