// ARGS: --global 1 --arg out=int[13] --arg u=uchar[4] --arg f=float[2]
// as_T between types of the same size and different lane counts reads the same bytes
// (lanes little-endian, lane 0 first), and hexadecimal constants past INT_MAX are unsigned.
// Expected: u 132 3 2 1; out 16909188 | 1 127 -1 -128 | 0 16256 | 2 -1 | 0 1074528256 |
// 131073 524295; f 1 3.5
__kernel void k(__global int *out, __global uchar *u, __global float *f) {
  uchar4 b = as_uchar4(0x01020384);
  u[0] = b.x; u[1] = b.y; u[2] = b.z; u[3] = b.w;
  out[0] = as_int((uchar4)(0x84, 0x03, 0x02, 0x01));
  char4 c = as_char4(0x80FF7F01);
  out[1] = c.x; out[2] = c.y; out[3] = c.z; out[4] = c.w;
  short2 s = as_short2(1.0f);
  out[5] = s.x; out[6] = s.y;
  f[0] = as_float((short2)(0, 0x3f80));
  long l = as_long((int2)(-1, 2));
  out[7] = (int)(l >> 32); out[8] = (int)l;
  int2 back = as_int2(3.5);
  out[9] = back.x; out[10] = back.y;
  f[1] = (float)as_double(back);
  uint4 w = as_uint4((ushort8)(1, 2, 3, 4, 5, 6, 7, 8));
  out[11] = w.x; out[12] = w.w;
}
