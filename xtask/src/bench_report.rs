//! The figures section of BENCHMARKS.md, written by `cargo xtask bench` from one full run:
//! the table of the product's workloads (issue 9's list) with their native, wasm (Chromium)
//! and Oclgrind figures, a ratio and the target with whether it is met, then every criterion
//! result, the machine and the load average at each stage.
//!
//! The section sits between [`BEGIN`] and [`END`]; the prose around it is written by hand and
//! kept as it is.

use crate::bench::Figures;
use interleave_engine::limits::thousands;

/// The line that opens the generated section.
pub const BEGIN: &str = "<!-- figures: written by `cargo xtask bench`; edits between these lines are overwritten -->";
/// The line that closes it.
pub const END: &str = "<!-- end of figures -->";

const MIB: f64 = 1024.0 * 1024.0;

/// `text` with the section between the markers replaced by `section`.
pub fn replace_section(text: &str, section: &str) -> Result<String, String> {
    let begin = text.find(BEGIN).ok_or("BENCHMARKS.md has no figures marker to write after")?;
    let end = text[begin..].find(END).map(|i| begin + i).ok_or("BENCHMARKS.md has no end-of-figures marker")?;
    Ok(format!("{}{BEGIN}\n\n{}\n{END}{}", &text[..begin], section.trim_end(), &text[end + END.len()..]))
}

fn ms(x: f64) -> String {
    if x >= 1000.0 {
        format!("{:.2} s", x / 1000.0)
    } else if x >= 100.0 {
        format!("{x:.0} ms")
    } else if x >= 10.0 {
        format!("{x:.1} ms")
    } else {
        format!("{x:.2} ms")
    }
}

fn rate(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.0} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

fn mib(bytes: f64) -> String {
    format!("{:.1} MiB", bytes / MIB)
}

/// Kilobytes: whole ones, or tenths for a small file, which would otherwise read as 0 KB.
fn kb(bytes: f64) -> String {
    let k = bytes / 1000.0;
    if k < 10.0 {
        format!("{k:.1} KB")
    } else {
        format!("{k:.0} KB")
    }
}

/// How far a target is missed, as a factor: to two decimals when it is close, so that a
/// near miss does not read as "1.0x".
fn factor(x: f64) -> String {
    if x < 1.995 {
        format!("{x:.2}x")
    } else {
        format!("{x:.1}x")
    }
}

const NONE: &str = "—";
const NOT_MEASURED: &str = "not measured";

/// `met` or `missed (... x)`: whether `value` is at most `limit` (for times and sizes).
fn at_most(value: Option<f64>, limit: f64) -> String {
    match value {
        None => NOT_MEASURED.into(),
        Some(v) if v <= limit => "**met**".into(),
        Some(v) => format!("**missed** ({} over)", factor(v / limit)),
    }
}

/// Whether `value` is at least `floor` (for rates).
fn at_least(value: Option<f64>, floor: f64) -> String {
    match value {
        None => NOT_MEASURED.into(),
        Some(v) if v >= floor => "**met**".into(),
        Some(v) => format!("**missed** ({} short)", factor(floor / v)),
    }
}

fn or_none(value: Option<String>) -> String {
    value.unwrap_or_else(|| NOT_MEASURED.into())
}

/// The generated section: the table of targets, every criterion result and the machine.
pub fn section(f: &Figures, machine: &str) -> String {
    let mut rows: Vec<[String; 6]> = Vec::new();
    let native_ms = |id: &str| f.native(id).map(|m| m.mean_ns / 1e6);
    let native_rate = |id: &str| f.native(id).and_then(|m| m.per_second());

    // 1. Interpreter throughput.
    for (id, label) in [
        ("run_only", "1. Reduction, 65,536 work-items (256 per group), race detection on: simulated operations/s"),
        ("run_only_without_race_detection", "1. The same, race detection off: simulated operations/s"),
    ] {
        let native = native_rate(&format!("reduction_65536/{id}"));
        let wasm = f.get("wasm", &format!("reduction_65536/{id}"), "operations_per_s");
        let ratio = native.zip(wasm).map(|(n, w)| format!("wasm/native {:.2}", w / n));
        let target = if id == "run_only" { format!("≥ 100 M/s in wasm: {}", at_least(wasm, 100e6)) } else { NONE.into() };
        rows.push([
            label.into(),
            or_none(native.map(|n| format!("{} ops/s", rate(n)))),
            or_none(wasm.map(|w| format!("{} ops/s", rate(w)))),
            NONE.into(),
            ratio.unwrap_or_else(|| NONE.into()),
            target,
        ]);
    }
    let overhead_native = native_ms("reduction_65536/run_only").zip(native_ms("reduction_65536/run_only_without_race_detection")).map(|(on, off)| on / off);
    let overhead_wasm =
        f.get("wasm", "reduction_65536/run_only", "ms").zip(f.get("wasm", "reduction_65536/run_only_without_race_detection", "ms")).map(|(on, off)| on / off);
    rows.push([
        "1. Race detection overhead on the reduction (time on / time off)".into(),
        or_none(overhead_native.map(|x| format!("{x:.2}x"))),
        or_none(overhead_wasm.map(|x| format!("{x:.2}x"))),
        NONE.into(),
        NONE.into(),
        format!("≤ 1.3x: native {}, wasm {}", at_most(overhead_native, 1.3), at_most(overhead_wasm, 1.3)),
    ]);

    // 2. Oclgrind.
    for (name, label) in [
        ("reduce_65536", "2. `reduce_65536.sim` (the reduction), wall time"),
        ("vector_add_1m", "2. `vector_add_1m.sim` (1,048,576-element vector add), wall time"),
    ] {
        let ours = f.get("sim", name, "interleave_ms");
        let theirs = f.get("sim", name, "oclgrind_ms");
        let status = f.text("sim", name, "interleave_status").unwrap_or("unknown");
        let steps = f.text("sim", name, "interleave_steps").unwrap_or("?");
        let native = ours.map(|o| {
            if status == "completed" {
                format!("{} (`interleave run`)", ms(o))
            } else {
                format!("{} (`interleave run`: stopped, `{status}` after {steps} steps)", ms(o))
            }
        });
        let speedup = ours.zip(theirs).map(|(o, t)| t / o);
        let target = match speedup {
            Some(_) if status != "completed" => "≥ 10x faster than Oclgrind: **missed** (the run does not finish)".into(),
            _ => format!("≥ 10x faster than Oclgrind: {}", at_least(speedup, 10.0)),
        };
        rows.push([
            label.into(),
            or_none(native),
            NONE.into(),
            or_none(theirs.map(|t| format!("{} (`oclgrind-kernel --data-races`)", ms(t)))),
            or_none(speedup.map(|s| format!("Oclgrind/interleave {s:.2}x"))),
            target,
        ]);
    }

    // 2. Every scheduler on the reduction, against the random one.
    let times: Vec<(&str, Option<f64>)> =
        crate::bench_sim::SCHEDULER_NAMES.iter().map(|&s| (s, f.get("sim", "schedulers_reduce_65536", &format!("{}_ms", s.replace('-', "_"))))).collect();
    let random = times.iter().find(|(s, _)| *s == "random").and_then(|(_, t)| *t);
    let slowest = times.iter().filter_map(|&(s, t)| Some((s, t? / random?))).max_by(|a, b| a.1.total_cmp(&b.1));
    rows.push([
        "2. `reduce_65536.sim` under each scheduler (`interleave run --sched`), wall time".into(),
        if times.iter().all(|(_, t)| t.is_none()) {
            NONE.into()
        } else {
            times.iter().map(|(s, t)| format!("{s} {}", t.map(ms).unwrap_or_else(|| NONE.into()))).collect::<Vec<_>>().join(", ")
        },
        NONE.into(),
        NONE.into(),
        or_none(slowest.map(|(s, r)| format!("slowest ({s})/random {r:.2}x"))),
        format!("every scheduler within 2x of random: {}", at_most(slowest.map(|(_, r)| r), 2.0)),
    ]);

    // 3. A million work-items.
    let launch_native = f.get("memory", "launch_1m", "peak_bytes");
    let launch_wasm = f.get("wasm", "launch_1m", "wasm_memory_bytes");
    rows.push([
        "3. 1,048,576 work-items launched (vector add, groups of 256): memory".into(),
        or_none(launch_native.map(|b| format!("{} at most live while launching", mib(b)))),
        or_none(launch_wasm.map(|b| {
            let peak = f.get("wasm", "launch_1m", "peak_bytes").map(|p| format!(", {} of it at most live", mib(p))).unwrap_or_default();
            format!("{} wasm memory{peak}", mib(b))
        })),
        NONE.into(),
        NONE.into(),
        format!("≤ 256 MiB (wasm): {}", at_most(launch_wasm.map(|b| b / MIB), 256.0)),
    ]);

    // 4. Exploration.
    let mp_native = native_rate("litmus_random/mp_10000");
    let mp_cold = f.get("wasm", "litmus_random/mp", "schedules_per_s");
    let mp_warm = f.get("wasm", "litmus_random/mp_warm", "schedules_per_s");
    rows.push([
        "4. MP litmus test (relaxed model), random schedules/s".into(),
        or_none(mp_native.map(|n| format!("{}/s", rate(n)))),
        or_none(mp_cold.zip(mp_warm).map(|(c, w)| format!("{}/s right after loading, {}/s after a second", rate(c), rate(w)))),
        NONE.into(),
        or_none(mp_native.zip(mp_warm).map(|(n, w)| format!("wasm (warm)/native {:.2}", w / n))),
        format!("≥ 100,000/s: native {}, wasm {} (warm), {} (right after loading)", at_least(mp_native, 1e5), at_least(mp_warm, 1e5), at_least(mp_cold, 1e5)),
    ]);
    for name in ["sb", "mp", "iriw"] {
        let native = native_ms(&format!("litmus_exhaustive/{name}"));
        let wasm = f.get("wasm", &format!("litmus_exhaustive/{name}"), "ms");
        rows.push([
            format!("4. `--exhaustive` {} (relaxed model), whole exploration", name.to_uppercase()),
            or_none(native.map(ms)),
            or_none(wasm.map(ms)),
            NONE.into(),
            or_none(native.zip(wasm).map(|(n, w)| format!("wasm/native {:.1}", w / n))),
            format!("< 10 ms: native {}, wasm {}", at_most(native, 10.0), at_most(wasm, 10.0)),
        ]);
    }
    let workers: Vec<(u64, f64)> = f
        .values
        .iter()
        .filter(|((stage, name), _)| stage == "app" && name.starts_with("explore_mp/"))
        .filter_map(|((_, name), values)| {
            let n = name.strip_prefix("explore_mp/")?.strip_suffix("_workers")?.parse().ok()?;
            Some((n, values.get("schedules_per_s")?.parse().ok()?))
        })
        .collect();
    let one = workers.iter().find(|(n, _)| *n == 1).map(|w| w.1);
    let most = workers.iter().filter(|(n, _)| *n > 1).max_by_key(|(n, _)| *n).copied();
    let runs = f.get("app", "explore_mp/1_workers", "runs").map_or("?".to_owned(), |r| thousands(r as u64));
    rows.push([
        format!("4. The app's exploration (MP, random, {runs} seeds) in its Web Workers: several workers against one"),
        NONE.into(),
        or_none(one.map(|o| {
            let more = most.map(|(n, r)| format!(", {n} workers {}/s", rate(r))).unwrap_or_default();
            format!("1 worker {}/s{more}", rate(o))
        })),
        NONE.into(),
        or_none(one.zip(most).map(|(o, (n, r))| format!("{n} workers/1 {:.2}x", r / o))),
        format!("≥ 1.7x on 2 cores: {}", at_least(one.zip(most).map(|(o, (_, r))| r / o), 1.7)),
    ]);
    let (one, two) = (f.get("sim", "explore_threads_reduce", "one_ms"), f.get("sim", "explore_threads_reduce", "two_ms"));
    let runs = f.get("sim", "explore_threads_reduce", "runs").map_or("?".to_owned(), |r| thousands(r as u64));
    rows.push([
        format!("4. `interleave explore` of the gallery's reduction ({runs} random schedules): two threads (`--jobs 2`) against one"),
        or_none(one.zip(two).map(|(o, t)| format!("1 thread {}, 2 threads {}", ms(o), ms(t)))),
        NONE.into(),
        NONE.into(),
        or_none(one.zip(two).map(|(o, t)| format!("2 threads/1 {:.2}x", o / t))),
        format!("≥ 1.8x on 2 cores: {}", at_least(one.zip(two).map(|(o, t)| o / t), 1.8)),
    ]);

    // 5. Time travel.
    let seek_rows = [
        ("seek_1m/mixed", "5. Seek in a 1,000,704-step run (256 work-items), mean over a cycle of 8 targets"),
        ("seek_1m/step_back", "5. Step back (seek to the step before) in the same run"),
    ];
    for (id, label) in seek_rows {
        let native = native_ms(id);
        let wasm = f.get("wasm", id, "ms");
        let worst = f.get("wasm", id, "worst_ms");
        rows.push([
            label.into(),
            or_none(native.map(ms)),
            or_none(wasm.map(|w| format!("{} (worst {})", ms(w), worst.map(ms).unwrap_or_else(|| "?".into())))),
            NONE.into(),
            or_none(native.zip(wasm).map(|(n, w)| format!("wasm/native {:.1}", w / n))),
            format!("< 16 ms: native {}, wasm {}", at_most(native, 16.0), at_most(worst.or(wasm), 16.0)),
        ]);
    }
    let seek_large = native_ms("seek_65536/backward");
    rows.push([
        "5. Backward seek in the 65,536 work-item reduction (917,760 steps)".into(),
        or_none(seek_large.map(ms)),
        NONE.into(),
        NONE.into(),
        NONE.into(),
        format!("< 16 ms: {}", at_most(seek_large, 16.0)),
    ]);
    for (name, label) in [
        ("history_1m", "5. History (snapshots and event log) of the 1,000,704-step run"),
        ("history_65536", "5. History of the 917,760-step reduction over 65,536 work-items"),
    ] {
        let native = f.get("memory", name, "history_bytes");
        let wasm = f.get("wasm", name, "history_bytes");
        rows.push([
            label.into(),
            or_none(native.map(mib)),
            if name == "history_1m" { or_none(wasm.map(mib)) } else { NONE.into() },
            NONE.into(),
            NONE.into(),
            format!("≤ 64 MiB: {}", at_most(native.map(|b| b / MIB), 64.0)),
        ]);
    }

    // 6. Timeline.
    let paint = f.get("timeline", "lanes_1024", "paint_mean_ms");
    let worst = f.get("timeline", "lanes_1024", "paint_worst_ms");
    rows.push([
        "6. Timeline, 1,024 lanes and 100,000 events: paint of one frame at 5 zooms and scroll positions (pan and zoom)".into(),
        NONE.into(),
        or_none(paint.zip(worst).map(|(m, w)| {
            let first = f.get("timeline", "lanes_1024", "first_render_ms").map(|x| format!(", first render {}", ms(x))).unwrap_or_default();
            format!("mean {}, worst {}{first}", ms(m), ms(w))
        })),
        NONE.into(),
        NONE.into(),
        format!("≤ 16 ms a frame: {}", at_most(worst, 16.0)),
    ]);

    // 7. Size and load.
    let total = f.get("size", "total", "brotli_bytes");
    let page = f.get("size", "page", "brotli_bytes");
    let worker = f.get("size", "worker", "brotli_bytes");
    let raw = f.get("size", "total", "raw_bytes");
    rows.push([
        "7. The whole app (`dist/`: wasm, JS, CSS, HTML), brotli-compressed".into(),
        NONE.into(),
        or_none(total.map(|t| {
            let parts = page.zip(worker).map(|(p, w)| format!(": the page {}, the exploration worker's own script {}", kb(p), kb(w))).unwrap_or_default();
            let raw = raw.map(|r| format!(" ({} uncompressed)", kb(r))).unwrap_or_default();
            format!("{}{parts}{raw}", kb(t))
        })),
        NONE.into(),
        NONE.into(),
        format!("≤ 400 KB: {}", at_most(total.map(|t| t / 1000.0), 400.0)),
    ]);
    let cold = f.get("app", "navigation_cold", "interactive_ms");
    let warm = f.get("app", "navigation_warm", "interactive_ms");
    rows.push([
        "7. Navigation to an interactive page with the default example, loopback".into(),
        NONE.into(),
        or_none(cold.zip(warm).map(|(c, w)| format!("{} first load, {} from the cache", ms(c), ms(w)))),
        NONE.into(),
        NONE.into(),
        format!("< 1 s: {}", at_most(cold.map(|c| c / 1000.0), 1.0)),
    ]);

    let mut out = String::new();
    out.push_str("| workload | native | wasm (Chromium) | Oclgrind | ratio | target |\n|---|---|---|---|---|---|\n");
    for row in &rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    if !f.problems.is_empty() {
        out.push_str("\nNot measured in this run:\n\n");
        for problem in &f.problems {
            let first = problem.lines().next().unwrap_or_default();
            out.push_str(&format!("- {first}\n"));
        }
    }
    out.push_str("\nEvery criterion result of the run (mean of one iteration; throughput where the benchmark counts one):\n\n| benchmark | mean | throughput |\n|---|---|---|\n");
    for m in &f.criterion {
        let per = m.per_second().map(|p| format!("{}/s", rate(p))).unwrap_or_default();
        out.push_str(&format!("| `{}` | {} | {per} |\n", m.id, ms(m.mean_ns / 1e6)));
    }
    out.push_str(&format!("\n{machine}\n\nLoad average (1, 5, 15 minutes) as each stage started:\n\n"));
    for (stage, load) in &f.loads {
        out.push_str(&format!("- {stage}: {load}\n"));
    }
    out
}

/// The machine and tools, in a few lines.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).to_owned())
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().find_map(|l| l.strip_prefix("MemTotal:").map(|v| v.trim().trim_end_matches(" kB").parse::<f64>().ok())).flatten())
        .map(|kib| format!("{:.0} GiB", kib / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown".into());
    let version = |program: &str, arg: &str| {
        std::process::Command::new(program)
            .arg(arg)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default().to_owned())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| "unknown".into())
    };
    let date = version("date", "-u");
    format!(
        "Measured {date} on {model}, {cores} logical processors, {memory} of memory; {}, {}, {}.",
        version("rustc", "-V"),
        version("chromium", "--version"),
        version("oclgrind-kernel", "--version"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_only_the_section_between_the_markers() {
        let text = format!("# B\n\nbefore\n\n{BEGIN}\n\nold\n{END}\n\nafter\n");
        let out = replace_section(&text, "new table\n").unwrap();
        assert_eq!(out, format!("# B\n\nbefore\n\n{BEGIN}\n\nnew table\n{END}\n\nafter\n"));
        assert!(replace_section("no markers", "x").is_err());
    }

    #[test]
    fn judges_targets() {
        assert_eq!(at_most(Some(12.0), 16.0), "**met**");
        assert_eq!(at_most(Some(32.0), 16.0), "**missed** (2.0x over)");
        assert_eq!(at_least(Some(50.0), 100.0), "**missed** (2.0x short)");
        assert_eq!(at_least(Some(1.62), 1.7), "**missed** (1.05x short)");
        assert_eq!(at_most(Some(17.0), 16.0), "**missed** (1.06x over)");
        assert_eq!(kb(358.0), "0.4 KB");
        assert_eq!(kb(834_000.0), "834 KB");
        assert_eq!(at_least(None, 100.0), NOT_MEASURED);
    }

    #[test]
    fn every_row_is_in_the_table_even_with_nothing_measured() {
        let out = section(&Figures::default(), "Measured here.");
        let rows = out.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| workload") && !l.starts_with("| benchmark")).count();
        assert_eq!(rows, 21, "{out}");
        assert!(out.contains("Measured here."));
    }

    #[test]
    fn the_scheduler_row_names_the_slowest_against_random() {
        let mut f = Figures::default();
        f.add_lines("sim", &["schedulers_reduce_65536 random_ms=900 round_robin_ms=300 pct_ms=350 run_to_block_ms=200 lockstep_ms=1900".to_string()]);
        let out = section(&f, "");
        let row = out.lines().find(|l| l.contains("under each scheduler")).expect("the scheduler row");
        assert!(row.contains("random 900 ms, round-robin 300 ms, pct 350 ms, run-to-block 200 ms, lockstep 1.90 s"), "{row}");
        assert!(row.contains("slowest (lockstep)/random 2.11x"), "{row}");
        assert!(row.contains("within 2x of random: **missed** (1.06x over)"), "{row}");
    }
}
