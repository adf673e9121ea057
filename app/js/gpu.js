// The words OpenCL C and CUDA add to C: address-space and function qualifiers, the vector
// and atomic types, the work-item and synchronisation built-ins, and their constants.
//
// `classify` sorts a word into one of five groups, each with a highlighting tag that the
// editor's highlight style gives a class of the same name, so that kernels and the thread
// bodies of litmus tests show GPU code alike.

import { Tag, tags } from "@lezer/highlight";

const words = (text) => new Set(text.split(/\s+/).filter(Boolean));

const QUALIFIERS = words(`
  __kernel kernel __global global __local local __constant constant __private private
  __generic generic __read_only read_only __write_only write_only __read_write read_write
  __attribute__ restrict __restrict __restrict__ uniform
  __global__ __device__ __host__ __shared__ __constant__ __managed__ __noinline__
  __forceinline__ __launch_bounds__ __grid_constant__
`);

const TYPES = words(`
  bool uchar ushort uint ulong half size_t ptrdiff_t intptr_t uintptr_t
  event_t cl_mem_fence_flags memory_order memory_scope
  atomic_int atomic_uint atomic_long atomic_ulong atomic_float atomic_double atomic_flag
  atomic_intptr_t atomic_uintptr_t atomic_size_t atomic_ptrdiff_t
  dim3 __half
`);

const VECTOR_TYPE = /^(char|uchar|short|ushort|int|uint|long|ulong|float|double|half)(2|3|4|8|16)$/;

const BUILTINS = words(`
  get_global_id get_local_id get_group_id get_global_size get_local_size get_num_groups
  get_work_dim get_global_offset get_enqueued_local_size get_global_linear_id
  get_local_linear_id get_sub_group_size get_max_sub_group_size get_num_sub_groups
  get_sub_group_id get_sub_group_local_id get_enqueued_num_sub_groups
  barrier mem_fence read_mem_fence write_mem_fence
  async_work_group_copy async_work_group_strided_copy wait_group_events prefetch printf
  __syncthreads __syncthreads_count __syncthreads_and __syncthreads_or __syncwarp
  __threadfence __threadfence_block __threadfence_system __activemask __ballot
  __ballot_sync __any_sync __all_sync __uni_sync __match_any_sync __match_all_sync
  __shfl __shfl_up __shfl_down __shfl_xor __shfl_sync __shfl_up_sync __shfl_down_sync
  __shfl_xor_sync __reduce_add_sync __reduce_min_sync __reduce_max_sync
  __reduce_and_sync __reduce_or_sync __reduce_xor_sync __nanosleep malloc free
`);

// Families named by a prefix: OpenCL's `atomic_*`, `atom_*`, `work_group_*`, `sub_group_*`,
// `vload*`/`vstore*`, and CUDA's `atomicAdd`, `atomicCAS`, ...
const BUILTIN_PREFIX = /^(atomic_|atom_|work_group_|sub_group_|vload|vstore|atomic[A-Z])/;

const VARIABLES = words("threadIdx blockIdx blockDim gridDim warpSize");

const CONSTANTS = words("ATOMIC_VAR_INIT ATOMIC_FLAG_INIT");
const CONSTANT_PREFIX = /^(CLK_|memory_order_|memory_scope_)/;

/// The group of a word, as a class name, or null for a word C already knows or a user's name.
export function classify(word) {
  if (QUALIFIERS.has(word)) return "cm-gpu-qualifier";
  if (TYPES.has(word) || VECTOR_TYPE.test(word)) return "cm-gpu-type";
  if (VARIABLES.has(word)) return "cm-gpu-variable";
  if (CONSTANTS.has(word) || CONSTANT_PREFIX.test(word)) return "cm-gpu-constant";
  // The atomic types also match the `atomic_` prefix, so builtins come after the types.
  if (BUILTINS.has(word) || BUILTIN_PREFIX.test(word)) return "cm-gpu-builtin";
  return null;
}

/// One tag per group, keyed by the group's class, for a stream parser's token table.
export const gpuTags = {
  "cm-gpu-qualifier": Tag.define(tags.modifier),
  "cm-gpu-type": Tag.define(tags.typeName),
  "cm-gpu-builtin": Tag.define(tags.variableName),
  "cm-gpu-variable": Tag.define(tags.variableName),
  "cm-gpu-constant": Tag.define(tags.variableName),
};
