// ARGS:
// OpenCL 2.0 pipes are refused by name.
__kernel void producer(pipe int out) { }
