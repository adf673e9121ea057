//! The app's figures for BENCHMARKS.md, measured on the built app (`dist/`, a release build)
//! in headless Chromium over loopback: the time from navigation to an interactive page with
//! the default example loaded, cold and from the browser's cache, and the rate of a random
//! exploration of the MP litmus test in the app's Web Workers, with one worker and with as
//! many as the machine's processors. `cargo xtask bench` runs it and reads the
//! `app-bench NAME KEY=VALUE` lines it prints; it is a measurement, not a timed test, but it
//! checks what it measures (the page really is interactive, every seed was explored).
//!
//! Times are taken in the page with `performance.now()`: WebDriver's round trips only poll
//! for a result the page has already stamped. Navigation times count from the navigation's
//! start (the page's time origin). The worker count is chosen by the app from
//! `navigator.hardwareConcurrency`, which the measurement overrides in the page before each
//! exploration, so that the same page explores once with one worker and once with several.
//!
//! It needs `INTERLEAVE_DIST`, Chromium and chromedriver, like the end-to-end test.

use fantoccini::{Client, Locator};
use interleave_engine::limits::thousands;
use interleave_tests::browser::{ChromeDriver, SessionConfig};
use interleave_tests::serve_dir;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Seeds of each timed exploration: long enough (seconds) that starting the workers (fetching
/// and compiling their wasm) is a small part of it.
const RUNS: u64 = 1_000_000;

/// How long the page may take to become interactive, or an exploration to finish.
const WAIT: Duration = Duration::from_secs(120);

const POLL: Duration = Duration::from_millis(50);

/// Stamps `window.__interactive` with `performance.now()` on the first animation frame at which
/// the default example is ready to use: the editor holds the kernel, the launch shows its 8
/// work-items and the Run button is enabled.
const WATCH_INTERACTIVE: &str = r#"
window.__interactive = undefined;
const ready = () => {
    const editor = document.querySelector('#editor .cm-content');
    const lanes = document.querySelector('#lanes');
    const run = document.querySelector('button#run');
    return editor && editor.textContent.includes('__kernel') && lanes
        && lanes.getAttribute('data-work-items') === '8' && run && !run.disabled;
};
const check = () => {
    if (ready()) { window.__interactive = performance.now(); } else { requestAnimationFrame(check); }
};
check();
"#;

/// Makes the app see `arguments[0]` processors, then starts the exploration and stamps
/// `window.__explored` with its duration when `#explore-status[data-phase]` reads `done` (or
/// `window.__failed` when it fails). A mutation observer stamps the change as it happens.
/// With `childList`, the observer also sees the status text change with every progress
/// report, which costs the page little next to the workers' exploring.
const EXPLORE: &str = r#"
const workers = arguments[0];
Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => workers, configurable: true });
window.__explored = undefined;
window.__failed = undefined;
let started = false;
const observer = new MutationObserver(() => {
    const status = document.querySelector('#explore-status');
    const phase = status && status.getAttribute('data-phase');
    if (phase === 'running') { started = true; }
    if (started && phase === 'done') { window.__explored = performance.now() - window.__start; observer.disconnect(); }
    if (phase === 'failed') { window.__failed = status.textContent; observer.disconnect(); }
});
// The status appears with the first exploration, so the whole page is watched.
observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase'] });
window.__start = performance.now();
document.querySelector('#explore-start').click();
"#;

#[tokio::test]
async fn app_figures_in_chromium() {
    let dist =
        std::env::var_os("INTERLEAVE_DIST").map(PathBuf::from).expect("INTERLEAVE_DIST names the built app's dist/ directory (`cargo xtask bench` sets it)");
    assert!(dist.join("index.html").is_file(), "{} has no index.html", dist.display());
    let server = serve_dir(&dist, "127.0.0.1:0").expect("serve the built app");
    let driver = ChromeDriver::start().expect("start chromedriver");
    let client = driver.session(&SessionConfig::default()).await.expect("open a Chromium session");
    let outcome = measure(&client, &server.url()).await;
    client.close().await.ok();
    drop(driver);
    server.stop();
    if let Err(message) = outcome {
        panic!("{message}");
    }
}

async fn measure(client: &Client, url: &str) -> Result<(), String> {
    // A fresh profile: the first navigation fetches everything; the second comes from the cache.
    for name in ["navigation_cold", "navigation_warm"] {
        client.goto(url).await.map_err(|e| format!("cannot open {url}: {e}"))?;
        client.execute(WATCH_INTERACTIVE, vec![]).await.map_err(|e| e.to_string())?;
        let ms = wait_for_number(client, "window.__interactive", "the page to become interactive").await?;
        let load = number(client, "performance.getEntriesByType('navigation')[0].loadEventEnd").await?;
        println!("app-bench {name} interactive_ms={ms:.0} load_event_ms={load:.0}");
    }

    // The MP litmus test, random schedules under the relaxed model.
    client
        .find(Locator::Css("#examples"))
        .await
        .map_err(|e| format!("no #examples: {e}"))?
        .select_by_value("litmus/mp.litmus")
        .await
        .map_err(|e| format!("cannot choose the MP test: {e}"))?;
    wait_for(client, "document.querySelector('#lanes').getAttribute('data-work-items') === '2'", "the MP test").await?;
    client.find(Locator::Css("#memory-model")).await.map_err(|e| e.to_string())?.select_by_value("relaxed").await.map_err(|e| e.to_string())?;
    click(client, "#explore-mode-random").await?;
    let runs = client.find(Locator::Css("#explore-runs")).await.map_err(|e| format!("no #explore-runs: {e}"))?;
    runs.clear().await.map_err(|e| e.to_string())?;
    runs.send_keys(&RUNS.to_string()).await.map_err(|e| e.to_string())?;

    let processors = std::thread::available_parallelism().map_or(2, |n| n.get());
    let counts = if processors > 1 { vec![1, processors] } else { vec![1] };
    // Alternating, twice each; the faster of each counts (the slower one met more of the
    // machine's other load).
    let mut best = vec![f64::INFINITY; counts.len()];
    for _ in 0..2 {
        for (i, &workers) in counts.iter().enumerate() {
            client.execute(EXPLORE, vec![json!(workers)]).await.map_err(|e| e.to_string())?;
            let ms = wait_for_number(client, "window.__failed ? -1 : window.__explored", "the exploration to finish").await?;
            if ms < 0.0 {
                let why: Value = client.execute("return window.__failed;", vec![]).await.map_err(|e| e.to_string())?;
                return Err(format!("the exploration failed: {why}"));
            }
            let summary = client.find(Locator::Css("#explore-summary")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
            let expected = thousands(RUNS);
            if !summary.contains(&expected) {
                return Err(format!("the summary should count {expected} runs: {summary:?}"));
            }
            best[i] = best[i].min(ms);
        }
    }
    for (i, &workers) in counts.iter().enumerate() {
        println!("app-bench explore_mp/{workers}_workers runs={RUNS} ms={:.0} schedules_per_s={:.0}", best[i], RUNS as f64 / (best[i] / 1000.0));
    }
    Ok(())
}

async fn click(client: &Client, css: &str) -> Result<(), String> {
    client.find(Locator::Css(css)).await.map_err(|e| format!("no {css}: {e}"))?.click().await.map_err(|e| format!("cannot click {css}: {e}"))
}

/// The value of the JavaScript expression `expression`, as a number (NaN when it is not one).
async fn number(client: &Client, expression: &str) -> Result<f64, String> {
    let value = client.execute(&format!("return {expression};"), vec![]).await.map_err(|e| format!("{expression}: {e}"))?;
    Ok(value.as_f64().unwrap_or(f64::NAN))
}

/// Polls until `expression` is a number, and returns it.
async fn wait_for_number(client: &Client, expression: &str, what: &str) -> Result<f64, String> {
    let deadline = Instant::now() + WAIT;
    loop {
        let n = number(client, expression).await?;
        if n.is_finite() {
            return Ok(n);
        }
        if Instant::now() >= deadline {
            return Err(format!("timed out after {WAIT:?} waiting for {what}"));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Polls until `condition`, a JavaScript expression, is true.
async fn wait_for(client: &Client, condition: &str, what: &str) -> Result<(), String> {
    wait_for_number(client, &format!("({condition}) ? 1 : undefined"), what).await.map(|_| ())
}
