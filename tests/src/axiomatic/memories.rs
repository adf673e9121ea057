//! Message passing across memories: the generated tests that decide which memory a release
//! and an acquire order when the data and the flag may sit in different address spaces.
//!
//! OpenCL 2.0 keeps one happens-before per memory (global and local), and whether a
//! synchronisation through a flag orders the data depends on where each sits and on what
//! each end names: an atomic orders the memory of its own object, a fence the memories its
//! flags name, and a fence orders one memory through an atomic on the other's object only
//! when it names both. Every combination of these is a test here:
//!
//! - the data `x` in global or local memory, the flag in global or local memory;
//! - the flag's store relaxed, release or seq_cst, and before it no fence or a release or
//!   seq_cst fence naming global memory, local memory or both;
//! - the flag's load relaxed, acquire or seq_cst, and after it (when it read the flag set)
//!   no fence or an acquire or seq_cst fence naming global memory, local memory or both.
//!
//! Both threads share one work-group (local memory is a work-group's) and every atomic and
//! fence has work-group scope. The condition asks whether the reader can see the flag set
//! and the data not yet written; a test is racy exactly when nothing orders the two accesses
//! to the data.
//!
//! A second, smaller set puts a barrier before the flag instead of a fence: the data is a
//! relaxed atomic (so nothing races and the outcomes must match), the barrier names global
//! memory, local memory or both, and the flag's store and load are relaxed or
//! release/acquire. A barrier synchronises the work-items that meet at it in the memory its
//! flags name, and is no release or acquire fence besides.

/// One end of the synchronisation: the atomic's order, and the fence beside it.
#[derive(Clone, Copy)]
struct End {
    order: &'static str,
    /// The fence's order and flags, when there is one.
    fence: Option<(&'static str, &'static str)>,
}

const FLAGS: [(&str, &str); 3] = [("g", "CLK_GLOBAL_MEM_FENCE"), ("l", "CLK_LOCAL_MEM_FENCE"), ("gl", "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE")];

/// Every end of one side: the atomic's orders, each alone or with each fence.
fn ends(orders: [&'static str; 3], fence_orders: [&'static str; 2]) -> Vec<End> {
    let mut out = Vec::new();
    for order in orders {
        out.push(End { order, fence: None });
        for fence_order in fence_orders {
            for (_, flags) in FLAGS {
                out.push(End { order, fence: Some((fence_order, flags)) });
            }
        }
    }
    out
}

fn short(order: &str) -> &str {
    match order {
        "memory_order_relaxed" => "rlx",
        "memory_order_release" => "rel",
        "memory_order_acquire" => "acq",
        _ => "sc",
    }
}

fn show(end: &End) -> String {
    match end.fence {
        None => short(end.order).to_string(),
        Some((order, flags)) => {
            let letters = FLAGS.iter().find(|(_, f)| *f == flags).map_or("?", |(l, _)| l);
            format!("{}+F{}{}", short(end.order), short(order), letters)
        }
    }
}

/// The tests, each as its name and its litmus text.
pub fn generate() -> Vec<(String, String)> {
    let space = |local: bool| if local { "local" } else { "global" };
    let releases = ends(["memory_order_relaxed", "memory_order_release", "memory_order_seq_cst"], ["memory_order_release", "memory_order_seq_cst"]);
    let acquires = ends(["memory_order_relaxed", "memory_order_acquire", "memory_order_seq_cst"], ["memory_order_acquire", "memory_order_seq_cst"]);
    let mut out = Vec::new();
    for data_local in [false, true] {
        for flag_local in [false, true] {
            for rel in &releases {
                for acq in &acquires {
                    let name = format!("MP.x{}.flag{}.W{}.R{}", &space(data_local)[..1], &space(flag_local)[..1], show(rel), show(acq));
                    let params = format!("({} int* x, {} atomic_int* flag)", space(data_local), space(flag_local));
                    let fence = |f: Option<(&str, &str)>| {
                        f.map_or(String::new(), |(order, flags)| format!("  atomic_work_item_fence({flags}, {order}, memory_scope_work_group);\n"))
                    };
                    let text = format!(
                        "OPENCL {name}\n{{ [x]=0; [flag]=0; }}\n\
                         P0@wg 0, dev 0 {params} {{\n  *x = 1;\n{}  atomic_store_explicit(flag, 1, {}, memory_scope_work_group);\n}}\n\
                         P1@wg 0, dev 0 {params} {{\n  int r0 = atomic_load_explicit(flag, {}, memory_scope_work_group);\n  int r1 = -1;\n  if (r0 == 1) {{\n{}    r1 = *x;\n  }}\n}}\n\
                         exists (1:r0=1 /\\ 1:r1=0)\n",
                        fence(rel.fence),
                        rel.order,
                        acq.order,
                        fence(acq.fence).replace("  atomic", "    atomic"),
                    );
                    out.push((name, text));
                }
            }
        }
    }
    for data_local in [false, true] {
        for flag_local in [false, true] {
            for (letters, flags) in FLAGS {
                for store in ["memory_order_relaxed", "memory_order_release"] {
                    for load in ["memory_order_relaxed", "memory_order_acquire"] {
                        let name = format!("MPbar.x{}.flag{}.B{letters}.W{}.R{}", &space(data_local)[..1], &space(flag_local)[..1], short(store), short(load));
                        let params = format!("({} atomic_int* x, {} atomic_int* flag)", space(data_local), space(flag_local));
                        let text = format!(
                            "OPENCL {name}\n{{ [x]=0; [flag]=0; }}\n\
                             P0@wg 0, dev 0 {params} {{\n  atomic_store_explicit(x, 1, memory_order_relaxed, memory_scope_work_group);\n  barrier({flags});\n  atomic_store_explicit(flag, 1, {store}, memory_scope_work_group);\n}}\n\
                             P1@wg 0, dev 0 {params} {{\n  barrier({flags});\n  int r0 = atomic_load_explicit(flag, {load}, memory_scope_work_group);\n  int r1 = -1;\n  if (r0 == 1) {{\n    r1 = atomic_load_explicit(x, memory_order_relaxed, memory_scope_work_group);\n  }}\n}}\n\
                             exists (1:r0=1 /\\ 1:r1=0)\n"
                        );
                        out.push((name, text));
                    }
                }
            }
        }
    }
    out
}
