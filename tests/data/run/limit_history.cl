// ARGS: --global 4 --arg data=int[4]:fill=0 --max-history-events 50
// The trace history limit, lowered to 50 events: the run stops when its history is full, with
// a finding that names `max_history_events` and how to raise it.
__kernel void busy(__global int *data)
{
    for (int k = 0; k < 100; k++) {
        atomic_add(&data[get_global_id(0)], 1);
    }
}
