//! Installs the tools the tasks need, and only what is missing or at the wrong version.
//!
//! A fresh machine has a Rust toolchain and little else, so `cargo xtask serve` and
//! `cargo xtask test` install what they use. Each tool is detected by running it with
//! `--version` and is installed only when it is absent or its version is wrong, so a second run
//! installs nothing and takes seconds. Versions are exact where a mismatch breaks the build:
//!
//! - Trunk 0.21.14: Trunk 0.22 needs a newer rustc than the project's toolchain.
//! - wasm-bindgen-cli equal to the `wasm-bindgen` crate in `Cargo.lock`: the CLI refuses to
//!   process a module made by a different version of the crate. It is installed without
//!   `--locked`, because its own lock file names a crate version the registry may not have.
//! - wasm-opt 120 or later from npm's `binaryen`: Debian's binaryen (108) cannot read what
//!   current rustc emits, so if it is installed it is removed, since its `/usr/bin/wasm-opt`
//!   would shadow npm's.
//! - Chromium and chromedriver from Debian, for the browser tests.
//!
//! Installs run without a terminal (stdin closed, `DEBIAN_FRONTEND=noninteractive`), so the
//! same code serves developers and CI. System packages need root; without it, the error names
//! the command to run instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
pub const TRUNK_VERSION: &str = "0.21.14";
const BINARYEN_NPM_PACKAGE: &str = "binaryen@132";
const MIN_WASM_OPT_VERSION: u32 = 120;

/// A tool a task can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Rust's standard library for `wasm32-unknown-unknown`.
    WasmTarget,
    Trunk,
    /// `wasm-bindgen` and `wasm-bindgen-test-runner`, at the version in `Cargo.lock`.
    WasmBindgen,
    WasmOpt,
    /// `chromium` and `chromedriver`.
    Chromium,
    /// `rustfmt`, for the tidy stage (a rustup component).
    Rustfmt,
    /// Clippy, for the tidy stage (a rustup component).
    Clippy,
    /// `oclgrind-kernel` from Debian's `oclgrind`, the peer `cargo xtask bench` compares with.
    Oclgrind,
}

/// What building the app with Trunk needs.
pub const BUILD_TOOLS: &[Tool] = &[Tool::WasmTarget, Tool::Trunk, Tool::WasmBindgen, Tool::WasmOpt];

/// Where the browser tools are, once [`ensure`] has found or installed them.
#[derive(Debug, Default)]
pub struct Found {
    pub chromium: Option<PathBuf>,
    pub chromedriver: Option<PathBuf>,
    pub oclgrind: Option<PathBuf>,
}

/// Makes sure every tool in `tools` is installed, printing one line per tool.
pub fn ensure(tools: &[Tool]) -> Result<Found, String> {
    add_cargo_bin_to_path();
    let mut setup = Setup::default();
    let mut found = Found::default();
    for tool in tools {
        match tool {
            Tool::WasmTarget => ensure_wasm_target()?,
            Tool::Rustfmt => ensure_component("rustfmt", "rustfmt", &["--version"])?,
            Tool::Clippy => ensure_component("clippy", &cargo(), &["clippy", "--version"])?,
            Tool::Trunk => ensure_trunk()?,
            Tool::WasmBindgen => ensure_wasm_bindgen()?,
            Tool::WasmOpt => setup.ensure_wasm_opt()?,
            Tool::Chromium => {
                let (chromium, chromedriver) = setup.ensure_chromium()?;
                found.chromium = Some(chromium);
                found.chromedriver = Some(chromedriver);
            }
            Tool::Oclgrind => found.oclgrind = Some(setup.ensure_oclgrind()?),
        }
    }
    Ok(found)
}

/// State shared between tools during one run: `apt-get update` is slow, so it runs at most once.
#[derive(Default)]
struct Setup {
    apt_updated: bool,
}

fn ok(what: &str) {
    println!("ok: {what}");
}

fn installing(what: &str) {
    println!("installing: {what}");
}

/// A rustup component of the toolchain (rustfmt, clippy): present when `program args` runs
/// as the task will run it, or added with rustup.
fn ensure_component(component: &str, program: &str, args: &[&str]) -> Result<(), String> {
    if output_of(program, args).is_some() {
        ok(component);
        return Ok(());
    }
    if output_of("rustup", &["--version"]).is_none() {
        return Err(format!("{component} is missing and rustup was not found: install {component} for your toolchain"));
    }
    installing(component);
    run(Command::new("rustup").args(["component", "add", component]))
}

fn ensure_wasm_target() -> Result<(), String> {
    let what = format!("rust target {WASM_TARGET}");
    match output_of("rustup", &["target", "list", "--installed"]) {
        Some(list) if list.lines().any(|line| line.trim() == WASM_TARGET) => {
            ok(&what);
            Ok(())
        }
        Some(_) => {
            installing(&what);
            run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
        }
        // Without rustup the target can still be present, for example from a distribution's
        // packages; its standard library then sits in the sysroot.
        None => {
            let sysroot = output_of("rustc", &["--print", "sysroot"]).unwrap_or_default();
            if Path::new(sysroot.trim()).join("lib/rustlib").join(WASM_TARGET).is_dir() {
                ok(&what);
                Ok(())
            } else {
                Err(format!(
                    "the Rust target {WASM_TARGET} is missing and rustup was not found: \
                     install the target for your toolchain (`rustup target add {WASM_TARGET}`)"
                ))
            }
        }
    }
}

fn ensure_trunk() -> Result<(), String> {
    ensure_cargo_tool("trunk", &["trunk"], TRUNK_VERSION, &["install", "--locked", "trunk", "--version", TRUNK_VERSION], "several minutes")
}

fn ensure_wasm_bindgen() -> Result<(), String> {
    let version = wasm_bindgen_version(&crate::workspace_root())?;
    ensure_cargo_tool(
        "wasm-bindgen-cli",
        &["wasm-bindgen", "wasm-bindgen-test-runner"],
        &version,
        &["install", "wasm-bindgen-cli", "--version", &version],
        "a few minutes",
    )
}

/// Installs a crates.io binary package with `cargo install` unless each of its `binaries`
/// reports `version`.
fn ensure_cargo_tool(package: &str, binaries: &[&str], version: &str, install_args: &[&str], duration: &str) -> Result<(), String> {
    let has_version = || binaries.iter().all(|binary| output_of(binary, &["--version"]).and_then(|out| version_word(&out)).as_deref() == Some(version));
    if has_version() {
        ok(&format!("{package} {version}"));
        return Ok(());
    }
    installing(&format!("{package} {version} (cargo {}; {duration})", install_args.join(" ")));
    run(Command::new(cargo()).args(install_args))?;
    if has_version() {
        Ok(())
    } else {
        Err(format!(
            "installed {package} {version}, but {} still does not report that version; \
             is another copy earlier on PATH?",
            binaries.join(" / ")
        ))
    }
}

impl Setup {
    fn ensure_wasm_opt(&mut self) -> Result<(), String> {
        if let Some(version) = wasm_opt_version().filter(|v| *v >= MIN_WASM_OPT_VERSION) {
            ok(&format!("wasm-opt {version}"));
            return Ok(());
        }
        if debian_package_installed("binaryen") {
            installing("removal of Debian's binaryen (too old; its wasm-opt shadows npm's)");
            require_root("remove Debian's binaryen", "apt-get remove -y binaryen")?;
            run(apt().args(["remove", "-y", "binaryen"]))?;
        }
        if wasm_opt_version().filter(|v| *v >= MIN_WASM_OPT_VERSION).is_none() {
            installing(&format!("wasm-opt (npm install -g {BINARYEN_NPM_PACKAGE})"));
            if output_of("npm", &["--version"]).is_none() {
                return Err(format!(
                    "npm was not found; install Node.js and npm, then \
                     `npm install -g {BINARYEN_NPM_PACKAGE}`"
                ));
            }
            run(Command::new("npm").args(["install", "-g", "--no-audit", "--no-fund", BINARYEN_NPM_PACKAGE]))
                .map_err(|e| format!("{e} (as a non-root user, set npm's prefix to a writable directory)"))?;
            // npm's global bin directory may not be on PATH yet.
            if let Some(prefix) = output_of("npm", &["prefix", "-g"]) {
                append_to_path(&Path::new(prefix.trim()).join("bin"));
            }
        }
        match wasm_opt_version() {
            Some(version) if version >= MIN_WASM_OPT_VERSION => {
                ok(&format!("wasm-opt {version}"));
                Ok(())
            }
            other => Err(format!(
                "wasm-opt {MIN_WASM_OPT_VERSION} or later is needed, but `wasm-opt` ({}) reports \
                 {other:?}; make npm's {BINARYEN_NPM_PACKAGE} come first on PATH",
                find_on_path("wasm-opt").map_or("not found".into(), |p| p.display().to_string()),
            )),
        }
    }

    /// Returns the paths of Chromium and chromedriver. `CHROMIUM` and `CHROMEDRIVER` choose
    /// other binaries than the ones on PATH.
    fn ensure_chromium(&mut self) -> Result<(PathBuf, PathBuf), String> {
        let locate = || -> Option<((PathBuf, String), (PathBuf, String))> {
            let chromium = browser_tool("CHROMIUM", &["chromium", "chromium-browser"])?;
            let chromedriver = browser_tool("CHROMEDRIVER", &["chromedriver"])?;
            Some((chromium, chromedriver))
        };
        let found = match locate() {
            Some(found) => found,
            None => {
                installing("chromium chromium-driver (apt-get)");
                require_root("install Chromium and chromedriver", "apt-get install -y chromium chromium-driver")?;
                self.apt_update()?;
                run(apt().args(["install", "-y", "chromium", "chromium-driver"]))?;
                locate().ok_or("chromium and chromedriver were installed but do not run")?
            }
        };
        let ((chromium, browser_version), (chromedriver, driver_version)) = found;
        ok(&format!("chromium {browser_version}"));
        ok(&format!("chromedriver {driver_version}"));
        if major(&browser_version) != major(&driver_version) {
            println!(
                "warning: chromium {browser_version} and chromedriver {driver_version} differ; \
                 sessions may fail to start"
            );
        }
        Ok((chromium, chromedriver))
    }

    /// Returns the path of `oclgrind-kernel`, installing Debian's `oclgrind` when it is missing.
    fn ensure_oclgrind(&mut self) -> Result<PathBuf, String> {
        let path = match find_on_path("oclgrind-kernel") {
            Some(path) => path,
            None => {
                installing("oclgrind (apt-get)");
                require_root("install Oclgrind", "apt-get install -y oclgrind")?;
                self.apt_update()?;
                run(apt().args(["install", "-y", "oclgrind"]))?;
                find_on_path("oclgrind-kernel").ok_or("oclgrind was installed but oclgrind-kernel is not on PATH")?
            }
        };
        ok(&format!("oclgrind-kernel {}", path.display()));
        Ok(path)
    }

    fn apt_update(&mut self) -> Result<(), String> {
        if !self.apt_updated {
            run(apt().arg("update"))?;
            self.apt_updated = true;
        }
        Ok(())
    }
}

/// Finds a browser tool (from the environment variable `env`, else the first of `names` on
/// PATH) that answers `--version`, with its version.
fn browser_tool(env: &str, names: &[&str]) -> Option<(PathBuf, String)> {
    let path = match std::env::var_os(env) {
        Some(path) => PathBuf::from(path),
        None => names.iter().find_map(|name| find_on_path(name))?,
    };
    let version = version_word(&output_of(path.to_str()?, &["--version"])?)?;
    Some((path, version))
}

fn major(version: &str) -> &str {
    version.split('.').next().unwrap_or(version)
}

fn wasm_opt_version() -> Option<u32> {
    parse_wasm_opt_version(&output_of("wasm-opt", &["--version"])?)
}

/// `wasm-opt version 132 (version_132)` → 132.
fn parse_wasm_opt_version(output: &str) -> Option<u32> {
    let rest = &output[output.find("version")? + "version".len()..];
    let digits: String = rest.trim_start().chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The version in `--version` output such as `trunk 0.21.14` or
/// `Chromium 156.0.8078.79 built on Debian`: the first word that starts with a digit.
fn version_word(output: &str) -> Option<String> {
    output.split_whitespace().find(|word| word.starts_with(|c: char| c.is_ascii_digit())).map(|word| word.trim_start_matches('v').to_owned())
}

/// The version of the `wasm-bindgen` crate the workspace builds with: from `Cargo.lock`, or,
/// before a lock file exists, from the exact pin in the workspace manifest.
pub fn wasm_bindgen_version(root: &Path) -> Result<String, String> {
    if let Ok(lock) = std::fs::read_to_string(root.join("Cargo.lock")) {
        match locked_versions(&lock, "wasm-bindgen").as_slice() {
            [] => {}
            [version] => return Ok(version.clone()),
            several => {
                return Err(format!(
                    "Cargo.lock has several wasm-bindgen versions ({}); one CLI cannot match \
                     them all, so pin one version in the workspace",
                    several.join(", ")
                ))
            }
        }
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| e.to_string())?;
    pinned_version(&manifest, "wasm-bindgen")
        .ok_or_else(|| "cannot tell the wasm-bindgen version: not in Cargo.lock and not pinned with `=` in Cargo.toml".into())
}

/// Every version of `package` in a `Cargo.lock`.
fn locked_versions(lock: &str, package: &str) -> Vec<String> {
    let unquote = |value: &str| value.trim().trim_matches('"').to_owned();
    lock.split("[[package]]")
        .skip(1)
        .filter_map(|entry| {
            let mut name = None;
            let mut version = None;
            for line in entry.lines() {
                if let Some(value) = line.strip_prefix("name = ") {
                    name = Some(unquote(value));
                } else if let Some(value) = line.strip_prefix("version = ") {
                    version = Some(unquote(value));
                }
            }
            (name.as_deref() == Some(package)).then_some(version).flatten()
        })
        .collect()
}

/// The version of a dependency pinned as `package = "=X"` (or `version = "=X"` in a table) in
/// a manifest.
fn pinned_version(manifest: &str, package: &str) -> Option<String> {
    manifest.lines().find_map(|line| {
        let rest = line.trim().strip_prefix(package)?.trim_start().strip_prefix('=')?;
        let quoted = rest.split('"').nth(1)?;
        quoted.strip_prefix('=').map(|v| v.trim().to_owned())
    })
}

fn debian_package_installed(package: &str) -> bool {
    output_of("dpkg-query", &["-W", "-f=${Status}", package]).is_some_and(|status| status.contains("install ok installed"))
}

fn apt() -> Command {
    let mut command = Command::new("apt-get");
    command.env("DEBIAN_FRONTEND", "noninteractive");
    command
}

fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|status| status.lines().find_map(|line| line.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().nth(1)) == Some("0"))
}

fn require_root(action: &str, command: &str) -> Result<(), String> {
    if is_root() {
        Ok(())
    } else {
        Err(format!("need root to {action}; run `sudo {command}`, then run this task again"))
    }
}

/// The cargo running this task (so a `cargo +toolchain xtask` stays on that toolchain).
pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// `cargo install` puts binaries in `$CARGO_HOME/bin`, which a fresh shell may not have on
/// PATH yet; children of this process find them anyway.
fn add_cargo_bin_to_path() {
    let cargo_home = std::env::var_os("CARGO_HOME").map(PathBuf::from).or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    if let Some(home) = cargo_home {
        append_to_path(&home.join("bin"));
    }
}

/// Adds `dir` at the end of PATH unless it is already there, so tools already on PATH win.
fn append_to_path(dir: &Path) {
    let current = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&current).collect();
    if !dirs.iter().any(|d| d == dir) {
        dirs.push(dir.to_path_buf());
        if let Ok(joined) = std::env::join_paths(dirs) {
            std::env::set_var("PATH", joined);
        }
    }
}

pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| candidate.is_file())
}

/// Runs a program and returns its stdout and stderr, or `None` if it cannot be started or fails.
fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).stdin(Stdio::null()).output().ok()?;
    if !output.status.success() {
        return None;
    }
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push('\n');
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Some(text)
}

/// Runs an install command with its output shown, and without a terminal to ask questions on.
pub fn run(command: &mut Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    let status = command.stdin(Stdio::null()).env("CI", "true").status().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed with {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_versions_from_tool_output() {
        assert_eq!(version_word("trunk 0.21.14\n").as_deref(), Some("0.21.14"));
        assert_eq!(version_word("wasm-bindgen 0.2.130\n").as_deref(), Some("0.2.130"));
        assert_eq!(version_word("Chromium 156.0.8078.79 built on Debian GNU/Linux 12 (bookworm)").as_deref(), Some("156.0.8078.79"));
        assert_eq!(version_word("ChromeDriver 156.0.8078.79 (a21ce95c)").as_deref(), Some("156.0.8078.79"));
        assert_eq!(version_word("no version here"), None);
        assert_eq!(parse_wasm_opt_version("wasm-opt version 132 (version_132)"), Some(132));
        assert_eq!(parse_wasm_opt_version("wasm-opt version 108"), Some(108));
        assert_eq!(parse_wasm_opt_version("wasm-opt"), None);
        assert_eq!(major("156.0.8078.79"), "156");
    }

    #[test]
    fn finds_the_locked_wasm_bindgen_version() {
        let lock = r#"
version = 4

[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "cfg-if",
]

[[package]]
name = "wasm-bindgen-backend"
version = "0.2.99"
"#;
        assert_eq!(locked_versions(lock, "wasm-bindgen"), vec!["0.2.130"]);
        assert_eq!(locked_versions(lock, "wasm-bindgen-backend"), vec!["0.2.99"]);
        assert!(locked_versions(lock, "cfg-if").is_empty());
    }

    #[test]
    fn finds_an_exact_pin_in_a_manifest() {
        let manifest = "[workspace.dependencies]\nwasm-bindgen-futures = \"0.4\"\nwasm-bindgen = \"=0.2.130\"\n";
        assert_eq!(pinned_version(manifest, "wasm-bindgen").as_deref(), Some("0.2.130"));
        assert_eq!(pinned_version("wasm-bindgen = \"0.2\"", "wasm-bindgen"), None);
    }

    #[test]
    fn the_workspace_pins_the_wasm_bindgen_version() {
        // Whatever the lock file says, the CLI version must be derivable for this workspace.
        let version = wasm_bindgen_version(&crate::workspace_root()).unwrap();
        assert!(version.starts_with("0."), "{version}");
    }
}
