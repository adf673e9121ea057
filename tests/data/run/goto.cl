// ARGS: --global 2 --arg out=int[2]
// goto, backward (a loop) and forward (out of two nested loops, and past a store to a label
// that ends the function). Expected: out 10 10.
kernel void k(global int *out) {
  int i = 0, s = 0;
loop:
  s += i;
  if (++i < 5) goto loop;
  for (int a = 0; a < 10; a++) {
    for (int b = 0; b < 10; b++) {
      if (a * b == 12) goto found;
    }
  }
  s = -1;
found:
  out[get_global_id(0)] = s;
  if (s > 0) goto end;
  out[0] = 99;
end:
}
