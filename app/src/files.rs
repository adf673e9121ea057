//! Files opened from disk, as plain data: which kind each is, and what opening a set of them
//! (chosen in the file picker or dropped at once) puts into the editor and the launch panel.
//!
//! A kernel (`.cl`, `.cu`) or litmus test (`.litmus`) replaces the editor's text and keeps the
//! launch. A scenario file (`.toml`) or Oclgrind simulation file (`.sim`) describes a whole
//! run; when it names its kernel by file, the page cannot read that file itself (a browser
//! only sees the files the user hands it), so the kernel has to come in the same selection,
//! and otherwise the user is told so. Every problem is a `Diagnostic` pointing into the file
//! it is about, never a panic.

use interleave_engine::diag::Diagnostic;
use interleave_engine::scenario::{self, Dialect};
use interleave_engine::sim;

use crate::inputs::{self, Inputs};

/// The largest file the page reads: far beyond any kernel, and small enough that reading
/// and parsing it cannot stall the page.
pub const MAX_FILE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// What the file picker offers.
pub const ACCEPT: &str = ".cl,.cu,.litmus,.sim,.toml";

/// A file's kind, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    OpenCl,
    Cuda,
    Litmus,
    Sim,
    Scenario,
    Unknown,
}

/// The kind of the file called `name`.
pub fn kind(name: &str) -> FileKind {
    let extension = name.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase()).unwrap_or_default();
    match extension.as_str() {
        "cl" => FileKind::OpenCl,
        "cu" | "cuh" => FileKind::Cuda,
        "litmus" => FileKind::Litmus,
        "sim" => FileKind::Sim,
        "toml" => FileKind::Scenario,
        _ => FileKind::Unknown,
    }
}

/// The last part of a path as a file names it (`../src/k.cl` is `k.cl`).
fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// A file the user handed over: its name and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedFile {
    pub name: String,
    pub text: String,
    /// Why the file could not be read (too large, or a read error), if it could not.
    pub unreadable: Option<String>,
}

/// What opening files changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// New source for the editor; the launch stays. `dialect` is `None` for a litmus test,
    /// which is recognised from its text.
    Source { source: String, dialect: Option<Dialect>, file_name: String },
    /// A whole scenario.
    Scenario(Box<Inputs>),
}

impl Change {
    /// Makes the change to `inputs`: a source replaces the editor's text (a kernel in the
    /// other dialect turns the sizes into its terms), a scenario replaces everything.
    pub fn apply(self, inputs: &mut Inputs) {
        match self {
            Change::Source { source, dialect, file_name } => {
                inputs.source = source;
                if let Some(dialect) = dialect {
                    inputs.set_dialect(dialect);
                }
                inputs.kernel = None;
                inputs.example = None;
                inputs.file_name = Some(file_name);
            }
            Change::Scenario(opened) => *inputs = *opened,
        }
    }
}

/// Files opened successfully: what to show as loaded, and the change.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    pub label: String,
    pub change: Change,
}

/// Why files could not be opened, with the text and name the diagnostics point into.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
    pub source: String,
    pub file_name: String,
}

impl Failure {
    fn new(diagnostic: Diagnostic, file: Option<&OpenedFile>) -> Failure {
        Failure {
            diagnostics: vec![diagnostic],
            source: file.map(|f| f.text.clone()).unwrap_or_default(),
            file_name: file.map(|f| f.name.clone()).unwrap_or_default(),
        }
    }
}

fn open_error(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("invalid-input", message)
}

/// The help for a scenario or simulation file whose kernel did not come with it.
fn needs_kernel(file: &OpenedFile, kernel: &str) -> Diagnostic {
    open_error(format!("`{}` runs the kernel in `{kernel}`, which was not opened with it", file.name))
        .with_help(format!("open both files at once: select `{}` and `{kernel}` together in the file picker, or drop them together on the page", file.name))
}

/// The file among `files` (other than `except`) named like `path`.
fn find<'a>(files: &'a [OpenedFile], path: &str, except: &OpenedFile) -> Option<&'a OpenedFile> {
    let wanted = base_name(path);
    files.iter().find(|f| !std::ptr::eq(*f, except) && base_name(&f.name) == wanted)
}

/// Opens a set of files handed over together.
pub fn open(files: &[OpenedFile]) -> Result<Opened, Failure> {
    if let Some(file) = files.iter().find(|f| f.unreadable.is_some()) {
        let why = file.unreadable.as_deref().unwrap_or_default();
        return Err(Failure::new(open_error(format!("`{}` cannot be opened: {why}", file.name)), None));
    }
    if let Some(sim_file) = files.iter().find(|f| kind(&f.name) == FileKind::Sim) {
        return open_sim(files, sim_file);
    }
    if let Some(toml_file) = files.iter().find(|f| kind(&f.name) == FileKind::Scenario) {
        return open_scenario(files, toml_file);
    }
    let [file] = files else {
        let message = if files.is_empty() {
            "no file was opened".to_string()
        } else {
            format!("{} files were opened together, but only one kernel or litmus test can be open at a time", files.len())
        };
        return Err(Failure::new(open_error(message).with_help("open one kernel at a time, or a .sim or .toml file together with the kernel it names"), None));
    };
    let dialect = match kind(&file.name) {
        FileKind::OpenCl => Some(Dialect::OpenCl),
        FileKind::Cuda => Some(Dialect::Cuda),
        FileKind::Litmus => None,
        // Simulation and scenario files were taken care of above.
        FileKind::Sim | FileKind::Scenario | FileKind::Unknown => return Err(Failure::new(
            open_error(format!("`{}` is not a kind of file Interleave opens", file.name)).with_help(
                "open an OpenCL C kernel (.cl), a CUDA kernel (.cu), a litmus test (.litmus), an Oclgrind simulation file (.sim) or a scenario file (.toml)",
            ),
            None,
        )),
    };
    Ok(Opened { label: file.name.clone(), change: Change::Source { source: file.text.clone(), dialect, file_name: file.name.clone() } })
}

fn open_sim(files: &[OpenedFile], sim_file: &OpenedFile) -> Result<Opened, Failure> {
    let parsed = sim::parse(&sim_file.text).map_err(|d| Failure::new(d, Some(sim_file)))?;
    let Some(kernel) = find(files, &parsed.source_file, sim_file) else {
        return Err(Failure::new(needs_kernel(sim_file, base_name(&parsed.source_file)), Some(sim_file)));
    };
    let (scenario, _dumped) = sim::scenario(&parsed, kernel.text.clone(), kernel.name.clone()).map_err(|diagnostics| Failure {
        diagnostics,
        source: kernel.text.clone(),
        file_name: kernel.name.clone(),
    })?;
    let mut inputs = inputs::from_scenario(&scenario);
    inputs.file_name = Some(kernel.name.clone());
    Ok(Opened { label: format!("{} with {}", sim_file.name, kernel.name), change: Change::Scenario(Box::new(inputs)) })
}

fn open_scenario(files: &[OpenedFile], toml_file: &OpenedFile) -> Result<Opened, Failure> {
    let mut kernel_name = None;
    let scenario = scenario::from_toml(&toml_file.text, |path| {
        let kernel = find(files, path, toml_file).ok_or_else(|| needs_kernel(toml_file, base_name(path)))?;
        kernel_name = Some(kernel.name.clone());
        Ok((kernel.text.clone(), kernel.name.clone()))
    })
    .map_err(|d| Failure::new(d, Some(toml_file)))?;
    let mut inputs = inputs::from_scenario(&scenario);
    inputs.file_name = Some(kernel_name.unwrap_or_else(|| toml_file.name.clone()));
    let label = if scenario.title.is_empty() { toml_file.name.clone() } else { format!("{} ({})", scenario.title, toml_file.name) };
    Ok(Opened { label, change: Change::Scenario(Box::new(inputs)) })
}

/// The name a downloaded scenario gets: the source's file name (or `kernel`) as `.toml`.
pub fn download_name(file_name: Option<&str>) -> String {
    let base = file_name.map(base_name).unwrap_or("kernel");
    let stem = base.rsplit_once('.').map_or(base, |(stem, _)| stem);
    let stem = if stem.is_empty() { "kernel" } else { stem };
    format!("{stem}.toml")
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::scenario::{from_toml, to_toml, SchedulerKind};

    fn file(name: &str, text: &str) -> OpenedFile {
        OpenedFile { name: name.into(), text: text.into(), unreadable: None }
    }

    const COUNT_CL: &str = include_str!("../../static/examples/count.cl");
    const COUNT_TOML: &str = include_str!("../../static/examples/count.toml");

    #[test]
    fn kinds_follow_the_extension() {
        for (name, expected) in [
            ("k.cl", FileKind::OpenCl),
            ("K.CL", FileKind::OpenCl),
            ("a/b.cu", FileKind::Cuda),
            ("mp.litmus", FileKind::Litmus),
            ("run.sim", FileKind::Sim),
            ("s.toml", FileKind::Scenario),
            ("notes.txt", FileKind::Unknown),
            ("Makefile", FileKind::Unknown),
        ] {
            assert_eq!(kind(name), expected, "{name}");
        }
    }

    #[test]
    fn a_kernel_file_replaces_the_source_only() {
        let opened = open(&[file("k.cu", "__global__ void k() {}")]).unwrap();
        assert_eq!(opened.change, Change::Source { source: "__global__ void k() {}".into(), dialect: Some(Dialect::Cuda), file_name: "k.cu".into() });
        let litmus = open(&[file("mp.litmus", "OPENCL MP")]).unwrap();
        assert!(matches!(litmus.change, Change::Source { dialect: None, .. }));
    }

    #[test]
    fn a_scenario_file_comes_with_its_kernel() {
        let opened = open(&[file("count.cl", COUNT_CL), file("count.toml", COUNT_TOML)]).unwrap();
        assert_eq!(opened.label, "Lost updates (count.toml)");
        let Change::Scenario(inputs) = opened.change else { panic!("a scenario") };
        assert_eq!(inputs.source, COUNT_CL);
        assert_eq!((inputs.global.as_str(), inputs.local.as_str()), ("8", "4"));
        assert_eq!(inputs.args.len(), 2);
        assert_eq!(inputs.file_name.as_deref(), Some("count.cl"));
        // Alone, it says which file it needs.
        let alone = open(&[file("count.toml", COUNT_TOML)]).unwrap_err();
        let d = &alone.diagnostics[0];
        assert!(d.message.contains("`count.cl`"), "{}", d.message);
        assert!(d.help.as_deref().unwrap_or_default().contains("together"));
        assert_eq!(alone.file_name, "count.toml");
    }

    #[test]
    fn a_broken_scenario_file_points_into_itself() {
        let failure = open(&[file("bad.toml", "seed = \"one\"\n")]).unwrap_err();
        assert_eq!(failure.source, "seed = \"one\"\n");
        assert!(failure.diagnostics[0].span.is_some());
    }

    #[test]
    fn a_simulation_file_needs_its_kernel() {
        let sim = "k.cl\nk\n8 1 1\n4 1 1\n<size=32 int fill=2>\n<size=4 int>\n3\n";
        let kernel = "__kernel void k(__global int *a, int n) { a[0] = n; }";
        let alone = open(&[file("run.sim", sim)]).unwrap_err();
        assert!(alone.diagnostics[0].message.contains("`k.cl`"));
        let opened = open(&[file("run.sim", sim), file("dir/k.cl", kernel)]).unwrap();
        assert_eq!(opened.label, "run.sim with dir/k.cl");
        let Change::Scenario(inputs) = opened.change else { panic!("a scenario") };
        assert_eq!(inputs.global, "8,1,1");
        let args: Vec<&str> = inputs.args.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(args, ["a=int[8]:fill=2", "n=int:3"]);
        // A kernel the file does not define is the kernel's problem, shown against it.
        let wrong = open(&[file("run.sim", sim), file("k.cl", "__kernel void j() {}")]).unwrap_err();
        assert_eq!(wrong.file_name, "k.cl");
        let broken = open(&[file("run.sim", "k.cl\n")]).unwrap_err();
        assert_eq!(broken.file_name, "run.sim");
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        for files in [vec![], vec![file("a.cl", ""), file("b.cl", "")], vec![file("notes.txt", "hello")]] {
            let failure = open(&files).unwrap_err();
            assert!(failure.diagnostics[0].help.is_some());
        }
        let too_large = OpenedFile { unreadable: Some("it is too large".into()), ..file("big.cl", "") };
        let failure = open(&[file("k.toml", COUNT_TOML), too_large]).unwrap_err();
        assert_eq!(failure.diagnostics[0].message, "`big.cl` cannot be opened: it is too large");
    }

    #[test]
    fn a_downloaded_scenario_reads_back() {
        let scenario = from_toml(COUNT_TOML, |_| Ok((COUNT_CL.to_string(), "count.cl".into()))).unwrap();
        let text = to_toml(&scenario).unwrap();
        let opened = open(&[file("count.toml", &text)]).unwrap();
        let Change::Scenario(inputs) = opened.change else { panic!("a scenario") };
        assert_eq!(inputs.source, COUNT_CL);
        assert_eq!(inputs.scheduler, SchedulerKind::Random);
        assert_eq!(download_name(Some("dir/count.cl")), "count.toml");
        assert_eq!(download_name(None), "kernel.toml");
        assert_eq!(download_name(Some(".cl")), "kernel.toml");
    }
}
