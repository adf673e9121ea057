// A ring of four slots indexed with seed 004's wrapping atomics: atomicInc(&head, 3) hands
// out 0 1 2 3 0 1 ... with no modulo, and atomicDec(&tail, 3) walks 0 3 2 1 0 ... backwards.
// Eight producers share four slots, so every slot is handed out twice: the wrap-around
// reuses a slot while its first value is still there, and the two plain stores race.
#define CAPACITY 4u

__global__ void ring(unsigned int *head, unsigned int *tail, int *slots,
                     unsigned int *my_slot, unsigned int *my_back)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int slot = atomicInc(head, CAPACITY - 1);
    slots[slot] = t;           // overwrites whoever had this slot a lap earlier
    my_slot[t] = slot;
    my_back[t] = atomicDec(tail, CAPACITY - 1);
}
