// ARGS:
// Standard headers are accepted; a project header is refused with a clear diagnostic.
#include <stdio.h>
#include "common.h"
__kernel void f(__global int *d) { d[0] = 1; }
