// ARGS: --global 1 --arg out=float[2]
// frexp stores an int exponent: a pointer to float is a type error at the pointer.
__kernel void wrong_pointer(__global float *out)
{
    out[0] = frexp(8.0f, &out[1]);
}
