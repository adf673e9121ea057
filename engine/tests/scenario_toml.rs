//! Scenario files written by `to_toml` read back through `from_toml` as the same scenario, for
//! every example and for the fields the examples leave at their defaults.

mod common;

use interleave_engine::scenario::{from_toml, to_toml, ArgBinding, Dialect, Granularity, Launch, MemoryModel, Progress, Scenario, SchedulerKind};

fn round_trip(scenario: &Scenario) -> Scenario {
    let text = to_toml(scenario).unwrap_or_else(|d| panic!("{}: {}", scenario.file_name, d.message));
    from_toml(&text, |file| panic!("an inline scenario names no source file, yet `{file}` was asked for"))
        .unwrap_or_else(|d| panic!("{}: {}\n{text}", scenario.file_name, d.message))
}

#[test]
fn every_example_round_trips() {
    for (file, _, _) in common::EXAMPLES {
        let scenario = common::example(file);
        assert!(!scenario.source.is_empty(), "{file}");
        assert_eq!(round_trip(&scenario), scenario, "{file}");
    }
}

#[test]
fn every_field_round_trips() {
    let mut scenario = Scenario::new("__global__ void k(int *p, int n) { p[0] = n; }\n// \"quotes\" and '''\n", "k.cu", Dialect::Cuda);
    scenario.title = "All fields".into();
    scenario.description = "Two lines\nwith \"quotes\".".into();
    scenario.lesson = "Every field survives.".into();
    scenario.kernel = Some("k".into());
    scenario.defines = vec!["N=4".into(), "FAST".into()];
    scenario.launch = Launch { global: vec![8, 2], local: Some(vec![4, 1]), offset: vec![1, 0] };
    scenario.args =
        ["p=float[4]:values=1.5,-2,3:wo", "n=long:-7", "q=local:64", "r=null", "s=uchar[3]:random:ro"].iter().map(|a| ArgBinding::parse(a).unwrap()).collect();
    scenario.scheduler = SchedulerKind::Manual;
    scenario.schedule = vec![0, 1, 1, 0];
    scenario.choices = vec![1, 0];
    scenario.seed = i64::MAX as u64;
    scenario.max_steps = 5000;
    scenario.warp_size = 8;
    scenario.heap_bytes = 4096;
    scenario.memory_model = MemoryModel::Relaxed;
    scenario.default_buffer_elements = Some(16);
    scenario.report_buffers = vec!["p".into()];
    scenario.max_resident_groups = Some(1);
    scenario.progress = Progress::Fair;
    scenario.pct_depth = 5;
    scenario.granularity = Granularity::Statement;
    scenario.race_detection = false;
    assert_eq!(round_trip(&scenario), scenario);
}

#[test]
fn a_seed_toml_cannot_hold_is_an_error() {
    let scenario = Scenario { seed: u64::MAX, ..Scenario::default() };
    let error = to_toml(&scenario).unwrap_err();
    assert_eq!(error.code, "invalid-input");
}
