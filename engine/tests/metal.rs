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
//! The gallery's CUDA scenarios run on the GPU too: `tests/metal/gallery/NAME.cu` is a host
//! program this test writes from each scenario file (its buffers and `__device__` variables
//! set before every run as the engine launches them, its launch, a tally of the reported
//! buffers' final values), and `tests/metal/gallery.sh` runs each many times and once under
//! each compute-sanitizer tool, into `tests/data/metal/gallery-*.txt`. Every outcome the GPU
//! produced must be one the engine's exploration reaches where that exploration is complete,
//! and elsewhere one the samples reach or a witness schedule runs to (`SAMPLED` pins how many
//! are neither); every sanitizer error must be a finding of the engine and the reverse, within
//! each tool's reach, except the disagreements `GALLERY_KNOWN` explains.
//!
//! Natively only: it reads its data from the repository's files.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use interleave_engine::explore::{explore_with, Config};
use interleave_engine::scenario::{ArgBinding, ArgSpec, Dialect, ElemType, Launch, MemoryModel, Number, Scenario, SchedulerKind};

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
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .filter(|p| p.file_name().is_some_and(|n| n != "nvcc.txt" && !n.to_string_lossy().starts_with("gallery-")))
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

/// The CUDA scenarios of the gallery: each `static/examples/*.toml` whose kernel is a `.cu`
/// file, by file stem, with the scenario read as the app reads it.
fn cuda_scenarios() -> Vec<(String, Scenario)> {
    let dir = root().join("static/examples");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        // `gallery.toml` is the gallery's manifest; every other TOML file there is a scenario.
        if path.extension().is_none_or(|x| x != "toml") || path.file_name().is_some_and(|n| n == "gallery.toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // A scenario file that does not read is an error, not one scenario fewer to check.
        let s = interleave_engine::scenario::from_toml(&text, |file| {
            let source = std::fs::read_to_string(dir.join(file)).map_err(|e| interleave_engine::diag::Diagnostic::error("io", format!("{file}: {e}")))?;
            Ok((source, file.to_string()))
        })
        .unwrap_or_else(|d| panic!("{}: {}", path.display(), d.message));
        if s.dialect == Dialect::Cuda && s.file_name.ends_with(".cu") {
            found.push((path.file_stem().unwrap().to_string_lossy().into_owned(), s));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// The C type of a buffer's or scalar's elements.
fn c_type(elem: ElemType) -> &'static str {
    match elem {
        ElemType::Bool => "bool",
        ElemType::Char => "signed char",
        ElemType::UChar => "unsigned char",
        ElemType::Short => "short",
        ElemType::UShort => "unsigned short",
        ElemType::Int => "int",
        ElemType::UInt => "unsigned int",
        ElemType::Long => "long long",
        ElemType::ULong => "unsigned long long",
        ElemType::Float => "float",
        ElemType::Double => "double",
    }
}

/// A host program that runs scenario `s` on a real GPU: the scenario's kernel source
/// included as it is, its buffers set up as the engine sets them up at launch (read from the
/// launched session, so the engine stays the one reader of the argument syntax; an
/// uninitialised element is 0 there), its launch, and a tally of the reported buffers'
/// final values over the runs its command line asks for.
fn gallery_driver(stem: &str, s: &Scenario) -> String {
    let signatures = interleave_engine::frontend::kernels(&s.source, s.dialect, &[]).unwrap_or_else(|d| panic!("{stem}: {}", d[0].message));
    let kernel = match &s.kernel {
        Some(name) => signatures.iter().find(|k| &k.name == name).unwrap_or_else(|| panic!("{stem}: no kernel {name}")),
        None => &signatures[0],
    };
    let session = interleave_engine::session::Session::new(s.clone()).unwrap_or_else(|d| panic!("{stem}: {}", d[0].message));
    let memories = session.memories();
    let mut setup = String::new();
    let mut reset = Vec::new();
    let mut call = Vec::new();
    let mut report = Vec::new();
    for param in &kernel.params {
        let binding = s.args.iter().find(|a| a.name == param.name).unwrap_or_else(|| panic!("{stem}: no argument for {}", param.name));
        let name = &param.name;
        match &binding.spec {
            ArgSpec::Buffer { elem, len, .. } => {
                let ty = c_type(*elem);
                let (memory, _) = memories.iter().find(|(_, n)| n == name).unwrap_or_else(|| panic!("{stem}: no memory named {name}"));
                let view = session.memory(*memory).expect("a launched buffer has a view");
                assert_eq!(view.elements.len() as u64, *len, "{stem}: {name} is shown whole");
                let unsigned = matches!(elem, ElemType::UChar | ElemType::UShort | ElemType::UInt | ElemType::ULong);
                let values: Vec<String> = view
                    .elements
                    .iter()
                    .map(|e| e.value.clone().unwrap_or_else(|| "0".into()))
                    .map(|v| if unsigned && !v.starts_with('-') { format!("{v}u") } else { v })
                    .collect();
                setup.push_str(&format!(
                    "    static const {ty} init_{name}[{len}] = {{{}}};\n    Buffer<{ty}, {len}> b_{name}(\"{name}\", init_{name});\n",
                    values.join(", ")
                ));
                reset.push(format!("b_{name}.reset();"));
                if s.report_buffers.is_empty() || s.report_buffers.contains(name) {
                    report.push(format!("b_{name}.append(key);"));
                }
                call.push(format!("b_{name}.device"));
            }
            ArgSpec::Scalar { ty, value } => call.push(format!("({}){value}", c_type(*ty))),
            ArgSpec::Null => call.push("nullptr".into()),
            ArgSpec::Local { .. } => panic!("{stem}: CUDA kernels take no local-memory arguments"),
        }
    }
    // The program's own `__device__` variables keep what the last run wrote: set them back
    // to their first contents before every run, byte for byte as the engine launched them (the
    // device heap, the one global memory that is neither, is the allocator's).
    for (memory, name) in &memories {
        let is_param = kernel.params.iter().any(|p| &p.name == name);
        let is_heap = name == "heap" && s.source.contains("malloc");
        if memory.space != interleave_engine::trace::Space::Global || is_param || is_heap {
            continue;
        }
        let view = session.memory(*memory).expect("a program variable has a view");
        let bytes: Vec<String> = view.elements.iter().map(|e| format!("{}u", e.value.as_deref().unwrap_or("0"))).collect();
        assert_eq!(view.elem, "uchar", "{stem}: {name} is shown as bytes");
        setup.push_str(&format!("    static const unsigned char global_{name}[{}] = {{{}}};\n", bytes.len(), bytes.join(", ")));
        reset.push(format!("CHECK(cudaMemcpyToSymbol({name}, global_{name}, sizeof global_{name}));"));
    }
    let dims = |d: &[u64]| (0..3).map(|k| d.get(k).copied().unwrap_or(1).to_string()).collect::<Vec<_>>().join(", ");
    let local = s.launch.local.clone().unwrap_or_else(|| panic!("{stem}: a CUDA scenario names its block size"));
    let blocks: Vec<u64> = s.launch.global.iter().zip(local.iter().chain(std::iter::repeat(&1))).map(|(g, l)| g / l).collect();
    assert!(s.launch.offset.iter().all(|&o| o == 0), "{stem}: CUDA launches have no offset");
    let heap = if s.heap_bytes == Scenario::default().heap_bytes {
        String::new()
    } else {
        format!("    CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, {}));\n", s.heap_bytes)
    };
    format!(
        "// static/examples/{stem}.toml on a real GPU: written by engine/tests/metal.rs, run by\n\
         // tests/metal/gallery.sh (driver.cuh says how).\n\
         #include \"driver.cuh\"\n#include \"../../../static/examples/{source}\"\n\n\
         int main(int argc, char **argv)\n{{\n{heap}{setup}    return tally(\n        argc, argv,\n\
         \x20       [&] {{ {reset} }},\n\
         \x20       [&] {{ {kernel}<<<dim3({grid}), dim3({block})>>>({args}); }},\n\
         \x20       [&](std::string &key) {{ {report} }});\n}}\n",
        source = s.file_name,
        kernel = kernel.name,
        grid = dims(&blocks),
        block = dims(&local),
        args = call.join(", "),
        reset = reset.join(" "),
        report = report.join(" "),
    )
}

/// Each CUDA scenario of the gallery has its host program in `tests/metal/gallery/`, as
/// [`gallery_driver`] writes it.
#[test]
fn gallery_drivers_are_current() {
    let scenarios = cuda_scenarios();
    assert!(scenarios.len() >= 9, "only {} CUDA scenarios found", scenarios.len());
    let mut failures = Vec::new();
    for (stem, s) in &scenarios {
        let path = root().join(format!("tests/metal/gallery/{stem}.cu"));
        if let Err(e) = interleave_expect::check(&gallery_driver(stem, s), &path) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the GPU did with one gallery scenario: its outcomes (reported buffers' values, as
/// `NAME=V,V,...` words) with their counts, a failure instead of outcomes, and each
/// compute-sanitizer tool's error count.
struct GalleryRun {
    place: String,
    example: String,
    outcomes: Vec<(BTreeMap<String, Vec<String>>, u64)>,
    failed: Option<String>,
    sanitizer: BTreeMap<String, u64>,
}

/// Reads a `gallery-*.txt` file (tests/metal/gallery.sh): a header of `KEY VALUE` lines, then
/// per scenario an `example NAME` line, its `outcome WORDS... COUNT` or `failed ...` lines and
/// `sanitizer TOOL errors=N` lines (`said` lines are for people).
fn read_gallery(path: &Path) -> (BTreeMap<String, String>, Vec<GalleryRun>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut header = BTreeMap::new();
    let mut runs: Vec<GalleryRun> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let place = format!("{name}:{}", i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let current = |runs: &mut Vec<GalleryRun>| runs.len().checked_sub(1).unwrap_or_else(|| panic!("{place}: before any example"));
        match words.as_slice() {
            [] | ["said", ..] => {}
            [first, ..] if first.starts_with('#') => {}
            ["example", example] => {
                runs.push(GalleryRun { place, example: example.to_string(), outcomes: Vec::new(), failed: None, sanitizer: BTreeMap::new() })
            }
            ["outcome", buffers @ .., count] => {
                let k = current(&mut runs);
                let values = buffers
                    .iter()
                    .map(|b| {
                        let (name, values) = b.split_once('=').unwrap_or_else(|| panic!("{place}: `{b}` is not NAME=VALUES"));
                        (name.to_string(), values.split(',').map(str::to_string).collect())
                    })
                    .collect();
                runs[k].outcomes.push((values, count.parse().unwrap_or_else(|_| panic!("{place}: bad count {count}"))));
            }
            ["failed", why @ ..] => {
                let k = current(&mut runs);
                runs[k].failed = Some(why.join(" "));
            }
            ["sanitizer", tool, errors] => {
                let k = current(&mut runs);
                let n = errors.strip_prefix("errors=").and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{place}: bad `{errors}`"));
                runs[k].sanitizer.insert(tool.to_string(), n);
            }
            [key, value @ ..] if runs.is_empty() => {
                header.insert(key.to_string(), value.join(" "));
            }
            _ => panic!("{place}: unreadable line `{line}`"),
        }
    }
    (header, runs)
}

/// Whether the engine's value `engine` (`None`: an element the run left unwritten, or never
/// reached) admits the value `seen` printed by the GPU.
fn admits(engine: &Option<Number>, seen: &str) -> bool {
    match engine {
        None => true,
        Some(Number::Int(v)) => seen.parse::<i128>() == Ok(*v as i128),
        Some(Number::UInt(v)) => seen.parse::<i128>() == Ok(*v as i128),
        Some(Number::Float(v)) => seen.parse::<f64>().is_ok_and(|f| f == *v || (f.is_nan() && v.is_nan())),
    }
}

/// An outcome's buffers by name, as an exploration reports them.
type Buffers = BTreeMap<String, Vec<Option<Number>>>;

/// What the engine concludes of a gallery scenario.
struct EngineView {
    outcomes: Vec<Buffers>,
    kinds: BTreeSet<String>,
    /// The exhaustive exploration covered every execution: an outcome it did not reach is one
    /// the engine forbids.
    complete: bool,
}

/// The engine's conclusions on a gallery scenario: the outcomes of an exhaustive exploration
/// (at most 5,000 executions) and of 500 seeds under each scheduler but the manual one, and the
/// kinds of every finding any of them reported, with the memory of a race. The schedulers
/// matter: a GPU runs a warp's lanes together, so it readily ends in outcomes (one block's
/// atomics all before the other's) that the lockstep scheduler reaches at once and uniformly
/// random interleavings of single steps almost never.
fn engine_view(stem: &str, s: &Scenario) -> EngineView {
    let mut outcomes = Vec::new();
    let mut kinds = BTreeSet::new();
    let mut complete = false;
    let schedulers = SchedulerKind::ALL.iter().map(|&(_, k)| k).filter(|&k| k != SchedulerKind::Manual);
    let explorations = std::iter::once((s.scheduler, true)).chain(schedulers.map(|k| (k, false)));
    for (scheduler, exhaustive) in explorations {
        let runs = if exhaustive { 5_000 } else { 500 };
        let s = Scenario { scheduler, ..s.clone() };
        let e = explore_with(&s, Config { runs, first_seed: 0, exhaustive, max_preemptions: None }).unwrap_or_else(|d| panic!("{stem}: {}", d[0].message));
        complete |= exhaustive && e.complete;
        outcomes.extend(e.outcomes.into_iter().map(|o| o.values));
        for f in e.findings {
            let memory = match f.finding.memory {
                Some(interleave_engine::report::RaceMemory::Local) => " local",
                Some(interleave_engine::report::RaceMemory::Global) => " global",
                None => "",
            };
            kinds.insert(format!("{}{memory}", f.finding.kind.as_str()));
        }
    }
    EngineView { outcomes, kinds, complete }
}

/// For each compute-sanitizer tool, the engine's finding kinds within its reach: racecheck
/// watches shared (local) memory only, synccheck barriers, memcheck addresses, initcheck
/// reads of global memory never written.
const TOOLS: &[(&str, &[&str])] = &[
    ("racecheck", &["data-race local"]),
    ("synccheck", &["barrier-divergence"]),
    ("memcheck", &["out-of-bounds", "null-dereference", "misaligned-access"]),
    ("initcheck", &["uninitialized-read"]),
];

/// Schedules (the work-item of each step, for the manual scheduler) that end in outcomes the
/// GPU produced and the engine's samples miss: each is an execution the engine allows, found by
/// reading the outcome backwards (which lap of the wrapping counter each thread's atomic
/// returned orders the atomics; which store to a slot came last orders the stores). A GPU
/// serves the lanes of two warps' atomics interleaved, which single steps drawn at random
/// rarely do.
const WITNESSES: &[(&str, &str)] = &[
    ("ring_buffer", "0,1,2,4,3,5,6,7, 3,5,6,7,0,1,2,4, 0,1,2,3,4,5,6,7, 0,1,2,3,4,5,6,7, 0,1,2,3,4,5,6,7"),
    ("ring_buffer", "0,1,4,2,5,3,6,7, 5,3,6,7,0,1,4,2, 0,1,2,3,4,5,6,7, 0,1,2,3,4,5,6,7, 0,1,2,3,4,5,6,7"),
    ("ring_buffer", "0,4,1,5,2,6,3,7, 2,6,3,7,0,4,1,5, 0,1,2,3,4,5,6,7, 0,1,2,3,4,5,6,7, 0,1,2,3,4,5,6,7"),
    ("wrapping_counters", "0,1,4,2,5,3,6,7, 0,1,2,3,4,5,6,7, 4,5,6,7,0,1,2,3, 0,1,2,3,4,5,6,7"),
    ("wrapping_counters", "0,1,2,4,3,5,6,7, 0,1,2,3,4,5,6,7, 4,5,6,7,0,1,2,3, 0,1,2,3,4,5,6,7"),
    ("wrapping_counters", "0,4,1,5,2,6,3,7, 0,1,2,3,4,5,6,7, 4,5,6,7,0,1,2,3, 0,1,2,3,4,5,6,7"),
    ("wrapping_counters", "4,0,5,1,6,2,7,3, 0,1,2,3,4,5,6,7, 4,5,6,7,0,1,2,3, 0,1,2,3,4,5,6,7"),
    ("wrapping_counters", "4,5,6,7,0,1,2,3, 0,1,2,3,4,5,6,7, 4,5,6,7,0,1,2,3, 0,1,2,3,4,5,6,7"),
];

/// The reported buffers at the end of `s` run under the manual scheduler with `schedule`.
fn witness_outcome(stem: &str, s: &Scenario, schedule: &str) -> Buffers {
    let mut s = Scenario { scheduler: SchedulerKind::Manual, ..s.clone() };
    s.schedule = schedule.split(',').map(|w| w.trim().parse().unwrap_or_else(|_| panic!("{stem}: bad schedule entry {w}"))).collect();
    let mut session = interleave_engine::session::Session::new(s).unwrap_or_else(|d| panic!("{stem}: {}", d[0].message));
    session.run(u64::MAX);
    let report = session.report();
    assert_eq!(report.status, interleave_engine::report::RunStatus::Completed, "{stem}: the witness {schedule} runs to the end");
    report.buffers.into_iter().map(|b| (b.name, b.values)).collect()
}

/// Gallery scenarios whose exhaustive exploration does not finish within its budget (tens of
/// threads, or eight racing on atomics, have billions of executions), with how many of the
/// outcomes the GPU produced neither the engine's samples nor the [`WITNESSES`] contain, which
/// no search decided. The counts are pinned, so that an outcome the engine stops reaching
/// fails, and one it comes to reach, or a scenario that comes to explore completely, asks for
/// the list to be updated.
const SAMPLED: &[(&str, usize)] = &[
    ("device_malloc", 0),
    ("device_malloc_small_heap", 0),
    ("ring_buffer", 0),
    ("syncthreads_divergent", 0),
    ("warp_lock", 0),
    ("warp_votes", 0),
    ("wrapping_counters", 0),
];

/// Gallery scenarios where a sanitizer tool and the engine disagree on purpose, each with the
/// tool, the engine's kind and the reason. An entry that starts to agree must leave the list.
const GALLERY_KNOWN: &[(&str, &str, &str, &str)] = &[(
    "syncthreads_divergent",
    "synccheck",
    "barrier-divergence",
    "CUDA's programming guide asks every thread of the block to reach the same __syncthreads() \
     and calls anything else undefined, which the engine reports; since Volta a thread that \
     exited no longer holds the barrier up, so the GPU finishes the block and synccheck, which \
     checks what the hardware does, reports nothing",
)];

/// Every outcome the GPU produced for a gallery scenario is one the engine reaches, and every
/// error a compute-sanitizer tool reported is a finding of the engine (and the reverse, within
/// the tool's reach), except the disagreements [`GALLERY_KNOWN`] explains.
#[test]
fn every_gallery_outcome_seen_on_hardware_is_reached() {
    let scenarios: BTreeMap<String, Scenario> = cuda_scenarios().into_iter().collect();
    let dir = root().join("tests/data/metal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("gallery-")))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no gallery-*.txt in tests/data/metal");
    let mut failures = Vec::new();
    let mut known_seen = BTreeSet::new();
    let mut decided = 0;
    for file in &files {
        let (header, runs) = read_gallery(file);
        for key in ["gpu", "driver", "cuda", "sanitizer"] {
            assert!(header.contains_key(key), "{}: the header names no `{key}`", file.display());
        }
        let recorded: BTreeSet<&str> = runs.iter().map(|r| r.example.as_str()).collect();
        for stem in scenarios.keys() {
            if !recorded.contains(stem.as_str()) {
                failures.push(format!("{}: no record of {stem} (tests/metal/gallery.sh runs it)", file.display()));
            }
        }
        for run in &runs {
            let Some(s) = scenarios.get(&run.example) else {
                failures.push(format!("{}: {} is no CUDA scenario of the gallery", run.place, run.example));
                continue;
            };
            if let Some(why) = &run.failed {
                failures.push(format!("{}: {} failed on the GPU: {why}", run.place, run.example));
                continue;
            }
            let mut view = engine_view(&run.example, s);
            view.outcomes.extend(WITNESSES.iter().filter(|w| w.0 == run.example).map(|w| witness_outcome(&run.example, s, w.1)));
            let sampled = SAMPLED.iter().find(|(name, _)| *name == run.example).map(|&(_, missed)| missed);
            if view.complete == sampled.is_some() {
                let what = if view.complete { "now explores completely: remove it from SAMPLED" } else { "no longer explores completely: add it to SAMPLED" };
                failures.push(format!("{}: {} {what}", run.place, run.example));
            }
            let mut missed = Vec::new();
            for (seen, count) in &run.outcomes {
                let reached = view.outcomes.iter().any(|o| {
                    seen.iter().all(|(name, values)| o.get(name).is_some_and(|e| e.len() == values.len() && e.iter().zip(values).all(|(e, v)| admits(e, v))))
                });
                if reached {
                    decided += 1;
                } else if view.complete {
                    failures.push(format!("{}: {} on {}: {seen:?} ({count} runs) is an outcome the engine forbids", run.place, run.example, header["gpu"]));
                } else {
                    missed.push(format!("{seen:?} ({count} runs)"));
                }
            }
            if let Some(expected) = sampled {
                if missed.len() != expected {
                    failures.push(format!(
                        "{}: {}: the engine's samples miss {} of the outcomes seen on {}, not {expected} (update SAMPLED once each is understood):\n  {}",
                        run.place,
                        run.example,
                        missed.len(),
                        header["gpu"],
                        missed.join("\n  ")
                    ));
                }
            }
            let kinds = &view.kinds;
            for (tool, reach) in TOOLS {
                let Some(&errors) = run.sanitizer.get(*tool) else {
                    failures.push(format!("{}: {}: no {tool} record", run.place, run.example));
                    continue;
                };
                let engine: Vec<&&str> = reach.iter().filter(|k| kinds.contains(**k)).collect();
                let disagree: Vec<String> = match (errors > 0, engine.is_empty()) {
                    (true, true) => vec![format!("{tool} reported {errors} errors; the engine none of {reach:?}")],
                    (false, false) => engine.iter().map(|k| format!("the engine reports {k}; {tool} nothing")).collect(),
                    _ => Vec::new(),
                };
                for d in disagree {
                    let known = GALLERY_KNOWN.iter().position(|k| k.0 == run.example && k.1 == *tool && (errors > 0 || engine.iter().any(|e| **e == k.2)));
                    match known {
                        Some(k) => {
                            known_seen.insert(k);
                        }
                        None => failures.push(format!("{}: {}: {d}", run.place, run.example)),
                    }
                }
            }
        }
    }
    for (k, entry) in GALLERY_KNOWN.iter().enumerate() {
        if !known_seen.contains(&k) {
            failures.push(format!("GALLERY_KNOWN entry {:?} ({}, {}) now agrees: remove it", entry.0, entry.1, entry.2));
        }
    }
    assert!(failures.is_empty(), "the gallery on hardware and the engine disagree:\n{}", failures.join("\n"));
    assert!(decided >= 9, "only {decided} outcomes seen on hardware were found among the engine's");
}
