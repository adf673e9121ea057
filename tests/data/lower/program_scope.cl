// ARGS: --ir
// Program-scope variables: a constant table with its initial bytes, and a global pointer
// whose value the launch fills in.
constant int table[4] = { 1, 2, 4, 8 };
global int counter = 5;
global int *where = &counter;

kernel void lookup(global int *out) {
    out[0] = table[get_global_id(0) % 4] + *where;
}
