//! Every example the app offers, compiled in so that loading one needs no request: the
//! default kernel, the litmus tests of `static/examples/litmus/`, and the scenario files of
//! the examples gallery (`static/examples/gallery.toml` orders them into entries; see
//! `crate::gallery`). The editor's picker and the gallery page both take them from here.

use interleave_engine::diag::Diagnostic;
use interleave_engine::scenario::{from_toml, Scenario};

/// A kernel example's launch, which the launch panel takes over when it is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelLaunch {
    pub global: &'static str,
    pub local: &'static str,
    pub args: &'static [&'static str],
}

/// One loadable example.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// Its path under `static/examples/`, which also names it in the picker's value.
    pub id: &'static str,
    /// Its name for people (a scenario file's `title`, which a test checks).
    pub title: &'static str,
    /// The kernel or litmus text.
    pub source: &'static str,
    /// A bare kernel's launch; `None` for a litmus test, which places its threads itself, and
    /// for a scenario file, which carries its own.
    pub launch: Option<KernelLaunch>,
    /// A gallery example's scenario file (TOML), which sets every input when it is loaded.
    pub scenario: Option<&'static str>,
}

impl Example {
    /// Whether the example is a litmus test (bare, or the source of a scenario file).
    pub fn is_litmus(&self) -> bool {
        interleave_engine::litmus::dialect(self.source).is_some()
    }

    /// A scenario file example's scenario, with its source in place of its `source_file`.
    pub fn scenario(&self) -> Option<Result<Scenario, Diagnostic>> {
        let toml = self.scenario?;
        let source = self.source;
        Some(from_toml(toml, |file| {
            let name = file.rsplit('/').next().unwrap_or(file);
            Ok((source.to_string(), name.to_string()))
        }))
    }

    /// The scenario file's stem (`count` for `count.toml`), which `?example=` also accepts.
    pub fn stem(&self) -> &'static str {
        self.id.strip_suffix(".toml").unwrap_or(self.id)
    }
}

/// The example the editor starts with.
pub const DEFAULT: Example = Example {
    id: "count.cl",
    title: "Lost updates",
    source: include_str!("../../static/examples/count.cl"),
    launch: Some(KernelLaunch { global: "8", local: "4", args: &["ids=int[8]", "counters=int[2]:fill=0"] }),
    scenario: None,
};

macro_rules! litmus {
    ($file:literal, $title:literal) => {
        Example {
            id: concat!("litmus/", $file),
            title: $title,
            source: include_str!(concat!("../../static/examples/litmus/", $file)),
            launch: None,
            scenario: None,
        }
    };
}

/// A gallery scenario file, its source file and its title (the file's own, checked by a test).
macro_rules! scenario {
    ($file:literal, $source:literal, $title:literal) => {
        Example {
            id: $file,
            title: $title,
            source: include_str!(concat!("../../static/examples/", $source)),
            launch: None,
            scenario: Some(include_str!(concat!("../../static/examples/", $file))),
        }
    };
}

/// The gallery's manifest: its entries in order, each naming scenario files of [`EXAMPLES`].
pub const GALLERY_MANIFEST: &str = include_str!("../../static/examples/gallery.toml");

/// Every example, kernels first, in the picker's order.
pub const EXAMPLES: &[Example] = &[
    DEFAULT,
    litmus!("mp.litmus", "MP: message passing"),
    litmus!("mp_ra_device.litmus", "MP with release/acquire at device scope"),
    litmus!("mp_ra_work_group.litmus", "MP with release/acquire at work-group scope"),
    litmus!("sb.litmus", "SB: store buffering"),
    litmus!("sb_sc.litmus", "SB with seq_cst accesses"),
    litmus!("lb.litmus", "LB: load buffering"),
    litmus!("lb_thin_air.litmus", "LB: out of thin air"),
    litmus!("iriw.litmus", "IRIW: independent reads of independent writes"),
    litmus!("two_plus_two_w.litmus", "2+2W: two writes each"),
    litmus!("barrier_mp.litmus", "MP through a barrier"),
    litmus!("barrier_local_fence_mp.litmus", "MP through a barrier that fences local memory"),
    litmus!("mp_local_flag.litmus", "MP with a local flag: it orders only local memory"),
    litmus!("relay_local_flag.litmus", "A relay whose first hop is a local flag"),
    litmus!("mp_global_flag_work_group.litmus", "MP with a global flag at work-group scope"),
    litmus!("mp_local_flag_global_fence.litmus", "MP with a local flag and global fences: they order nothing"),
    litmus!("mp_local_flag_both_fences.litmus", "MP with a local flag and fences naming both memories"), // The gallery's scenario files, in the manifest's order.
    scenario!("count.toml", "count.cl", "Lost updates"),
    scenario!("cas_product.toml", "cas_product.cl", "Product with a compare-exchange loop"),
    scenario!("cas_product_broken.toml", "cas_product_broken.cl", "Product with a plain load and store"),
    scenario!("weak_cas.toml", "weak_cas.cl", "Spurious failures of compare_exchange_weak"),
    scenario!("flag_mutex_product.toml", "flag_mutex_product.cl", "Product under an atomic_flag lock"),
    scenario!("flag_mutex_product_broken.toml", "flag_mutex_product_broken.cl", "A lock released before the store"),
    scenario!("mp_relaxed.toml", "litmus/mp.litmus", "Message passing with relaxed atomics"),
    scenario!("mp_release_acquire.toml", "litmus/mp_ra_device.litmus", "Message passing with release and acquire"),
    scenario!("mp_work_group_scope.toml", "litmus/mp_ra_work_group.litmus", "Release and acquire at the wrong scope"),
    scenario!("lb_relaxed.toml", "litmus/lb.litmus", "Load buffering with relaxed atomics"),
    scenario!("lb_thin_air.toml", "litmus/lb_thin_air.litmus", "Load buffering and values out of thin air"),
    scenario!("async_copy_reuse.toml", "async_copy_reuse.cl", "Async copies need barriers"),
    scenario!("async_copy_reuse_fixed.toml", "async_copy_reuse.cl", "Async copies with a barrier between them"),
    scenario!("interwork_group_reduction.toml", "interwork_group_reduction.cl", "Inter-work-group reduction with locks"),
    scenario!("interwork_group_reduction_hang.toml", "interwork_group_reduction.cl", "Inter-work-group reduction with one resident group"),
    scenario!("interwork_group_reduction_fixed.toml", "interwork_group_reduction_fixed.cl", "Inter-work-group reduction, repaired"),
    scenario!("syncthreads_divergent.toml", "syncthreads_divergent.cu", "__syncthreads() in a divergent branch"),
    scenario!("warp_votes.toml", "warp_votes.cu", "Warp votes and block votes"),
    scenario!("threadfence_xy_nofence.toml", "threadfence_xy_nofence.cu", "Writes seen out of order without __threadfence"),
    scenario!("threadfence_xy.toml", "threadfence_xy.cu", "__threadfence orders writes and reads"),
    scenario!("ring_buffer.toml", "ring_buffer.cu", "A ring buffer indexed with atomicInc and atomicDec"),
    scenario!("wrapping_counters.toml", "wrapping_counters.cu", "atomicInc and atomicDec wrap around"),
    scenario!("device_malloc.toml", "device_malloc.cu", "Per-thread device malloc and free"),
    scenario!("device_malloc_small_heap.toml", "device_malloc.cu", "Device malloc from a heap that runs out"),
    scenario!("reduce.toml", "reduce.cl", "Two-level reduction"),
    scenario!("reduce_missing_barrier.toml", "reduce_missing_barrier.cl", "Two-level reduction with a barrier missing"),
    scenario!("barrier_in_if.toml", "barrier_in_if.cl", "A barrier inside if (get_local_id(0) < 16)"),
    scenario!("barrier_in_if_fixed.toml", "barrier_in_if.cl", "The barrier moved out of the branch"),
    scenario!("warp_lock.toml", "warp_lock.cu", "A spin lock inside one warp"),
    scenario!("checkin_lock.toml", "checkin_lock.cl", "A lock held while other work-groups check in"),
    scenario!("mp_compare.toml", "litmus/mp.litmus", "Message passing under each execution model"),
];

/// The example with this id.
pub fn find(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|example| example.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::scenario::Dialect;
    use interleave_engine::session::Session;

    #[test]
    fn every_scenario_example_reads_with_its_own_title_and_source() {
        for example in EXAMPLES.iter().filter(|e| e.scenario.is_some()) {
            let scenario = example.scenario().expect("a scenario file").unwrap_or_else(|d| panic!("{}: {}", example.id, d.message));
            assert_eq!(scenario.title, example.title, "{}", example.id);
            assert_eq!(scenario.source, example.source, "{}", example.id);
            assert_eq!(scenario.dialect == Dialect::Litmus, example.is_litmus(), "{}", example.id);
            let toml = example.scenario.unwrap_or_default();
            let named = toml.lines().find_map(|l| l.strip_prefix("source_file = \"")?.strip_suffix('"'));
            assert!(
                named.is_some_and(
                    |n| example.source == std::fs::read_to_string(format!("{}/../static/examples/{n}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default()
                ),
                "{}: its source is the file it names",
                example.id
            );
        }
    }

    #[test]
    fn every_litmus_example_is_recognised_and_runs() {
        for example in EXAMPLES.iter().filter(|e| e.is_litmus()) {
            assert!(interleave_engine::litmus::dialect(example.source).is_some(), "{}", example.id);
            let scenario = Scenario::new(example.source, example.id, Dialect::Litmus);
            let mut session = Session::new(scenario).unwrap_or_else(|d| panic!("{}: {d:?}", example.id));
            session.run(u64::MAX);
            assert!(session.report().registers.is_some(), "{}", example.id);
        }
        assert!(!DEFAULT.is_litmus());
    }

    #[test]
    fn ids_are_unique_and_found() {
        for example in EXAMPLES {
            assert_eq!(find(example.id), Some(example));
        }
        assert_eq!(find("nothing.cl"), None);
    }
}
