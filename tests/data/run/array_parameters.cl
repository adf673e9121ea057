// ARGS: --global 4 --arg out=int[4]
// Parameters declared as arrays are pointers to their first element, so the first size may be
// left out (int m[][4]) and a local array passed to one is written in place. Expected: out 23 x 4.
void fill(__local int A[][4], int r) { A[r][get_local_id(0)] = r; }
int sum(int m[2][3]) { int s = 0; for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) s += m[i][j]; return s; }
kernel void k(global int *out) {
  __local int tile[4][4];
  fill(tile, 2);
  barrier(CLK_LOCAL_MEM_FENCE);
  int m[2][3] = {{1,2,3},{4,5,6}};
  out[get_global_id(0)] = tile[2][get_local_id(0)] + sum(m);
}
