// ARGS: --global 2 --local 2 --arg flag=int[1]:fill=0 --arg data=int[1]:fill=0 --arg seen=int[2] --exhaustive
// Work-item 0 sets a flag and then writes a datum that nobody has touched yet; work-item 1
// reads the flag and then the datum. Under sequential consistency the reader may find the
// flag set and the datum not yet written, seen=[1, 0]: the write to untouched memory is a
// scheduling point like any other (folding it into the flag's step would lose that outcome).
__kernel void fresh(__global atomic_int *flag, __global atomic_int *data, __global int *seen)
{
    if (get_global_id(0) == 0) {
        atomic_store(flag, 1);
        atomic_store(data, 5);
    } else {
        int f = atomic_load(flag);
        int d = atomic_load(data);
        seen[0] = f;
        seen[1] = d;
    }
}
