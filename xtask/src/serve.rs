//! `cargo xtask serve`: build the app as it ships and serve it locally.
//!
//! It builds with `trunk build --release` rather than running `trunk serve`, so that what a
//! developer clicks through is the same optimised bundle the end-to-end test checks, served by
//! the same server ([`interleave_tests::serve_dir`]) with the same MIME types and
//! Content-Security-Policy. A page that only works without the policy is caught here, not after
//! deployment. `--offline` keeps Trunk from downloading tools: [`crate::setup`] installs them.

use crate::setup::{self, BUILD_TOOLS};
use crate::test::trunk_build;

pub fn run(port: u16) -> Result<(), String> {
    setup::ensure(BUILD_TOOLS)?;
    crate::editor::ensure_bundle()?;
    let root = crate::workspace_root();
    let mut build = trunk_build(&root);
    println!("building: {}", crate::describe(&build));
    let status = build.status().map_err(|e| format!("cannot run trunk: {e}"))?;
    if !status.success() {
        return Err(format!("trunk build failed with {status}"));
    }
    let dist = root.join("dist");
    let server = interleave_tests::serve_dir(&dist, &format!("127.0.0.1:{port}")).map_err(|e| e.to_string())?;
    println!("serving dist/ at {} (Ctrl-C to stop)", server.url());
    server.wait();
    Ok(())
}
