// ARGS: --global 1 --arg x=int[1]
// A store cannot have acquire semantics: the constant order is checked at compile time.
__kernel void wrong_order(__global atomic_int *x)
{
    atomic_store_explicit(x, 1, memory_order_acquire, memory_scope_device);
}
