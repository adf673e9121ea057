//! The layering of the engine and of the app, checked against their source: which top-level
//! module of a crate may use which (`crate::module` paths outside comments and test code),
//! written down once per crate ([`ENGINE`], [`APP`]); and no web crate among the engine's
//! dependencies (the engine builds for the native target and for wasm, and the browser
//! belongs to the app); and no source file of either crate longer than [`MAX_LINES`].
//!
//! A new use of one module by another fails here until it is added to its crate's table; one
//! that would close a cycle cannot be added there (each table must stay acyclic: the modules
//! form layers, and no use goes up them). Test code (`#[cfg(test)]` modules and the files they
//! declare) may use any module: a test of a low module may well drive it through a higher one.
//! The reader is one for both crates, so they are held to the same rule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's table: each top-level module and the modules it uses, lowest layers first.
type Table = &'static [(&'static str, &'static [&'static str])];

/// Each top-level module of `engine/src` and the modules it uses, lowest layers first: every
/// edge the source has, and no more.
const ENGINE: Table = &[
    ("diag", &[]),
    ("limits", &["diag"]),
    ("scenario", &["diag", "limits"]),
    ("ir", &["diag", "scenario"]),
    ("reuse", &[]),
    ("pack", &[]),
    ("trace", &["diag", "ir", "reuse"]),
    ("report", &["diag", "scenario", "trace"]),
    ("rng", &[]),
    ("concurrency", &["diag", "ir", "pack", "report", "reuse", "trace"]),
    ("exec", &["concurrency", "diag", "ir", "limits", "pack", "report", "reuse", "rng", "scenario", "trace"]),
    ("syntax", &["diag", "scenario"]),
    ("lower", &["diag", "ir", "scenario", "syntax", "trace"]),
    ("litmus", &["diag", "ir", "lower", "scenario", "trace"]),
    ("frontend", &["diag", "ir", "litmus", "lower", "scenario", "syntax", "trace"]),
    ("inspect", &["diag", "exec", "ir", "scenario", "trace"]),
    ("locks", &["diag", "exec", "ir", "report", "trace"]),
    ("sched", &["exec", "rng", "scenario"]),
    (
        "session",
        &["concurrency", "diag", "exec", "frontend", "inspect", "ir", "limits", "litmus", "locks", "lower", "report", "rng", "scenario", "sched", "trace"],
    ),
    ("why", &["concurrency", "diag", "ir", "locks", "report", "session", "trace"]),
    ("explore", &["diag", "exec", "ir", "limits", "litmus", "report", "scenario", "sched", "session", "trace", "why"]),
    ("compare", &["diag", "explore", "limits", "report", "scenario", "session"]),
    ("gallery", &["diag", "report"]),
    ("lesson", &["diag", "explore", "limits", "report", "scenario"]),
    ("link", &["diag", "scenario"]),
    ("shrink", &["diag", "exec", "explore", "limits", "report", "scenario", "session"]),
    ("sim", &["diag", "frontend", "ir", "scenario", "trace"]),
];

/// Each top-level module of `app/src` and the modules it uses, lowest layers first: every edge
/// the source has, and no more. `components` (one component per file) composes everything
/// below it; `state` is the reducer over the launch's description (`inputs`).
const APP: Table = &[
    ("args", &[]),
    ("codemirror", &[]),
    ("inspector", &[]),
    ("share", &["inspector"]),
    ("crash", &["share"]),
    ("examples", &[]),
    ("explain", &[]),
    ("explore", &[]),
    ("inputs", &["args", "examples"]),
    ("files", &["inputs"]),
    ("form", &["args", "inputs"]),
    ("route", &[]),
    ("gallery", &["examples", "route"]),
    ("lessons", &[]),
    ("marks", &[]),
    ("pool", &["explore"]),
    ("shrink", &[]),
    ("timeline", &[]),
    ("snapshot", &["timeline"]),
    ("task", &["explore", "pool"]),
    ("state", &["examples", "explore", "files", "inputs", "inspector", "share", "task"]),
    ("tutorial", &["explore", "lessons"]),
    ("worker", &["explore"]),
    (
        "components",
        &[
            "args",
            "codemirror",
            "crash",
            "examples",
            "explain",
            "explore",
            "files",
            "form",
            "gallery",
            "inputs",
            "inspector",
            "lessons",
            "marks",
            "pool",
            "route",
            "share",
            "shrink",
            "snapshot",
            "state",
            "task",
            "timeline",
            "tutorial",
        ],
    ),
];

/// Crates that belong to the browser, never to the engine.
const WEB_CRATES: &[&str] = &["wasm-bindgen", "web-sys", "js-sys", "yew", "gloo"];

/// The workspace's root (this crate is `tests/` in it).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file under `src` belongs to (`exec` for `src/exec/interp.rs`), or
/// `None` for the crate root.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let first = file.strip_prefix(src).ok()?.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
    (name != "lib" && name != "main").then_some(name)
}

/// The text of a file without comments and without its `#[cfg(test)]` modules, and the files
/// it declares as test modules (`#[cfg(test)] mod tests;`). Relies on rustfmt's layout: an
/// inline module's closing brace is the first line after it that is `}` at its own indent.
fn non_test_code(text: &str) -> (String, Vec<String>) {
    let mut code = String::new();
    let mut test_files = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            let indent = &line[..line.len() - line.trim_start().len()];
            let Some(next) = lines.next() else { break };
            let item = next.trim();
            if let Some(name) = item.strip_prefix("mod ").and_then(|rest| rest.strip_suffix(';')) {
                test_files.push(name.to_string());
            } else if item.starts_with("mod ") && item.ends_with('{') {
                let close = format!("{indent}}}");
                for inner in lines.by_ref() {
                    if inner == close {
                        break;
                    }
                }
            } else {
                code.push_str(next.split("//").next().unwrap_or(""));
                code.push('\n');
            }
            continue;
        }
        code.push_str(line.split("//").next().unwrap_or(""));
        code.push('\n');
    }
    (code, test_files)
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn ident_at(bytes: &[u8], mut at: usize) -> Option<String> {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    let start = at;
    while at < bytes.len() && is_ident_byte(bytes[at]) {
        at += 1;
    }
    (at > start).then(|| String::from_utf8_lossy(&bytes[start..at]).into_owned())
}

/// The top-level modules `code` names with `crate::module` or `use crate::{module, ...}`.
fn modules_used(code: &str) -> BTreeSet<String> {
    let bytes = code.as_bytes();
    let mut used = BTreeSet::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("crate::") {
        let at = from + found;
        from = at + "crate::".len();
        if at > 0 && (is_ident_byte(bytes[at - 1]) || bytes[at - 1] == b'$') {
            continue;
        }
        if bytes.get(from) == Some(&b'{') {
            // `use crate::{a, b::c, d::{e, f}}`: the names that start an item at depth one.
            let (mut depth, mut k, mut item_start) = (0usize, from, true);
            while k < bytes.len() {
                match bytes[k] {
                    b'{' => {
                        depth += 1;
                        item_start = depth == 1;
                    }
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b',' if depth == 1 => item_start = true,
                    b if b.is_ascii_whitespace() => {}
                    _ if item_start && depth == 1 => {
                        used.extend(ident_at(bytes, k));
                        item_start = false;
                    }
                    _ => {}
                }
                k += 1;
            }
        } else {
            used.extend(ident_at(bytes, from));
        }
    }
    used.remove("self");
    used
}

/// Every edge between the top-level modules of the crate whose source is `crate_dir/src`,
/// with the first file that makes it.
fn edges(crate_dir: &str) -> BTreeMap<(String, String), String> {
    let src = workspace().join(crate_dir).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut code_of = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let (code, tests) = non_test_code(&text);
        let dir = if file.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs") { file.parent().unwrap().to_path_buf() } else { file.with_extension("") };
        for name in tests {
            test_only.insert(dir.join(format!("{name}.rs")));
            test_only.insert(dir.join(&name).join("mod.rs"));
        }
        code_of.insert(file.clone(), code);
    }
    let mut edges = BTreeMap::new();
    for (file, code) in &code_of {
        let Some(from) = top_module(&src, file) else { continue };
        if test_only.contains(file) {
            continue;
        }
        for to in modules_used(code) {
            if to != from {
                let shown = file.strip_prefix(&src).unwrap().display().to_string();
                edges.entry((from.clone(), to)).or_insert(shown);
            }
        }
    }
    edges
}

/// Uses between modules, as (user, used) pairs.
type Edges = BTreeSet<(String, String)>;

/// A cycle among `edges`, as the path that closes it, if there is one.
fn cycle(edges: &Edges) -> Option<Vec<String>> {
    fn visit(node: &str, next: &BTreeMap<&str, Vec<&str>>, state: &mut BTreeMap<String, bool>, path: &mut Vec<String>) -> Option<Vec<String>> {
        match state.get(node) {
            Some(true) => return None,
            Some(false) => {
                let start = path.iter().position(|n| n == node).unwrap();
                let mut found = path[start..].to_vec();
                found.push(node.to_string());
                return Some(found);
            }
            None => {}
        }
        state.insert(node.to_string(), false);
        path.push(node.to_string());
        for to in next.get(node).into_iter().flatten() {
            if let Some(found) = visit(to, next, state, path) {
                return Some(found);
            }
        }
        path.pop();
        state.insert(node.to_string(), true);
        None
    }
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges {
        next.entry(from).or_default().push(to);
    }
    let mut state = BTreeMap::new();
    next.keys().find_map(|node| visit(node, &next, &mut state, &mut Vec::new()))
}

/// The allowed edges, from a crate's table.
fn table(allowed: Table) -> Edges {
    allowed.iter().flat_map(|(from, tos)| tos.iter().map(|to| (from.to_string(), to.to_string()))).collect()
}

/// Fails unless the edges of `crate_dir`'s source are exactly those of its table (`name` is
/// the table's name, for the message).
fn check_layers(crate_dir: &str, allowed: Table, name: &str) {
    let found = edges(crate_dir);
    let allowed = table(allowed);
    let new: Vec<String> = found
        .iter()
        .filter(|(edge, _)| !allowed.contains(*edge))
        .map(|((from, to), file)| format!("`{from}` uses `crate::{to}` (first in {crate_dir}/src/{file})"))
        .collect();
    assert!(
        new.is_empty(),
        "new dependencies between the modules of {crate_dir}:\n  {}\nadd each to {name} in tests/tests/layering.rs if it goes down the \
         layers, or use the module the other way round",
        new.join("\n  ")
    );
    let stale: Vec<String> = allowed.iter().filter(|edge| !found.contains_key(*edge)).map(|(from, to)| format!("`{from}` -> `{to}`")).collect();
    assert!(stale.is_empty(), "edges in {name} (tests/tests/layering.rs) that the source no longer has (remove them):\n  {}", stale.join("\n  "));
}

#[test]
fn the_engine_modules_use_each_other_only_as_the_table_allows() {
    check_layers("engine", ENGINE, "ENGINE");
}

#[test]
fn the_app_modules_use_each_other_only_as_the_table_allows() {
    check_layers("app", APP, "APP");
}

#[test]
fn the_allowed_edges_form_no_cycle() {
    for (name, allowed) in [("ENGINE", ENGINE), ("APP", APP)] {
        if let Some(path) = cycle(&table(allowed)) {
            panic!("the edges of {name} form a cycle: {}; break it, so that every use goes down the layers", path.join(" -> "));
        }
    }
}

/// The most lines a Rust source file of the engine or the app may have: a file past it holds
/// more than one concern, and is split along its seams into a folder of files.
const MAX_LINES: usize = 1_500;

#[test]
fn no_source_file_of_the_engine_or_the_app_is_longer_than_the_limit() {
    let mut files = Vec::new();
    for dir in ["engine", "app"] {
        for sub in ["src", "tests", "benches"] {
            let path = workspace().join(dir).join(sub);
            if path.is_dir() {
                rust_files(&path, &mut files);
            }
        }
    }
    assert!(files.len() > 100, "found only {} source files", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())).lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", f.strip_prefix(workspace()).unwrap_or(f).display()))
        })
        .collect();
    assert!(long.is_empty(), "source files longer than {MAX_LINES} lines; split each along its seams: {}", long.join(", "));
}

#[test]
fn the_engine_depends_on_no_web_crate() {
    let manifest: toml::Table = std::fs::read_to_string(workspace().join("engine/Cargo.toml")).unwrap().parse().unwrap();
    // The dependencies the engine builds with, on every target (dev-dependencies are the
    // tests' own: the wasm tests run in a browser).
    let mut tables: Vec<&toml::Table> = ["dependencies", "build-dependencies"].iter().filter_map(|k| manifest.get(*k)?.as_table()).collect();
    if let Some(targets) = manifest.get("target").and_then(|t| t.as_table()) {
        for target in targets.values() {
            tables.extend(["dependencies", "build-dependencies"].iter().filter_map(|k| target.get(*k)?.as_table()));
        }
    }
    assert!(!tables.is_empty(), "the engine's Cargo.toml has no [dependencies]");
    for table in tables {
        for (name, spec) in table {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            assert!(!WEB_CRATES.contains(&package), "the engine depends on the web crate `{package}`; the browser belongs to the app");
        }
    }
}

#[test]
fn the_reader_finds_the_uses_it_is_given() {
    let code = "use crate::{diag::{Diagnostic, Span}, ir};\nlet x = crate::weak::Weak::default();\npub(crate) fn f() {}\n";
    let used: Vec<String> = modules_used(code).into_iter().collect();
    assert_eq!(used, ["diag", "ir", "weak"]);
    let (code, tests) =
        non_test_code("use crate::a; // crate::b\n#[cfg(test)]\nmod tests {\n    use crate::c;\n}\n#[cfg(test)]\nmod more;\nfn g() { crate::d::h() }\n");
    assert_eq!(modules_used(&code).into_iter().collect::<Vec<_>>(), ["a", "d"]);
    assert_eq!(tests, ["more"]);
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let edges = |pairs: &[(&str, &str)]| -> Edges { pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect() };
    assert_eq!(cycle(&edges(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(cycle(&edges(&[("a", "b"), ("b", "c"), ("c", "a")])), Some(vec!["a".to_string(), "b".to_string(), "c".to_string(), "a".to_string()]));
    assert_eq!(cycle(&edges(&[("a", "b"), ("b", "a")])), Some(vec!["a".to_string(), "b".to_string(), "a".to_string()]));
}
