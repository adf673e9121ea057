// ARGS: -D USE_ATOMICS -D WIDTH=4
// Conditionals driven by -D build options; the inactive branches are never parsed.
#ifndef WIDTH
#error WIDTH must be defined
#endif
#ifdef USE_ATOMICS
#define BUMP(p) atomic_inc(p)
#elif WIDTH > 8
this is never parsed
#else
#define BUMP(p) (*(p))++
#endif
#if 0
#if 1
also never parsed
#endif
#endif
__kernel void bump(__global int *counter)
{
    for (int i = 0; i < WIDTH; i++) BUMP(counter);
}
