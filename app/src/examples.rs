//! The examples the editor's picker offers: the default kernel and the litmus tests of
//! `static/examples/litmus/`, compiled into the app so that loading one needs no request.

/// A kernel example's launch, which the launch panel takes over when it is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelLaunch {
    pub global: &'static str,
    pub local: &'static str,
    pub args: &'static [&'static str],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// Its path under `static/examples/`, which also names it in the picker's value.
    pub id: &'static str,
    pub title: &'static str,
    pub source: &'static str,
    /// `None` for a litmus test, which places its threads itself.
    pub launch: Option<KernelLaunch>,
}

impl Example {
    pub fn is_litmus(&self) -> bool {
        self.launch.is_none()
    }
}

/// The example the editor starts with.
pub const DEFAULT: Example = Example {
    id: "count.cl",
    title: "Lost updates",
    source: include_str!("../../static/examples/count.cl"),
    launch: Some(KernelLaunch {
        global: "8",
        local: "4",
        args: &["ids=int[8]", "counters=int[2]:fill=0"],
    }),
};

macro_rules! litmus {
    ($file:literal, $title:literal) => {
        Example {
            id: concat!("litmus/", $file),
            title: $title,
            source: include_str!(concat!("../../static/examples/litmus/", $file)),
            launch: None,
        }
    };
}

/// Every example, kernels first, in the picker's order.
pub const EXAMPLES: &[Example] = &[
    DEFAULT,
    litmus!("mp.litmus", "MP: message passing"),
    litmus!(
        "mp_ra_device.litmus",
        "MP with release/acquire at device scope"
    ),
    litmus!(
        "mp_ra_work_group.litmus",
        "MP with release/acquire at work-group scope"
    ),
    litmus!("sb.litmus", "SB: store buffering"),
    litmus!("sb_sc.litmus", "SB with seq_cst accesses"),
    litmus!("lb.litmus", "LB: load buffering"),
    litmus!("lb_thin_air.litmus", "LB: out of thin air"),
    litmus!(
        "iriw.litmus",
        "IRIW: independent reads of independent writes"
    ),
    litmus!("two_plus_two_w.litmus", "2+2W: two writes each"),
    litmus!("barrier_mp.litmus", "MP through a barrier"),
    litmus!(
        "barrier_local_fence_mp.litmus",
        "MP through a barrier that fences local memory"
    ),
    litmus!(
        "mp_local_flag.litmus",
        "MP with a local flag: it orders only local memory"
    ),
    litmus!(
        "relay_local_flag.litmus",
        "A relay whose first hop is a local flag"
    ),
    litmus!(
        "mp_global_flag_work_group.litmus",
        "MP with a global flag at work-group scope"
    ),
    litmus!(
        "mp_local_flag_global_fence.litmus",
        "MP with a local flag and global fences"
    ),
];

/// The example with this id.
pub fn find(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|example| example.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::scenario::{Dialect, Scenario};
    use interleave_engine::session::Session;

    #[test]
    fn every_litmus_example_is_recognised_and_runs() {
        for example in EXAMPLES.iter().filter(|e| e.is_litmus()) {
            assert!(crate::form::is_litmus(example.source), "{}", example.id);
            let scenario = Scenario::new(example.source, example.id, Dialect::Litmus);
            let mut session =
                Session::new(scenario).unwrap_or_else(|d| panic!("{}: {d:?}", example.id));
            session.run(u64::MAX);
            assert!(session.report().registers.is_some(), "{}", example.id);
        }
        assert!(!crate::form::is_litmus(DEFAULT.source));
    }

    #[test]
    fn ids_are_unique_and_found() {
        for example in EXAMPLES {
            assert_eq!(find(example.id), Some(example));
        }
        assert_eq!(find("nothing.cl"), None);
    }
}
