//! Real hardware as the oracle of the relaxed model: every litmus outcome a GPU was seen to
//! produce must be one the engine's relaxed model allows.
//!
//! `tests/data/metal/*.txt` (all but `nvcc.txt`) hold outcome counts observed by the stressed
//! harness `tests/metal/harness.cu` (`tests/metal/run.sh` runs every configuration and names
//! the GPU, driver and CUDA version in the file's header). A configuration is a shape
//! (`tests/metal/shapes/NAME.cuh`), an access kind and the threads that fence; the engine runs
//! the very same source, wrapped in a kernel that gives each thread of the shape a block of its
//! own, under `--memory-model relaxed --exhaustive`, and its outcome set must contain every
//! outcome observed. Making the data needs a GPU; checking it does not.
//!
//! `tests/data/metal/nvcc.txt` records what nvcc said of each CUDA example; every `.cu` file of
//! `static/examples` must be listed there, so a new example is compiled by the real compiler
//! before it is published.
//!
//! Natively only: it reads its data from the repository's files.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use interleave_engine::explore::{explore_with, Config};
use interleave_engine::scenario::{ArgBinding, Dialect, Launch, MemoryModel, Number, Scenario};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One configuration's observations.
struct Observed {
    /// Where it is written, for messages.
    place: String,
    shape: String,
    kind: u32,
    fences: u32,
    /// The fences' scope: 0 device (`__threadfence()`), 1 block (`__threadfence_block()`).
    scope: u32,
    instances: u64,
    /// Register values (the shape's `r[0..REGS]`) and how often each was seen.
    outcomes: BTreeMap<Vec<i64>, u64>,
}

/// Reads an observation file: a header of `KEY VALUE` lines (`gpu`, `driver`, `cuda`, ...),
/// then per configuration a `config SHAPE kind=K fences=F instances=N ...` line and its
/// `outcome R0,R1,... COUNT` lines.
fn read_observations(path: &Path) -> (BTreeMap<String, String>, Vec<Observed>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut header = BTreeMap::new();
    let mut configs: Vec<Observed> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let place = format!("{name}:{}", i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [first, ..] if first.starts_with('#') => {}
            ["config", shape, fields @ ..] => {
                let field = |key: &str| -> Option<u64> {
                    let prefix = format!("{key}=");
                    let value = fields.iter().find_map(|f| f.strip_prefix(prefix.as_str()))?;
                    Some(value.parse().unwrap_or_else(|_| panic!("{place}: `{key}={value}` is not a number")))
                };
                let needed = |key: &str| field(key).unwrap_or_else(|| panic!("{place}: no `{key}=N`"));
                let (kind, fences, instances) = (needed("kind") as u32, needed("fences") as u32, needed("instances"));
                // Device-scope fences unless the line says otherwise.
                let scope = field("scope").unwrap_or(0) as u32;
                configs.push(Observed { place, shape: shape.to_string(), kind, fences, scope, instances, outcomes: BTreeMap::new() });
            }
            ["outcome", values, count] => {
                let config = configs.last_mut().unwrap_or_else(|| panic!("{place}: an outcome before any config"));
                let values: Vec<i64> = values.split(',').map(|v| v.parse().unwrap_or_else(|_| panic!("{place}: bad value {v}"))).collect();
                let count: u64 = count.parse().unwrap_or_else(|_| panic!("{place}: bad count {count}"));
                *config.outcomes.entry(values).or_insert(0) += count;
            }
            [key, value @ ..] if configs.is_empty() => {
                header.insert(key.to_string(), value.join(" "));
            }
            _ => panic!("{place}: unreadable line `{line}`"),
        }
    }
    (header, configs)
}

/// The number after `#define NAME` in a shape file.
fn defined(text: &str, name: &str) -> usize {
    let prefix = format!("#define {name} ");
    let line = text.lines().find_map(|l| l.strip_prefix(prefix.as_str()));
    line.and_then(|v| v.trim().parse().ok()).unwrap_or_else(|| panic!("no `#define {name} N`"))
}

/// The engine's scenario for a configuration: the harness's own shape and access text, with
/// each thread of the shape in a block of its own (as on the GPU), under the relaxed model.
fn scenario(c: &Observed) -> (Scenario, usize) {
    let (shape, kind, fences, scope) = (c.shape.as_str(), c.kind, c.fences, c.scope);
    let metal = root().join("tests/metal");
    let kinds = std::fs::read_to_string(metal.join("kinds.cuh")).expect("tests/metal/kinds.cuh");
    let shape_text = std::fs::read_to_string(metal.join(format!("shapes/{shape}.cuh"))).unwrap_or_else(|e| panic!("shape {shape}: {e}"));
    let threads = defined(&shape_text, "THREADS");
    let regs = defined(&shape_text, "REGS");
    let cases: String = (0..threads).map(|t| format!("    case {t}: thread{t}(x, y, r); break;\n")).collect();
    let source = format!(
        "#define KIND {kind}\n#define FENCES {fences}\n#define SCOPE {scope}\n{kinds}\n{shape_text}\n\
         __global__ void litmus(int *x, int *y, int *r)\n{{\n  switch (blockIdx.x) {{\n{cases}  }}\n}}\n"
    );
    let mut s = Scenario::new(source, format!("{shape}.cu"), Dialect::Cuda);
    s.launch = Launch { global: vec![threads as u64], local: Some(vec![1]), offset: Vec::new() };
    let args = ["x=int[1]:fill=0".to_string(), "y=int[1]:fill=0".to_string(), format!("r=int[{regs}]:fill=0")];
    s.args = args.iter().map(|a| ArgBinding::parse(a).unwrap_or_else(|d| panic!("{a}: {}", d.message))).collect();
    s.memory_model = MemoryModel::Relaxed;
    (s, regs)
}

/// The register values of every outcome the engine's exhaustive relaxed exploration allows.
fn allowed(c: &Observed) -> BTreeSet<Vec<i64>> {
    let (s, regs) = scenario(c);
    let (shape, kind, fences) = (c.shape.as_str(), c.kind, c.fences);
    let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
    let e = explore_with(&s, config).unwrap_or_else(|d| panic!("{shape} kind={kind} fences={fences}: {}", d[0].message));
    assert!(e.complete, "{shape} kind={kind} fences={fences}: the exhaustive exploration did not finish");
    e.outcomes
        .iter()
        .map(|o| {
            let r = &o.values["r"];
            assert_eq!(r.len(), regs);
            r.iter()
                .map(|v| match v {
                    Some(Number::Int(i)) => *i,
                    other => panic!("{shape}: register value {other:?}"),
                })
                .collect()
        })
        .collect()
}

/// Configurations whose hardware outcomes the relaxed model does not reach, each with the
/// reason: a limitation stated and checked, not hidden. A configuration that starts to agree
/// must leave this list, and any other disagreement fails. Empty: every outcome observed is
/// allowed (relaxed read-modify-writes may read older writes and be promised, and a fence
/// of too narrow a scope passes the promise a thread beyond it needs).
const KNOWN: &[(&str, u32, u32, u32, &str)] = &[];

fn observation_files() -> Vec<PathBuf> {
    let dir = root().join("tests/data/metal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt") && p.file_name().is_some_and(|n| n != "nvcc.txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_outcome_seen_on_hardware_is_allowed() {
    let files = observation_files();
    assert!(!files.is_empty(), "no observation files in tests/data/metal");
    let mut failures = Vec::new();
    let mut known_seen = BTreeSet::new();
    let mut checked = 0;
    for file in &files {
        let (header, configs) = read_observations(file);
        for key in ["gpu", "driver", "cuda"] {
            assert!(header.contains_key(key), "{}: the header names no `{key}`", file.display());
        }
        assert!(!configs.is_empty(), "{}: no configurations", file.display());
        for c in &configs {
            let seen: u64 = c.outcomes.values().sum();
            assert_eq!(seen, c.instances, "{}: the outcome counts add up to {seen}, not {}", c.place, c.instances);
            let allowed = allowed(c);
            let known = KNOWN.iter().position(|k| (k.0, k.1, k.2, k.3) == (c.shape.as_str(), c.kind, c.fences, c.scope));
            let missed = c.outcomes.keys().any(|values| !allowed.contains(values));
            if let Some(k) = known {
                if missed {
                    known_seen.insert(k);
                } else {
                    failures.push(format!("{}: {} kind={} fences={} scope={} now agrees: remove it from KNOWN", c.place, c.shape, c.kind, c.fences, c.scope));
                }
                checked += 1;
                continue;
            }
            for (values, count) in &c.outcomes {
                if !allowed.contains(values) {
                    failures.push(format!(
                        "{}: {} kind={} fences={} scope={}: {} saw {values:?} {count} times; the engine allows only {allowed:?}",
                        c.place, c.shape, c.kind, c.fences, c.scope, header["gpu"]
                    ));
                }
            }
            checked += 1;
        }
    }
    for (k, entry) in KNOWN.iter().enumerate() {
        if !known_seen.contains(&k) && !failures.iter().any(|f| f.contains("now agrees")) {
            failures.push(format!("KNOWN entry {entry:?} matches no configuration observed"));
        }
    }
    assert!(failures.is_empty(), "outcomes seen on hardware that the relaxed model forbids:\n{}", failures.join("\n"));
    assert!(checked >= 78, "only {checked} configurations checked");
}

#[test]
fn every_cuda_example_was_compiled_by_nvcc() {
    let record = std::fs::read_to_string(root().join("tests/data/metal/nvcc.txt")).expect("tests/data/metal/nvcc.txt");
    let listed: BTreeMap<&str, &str> = record
        .lines()
        .filter_map(|l| match l.split_whitespace().collect::<Vec<_>>().as_slice() {
            [verdict @ ("ok" | "error"), file] => Some((*file, *verdict)),
            _ => None,
        })
        .collect();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("static/examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "cu") {
            let name = format!("static/examples/{}", path.file_name().unwrap().to_string_lossy());
            match listed.get(name.as_str()) {
                Some(&"ok") => {}
                Some(_) => missing.push(format!("{name}: nvcc refused it (see tests/data/metal/nvcc.txt)")),
                None => missing.push(format!("{name}: not compiled with nvcc yet (tests/metal/run.sh)")),
            }
        }
    }
    assert!(missing.is_empty(), "CUDA examples nvcc has not accepted:\n{}", missing.join("\n"));
}
