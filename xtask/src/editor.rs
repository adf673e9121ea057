//! Builds the code editor's JavaScript bundle, `app/js/bundle/editor.js`, from `app/js/`.
//!
//! The app links the bundle into its wasm module with `#[wasm_bindgen(module = ...)]`, so the
//! file must exist before the app compiles at all (natively too). It is generated, never
//! committed: `npm ci` installs the exact packages of `app/js/package-lock.json` into
//! `target/editor-js/` (outside the tracked files), and esbuild, one of those packages,
//! bundles `app/js/editor.js` with them into a single minified ES module.
//!
//! Both steps run only when needed: `npm ci` when the lock file differs from the one last
//! installed, esbuild when the bundle is missing or older than one of its inputs. A second
//! run therefore does nothing and takes milliseconds.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use crate::setup;

/// Where the bundle goes, relative to the workspace root (the app's `codemirror.rs` names the
/// same file).
pub const BUNDLE: &str = "app/js/bundle/editor.js";
/// The editor's own JavaScript and its package manifest and lock file.
const SOURCES: &str = "app/js";
/// Where the packages are installed.
const PACKAGES: &str = "target/editor-js";

/// The notice that heads the bundle: the packages it contains and their license.
const BANNER: &str = "/*! The Interleave code editor. Contains CodeMirror 6 (@codemirror/*, @lezer/*), \
style-mod, crelt, w3c-keyname and @marijn/find-cluster-break: copyright Marijn Haverbeke and \
others, MIT license. */";

/// Makes sure the bundle exists and is up to date, printing one line.
pub fn ensure_bundle() -> Result<(), String> {
    let root = crate::workspace_root();
    let sources = root.join(SOURCES);
    let packages = root.join(PACKAGES);
    let bundle = root.join(BUNDLE);
    let installed = ensure_packages(&sources, &packages)?;
    let inputs = inputs(&sources)?;
    if !installed && is_fresh(&bundle, &inputs) {
        println!("ok: editor bundle {BUNDLE}");
        return Ok(());
    }
    println!("building: editor bundle {BUNDLE} (esbuild)");
    let esbuild = packages.join("node_modules/.bin/esbuild");
    let mut command = Command::new(&esbuild);
    command
        .current_dir(&root)
        // The entry point sits outside the install folder, so its imports are resolved from
        // there through NODE_PATH.
        .env("NODE_PATH", packages.join("node_modules"))
        .arg(sources.join("editor.js"))
        .args(["--bundle", "--format=esm", "--minify", "--target=es2020", "--log-level=warning"])
        .arg(format!("--banner:js={BANNER}"))
        .arg(format!("--outfile={}", bundle.display()));
    setup::run(&mut command).map_err(|e| format!("bundling the editor failed: {e}"))
}

/// Installs the locked packages unless they already are; returns whether it installed.
fn ensure_packages(sources: &Path, packages: &Path) -> Result<bool, String> {
    let lock = fs::read(sources.join("package-lock.json")).map_err(|e| format!("cannot read {SOURCES}/package-lock.json: {e}"))?;
    let installed_lock = fs::read(packages.join("package-lock.json")).ok();
    let complete = packages.join("node_modules/.bin/esbuild").is_file();
    if complete && installed_lock.as_deref() == Some(lock.as_slice()) {
        return Ok(false);
    }
    println!("installing: the editor's npm packages (npm ci into {PACKAGES})");
    if setup::find_on_path("npm").is_none() {
        return Err("npm was not found; install Node.js 18 or later with npm".into());
    }
    fs::create_dir_all(packages).map_err(|e| format!("cannot create {PACKAGES}: {e}"))?;
    for file in ["package.json", "package-lock.json"] {
        fs::copy(sources.join(file), packages.join(file)).map_err(|e| format!("cannot copy {file} to {PACKAGES}: {e}"))?;
    }
    setup::run(Command::new("npm").current_dir(packages).args(["ci", "--no-audit", "--no-fund"]))?;
    Ok(true)
}

/// The files the bundle is made from: the manifest, the lock file and the editor's modules.
fn inputs(sources: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = vec![sources.join("package.json"), sources.join("package-lock.json")];
    let entries = fs::read_dir(sources).map_err(|e| format!("cannot list {}: {e}", sources.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|ext| ext == "js") {
            files.push(path);
        }
    }
    Ok(files)
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Whether `output` exists and is no older than every one of `inputs`.
fn is_fresh(output: &Path, inputs: &[PathBuf]) -> bool {
    let Some(built) = modified(output) else {
        return false;
    };
    inputs.iter().all(|input| modified(input).is_some_and(|changed| changed <= built))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn touch(path: &Path, at: SystemTime) {
        fs::write(path, "x").unwrap();
        fs::File::options().write(true).open(path).unwrap().set_modified(at).unwrap();
    }

    #[test]
    fn a_bundle_is_fresh_only_when_no_input_is_newer() {
        let dir = std::env::temp_dir().join(format!("xtask-editor-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let (input, output) = (dir.join("editor.js"), dir.join("bundle.js"));
        let start = SystemTime::now() - Duration::from_secs(100);
        touch(&input, start);
        assert!(!is_fresh(&output, std::slice::from_ref(&input)), "a missing bundle");
        touch(&output, start + Duration::from_secs(10));
        assert!(is_fresh(&output, std::slice::from_ref(&input)));
        touch(&input, start + Duration::from_secs(20));
        assert!(!is_fresh(&output, std::slice::from_ref(&input)), "an edited input");
        assert!(!is_fresh(&output, &[dir.join("gone.js")]), "a missing input");
        fs::remove_dir_all(&dir).unwrap();
    }
}
