// Seed 000's product with the compare-exchange loop replaced by a plain load and a plain
// store. Each group's first work-item reads the result, multiplies and writes it back; when
// two groups read before either writes, one factor is lost and the product is wrong.
#define GROUP 4

__kernel void product_plain(__global int *product, __global const int *values)
{
    __local int partial[GROUP];
    int lid = get_local_id(0);
    partial[lid] = values[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int mine = 1;
        for (int i = 0; i < GROUP; i++)
            mine *= partial[i];
        int seen = product[0];      // another group may store between this load...
        product[0] = seen * mine;   // ...and this store, which then overwrites its factor
    }
}
