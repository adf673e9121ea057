// ARGS: --global 1
// A pointer-to-array declarator is refused as such (not as a function pointer), with a way out.
kernel void k(global int *o){
    int a[2][4];
    int (*p)[4] = a;
    o[0] = p[1][2];
}
