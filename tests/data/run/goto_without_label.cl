// ARGS: --global 1
// A goto to a label the function does not have points at the label's name.
kernel void k(global int *o){ goto nowhere; }
