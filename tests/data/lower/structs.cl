// ARGS: --ir
// A struct lives in private memory: members are stored at their offsets, and assignment
// copies it leaf by leaf.
typedef struct {
    int count;
    float weight;
    char tag;
} Item;

kernel void items(global float *out) {
    Item a = { 3, 0.5f, 'x' };
    Item b;
    b = a;
    b.count += 1;
    out[0] = b.weight * b.count;
}
