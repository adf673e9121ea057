// ARGS: --global 4 --arg data=int[4]:range=0:1 --runs 10 --json
// Findings are reported once, with the first seed that shows them and how many runs did.
__kernel void off_by_one(__global int *data)
{
    int i = get_global_id(0);
    data[i] = data[i + 1] / (3 - i);
}
