// ARGS: --global 2 --local 2 --arg out=float[8]:uninit:wo
// Assigning a vector to memory stores its lanes and nothing more: the assignment's value is
// the value stored, so chaining it reads nothing back from the write-only buffer (and adds
// no loads that another work-item's writes could race with).
kernel void store_vectors(global float4 *out) {
    size_t i = get_global_id(0);
    float4 v = (float4)(1.0f, 2.0f, 3.0f, (float)i);
    float4 w = (out[i] = v);
    out[i] = w + 1.0f;
}
