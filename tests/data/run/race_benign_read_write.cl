// ARGS: --global 4 --local 1 --arg a=int[1]:fill=7 --arg b=int[1]:fill=5 --arg out=int[4] --sched manual --schedule 0,1,0,1,2,3,3
// A read-write race is benign when the read sees the same value in either order. Work-items 0
// and 1 each store 0 into a[0] and then read it: the first store changed the 7 that was
// there, but each read follows its own store of 0, so it reads 0 whichever store came last
// (benign, as GPUVerify's equality abstraction has it). Work-item 2 reads b[0] = 5; work-item
// 3 then stores 7 and 7 again: the second store leaves b[0] as it was, but had it come before
// the read, the read would have seen 7, not 5: not benign.
__kernel void k(__global int *a, __global int *b, __global int *out)
{
    int gid = get_global_id(0);
    if (gid < 2) {
        a[0] = 0;
        out[gid] = a[0];
    } else if (gid == 2) {
        out[gid] = b[0];
    } else {
        b[0] = 7;
        b[0] = 7;
    }
}
