// ARGS: --global 1 --arg out=float[4] --arg o2=int[1]
// Reading the never-stored part of a partly written vector names the part; reading a scalar
// that was never stored says nothing was.
kernel void k(global float4 *out, global int *o2) {
  float4 v;
  v.xyz = (float3)(1.0f);
  out[get_global_id(0)] = v;
  int x;
  int y = x + 1;
  o2[get_global_id(0)] = 0;
}
