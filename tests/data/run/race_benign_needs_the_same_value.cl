// ARGS: --global 4 --local 1 --arg m=int[2]:fill=0 --sched manual --schedule 0,1,1,2,3
// A write-write race is benign only when both writes store the same value. Work-item 0
// stores 5 and work-item 1 stores 7 twice: its second store leaves 7 where 7 already is, but
// races with the store of 5, which is not benign. Work-items 2 and 3 both store 1 into m[1]:
// benign, whichever comes first.
__kernel void k(__global int *m)
{
    int gid = get_global_id(0);
    if (gid == 0) {
        m[0] = 5;
    } else if (gid == 1) {
        m[0] = 7;
        m[0] = 7;
    } else {
        m[1] = 1;
    }
}
