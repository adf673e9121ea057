// ARGS: --global 4 --local 4 --arg out=int[4] --max-printf-bytes 40
// The printf limit, lowered to 40 bytes: output past it is dropped, with a finding that names
// `max_printf_bytes` and how to raise it.
__kernel void chatty(__global int *out)
{
    int i = get_global_id(0);
    for (int k = 0; k < 3; k++) {
        printf("work-item %d says %d\n", i, k);
    }
    out[i] = i;
}
