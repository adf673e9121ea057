//! Browser end-to-end test: the release build of the app, served the way `cargo xtask serve`
//! serves it, driven in headless Chromium through chromedriver.
//!
//! Unit and wasm-bindgen tests check the engine and the components in isolation; only this test
//! sees the app as a user does, after Trunk's bundling and wasm-opt, under the real
//! Content-Security-Policy, with real clicks. It checks the DOM contract the app promises:
//!
//! - `button#run`, `button#step`, `button#reset`, and the code editor `#editor .cm-content`
//!   holding the default example's kernel;
//! - `#lanes[data-work-items]`, the number of work-items of the example's launch, and one
//!   `#lanes .lane[data-work-item]` per work-item once the example has run, each with a
//!   positive `data-marks` (its events on the timeline);
//! - the timeline canvas `#timeline-canvas` (`data-view-start`, `data-view-end`,
//!   `data-cursor-step`, `data-events`): the wheel zooms about the pointer (the visible steps
//!   change), hovering a mark shows its tooltip, and clicking it seeks the run to its step
//!   (`#status` then counts that many steps); screenshots show it zoomed in on the barrier in
//!   the light and the dark theme;
//! - `#status[data-status]`, `completed` after a full run and `running` after a single step;
//! - schedule exploration in Web Workers: the example picker `#examples` loads the MP litmus
//!   test (`#litmus-note` replaces the launch sizes, one lane per thread), `#memory-model`
//!   selects the relaxed model, `#explore-mode-exhaustive` and `#explore-start` explore it;
//!   `#explore-status[data-phase]` ends `done`, `#explore-outcomes` lists the four outcomes
//!   with the weak one `tr[data-exists="true"]`, `#explore-summary` says
//!   `[data-exists-observed="true"]` and `[data-complete="true"]`, `#explore-histogram` draws
//!   one bar per outcome (`data-bars`, `data-highlighted`); loading the weak outcome
//!   (`button.replay`) runs it in the lanes, ending `completed` with `#registers` showing
//!   `1:r0=1 1:r1=0` and `[data-exists="true"]`; a random exploration over several workers
//!   counts every seed, also when its seeds are cut into more jobs than workers, and
//!   `#explore-cancel` ends a long one `cancelled`;
//! - the code editor: the GPU words highlighted (`.cm-gpu-qualifier`), a finding's marker in
//!   the gutter (`.cm-finding-marker[data-line]`), opening a finding selects its line
//!   (`#editor[data-selection-line]`), real typing reaches the app (the run is dropped) and
//!   undo takes it back, and Escape then Tab leaves the editor; screenshots in both themes.
//! - the launch panel and files: the example picker brings back the default kernel over the
//!   replayed litmus test (`#restore-edits` offers the edits back), a field of the argument
//!   table (`#args-table tr[data-param="counters"]`) is changed and the kernel runs to
//!   `completed`; `#download-scenario` saves a `.toml` file that the engine's `from_toml` (the
//!   CLI's reader) reads back with the edited argument; a reload starts from the stored
//!   inputs with the edit in place; files dragged over the page show `#drop-target`, and a
//!   scenario file dropped without its kernel is explained in `#diagnostics`;
//! - share links: the default example stepped to step 5 with lane 2 selected, `#share` puts
//!   its link in the address bar and in `#share-url`; opening it (a fragment change, then a
//!   reload) shows `#status[data-steps="5"]`, `.lane.selected[data-work-item="2"]` and the
//!   same trace (its status line holds the trace hash) and the same picture of the timeline
//!   canvas, byte for byte; a broken link is explained in `#diagnostics`, and markup in a linked
//!   source and title shows as text (no `img` made of it) while the kernel still runs.
//! - hostile input: a decompression bomb, a truncated and a corrupted link, and a link with
//!   absurd sizes each show a clear message in `#diagnostics` (or the launch panel's
//!   `#launch-problems`), after which the default example still runs; a kernel that counts
//!   forever stops with `#status[data-status="step-limit"]` and a finding naming `max_steps`,
//!   the page answering clicks while it runs; a launch of 100,000,000 work-items typed into
//!   the launch panel is refused with the work-items limit's message; and a panic (provoked
//!   through the test-only `window.interleaveTestPanic()`) shows `#crash-banner` with the
//!   scenario's link in `#crash-link`, whose `#crash-reset` brings back a working page.
//! - the examples gallery: `?gallery` shows `#gallery .gallery-card` per entry, a card's
//!   `#load-ID` button loads its example (the address becomes `?example=ID`) and it runs to
//!   its finding, Back returns to the gallery, and `?example=ID` opened directly loads it.
//!
//! It needs a built `dist/` directory (named by `INTERLEAVE_DIST`), Chromium and chromedriver,
//! so it only exists with the `e2e` feature; `cargo xtask test` provides all of that. Every wait
//! polls for the expected state with a deadline, because the app renders asynchronously and a
//! fixed sleep would be either flaky or slow. Screenshots go to `target/screenshots/` so that a
//! failure (or a layout change) can be looked at afterwards.

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction, WheelAction, WheelActions, MOUSE_BUTTON_LEFT};
use fantoccini::key::Key;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, Locator};
use interleave_tests::browser::{ChromeDriver, SessionConfig};
use interleave_tests::serve_dir;
use serde_json::{json, Value};
use std::future::Future;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Work-items in the launch of the example the app opens with.
const DEFAULT_WORK_ITEMS: usize = 8;

/// How long an exploration may take: it starts workers, which fetch and compile their own
/// WebAssembly, and a busy two-core machine is slow at that.
const EXPLORE_WAIT: Duration = Duration::from_secs(90);

/// The outcome of message passing that only the relaxed model allows: the flag seen, the
/// data not.
const WEAK_MP: &str = "1:r0=1 1:r1=0";

/// How long to wait for the first render: it includes fetching and compiling the wasm module,
/// which a busy two-core machine can make slow.
const FIRST_RENDER_WAIT: Duration = Duration::from_secs(40);

/// How long to wait for the app to react to a click.
const WAIT: Duration = Duration::from_secs(20);

const POLL_INTERVAL: Duration = Duration::from_millis(100);

/// The timeline's axis and row heights in CSS pixels (`interleave_app::timeline`).
const AXIS_HEIGHT: f64 = 22.0;
const ROW_HEIGHT: f64 = 22.0;

/// A failed check, as a message; checks return it instead of panicking so that the browser
/// session is always closed properly before the test fails.
type Check<T = ()> = Result<T, String>;

/// Fails the current check with a formatted message unless the condition holds.
macro_rules! ensure {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err(format!($($message)+));
        }
    };
}

/// The browser tests take turns: two Chromiums at once on a small machine make each other's
/// pages miss their responsiveness deadlines.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[tokio::test]
async fn the_app_runs_steps_and_explores_in_chromium() {
    let _turn = ONE_BROWSER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let Some(dist) = std::env::var_os("INTERLEAVE_DIST").map(PathBuf::from) else {
        panic!(
            "INTERLEAVE_DIST is not set. This test needs the app built by Trunk; run \
             `cargo xtask test`, which builds it and sets INTERLEAVE_DIST to its dist/ directory"
        );
    };
    assert!(dist.join("index.html").is_file(), "{} has no index.html; run `cargo xtask test` to build the app", dist.display());

    let server = serve_dir(&dist, "127.0.0.1:0").expect("serve the built app");
    let driver = ChromeDriver::start().expect("start chromedriver");
    let client = driver.session(&session_config()).await.expect("open a Chromium session");

    let mut outcome = check_app(&client, &server.url()).await;
    if outcome.is_ok() {
        outcome = check_editor(&client).await;
    }
    if outcome.is_ok() {
        outcome = check_workbench(&client).await;
    }
    if outcome.is_ok() {
        outcome = check_exploration(&client).await;
    }
    if outcome.is_ok() {
        outcome = check_launch_and_files(&client).await;
    }
    if outcome.is_ok() {
        outcome = check_share(&client, &server.url()).await;
    }
    if outcome.is_ok() {
        outcome = check_hostile_input(&client, &server.url()).await;
    }
    if outcome.is_ok() {
        outcome = check_gallery(&client, &server.url()).await;
    }
    if outcome.is_err() {
        // The page as it was when the check failed is the quickest way to see why.
        save_screenshot(&client, "e2e-failure.png").await.ok();
    }
    let console = console_errors(&client).await;
    client.close().await.ok();
    drop(driver);
    server.stop();

    if let Err(message) = outcome {
        panic!("{message}");
    }
    match console {
        Ok(Some(errors)) => assert!(errors.is_empty(), "the browser console has errors:\n{}", errors.join("\n")),
        Ok(None) => eprintln!("note: this chromedriver does not return console logs; not checked"),
        Err(message) => panic!("{message}"),
    }
}

/// Walks through the DOM contract: load, run the default example to the end, then reset and
/// take a single step.
async fn check_app(client: &Client, url: &str) -> Check {
    client.goto(url).await.map_err(|e| format!("cannot open {url}: {e}"))?;

    wait_until("the app to render `button#run`", FIRST_RENDER_WAIT, || async { count(client, "button#run").await.and_then(|n| exactly(n, 1, "button#run")) })
        .await?;

    wait_until("the editor `#editor .cm-content` to hold the default kernel", WAIT, || async {
        let text = editor_text(client).await?;
        if text.contains("__kernel") {
            Ok(())
        } else {
            Err(format!("the editor holds {:?}", abbreviate(&text)))
        }
    })
    .await?;

    wait_until("`#lanes[data-work-items]` to give the launch size", WAIT, || async {
        let value = attribute(client, "#lanes", "data-work-items").await?;
        if value == DEFAULT_WORK_ITEMS.to_string() {
            Ok(())
        } else {
            Err(format!("data-work-items is {value:?}, expected {DEFAULT_WORK_ITEMS}"))
        }
    })
    .await?;

    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    wait_until("one lane per work-item, each with a mark", WAIT, || lanes_after_run(client)).await?;
    save_screenshot(client, "e2e-default-example.png").await?;
    check_timeline(client).await?;

    click(client, "button#reset").await?;
    // Waiting for the marks to disappear makes sure the reset has been handled before the step,
    // so the count below cannot include a leftover of the run.
    wait_until("the reset to clear every mark", WAIT, || async {
        let marks = total_marks(client).await?;
        exactly(marks, 0, "marks")
    })
    .await?;

    click(client, "button#step").await?;
    wait_until("one step: a single mark and status `running`", WAIT, || async {
        let marks = total_marks(client).await?;
        let drawn = attribute(client, "#timeline-canvas", "data-events").await?;
        let status = attribute(client, "#status", "data-status").await?;
        if marks == 1 && drawn == "1" && status == "running" {
            Ok(())
        } else {
            Err(format!("{marks} mark(s), {drawn} drawn, data-status {status:?}"))
        }
    })
    .await?;
    save_screenshot(client, "e2e-step.png").await?;
    Ok(())
}

/// The text the code editor shows, line by line.
async fn editor_text(client: &Client) -> Check<String> {
    client.find(Locator::Css("#editor .cm-content")).await.map_err(|e| format!("no #editor .cm-content: {e}"))?.text().await.map_err(|e| e.to_string())
}

/// Sends keys to the element that has the focus, as a user types.
async fn type_keys(client: &Client, keys: &str) -> Check {
    client.active_element().await.map_err(|e| format!("no focused element: {e}"))?.send_keys(keys).await.map_err(|e| format!("cannot type: {e}"))
}

/// Whether the focus is inside the code editor.
async fn editor_has_focus(client: &Client) -> Check<bool> {
    let inside = client.execute("return !!document.activeElement.closest('#editor .cm-editor');", vec![]).await.map_err(|e| e.to_string())?;
    Ok(inside == Value::Bool(true))
}

/// The code editor: highlighting, the findings gutter, opening a finding, real typing and
/// undo, leaving with Escape then Tab, and how it looks in both themes.
async fn check_editor(client: &Client) -> Check {
    let qualifiers = count(client, "#editor .cm-gpu-qualifier").await?;
    ensure!(qualifiers >= 2, "{qualifiers} highlighted GPU qualifiers");

    // The default example's lost update is a data race on line 11.
    click(client, "button#reset").await?;
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    wait_until("a finding marker on line 11", WAIT, || async {
        count(client, "#editor .cm-finding-marker[data-line=\"11\"]").await.and_then(|n| exactly(n, 1, ".cm-finding-marker on line 11"))
    })
    .await?;
    let at =
        client.find(Locator::Css("#findings li .at")).await.map_err(|e| format!("no finding with a place: {e}"))?.text().await.map_err(|e| e.to_string())?;
    let line = at.split(':').next().unwrap_or_default().to_owned();
    click(client, "#findings li button").await?;
    wait_until("opening the finding to select its line", WAIT, || async {
        let selected = attribute(client, "#editor", "data-selection-line").await?;
        ensure!(selected == line, "data-selection-line {selected:?}, finding at {at:?}");
        ensure!(editor_has_focus(client).await?, "the editor does not have the focus");
        Ok(())
    })
    .await?;

    scroll_to(client, "body").await?;
    save_screenshot(client, "e2e-editor-light.png").await?;
    click(client, "#theme").await?;
    wait_until("the dark theme", WAIT, || async {
        let theme = attribute(client, "html", "data-theme").await?;
        ensure!(theme == "dark", "data-theme {theme:?}");
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-editor-dark.png").await?;
    click(client, "#theme").await?;

    // Typing at the start of the text: the app hears it and drops the finished run.
    click(client, "#editor .cm-content").await?;
    let home = format!("{}{}{}", Key::Control, Key::Home, Key::Null);
    type_keys(client, &format!("{home}// edited{}", Key::Enter)).await?;
    wait_until("the typed line to reach the app", WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(text.starts_with("// edited\n// Lost updates"), "the editor holds {:?}", abbreviate(&text));
        let status = attribute(client, "#status", "data-status").await?;
        ensure!(status == "idle", "data-status {status:?} after an edit");
        Ok(())
    })
    .await?;
    // The typed text and the line break are separate undo steps (more if the machine was
    // slow between keys), so undo is pressed until the text is back, a bounded number of times.
    let undo = format!("{}z{}", Key::Control, Key::Null);
    let mut restored = false;
    for _ in 0..10 {
        type_keys(client, &undo).await?;
        tokio::time::sleep(POLL_INTERVAL).await;
        if editor_text(client).await?.starts_with("// Lost updates") {
            restored = true;
            break;
        }
    }
    let text = editor_text(client).await?;
    ensure!(restored, "undo left {:?}", abbreviate(&text));

    // Tab indents, so Escape first lets Tab move the focus on.
    type_keys(client, &format!("{}{}", Key::Escape, Key::Tab)).await?;
    ensure!(!editor_has_focus(client).await?, "Escape then Tab left the focus in the editor");
    Ok(())
}

/// Loads the MP litmus test, explores it exhaustively under the relaxed model in a worker,
/// checks the outcomes, loads the weak one into the run, and finally explores random seeds
/// over several workers.
async fn check_exploration(client: &Client) -> Check {
    select(client, "#examples", "litmus/mp.litmus").await?;
    wait_until("the MP test in the editor, with one lane per thread", WAIT, || async {
        let note = count(client, "#litmus-note").await?;
        let threads = attribute(client, "#lanes", "data-work-items").await?;
        let sizes = count(client, "#global").await?;
        if note == 1 && threads == "2" && sizes == 0 {
            Ok(())
        } else {
            Err(format!("{note} #litmus-note, data-work-items {threads:?}, {sizes} #global"))
        }
    })
    .await?;
    select(client, "#memory-model", "relaxed").await?;
    click(client, "#explore-mode-exhaustive").await?;
    wait_until("the exhaustive mode to show its preemption bound", WAIT, || async {
        count(client, "#explore-preemptions").await.and_then(|n| exactly(n, 1, "#explore-preemptions"))
    })
    .await?;
    click(client, "#explore-start").await?;
    wait_for_phase(client, "done").await?;

    let rows = client.find_all(Locator::Css("#explore-outcomes tbody tr")).await.map_err(|e| e.to_string())?;
    exactly(rows.len(), 4, "#explore-outcomes tbody tr")?;
    let weak = client.find_all(Locator::Css("#explore-outcomes tr[data-exists=\"true\"]")).await.map_err(|e| e.to_string())?;
    exactly(weak.len(), 1, "weak outcome row")?;
    let label = weak[0].text().await.map_err(|e| e.to_string())?;
    ensure!(label.contains(WEAK_MP), "the weak row reads {label:?}");
    ensure!(count(client, "#explore-summary [data-exists-observed=\"true\"]").await? == 1, "the summary does not say the condition was observed");
    ensure!(count(client, "#explore-summary [data-complete=\"true\"]").await? == 1, "the summary does not say the search was complete");
    let bars = attribute(client, "#explore-histogram", "data-bars").await?;
    let highlighted = attribute(client, "#explore-histogram", "data-highlighted").await?;
    ensure!(bars == "4" && highlighted == "1", "the histogram has {bars} bars, {highlighted} highlighted");
    scroll_to(client, "#explore-title").await?;
    save_screenshot(client, "e2e-explore.png").await?;

    click(client, "#explore-outcomes tr[data-exists=\"true\"] button.replay").await?;
    wait_for_status(client, "completed").await?;
    wait_until("the run to show the weak outcome's registers", WAIT, || async {
        let registers = client.find(Locator::Css("#registers")).await.map_err(|e| format!("no #registers: {e}"))?;
        let text = registers.text().await.map_err(|e| e.to_string())?;
        let exists = registers.attr("data-exists").await.map_err(|e| e.to_string())?;
        if text.contains(WEAK_MP) && exists.as_deref() == Some("true") {
            Ok(())
        } else {
            Err(format!("#registers reads {text:?}, data-exists {exists:?}"))
        }
    })
    .await?;
    let lanes = client.find_all(Locator::Css("#lanes .lane .wi")).await.map_err(|e| e.to_string())?;
    let mut labels = Vec::new();
    for lane in &lanes {
        labels.push(lane.text().await.map_err(|e| e.to_string())?);
    }
    ensure!(labels == ["P0 (wg 0)", "P1 (wg 1)"], "the lanes are {labels:?}");
    let scheduler = client.find(Locator::Css("#scheduler")).await.map_err(|e| e.to_string())?.prop("value").await.map_err(|e| e.to_string())?;
    ensure!(scheduler.as_deref() == Some("replay"), "the scheduler reads {scheduler:?}");
    ensure!(count(client, "#explore-outcomes tr.selected[data-exists=\"true\"]").await? == 1, "the loaded outcome is not marked");
    save_screenshot(client, "e2e-explore-replay.png").await?;
    scroll_to(client, "body").await?;
    save_screenshot(client, "e2e-explore-run.png").await?;

    // Random seeds, split over the browser's processors and merged: every seed counts once.
    click(client, "#explore-mode-random").await?;
    let runs = client.find(Locator::Css("#explore-runs")).await.map_err(|e| format!("no #explore-runs: {e}"))?;
    runs.clear().await.map_err(|e| e.to_string())?;
    runs.send_keys("3000").await.map_err(|e| e.to_string())?;
    click(client, "#explore-start").await?;
    wait_for_phase(client, "done").await?;
    let summary = client.find(Locator::Css("#explore-summary")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    ensure!(summary.contains("3,000"), "the summary reads {summary:?}");
    let rows = count(client, "#explore-outcomes tbody tr").await?;
    ensure!((2..=4).contains(&rows), "{rows} outcomes of random MP");

    // More seeds than workers take at once: the workers take job after job, and every seed
    // still counts once; cancelled, the jobs nobody took count as stopped.
    for (seeds, expected) in [("200000", "200,000"), ("10000000", "")] {
        let runs = client.find(Locator::Css("#explore-runs")).await.map_err(|e| e.to_string())?;
        runs.clear().await.map_err(|e| e.to_string())?;
        runs.send_keys(seeds).await.map_err(|e| e.to_string())?;
        click(client, "#explore-start").await?;
        if expected.is_empty() {
            wait_for_phase(client, "running").await?;
            click(client, "#explore-cancel").await?;
            wait_for_phase(client, "cancelled").await?;
        } else {
            wait_for_phase(client, "done").await?;
            let summary = client.find(Locator::Css("#explore-summary")).await.map_err(|e| e.to_string())?;
            let summary = summary.text().await.map_err(|e| e.to_string())?;
            ensure!(summary.contains(expected), "the summary reads {summary:?}");
        }
    }
    Ok(())
}

/// Where Chromium saves downloads: the scenario file the app offers lands here.
fn download_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/e2e-downloads")
}

/// The session every check runs in: downloads saved to [`download_dir`], the console logged so
/// that its errors fail the test.
fn session_config() -> SessionConfig {
    SessionConfig { downloads: Some(download_dir()), console_log: true }
}

/// The value of the input or select matched by `css`.
async fn value(client: &Client, css: &str) -> Check<String> {
    client
        .find(Locator::Css(css))
        .await
        .map_err(|e| format!("no {css}: {e}"))?
        .prop("value")
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("{css} has no value"))
}

/// Replaces the text of the input matched by `css` as a user would: select it all, type.
async fn retype(client: &Client, css: &str, text: &str) -> Check {
    let input = client.find(Locator::Css(css)).await.map_err(|e| format!("no {css}: {e}"))?;
    input.clear().await.map_err(|e| e.to_string())?;
    input.send_keys(text).await.map_err(|e| format!("cannot type into {css}: {e}"))
}

/// Dispatches a drag event of `kind` carrying files made in the page (WebDriver cannot drag
/// files from the desktop), on the lanes.
async fn drag_files(client: &Client, kind: &str, files: &[(&str, &str)]) -> Check {
    client
        .execute(
            "const transfer = new DataTransfer();
             for (const [name, text] of arguments[1]) transfer.items.add(new File([text], name));
             const event = new DragEvent(arguments[0], {bubbles: true, cancelable: true, dataTransfer: transfer});
             document.querySelector('#lanes').dispatchEvent(event);",
            vec![json!(kind), json!(files)],
        )
        .await
        .map(|_| ())
        .map_err(|e| format!("cannot dispatch {kind}: {e}"))
}

/// The launch panel and files: the default example back over edits (with the restore
/// banner), a change through the argument table, a run, the downloaded scenario read back by
/// the engine, the edit restored after a reload, and dropped files.
async fn check_launch_and_files(client: &Client) -> Check {
    select(client, "#examples", "count.cl").await?;
    wait_until("the default kernel's table, and the banner keeping the replayed test", WAIT, || async {
        let rows = count(client, "#args-table tr[data-param]").await?;
        let banner = count(client, "#restore-edits").await?;
        if rows == 2 && banner == 1 {
            Ok(())
        } else {
            Err(format!("{rows} parameter rows, {banner} #restore-edits"))
        }
    })
    .await?;
    scroll_to(client, "body").await?;
    save_screenshot(client, "e2e-restore-banner.png").await?;

    retype(client, "#arg-counters-len", "4").await?;
    retype(client, "#arg-counters-fill", "5").await?;
    let edited = "counters=int[4]:fill=5";
    wait_until("the row's text to follow its fields", WAIT, || async {
        let text = value(client, "#arg-counters-text").await?;
        if text == edited {
            Ok(())
        } else {
            Err(format!("#arg-counters-text reads {text:?}"))
        }
    })
    .await?;
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    save_screenshot(client, "e2e-launch-table.png").await?;

    // The download is a scenario file the CLI's reader accepts, with the edit in it.
    let dir = download_dir();
    let file = dir.join("count.toml");
    let _ = std::fs::remove_file(&file);
    click(client, "#download-scenario").await?;
    let text =
        wait_until("the scenario file to be downloaded", WAIT, || async { std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display())) })
            .await?;
    let scenario = interleave_engine::scenario::from_toml(&text, |path| {
        Err(interleave_engine::diag::Diagnostic::error("invalid-input", format!("the downloaded scenario names a source file, {path}")))
    })
    .map_err(|d| format!("the downloaded scenario does not read back: {}\n{text}", d.message))?;
    let args: Vec<String> = scenario.args.iter().map(|a| a.to_string()).collect();
    ensure!(args == ["ids=int[8]", edited] && scenario.source.contains("__kernel void count"), "the downloaded scenario has arguments {args:?}");
    ensure!(scenario.launch.global == [8] && scenario.launch.local == Some(vec![4]), "the downloaded launch is {:?}", scenario.launch);

    // A reload starts from the stored inputs.
    client.refresh().await.map_err(|e| format!("cannot reload: {e}"))?;
    wait_until("the edit to be back after a reload", FIRST_RENDER_WAIT, || async {
        let text = value(client, "#arg-counters-text").await?;
        let len = value(client, "#arg-counters-len").await?;
        if text == edited && len == "4" {
            Ok(())
        } else {
            Err(format!("#arg-counters-text reads {text:?}, length {len:?}"))
        }
    })
    .await?;
    click(client, "#theme").await?;
    save_screenshot(client, "e2e-launch-reloaded-dark.png").await?;

    // Files dragged over the page: the drop target, then a scenario without its kernel.
    drag_files(client, "dragenter", &[("count.toml", &text)]).await?;
    wait_until("the drop target", WAIT, || async { count(client, "#drop-target").await.and_then(|n| exactly(n, 1, "#drop-target")) }).await?;
    save_screenshot(client, "e2e-drop-target-dark.png").await?;
    let lonely = "source_file = \"count.cl\"\n";
    drag_files(client, "drop", &[("alone.toml", lonely)]).await?;
    wait_until("the dropped file's problem", WAIT, || async {
        let problems = client.find(Locator::Css("#diagnostics")).await.map_err(|e| format!("no #diagnostics: {e}"))?.text().await.map_err(|e| e.to_string())?;
        if problems.contains("count.cl") && count(client, "#drop-target").await? == 0 {
            Ok(())
        } else {
            Err(format!("#diagnostics reads {:?}", abbreviate(&problems)))
        }
    })
    .await?;
    scroll_to(client, "#diagnostics-title").await?;
    save_screenshot(client, "e2e-drop-problem-dark.png").await?;
    click(client, "#theme").await?;
    Ok(())
}

/// Waits until `#explore-status[data-phase]` reads `expected`, failing at once if the
/// exploration failed.
async fn wait_for_phase(client: &Client, expected: &str) -> Check {
    wait_until(&format!("`#explore-status[data-phase]` to be {expected:?}"), EXPLORE_WAIT, || async {
        let phase = attribute(client, "#explore-status", "data-phase").await?;
        if phase == expected {
            return Ok(Ok(()));
        }
        if phase == "failed" {
            let text = client.find(Locator::Css("#explore-status")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
            return Ok(Err(format!("the exploration failed: {text}")));
        }
        Err(format!("data-phase is {phase:?}"))
    })
    .await?
}

/// Chooses the option with `value` in the `<select>` matched by `css`.
async fn select(client: &Client, css: &str, value: &str) -> Check {
    client
        .find(Locator::Css(css))
        .await
        .map_err(|e| format!("no {css}: {e}"))?
        .select_by_value(value)
        .await
        .map_err(|e| format!("cannot choose {value:?} in {css}: {e}"))
}

/// Scrolls the element matched by `css` to the top of the viewport, for a screenshot.
async fn scroll_to(client: &Client, css: &str) -> Check {
    client
        .execute("document.querySelector(arguments[0]).scrollIntoView({block: 'start'});", vec![json!(css)])
        .await
        .map(|_| ())
        .map_err(|e| format!("cannot scroll to {css}: {e}"))
}

/// Ready when `#lanes .lane` holds exactly one lane per work-item, numbered 0..N by
/// `data-work-item`, and every lane has at least one event (`data-marks`).
async fn lanes_after_run(client: &Client) -> Check {
    let lanes = client.find_all(Locator::Css("#lanes .lane")).await.map_err(|e| e.to_string())?;
    exactly(lanes.len(), DEFAULT_WORK_ITEMS, "#lanes .lane")?;
    let mut numbers = Vec::new();
    for lane in &lanes {
        let number = lane.attr("data-work-item").await.map_err(|e| e.to_string())?.ok_or("a .lane has no data-work-item attribute")?;
        let marks = lane.attr("data-marks").await.map_err(|e| e.to_string())?.ok_or("a .lane has no data-marks attribute")?;
        ensure!(marks.parse::<usize>().is_ok_and(|m| m > 0), "lane {number} has data-marks {marks:?}");
        numbers.push(number.parse::<usize>().map_err(|_| format!("data-work-item {number:?}"))?);
    }
    numbers.sort_unstable();
    ensure!(numbers == (0..DEFAULT_WORK_ITEMS).collect::<Vec<_>>(), "lanes are numbered {numbers:?}, expected 0..{DEFAULT_WORK_ITEMS}");
    Ok(())
}

/// The sum of the lanes' `data-marks`: every event on the timeline.
async fn total_marks(client: &Client) -> Check<usize> {
    let lanes = client.find_all(Locator::Css("#lanes .lane")).await.map_err(|e| e.to_string())?;
    let mut total = 0;
    for lane in &lanes {
        let marks = lane.attr("data-marks").await.map_err(|e| e.to_string())?.ok_or("a .lane has no data-marks attribute")?;
        total += marks.parse::<usize>().map_err(|_| format!("data-marks {marks:?}"))?;
    }
    Ok(total)
}

/// The timeline canvas's box in the viewport: left, top, width, height.
async fn canvas_box(client: &Client) -> Check<(f64, f64, f64, f64)> {
    let value = client
        .execute(
            "const r = document.getElementById('timeline-canvas').getBoundingClientRect();\
             return [r.left, r.top, r.width, r.height];",
            vec![],
        )
        .await
        .map_err(|e| format!("cannot measure the canvas: {e}"))?;
    let numbers: Vec<f64> = value.as_array().ok_or("the canvas's box is not a list")?.iter().filter_map(Value::as_f64).collect();
    match numbers[..] {
        [left, top, width, height] => Ok((left, top, width, height)),
        _ => Err(format!("the canvas's box is {value}")),
    }
}

/// A number the canvas records about its last paint.
async fn canvas_number(client: &Client, name: &str) -> Check<f64> {
    let value = attribute(client, "#timeline-canvas", name).await?;
    value.parse().map_err(|_| format!("#timeline-canvas[{name}] is {value:?}"))
}

/// What the mouse does at a point.
#[derive(Clone, Copy, PartialEq)]
enum Mouse {
    Hover,
    Click,
}

/// Moves the mouse to viewport point (`x`, `y`) and, for a click, presses and releases it.
async fn mouse(client: &Client, x: f64, y: f64, what: Mouse) -> Check {
    let mut actions = MouseActions::new("mouse".to_string()).then(PointerAction::MoveTo { duration: None, x: x.round(), y: y.round() });
    if what == Mouse::Click {
        actions = actions.then(PointerAction::Down { button: MOUSE_BUTTON_LEFT }).then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    }
    client.perform_actions(actions).await.map_err(|e| format!("cannot move the mouse to ({x}, {y}): {e}"))
}

/// The timeline of the completed default run: zoom with the wheel, screenshots in both
/// themes, then a click on an event seeks to its step.
async fn check_timeline(client: &Client) -> Check {
    let (left, top, width, _) = canvas_box(client).await?;
    let (start, end) = (canvas_number(client, "data-view-start").await?, canvas_number(client, "data-view-end").await?);
    ensure!(start == 0.0, "the finished run is not fitted: starts at step {start}");
    ensure!(end >= canvas_number(client, "data-cursor-step").await?, "the fitted view ends at step {end}, before the cursor");
    // The barrier of count.cl is in the first half of the run: zoom in about it.
    let wheel = WheelActions::new("wheel".to_string()).then(WheelAction::Scroll {
        duration: None,
        x: (left + width * 0.3) as i64,
        y: (top + 60.0) as i64,
        delta_x: 0,
        delta_y: -250,
    });
    client.perform_actions(wheel).await.map_err(|e| format!("cannot turn the wheel: {e}"))?;
    wait_until("the wheel to zoom in (`data-view-start` and `data-view-end` closer)", WAIT, || async {
        let zoomed = (canvas_number(client, "data-view-start").await?, canvas_number(client, "data-view-end").await?);
        if zoomed.0 > start && zoomed.1 - zoomed.0 < end - start {
            Ok(())
        } else {
            Err(format!("the view is {zoomed:?}, was ({start}, {end})"))
        }
    })
    .await?;
    scroll_to(client, ".timeline").await?;
    save_screenshot(client, "e2e-timeline-light.png").await?;
    click(client, "button#theme").await?;
    wait_until("the dark theme", WAIT, || async {
        let theme = attribute(client, "html", "data-theme").await?;
        if theme == "dark" {
            Ok(())
        } else {
            Err(format!("data-theme is {theme:?}"))
        }
    })
    .await?;
    // The canvas repaints on the next animation frame.
    tokio::time::sleep(Duration::from_millis(300)).await;
    save_screenshot(client, "e2e-timeline-dark.png").await?;
    click(client, "button#theme").await?;

    // Find a mark of the first lane (the row under the group header) by hovering it.
    let (left, top, _, _) = canvas_box(client).await?;
    let (first, last) = (canvas_number(client, "data-view-start").await? as u64, canvas_number(client, "data-view-end").await? as u64);
    let start = canvas_number(client, "data-start").await?;
    let scale = canvas_number(client, "data-px-per-step").await?;
    let y = top + AXIS_HEIGHT + ROW_HEIGHT * 1.5;
    let mut found = None;
    for step in first..=last {
        let x = left + (step as f64 + 0.5 - start) * scale;
        mouse(client, x, y, Mouse::Hover).await?;
        let hidden = client.find(Locator::Css(".timeline-tooltip")).await.map_err(|e| e.to_string())?.attr("hidden").await.map_err(|e| e.to_string())?;
        if hidden.is_none() {
            let step = attribute(client, ".timeline-tooltip", "data-step").await?;
            found = Some((x, step));
            break;
        }
    }
    let (x, step) = found.ok_or("no mark of the first lane shows a tooltip when hovered")?;
    save_screenshot(client, "e2e-timeline-tooltip.png").await?;
    mouse(client, x, y, Mouse::Click).await?;
    wait_until(&format!("a click on the event of step {step} to seek there"), WAIT, || async {
        let cursor = attribute(client, "#timeline-canvas", "data-cursor-step").await?;
        let status = client.find(Locator::Css("#status")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
        if cursor == step && status.contains(&format!(" {step} step")) {
            Ok(())
        } else {
            Err(format!("cursor at {cursor}, status {status:?}"))
        }
    })
    .await?;
    ensure!(count(client, ".lane.selected[data-work-item=\"0\"]").await? == 1, "the click did not select the first lane");
    save_screenshot(client, "e2e-timeline-seek.png").await?;
    Ok(())
}

/// Waits until `#status[data-status]` reads `expected`.
async fn wait_for_status(client: &Client, expected: &str) -> Check {
    wait_until(&format!("`#status[data-status]` to be {expected:?}"), WAIT, || async {
        let status = attribute(client, "#status", "data-status").await?;
        if status == expected {
            Ok(())
        } else {
            Err(format!("data-status is {status:?}"))
        }
    })
    .await
}

/// Polls `probe` until it succeeds or `timeout` passes. The probe's error says what it saw, and
/// the last one is reported on timeout, so a failure reads as "waited for X; saw Y".
async fn wait_until<T, F, Fut>(what: &str, timeout: Duration, mut probe: F) -> Check<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Check<T>>,
{
    let deadline = Instant::now() + timeout;
    loop {
        match probe().await {
            Ok(value) => return Ok(value),
            Err(seen) if Instant::now() >= deadline => {
                return Err(format!("timed out after {timeout:?} waiting for {what}; last seen: {seen}"));
            }
            Err(_) => tokio::time::sleep(POLL_INTERVAL).await,
        }
    }
}

fn exactly(found: usize, expected: usize, what: &str) -> Check {
    ensure!(found == expected, "{found} {what} element(s), expected {expected}");
    Ok(())
}

async fn count(client: &Client, css: &str) -> Check<usize> {
    client.find_all(Locator::Css(css)).await.map(|found| found.len()).map_err(|e| format!("cannot query {css}: {e}"))
}

async fn attribute(client: &Client, css: &str, name: &str) -> Check<String> {
    let element = client.find(Locator::Css(css)).await.map_err(|e| format!("no {css}: {e}"))?;
    element.attr(name).await.map_err(|e| e.to_string())?.ok_or_else(|| format!("{css} has no {name} attribute"))
}

async fn click(client: &Client, css: &str) -> Check {
    let element = client.find(Locator::Css(css)).await.map_err(|e| format!("no {css} to click: {e}"))?;
    element.click().await.map_err(|e| format!("cannot click {css}: {e}"))
}

fn abbreviate(text: &str) -> String {
    text.chars().take(80).collect()
}

/// Takes a PNG of the element matched by `css`, saves it as `<workspace>/target/screenshots/<name>`
/// and returns its bytes, so that two pictures of the same state can be compared.
async fn element_picture(client: &Client, css: &str, name: &str) -> Check<Vec<u8>> {
    let element = client.find(Locator::Css(css)).await.map_err(|e| format!("{css}: {e}"))?;
    let png = element.screenshot().await.map_err(|e| format!("screenshot of {css}: {e}"))?;
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/screenshots");
    std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, &png).map_err(|e| format!("write {}: {e}", path.display()))?;
    Ok(png)
}

/// Saves a PNG of the viewport to `<workspace>/target/screenshots/<name>`.
async fn save_screenshot(client: &Client, name: &str) -> Check {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/screenshots");
    let png = client.screenshot().await.map_err(|e| format!("screenshot {name}: {e}"))?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    let path = dir.join(name);
    std::fs::write(&path, png).map_err(|e| format!("write {}: {e}", path.display()))
}

/// Chromium's console messages at level SEVERE, or `None` if chromedriver cannot return them.
///
/// Reading the console catches what the DOM checks cannot: a Content-Security-Policy violation,
/// a failed fetch, or a panic that the app survived. The request for `/favicon.ico`, which
/// Chromium makes on its own, is not the app's concern and is left out.
async fn console_errors(client: &Client) -> Check<Option<Vec<String>>> {
    let Ok(entries) = client.issue_cmd(BrowserLog).await else {
        return Ok(None);
    };
    let entries = entries.as_array().ok_or("the browser log is not a list")?;
    Ok(Some(
        entries
            .iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .filter_map(|entry| entry["message"].as_str())
            .filter(|message| !message.contains("favicon.ico"))
            .map(str::to_owned)
            .collect(),
    ))
}

/// chromedriver's log endpoint (`POST /session/{id}/se/log`), which fantoccini has no method
/// for; it returns the entries collected since the last call.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base_url: &url::Url, session_id: Option<&str>) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/se/log", session_id.unwrap_or_default()))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}

/// The scenario the responsiveness check opens: 4 work-groups of 64 work-items, about a
/// million steps and two million events (each read of the read-only input but a work-item's
/// first rides in its step before it).
const HISTOGRAM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/e2e/histogram.toml");
/// Its steps to the end (the run is deterministic: the scenario fixes the seed).
const HISTOGRAM_STEPS: u64 = 1_049_532;
/// How long the histogram's run may take on a slow, busy machine.
const LONG_RUN_WAIT: Duration = Duration::from_secs(240);

/// The workbench around the run: every control has an accessible name; the keyboard alone
/// steps, goes back and seeks; a finding opened moves the editor, the timeline and the
/// inspector to it; the theme switches; and a kernel of 4 work-groups of 64 work-items runs to
/// its end while the page keeps answering.
async fn check_workbench(client: &Client) -> Check {
    check_accessible_names(client).await?;
    check_keyboard(client).await?;
    check_open_finding(client).await?;
    check_themes(client).await?;
    check_responsive_run(client).await
}

/// Every element a user can operate has a name a screen reader can say.
async fn check_accessible_names(client: &Client) -> Check {
    let unnamed = client
        .execute(
            r#"
            const named = (el) => {
                const text = (s) => (s || '').trim();
                if (text(el.getAttribute('aria-label'))) return true;
                const by = el.getAttribute('aria-labelledby');
                if (by && by.split(/\s+/).some((id) => text(document.getElementById(id)?.textContent))) return true;
                if (el.labels && Array.from(el.labels).some((l) => text(l.textContent))) return true;
                if (text(el.getAttribute('title'))) return true;
                if (['BUTTON', 'SUMMARY', 'A', 'OPTION'].includes(el.tagName) && text(el.textContent)) return true;
                return false;
            };
            const selector = 'button, input, select, textarea, summary, a[href], canvas, [role], [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';
            return Array.from(document.querySelectorAll(selector))
                .filter((el) => el.getClientRects().length > 0 || el.type === 'file')
                .filter((el) => el.type === 'file' || !el.closest('[aria-hidden="true"]'))
                .filter((el) => !['presentation', 'none', 'status', 'toolbar', 'group', 'tablist', 'tabpanel', 'dialog', 'log', 'list', 'listitem'].includes(el.getAttribute('role')) || el.getAttribute('tabindex') !== null)
                .filter((el) => !named(el))
                .map((el) => el.outerHTML.slice(0, 160));
            "#,
            vec![],
        )
        .await
        .map_err(|e| format!("cannot scan for unnamed controls: {e}"))?;
    let unnamed: Vec<String> = serde_json::from_value(unnamed).map_err(|e| e.to_string())?;
    ensure!(unnamed.is_empty(), "controls without an accessible name:\n{}", unnamed.join("\n"));
    Ok(())
}

/// Presses `key` with nothing focused, as a keyboard user on the page does.
async fn press_key(client: &Client, key: char) -> Check {
    client.execute("document.activeElement && document.activeElement.blur();", vec![]).await.map_err(|e| e.to_string())?;
    let keys = KeyActions::new("keyboard".to_string()).then(KeyAction::Down { value: key }).then(KeyAction::Up { value: key });
    client.perform_actions(keys).await.map_err(|e| format!("cannot press {key:?}: {e}"))
}

/// The step the status line says the session is at.
async fn status_steps(client: &Client) -> Check<u64> {
    attribute(client, "#status", "data-steps").await?.parse().map_err(|e| format!("#status data-steps: {e}"))
}

async fn wait_for_steps(client: &Client, expected: u64) -> Check {
    wait_until(&format!("the session to be at step {expected}"), WAIT, || async {
        let at = status_steps(client).await?;
        if at == expected {
            Ok(())
        } else {
            Err(format!("it is at step {at}"))
        }
    })
    .await
}

/// Reset, step, step back and seek with the keyboard alone.
async fn check_keyboard(client: &Client) -> Check {
    press_key(client, '0').await?;
    wait_for_steps(client, 0).await?;
    for _ in 0..3 {
        press_key(client, 's').await?;
    }
    wait_for_steps(client, 3).await?;
    press_key(client, 'b').await?;
    wait_for_steps(client, 2).await?;
    press_key(client, Key::Home.into()).await?;
    wait_for_steps(client, 0).await?;
    press_key(client, Key::End.into()).await?;
    wait_for_steps(client, 3).await?;
    // The help overlay opens with `?` and closes with Escape.
    press_key(client, '?').await?;
    wait_until("the shortcuts overlay", WAIT, || async { count(client, "#help").await.and_then(|n| exactly(n, 1, "#help")) }).await?;
    save_screenshot(client, "e2e-help.png").await?;
    let keys = KeyActions::new("keyboard".to_string()).then(KeyAction::Down { value: Key::Escape.into() }).then(KeyAction::Up { value: Key::Escape.into() });
    client.perform_actions(keys).await.map_err(|e| e.to_string())?;
    wait_until("the overlay to close", WAIT, || async { count(client, "#help").await.and_then(|n| exactly(n, 0, "#help")) }).await
}

/// Runs the default example to its end and opens its first finding: the editor selects the
/// finding's line, the timeline shows its step and the inspector its work-item.
async fn check_open_finding(client: &Client) -> Check {
    click(client, "#reset").await?;
    wait_for_steps(client, 0).await?;
    click(client, "#run").await?;
    wait_for_status(client, "completed").await?;
    // Zoom in somewhere else first, so that the jump is visible.
    click(client, "#timeline-canvas").await.ok();
    let finding = client.find(Locator::Css("#findings .finding")).await.map_err(|e| format!("no finding after the run: {e}"))?;
    let at = finding.find(Locator::Css(".at")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    let line: u64 = at.split(':').next().and_then(|l| l.parse().ok()).ok_or_else(|| format!("the finding's place reads {at:?}"))?;
    let step: f64 = finding
        .find(Locator::Css(".when"))
        .await
        .map_err(|e| e.to_string())?
        .text()
        .await
        .map_err(|e| e.to_string())?
        .trim_start_matches("step ")
        .parse()
        .map_err(|e| format!("the finding's step: {e}"))?;
    let who = finding.find(Locator::Css(".who")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    click(client, "#findings .finding .finding-open").await?;
    wait_until("the finding to open everywhere", WAIT, || async {
        let current = count(client, "#findings .finding.current").await?;
        let selection = attribute(client, "#editor", "data-selection-line").await?;
        let start = canvas_number(client, "data-view-start").await?;
        let end = canvas_number(client, "data-view-end").await?;
        let work_item = attribute(client, "#inspector-work-item", "data-work-item").await?;
        let selected = count(client, &format!(".lane.selected[data-work-item=\"{work_item}\"]")).await?;
        let ok = current == 1 && selection == line.to_string() && start <= step && step <= end && format!("wi {work_item}") == who && selected == 1;
        if ok {
            Ok(())
        } else {
            Err(format!(
                "current {current}, editor line {selection} (want {line}), view {start}..{end} \
                 (want step {step}), inspector {work_item} (want {who}), selected lanes {selected}"
            ))
        }
    })
    .await?;
    scroll_to(client, "body").await?;
    save_screenshot(client, "e2e-finding-opened.png").await
}

/// Switches to the other theme and back, with a screenshot of each.
async fn check_themes(client: &Client) -> Check {
    let first = attribute(client, "html", "data-theme").await?;
    click(client, "#theme").await?;
    let second = wait_until("the theme to switch", WAIT, || async {
        let now = attribute(client, "html", "data-theme").await?;
        if now != first {
            Ok(now)
        } else {
            Err(format!("still {now}"))
        }
    })
    .await?;
    save_screenshot(client, &format!("e2e-theme-{second}.png")).await?;
    click(client, "#theme").await?;
    wait_until("the theme to switch back", WAIT, || async {
        let now = attribute(client, "html", "data-theme").await?;
        if now == first {
            Ok(())
        } else {
            Err(format!("still {now}"))
        }
    })
    .await?;
    save_screenshot(client, &format!("e2e-theme-{first}.png")).await
}

/// Opens the histogram scenario (4 work-groups of 64) and runs it; while it runs, the page
/// answers clicks on the inspector's tabs quickly and the step count keeps growing; the run
/// ends where the scenario's deterministic trace ends.
async fn check_responsive_run(client: &Client) -> Check {
    let input = client.find(Locator::Css("#open-file-input")).await.map_err(|e| format!("no file input: {e}"))?;
    input.send_keys(HISTOGRAM).await.map_err(|e| format!("cannot choose {HISTOGRAM}: {e}"))?;
    wait_until("the histogram's 256 work-items", WAIT, || async {
        let items = attribute(client, "#lanes", "data-work-items").await?;
        if items == "256" {
            Ok(())
        } else {
            Err(format!("data-work-items is {items}"))
        }
    })
    .await?;
    click(client, "#run").await?;
    let mut answered = 0;
    let mut last_steps = 0;
    let mut growing = 0;
    for round in 0..6 {
        if attribute(client, "#status", "data-status").await? != "running" {
            break;
        }
        let tab = if round % 2 == 0 { "memory" } else { "work-item" };
        // Responsiveness is structural here, not timed (a busy machine may be slow at any
        // moment): the click must be answered while the run is still going, and the run must
        // keep advancing between clicks. How long the main thread is busy is a benchmark.
        click(client, &format!("#inspector-tab-{tab}")).await?;
        wait_until("the inspector to answer during the run", WAIT, || async {
            let shown = attribute(client, "#inspector-panel", "data-tab").await?;
            if shown == tab {
                Ok(())
            } else {
                Err(format!("it shows {shown}"))
            }
        })
        .await?;
        let running = attribute(client, "#status", "data-status").await? == "running";
        if running {
            answered += 1;
        }
        let steps = status_steps(client).await?;
        if steps > last_steps {
            growing += 1;
        }
        last_steps = steps;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    ensure!(answered >= 2 && growing >= 2, "the page answered {answered} click(s) during the run, and the step count grew {growing} time(s)");
    save_screenshot(client, "e2e-histogram-running.png").await?;
    wait_until("the histogram to run to its end", LONG_RUN_WAIT, || async {
        let status = attribute(client, "#status", "data-status").await?;
        if status == "completed" {
            Ok(())
        } else {
            Err(format!("status {status} at step {}", status_steps(client).await?))
        }
    })
    .await?;
    let steps = status_steps(client).await?;
    ensure!(steps == HISTOGRAM_STEPS, "the run ended at step {steps}, not {HISTOGRAM_STEPS}");
    click(client, "#inspector-tab-memory").await?;
    save_screenshot(client, "e2e-histogram-done.png").await
}

/// The step the shared state is at.
const SHARE_STEP: u64 = 5;
/// Markup that must only ever be shown as text.
const HOSTILE_MARKUP: &str = "<img src=x onerror=alert(1)>";

/// What identifies a trace on the page: the status line and every lane's marks and status.
async fn trace_of(client: &Client) -> Check<String> {
    let value = client
        .execute(
            "return document.getElementById('status').textContent + ' | ' + \
             Array.from(document.querySelectorAll('#lanes .lane')).map(l => \
             l.dataset.workItem + ':' + l.dataset.marks + ':' + l.dataset.status).join(',');",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(value.as_str().unwrap_or_default().to_string())
}

/// Waits until the app shows the shared state: its step, the selected lane and `trace`.
async fn wait_for_shared_state(client: &Client, what: &str, trace: &str) -> Check {
    wait_until(what, WAIT, || async {
        let steps = attribute(client, "#status", "data-steps").await?;
        let selected = count(client, ".lane.selected[data-work-item=\"2\"]").await?;
        let now = trace_of(client).await?;
        if steps == SHARE_STEP.to_string() && selected == 1 && now == trace {
            Ok(())
        } else {
            Err(format!("data-steps {steps:?}, {selected} selected lane 2, trace {now:?}"))
        }
    })
    .await
}

/// Share links: the Share button's link, opened in the same window (by a fragment change and
/// by a reload), restores the step, the selection and the trace; a broken link is explained
/// in the Problems list; markup in a linked scenario stays text.
async fn check_share(client: &Client, url: &str) -> Check {
    // A fresh load of the default example.
    select(client, "#examples", "litmus/mp.litmus").await?;
    select(client, "#examples", "count.cl").await?;
    wait_until("the default example in the editor", WAIT, || async {
        let text = editor_text(client).await?;
        let items = attribute(client, "#lanes", "data-work-items").await?;
        ensure!(text.contains("__kernel") && items == DEFAULT_WORK_ITEMS.to_string(), "work-items {items:?}, editor {:?}", abbreviate(&text));
        Ok(())
    })
    .await?;
    for step in 1..=SHARE_STEP {
        click(client, "button#step").await?;
        wait_until(&format!("step {step}"), WAIT, || async {
            let steps = attribute(client, "#status", "data-steps").await?;
            ensure!(steps == step.to_string(), "data-steps {steps:?}");
            Ok(())
        })
        .await?;
    }
    click(client, ".lane[data-work-item=\"2\"] button.wi").await?;
    wait_until("lane 2 to be selected", WAIT, || async { exactly(count(client, ".lane.selected[data-work-item=\"2\"]").await?, 1, "selected lane 2") }).await?;
    let trace = trace_of(client).await?;
    click(client, "button#share").await?;
    let shared = wait_until("`#share-url` to hold the link", WAIT, || async {
        let value = client.execute("const f = document.getElementById('share-url'); return f ? f.value : '';", vec![]).await.map_err(|e| e.to_string())?;
        let value = value.as_str().unwrap_or_default().to_string();
        ensure!(value.contains("#v1."), "#share-url holds {value:?}");
        Ok(value)
    })
    .await?;
    let address = client.current_url().await.map_err(|e| e.to_string())?;
    ensure!(address.as_str() == shared, "the address bar holds {address}, not the shared link {shared}");
    let note = client.find(Locator::Css(".share-note")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    ensure!(note == "Link copied" || note == "Copy this link", "the share note reads {note:?}");
    save_screenshot(client, "e2e-share-before.png").await?;
    let lanes_before = element_picture(client, "#timeline-canvas", "e2e-share-timeline-before.png").await?;

    // Elsewhere, then the link: the fragment changes and the app follows it.
    let base = url.split('#').next().unwrap_or_default().to_string();
    client.goto(&base).await.map_err(|e| format!("cannot open {base}: {e}"))?;
    wait_until("the app to render again", FIRST_RENDER_WAIT, || async { exactly(count(client, "button#run").await?, 1, "button#run") }).await?;
    client.goto(&shared).await.map_err(|e| format!("cannot open the shared link: {e}"))?;
    wait_for_shared_state(client, "the shared link to restore step, selection and trace", &trace).await?;
    // A reload opens it from the start.
    client.refresh().await.map_err(|e| format!("cannot reload: {e}"))?;
    wait_for_shared_state(client, "the reloaded link to restore step, selection and trace", &trace).await?;
    save_screenshot(client, "e2e-share-opened.png").await?;
    // The same state draws the same timeline, pixel for pixel: the canvas as the sharer saw
    // it and as the link's reader sees it. (The lane labels are DOM, compared by the trace
    // above; their buttons change with the pointer and a CSS transition, so a picture of them
    // depends on where the pointer was and when it was taken.)
    let lanes_after = element_picture(client, "#timeline-canvas", "e2e-share-timeline-opened.png").await?;
    ensure!(
        lanes_before == lanes_after,
        "the opened link's timeline differs from the shared one (see e2e-share-timeline-before.png and e2e-share-timeline-opened.png)"
    );

    // A broken link: its diagnostic, as text, and the app still works.
    let garbage = "v1.<b>not</b>&a-link";
    client.goto(&format!("{base}#{garbage}")).await.map_err(|e| e.to_string())?;
    wait_until("the broken link's problem in #diagnostics", WAIT, || async {
        let text = client.find(Locator::Css("#diagnostics")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
        ensure!(text.contains("invalid-link") && text.contains("this link"), "#diagnostics reads {:?}", abbreviate(&text));
        exactly(count(client, "#diagnostics b").await?, 0, "#diagnostics b")
    })
    .await?;

    // Markup in a linked scenario's source and title is text.
    let mut scenario = interleave_engine::scenario::Scenario::new(
        format!("// {HOSTILE_MARKUP}\n{}", include_str!("../../static/examples/count.cl")),
        "count.cl",
        interleave_engine::scenario::Dialect::OpenCl,
    );
    scenario.title = HOSTILE_MARKUP.to_string();
    scenario.launch.global = vec![8];
    scenario.launch.local = Some(vec![4]);
    scenario.args = ["ids=int[8]", "counters=int[2]:fill=0"]
        .iter()
        .map(|text| interleave_engine::scenario::ArgBinding::parse(text))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{e:?}"))?;
    let hostile = interleave_engine::link::url(&base, &interleave_engine::link::Link { scenario, view: Default::default() });
    client.goto(&hostile).await.map_err(|e| e.to_string())?;
    wait_until("the linked markup to show as text in the editor", WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(text.contains(HOSTILE_MARKUP), "the editor holds {:?}", abbreviate(&text));
        exactly(count(client, "img[src=\"x\"]").await?, 0, "img[src=x]")
    })
    .await?;
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    exactly(count(client, "img[src=\"x\"]").await?, 0, "img[src=x]")?;
    let alert = client.get_alert_text().await;
    ensure!(alert.is_err(), "an alert is open: {alert:?}");
    Ok(())
}

/// The lesson the tutorial checks use: its check runs 100 seeds, so it is quick.
const LESSON: &str = "two-level-reduction";

/// The tutorial and the embeddable mode, on a page of their own: `?lesson=ID` opens the
/// lesson pane (`.lesson-pane[data-lesson]`) with the starting code in the editor; Check
/// (`#lesson-check`) fails on it, naming the seed and line (`.check-result.failed`); the fix,
/// loaded as a share link over the lesson, passes (`.check-result.passed`), and the progress
/// (`li.passed[data-lesson]` in the `?tutorial` list) survives a reload; moving to a lesson
/// from the list is a history entry that Back undoes. `?embed=1` shows only the editor, the
/// controls and the lanes (no `.masthead`, inspector, launch panel or results), steps, and
/// links to the full app with the same scenario (`#open-full`); it also opens a share link.
#[tokio::test]
async fn the_tutorial_and_embedding_work_in_chromium() {
    let _turn = ONE_BROWSER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let Some(dist) = std::env::var_os("INTERLEAVE_DIST").map(PathBuf::from) else {
        panic!("INTERLEAVE_DIST is not set. This test needs the app built by Trunk; run `cargo xtask test`");
    };
    let server = serve_dir(&dist, "127.0.0.1:0").expect("serve the built app");
    let driver = ChromeDriver::start().expect("start chromedriver");
    let client = driver.session(&session_config()).await.expect("open a Chromium session");
    let base = server.url().split('#').next().unwrap_or_default().to_string();

    let mut outcome = check_tutorial(&client, &base).await;
    if outcome.is_ok() {
        outcome = check_embed(&client, &base).await;
    }
    if outcome.is_err() {
        save_screenshot(&client, "e2e-tutorial-failure.png").await.ok();
    }
    let console = console_errors(&client).await;
    client.close().await.ok();
    drop(driver);
    server.stop();
    if let Err(message) = outcome {
        panic!("{message}");
    }
    if let Ok(Some(errors)) = console {
        assert!(errors.is_empty(), "the browser console has errors:\n{}", errors.join("\n"));
    }
}

fn lesson_file(id: &str) -> interleave_engine::lesson::Lesson {
    let path = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../static/tutorial")).join(format!("{id}.toml"));
    let text = std::fs::read_to_string(&path).expect("the lesson file");
    interleave_engine::lesson::parse(&text).expect("a valid lesson")
}

/// How many lessons the tutorial has: its files, every one of which the app offers.
fn lesson_count() -> usize {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../static/tutorial"));
    std::fs::read_dir(dir).expect("the tutorial folder").filter_map(|e| e.ok()).filter(|e| e.path().extension().is_some_and(|x| x == "toml")).count()
}

/// The text of the element matched by `css`, which must be on the page.
async fn element_text(client: &Client, css: &str) -> Check<String> {
    client.find(Locator::Css(css)).await.map_err(|e| format!("no {css}: {e}"))?.text().await.map_err(|e| e.to_string())
}

/// Presses Check and waits for its verdict, `passed` or `failed`; returns its text.
async fn run_lesson_check(client: &Client, verdict: &str) -> Check<String> {
    click(client, "#lesson-check").await?;
    wait_until(&format!("the check to say {verdict}"), EXPLORE_WAIT, || async {
        exactly(count(client, &format!(".check-result.{verdict}")).await?, 1, &format!(".check-result.{verdict}"))?;
        element_text(client, ".check-result").await
    })
    .await
}

async fn check_tutorial(client: &Client, base: &str) -> Check {
    let lesson = lesson_file(LESSON);
    let start = format!("{base}?lesson={LESSON}");
    client.goto(&start).await.map_err(|e| format!("cannot open {start}: {e}"))?;
    wait_until("the lesson with its starting code", FIRST_RENDER_WAIT, || async {
        exactly(count(client, &format!(".lesson-pane[data-lesson=\"{LESSON}\"]")).await?, 1, "lesson pane")?;
        let text = editor_text(client).await?;
        ensure!(text.contains("tile[l] = in[get_global_id(0)];") && !text.contains("every element is in"), "the editor holds {:?}", abbreviate(&text));
        let items = attribute(client, "#lanes", "data-work-items").await?;
        ensure!(items == "64", "data-work-items {items:?}");
        Ok(())
    })
    .await?;
    let title = element_text(client, "#lesson-title").await?;
    ensure!(title.contains(&lesson.title), "the lesson's title reads {title:?}");

    // The starting code fails, and the verdict says where.
    let failed = run_lesson_check(client, "failed").await?;
    ensure!(failed.contains("Not yet") && failed.contains("still reports a data-race at line 9"), "the failed check reads {failed:?}");
    click(client, "#lesson-hint").await?;
    wait_until("one hint", WAIT, || async { exactly(count(client, ".lesson-hints li").await?, 1, "hint") }).await?;
    save_screenshot(client, "e2e-lesson-failed.png").await?;

    // The fix, loaded over the lesson as a share link, passes.
    let solved =
        interleave_engine::link::url(&start, &interleave_engine::link::Link { scenario: interleave_engine::lesson::solved(&lesson), view: Default::default() });
    client.goto(&solved).await.map_err(|e| format!("cannot open the solution: {e}"))?;
    wait_until("the solution in the editor", WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(text.contains("every element is in"), "the editor holds {:?}", abbreviate(&text));
        Ok(())
    })
    .await?;
    let passed = run_lesson_check(client, "passed").await?;
    ensure!(passed.contains("Passed") && passed.contains("no data-race in 100 runs"), "the passed check reads {passed:?}");
    save_screenshot(client, "e2e-lesson-passed.png").await?;

    // Progress survives a reload, and shows in the list.
    client.refresh().await.map_err(|e| format!("cannot reload: {e}"))?;
    wait_until("the lesson after the reload", FIRST_RENDER_WAIT, || async { exactly(count(client, ".lesson-pane h2 .passed-mark").await?, 1, "passed mark") })
        .await?;
    click(client, ".lesson-all").await?;
    let lessons = lesson_count();
    wait_until("the list of lessons with this one passed", WAIT, || async {
        exactly(count(client, ".lesson-list li").await?, lessons, "lessons")?;
        exactly(count(client, &format!(".lesson-list li.passed[data-lesson=\"{LESSON}\"]")).await?, 1, "passed lesson")?;
        let progress = element_text(client, ".lesson-progress").await?;
        ensure!(progress == format!("1 of {lessons} lessons passed"), "the progress reads {progress:?}");
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-tutorial-list.png").await?;

    // A lesson from the list is a new history entry: Back returns to the list.
    click(client, ".lesson-list li[data-lesson=\"spin-lock\"] a").await?;
    wait_until("the spin-lock lesson and its code", WAIT, || async {
        exactly(count(client, ".lesson-pane[data-lesson=\"spin-lock\"]").await?, 1, "spin-lock pane")?;
        let address = client.current_url().await.map_err(|e| e.to_string())?;
        ensure!(address.as_str().ends_with("?lesson=spin-lock"), "the address is {address}");
        let text = editor_text(client).await?;
        ensure!(text.contains("atomic_int lock"), "the editor holds {:?}", abbreviate(&text));
        Ok(())
    })
    .await?;
    client.back().await.map_err(|e| e.to_string())?;
    wait_until("the list again after Back", WAIT, || async { exactly(count(client, ".lesson-list").await?, 1, "lesson list") }).await?;
    Ok(())
}

async fn check_embed(client: &Client, base: &str) -> Check {
    let embedded = format!("{base}?lesson={LESSON}&embed=1");
    client.goto(&embedded).await.map_err(|e| format!("cannot open {embedded}: {e}"))?;
    wait_until("the embedded lesson", FIRST_RENDER_WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(text.contains("tile[l] = in[get_global_id(0)];"), "the editor holds {:?}", abbreviate(&text));
        exactly(count(client, "#lanes").await?, 1, "#lanes")?;
        exactly(count(client, "button#step").await?, 1, "button#step")
    })
    .await?;
    for chrome in [".masthead", ".inspector-column", ".results", ".launch", "#examples", "#share", ".lesson-pane", "#explore-start"] {
        exactly(count(client, chrome).await?, 0, chrome)?;
    }
    click(client, "button#step").await?;
    click(client, "button#step").await?;
    wait_until("two steps in the embedded page", WAIT, || async {
        let steps = attribute(client, "#status", "data-steps").await?;
        ensure!(steps == "2", "data-steps {steps:?}");
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-embed.png").await?;
    // "Open in Interleave" leads to the full app with the same scenario.
    let full = attribute(client, "#open-full", "href").await?;
    ensure!(full.contains(&format!("?lesson={LESSON}#v1.")) && !full.contains("embed"), "#open-full leads to {full}");
    let fragment = full.split('#').nth(1).unwrap_or_default();
    let link = interleave_engine::link::decode(fragment).map_err(|d| d.message)?;
    ensure!(link.scenario.source == lesson_file(LESSON).scenario.source, "the full app's link carries another source");

    // A share link embedded: the scenario it holds.
    let mut scenario = lesson_file("atomic-wrap").scenario;
    scenario.title = "Embedded".into();
    let shared = interleave_engine::link::url(&format!("{base}?embed=1"), &interleave_engine::link::Link { scenario, view: Default::default() });
    client.goto(&shared).await.map_err(|e| format!("cannot open {shared}: {e}"))?;
    wait_until("the embedded share link", FIRST_RENDER_WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(text.contains("atomicAdd(&head[0], 1u)"), "the editor holds {:?}", abbreviate(&text));
        exactly(count(client, ".masthead").await?, 0, ".masthead")
    })
    .await?;
    Ok(())
}

/// A kernel that never ends: two work-items count forever on one atomic counter. The private
/// loop between the atomics makes each of its million steps cost a few hundred instructions,
/// so the run lasts seconds rather than a fraction of one and the test has time to click the
/// page while it runs.
const COUNT_FOREVER: &str = "__kernel void count_forever(__global volatile int *counter)\n{\n    int spin = 0;\n    for (;;) {\n        for (int i = 0; i < 100; i++) {\n            spin += i;\n        }\n        atomic_inc(&counter[0]);\n    }\n}\n";

/// The share link of a scenario running `source` over `global` work-items under `base`.
fn link_to(base: &str, source: &str, global: u64, args: &[&str]) -> Check<String> {
    let mut scenario = interleave_engine::scenario::Scenario::new(source, "kernel.cl", interleave_engine::scenario::Dialect::OpenCl);
    scenario.launch.global = vec![global];
    scenario.args = args.iter().map(|text| interleave_engine::scenario::ArgBinding::parse(text)).collect::<Result<_, _>>().map_err(|e| format!("{e:?}"))?;
    Ok(interleave_engine::link::url(base, &interleave_engine::link::Link { scenario, view: Default::default() }))
}

/// The text of `css`, or an empty string when it is not on the page.
async fn text_of(client: &Client, css: &str) -> Check<String> {
    let value =
        client.execute(&format!("const e = document.querySelector('{css}'); return e ? e.textContent : '';"), vec![]).await.map_err(|e| e.to_string())?;
    Ok(value.as_str().unwrap_or_default().to_string())
}

/// Opens `link` in a fresh page and waits until `#diagnostics` (or the launch problems) say
/// something containing every one of `words`.
async fn expect_link_problem(client: &Client, base: &str, link: &str, what: &str, words: &[&str]) -> Check {
    client.goto(base).await.map_err(|e| e.to_string())?;
    client.goto(link).await.map_err(|e| format!("cannot open the {what} link: {e}"))?;
    client.refresh().await.map_err(|e| e.to_string())?;
    wait_until(&format!("the {what} link's problem to be explained"), FIRST_RENDER_WAIT, || async {
        let text = format!("{} {}", text_of(client, "#diagnostics").await?, text_of(client, "#launch-problems").await?);
        ensure!(words.iter().all(|w| text.contains(w)), "the page says {:?}", abbreviate(&text));
        exactly(count(client, "button#run").await?, 1, "button#run")
    })
    .await
}

/// The app stays usable: the default example loads and runs to its end.
async fn default_example_runs(client: &Client) -> Check {
    select(client, "#examples", "litmus/mp.litmus").await?;
    select(client, "#examples", "count.cl").await?;
    wait_until("the default example's lanes", WAIT, || async {
        let items = attribute(client, "#lanes", "data-work-items").await?;
        ensure!(items == DEFAULT_WORK_ITEMS.to_string(), "data-work-items {items:?}");
        Ok(())
    })
    .await?;
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await
}

/// Hostile links, an endless kernel, an absurd launch and a panic: each gets a clear message,
/// and the page stays usable.
async fn check_hostile_input(client: &Client, url: &str) -> Check {
    let base = url.split('#').next().unwrap_or_default().to_string();

    // A decompression bomb: a few kilobytes of link that inflate to megabytes of source.
    let bomb = link_to(&base, &" ".repeat(8 << 20), 1, &[])?;
    ensure!(bomb.len() < 64 * 1024, "the bomb's link is {} bytes", bomb.len());
    expect_link_problem(client, &base, &bomb, "decompression bomb", &["link-too-large", "larger than"]).await?;

    // A truncated link and a corrupted one.
    let good = link_to(&base, include_str!("../../static/examples/count.cl"), 8, &["ids=int[8]", "counters=int[2]:fill=0"])?;
    let truncated = &good[..good.len() - good.len() / 3];
    expect_link_problem(client, &base, truncated, "truncated", &["invalid-link", "truncated"]).await?;
    let at = good.find("#v1.").map_or(0, |k| k + 10);
    let corrupted = format!("{}{}{}", &good[..at], "AAAAAAAAAAAAAAAAAAAA", &good[at + 20..]);
    expect_link_problem(client, &base, &corrupted, "corrupted", &["invalid-link"]).await?;

    // Absurd sizes: a hundred million work-items from a link, refused when run.
    let absurd = link_to(&base, include_str!("../../static/examples/count.cl"), 100_000_000, &["ids=int[8]", "counters=int[2]"])?;
    client.goto(&base).await.map_err(|e| e.to_string())?;
    client.goto(&absurd).await.map_err(|e| e.to_string())?;
    client.refresh().await.map_err(|e| e.to_string())?;
    wait_until("the absurd link to open", FIRST_RENDER_WAIT, || async { exactly(count(client, "button#run").await?, 1, "button#run") }).await?;
    click(client, "button#run").await?;
    wait_until("the absurd launch to be refused", WAIT, || async {
        let text = text_of(client, "#diagnostics").await?;
        ensure!(text.contains("100,000,000 work-items") && text.contains("hard maximum"), "#diagnostics reads {:?}", abbreviate(&text));
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-hostile-absurd-launch.png").await?;
    default_example_runs(client).await?;

    // The same launch typed into the launch panel.
    retype(client, "#global", "100000000").await?;
    retype(client, "#local", "100").await?;
    click(client, "button#run").await?;
    wait_until("the typed launch of 100,000,000 work-items to be refused", WAIT, || async {
        let text = text_of(client, "#diagnostics").await?;
        ensure!(text.contains("100,000,000 work-items") && text.contains("max_work_items"), "#diagnostics reads {:?}", abbreviate(&text));
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-hostile-launch-refused.png").await?;

    // An endless kernel: it stops at the step limit, and the page answers clicks meanwhile.
    let endless = link_to(&base, COUNT_FOREVER, 2, &["counter=int[1]:fill=0"])?;
    client.goto(&endless).await.map_err(|e| e.to_string())?;
    client.refresh().await.map_err(|e| e.to_string())?;
    wait_until("the endless kernel to open", FIRST_RENDER_WAIT, || async {
        let items = attribute(client, "#lanes", "data-work-items").await?;
        ensure!(items == "2", "data-work-items {items:?}");
        Ok(())
    })
    .await?;
    click(client, "button#run").await?;
    let mut answered = 0;
    for round in 0..4 {
        if attribute(client, "#status", "data-status").await? != "running" {
            break;
        }
        let tab = if round % 2 == 0 { "memory" } else { "work-item" };
        click(client, &format!("#inspector-tab-{tab}")).await?;
        wait_until("the inspector to answer during the endless run", WAIT, || async {
            let shown = attribute(client, "#inspector-panel", "data-tab").await?;
            ensure!(shown == tab, "it shows {shown}");
            Ok(())
        })
        .await?;
        if attribute(client, "#status", "data-status").await? == "running" {
            answered += 1;
        }
    }
    ensure!(answered >= 1, "the endless run ended before the page could be clicked during it");
    wait_until("the endless kernel to stop at the step limit", LONG_RUN_WAIT, || async {
        let status = attribute(client, "#status", "data-status").await?;
        ensure!(status == "step-limit", "status {status}");
        Ok(())
    })
    .await?;
    let steps = status_steps(client).await?;
    ensure!(steps == interleave_engine::limits::STEPS.default, "the endless run stopped at step {steps}");
    wait_until("the step-limit finding to name the limit", WAIT, || async {
        let text = text_of(client, "body").await?;
        ensure!(text.contains("max_steps") && text.contains("--max-steps"), "no finding names max_steps");
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-hostile-step-limit.png").await?;

    // A panic: the banner, the scenario's link, and a reset to a working page. The console
    // has had no errors so far; the panic's own are read (and so cleared) below.
    if let Some(errors) = console_errors(client).await? {
        ensure!(errors.is_empty(), "the browser console has errors before the panic:\n{}", errors.join("\n"));
    }
    client
        .execute("window.setTimeout(() => window.interleaveTestPanic(), 0); return true;", vec![])
        .await
        .map_err(|e| format!("cannot provoke the test panic: {e}"))?;
    let link = wait_until("the panic banner", WAIT, || async {
        let banner = text_of(client, "#crash-banner").await?;
        ensure!(banner.contains("internal error") && banner.contains("interleaveTestPanic"), "#crash-banner reads {:?}", abbreviate(&banner));
        let link = value(client, "#crash-link").await?;
        ensure!(link.contains("#v1."), "#crash-link holds {link:?}");
        Ok(link)
    })
    .await?;
    let reopened = interleave_engine::link::decode(&link).map_err(|d| format!("the banner's link does not decode: {}", d.message))?;
    ensure!(reopened.scenario.source == COUNT_FOREVER, "the banner's link holds another scenario");
    ensure!(count(client, "#crash-copy").await? == 1, "no #crash-copy button");
    save_screenshot(client, "e2e-panic-banner.png").await?;
    if let Some(errors) = console_errors(client).await? {
        let other: Vec<&String> = errors.iter().filter(|e| !(e.contains("interleaveTestPanic") || e.contains("unreachable"))).collect();
        ensure!(other.is_empty(), "the console has errors besides the test panic: {other:?}");
    }
    click(client, "#crash-reset").await?;
    wait_until("the page to come back without the banner", FIRST_RENDER_WAIT, || async {
        exactly(count(client, "#crash-banner").await?, 0, "#crash-banner")?;
        exactly(count(client, "button#run").await?, 1, "button#run")
    })
    .await?;
    default_example_runs(client).await
}

/// The examples gallery: `?gallery` shows a card per entry; a card's button loads its example
/// into the workbench (the address becomes `?example=ID`) and it runs to its finding; Back
/// returns to the gallery; and `?example=ID` opened directly loads that example.
async fn check_gallery(client: &Client, url: &str) -> Check {
    let base = url.split(['?', '#']).next().unwrap_or_default().to_string();
    let gallery = format!("{base}?gallery");
    client.goto(&gallery).await.map_err(|e| format!("cannot open {gallery}: {e}"))?;
    wait_until("the gallery's 15 cards", FIRST_RENDER_WAIT, || async { exactly(count(client, "#gallery .gallery-card").await?, 15, "#gallery .gallery-card") })
        .await?;
    let card = client.find(Locator::Css("#gallery-syncthreads-divergent")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    ensure!(card.contains("CUDA") && card.contains("Lesson:") && card.contains("barrier-divergence"), "the card reads {:?}", abbreviate(&card));
    save_screenshot(client, "e2e-gallery.png").await?;

    scroll_to(client, "#load-syncthreads_divergent").await?;
    click(client, "#load-syncthreads_divergent").await?;
    wait_until("the example in the workbench", WAIT, || async {
        let text = editor_text(client).await?;
        let address = client.current_url().await.map_err(|e| e.to_string())?;
        ensure!(count(client, "#gallery").await? == 0, "the gallery is still shown");
        ensure!(text.contains("__syncthreads();"), "the editor holds {:?}", abbreviate(&text));
        ensure!(address.as_str().ends_with("?example=syncthreads_divergent"), "the address is {address}");
        Ok(())
    })
    .await?;
    click(client, "button#run-to-finding").await?;
    wait_until("the run to stop at its barrier divergence", WAIT, || async {
        let findings = client.find(Locator::Css("#findings")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
        ensure!(findings.contains("barrier divergence"), "#findings reads {:?}", abbreviate(&findings));
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-gallery-example.png").await?;

    client.back().await.map_err(|e| format!("cannot go back: {e}"))?;
    wait_until("Back to return to the gallery", WAIT, || async {
        let address = client.current_url().await.map_err(|e| e.to_string())?;
        ensure!(address.as_str().ends_with("?gallery"), "the address is {address}");
        exactly(count(client, "#gallery .gallery-card").await?, 15, "#gallery .gallery-card")
    })
    .await?;

    let deep = format!("{base}?example=cas_product_broken");
    client.goto(&deep).await.map_err(|e| format!("cannot open {deep}: {e}"))?;
    wait_until("`?example=` to load the broken product", FIRST_RENDER_WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(count(client, "#gallery").await? == 0, "the gallery is shown");
        ensure!(text.contains("int seen = product[0];"), "the editor holds {:?}", abbreviate(&text));
        ensure!(value(client, "#seed").await? == "1", "the seed is not the scenario's");
        Ok(())
    })
    .await?;
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    let findings = client.find(Locator::Css("#findings")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    ensure!(findings.contains("data race"), "#findings reads {:?}", abbreviate(&findings));
    Ok(())
}

/// The bug explained: the layout leaves room to read the kernel at 1600×1000 and still works
/// at 1280×720; a gallery card's data race is shrunk (Shrink on the finding: the run replays
/// a schedule of no more steps, `#shrink-status` says before and after, the timeline focuses on
/// the two work-items, which `#focus-off` undoes), its explanation is drawn over the timeline
/// (`#timeline-canvas[data-why-arrows]`, the missing edge among them) and written under the
/// finding, a share link made then reopens on the shrunk schedule (the same steps and trace),
/// and Compare models fills `#compare-matrix`, whose cell runs that model and seed; the warp
/// lock's lockstep hang, opened from its comparison, shrinks and replays under lockstep.
#[tokio::test]
async fn the_bug_is_shrunk_explained_and_compared_in_chromium() {
    let _turn = ONE_BROWSER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dist = std::env::var_os("INTERLEAVE_DIST").map(PathBuf::from).expect("INTERLEAVE_DIST names the app built by Trunk (`cargo xtask test` sets it)");
    let server = serve_dir(&dist, "127.0.0.1:0").expect("serve the built app");
    let driver = ChromeDriver::start().expect("start chromedriver");
    let client = driver.session(&session_config()).await.expect("open a Chromium session");
    let outcome = check_explained_bug(&client, &server.url()).await;
    if outcome.is_err() {
        save_screenshot(&client, "e2e-explain-failure.png").await.ok();
    }
    let console = console_errors(&client).await;
    client.close().await.ok();
    drop(driver);
    server.stop();
    if let Err(message) = outcome {
        panic!("{message}");
    }
    if let Ok(Some(errors)) = console {
        assert!(errors.is_empty(), "the browser console has errors:\n{}", errors.join("\n"));
    }
}

/// Sizes the page's viewport (not the window) to `width` × `height` CSS pixels.
async fn set_viewport(client: &Client, width: u32, height: u32) -> Check {
    client.set_window_size(width, height).await.map_err(|e| e.to_string())?;
    let inner = client.execute("return [window.innerWidth, window.innerHeight];", vec![]).await.map_err(|e| e.to_string())?;
    let (w, h) = (inner[0].as_u64().unwrap_or(0) as u32, inner[1].as_u64().unwrap_or(0) as u32);
    if (w, h) != (width, height) {
        let (outer_w, outer_h) = (width + width.saturating_sub(w), height + height.saturating_sub(h));
        client.set_window_size(outer_w, outer_h).await.map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// How many lines of code the editor's visible area holds.
async fn editor_lines(client: &Client) -> Check<f64> {
    let lines = client
        .execute(
            "const s = document.querySelector('#editor .cm-scroller'); const l = document.querySelector('#editor .cm-line'); \
             return s && l ? s.clientHeight / l.getBoundingClientRect().height : 0;",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    Ok(lines.as_f64().unwrap_or(0.0))
}

/// Whether the page is wider than its viewport (something sticks out sideways).
async fn overflows_sideways(client: &Client) -> Check<bool> {
    let wider = client.execute("return document.documentElement.scrollWidth > window.innerWidth + 1;", vec![]).await.map_err(|e| e.to_string())?;
    Ok(wider.as_bool().unwrap_or(true))
}

async fn number_attribute(client: &Client, css: &str, name: &str) -> Check<u64> {
    let text = attribute(client, css, name).await?;
    text.parse().map_err(|_| format!("{css}[{name}] is {text:?}, not a number"))
}

async fn check_explained_bug(client: &Client, url: &str) -> Check {
    let base = url.split(['?', '#']).next().unwrap_or_default().to_string();
    set_viewport(client, 1600, 1000).await?;
    let example = format!("{base}?example=lost-updates");
    client.goto(&example).await.map_err(|e| format!("cannot open {example}: {e}"))?;
    wait_until("the lost-updates example", FIRST_RENDER_WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(text.contains("__kernel"), "the editor holds {:?}", abbreviate(&text));
        exactly(count(client, "#editor .cm-line").await?.min(1), 1, "#editor .cm-line")
    })
    .await?;
    let lines = editor_lines(client).await?;
    ensure!(lines >= 25.0, "at 1600x1000 the editor shows {lines:.1} lines of code, fewer than 25");
    ensure!(!overflows_sideways(client).await?, "at 1600x1000 the page is wider than the window");

    // Run to the end: the race on counters[0].
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    let race = wait_until("a data-race finding", WAIT, || async {
        let index = client
            .execute("const f = [...document.querySelectorAll('#findings > li')]; return f.findIndex(li => li.dataset.kind === 'data-race');", vec![])
            .await
            .map_err(|e| e.to_string())?;
        let index = index.as_i64().unwrap_or(-1);
        ensure!(index >= 0, "no data-race in #findings");
        Ok(index)
    })
    .await?;
    let steps_before = number_attribute(client, "#status", "data-steps").await?;
    save_screenshot(client, "e2e-layout-1600.png").await?;

    // Shrink it.
    click(client, &format!("#shrink-finding-{race}")).await?;
    wait_until("the shrink to finish", EXPLORE_WAIT, || async {
        let phase = attribute(client, "#shrink-status", "data-phase").await?;
        ensure!(
            phase == "done",
            "#shrink-status is {phase:?}: {}",
            client.find(Locator::Css("#shrink-status")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?
        );
        Ok(())
    })
    .await?;
    let before = number_attribute(client, "#shrink-status", "data-before-steps").await?;
    let after = number_attribute(client, "#shrink-status", "data-after-steps").await?;
    ensure!(after <= before, "the shrunk schedule has {after} steps, the original {before}");
    let status_text = client.find(Locator::Css("#shrink-status")).await.map_err(|e| e.to_string())?.text().await.map_err(|e| e.to_string())?;
    ensure!(status_text.contains(&format!("{before} → {after} steps")) && status_text.contains("preemptions"), "#shrink-status reads {status_text:?}");
    // The shrunk schedule is the run: it stops where the schedule ends, with the race shown.
    wait_until("the shrunk run to stop with its race, the timeline focused on it", WAIT, || async {
        let steps = number_attribute(client, "#status", "data-steps").await?;
        ensure!(steps == after, "the shrunk run is at step {steps}, its schedule has {after}");
        ensure!(count(client, "#findings > li[data-kind=\"data-race\"]").await? >= 1, "the shrunk run shows no race");
        ensure!(attribute(client, "#lanes-focus", "data-focus").await? == "true", "no focus");
        let lanes = count(client, "#lanes .lane").await?;
        ensure!(lanes >= 1 && lanes < DEFAULT_WORK_ITEMS, "{lanes} lanes shown");
        ensure!(count(client, "#lanes .lane-header.others").await? >= 1, "no collapsed row");
        Ok(())
    })
    .await?;
    let steps_after = after;
    ensure!(steps_after <= steps_before, "the shrunk run took {steps_after} steps, the original {steps_before}");

    // Why, drawn: the finding opened, its edges in words and as arrows, the missing one dashed.
    let arrows = wait_until("the explanation's arrows on the timeline", WAIT, || async {
        let arrows = number_attribute(client, "#timeline-canvas", "data-why-arrows").await?;
        let missing = number_attribute(client, "#timeline-canvas", "data-why-missing").await?;
        let drawn = number_attribute(client, "#timeline-canvas", "data-why-drawn").await?;
        ensure!(arrows >= 1 && missing == 1 && drawn >= 1, "{arrows} arrows, {missing} missing, {drawn} drawn");
        ensure!(count(client, "#findings .why .why-missing").await? == 1, "no explanation under the finding");
        Ok(arrows)
    })
    .await?;
    save_screenshot(client, "e2e-shrunk-1600.png").await?;
    element_picture(client, "#lanes", "e2e-why-lanes-1600.png").await?;
    scroll_to(client, "section.findings").await?;
    element_picture(client, "section.findings", "e2e-why-findings-1600.png").await?;

    // The collapse is undone, and done again.
    click(client, "#focus-off").await?;
    wait_until("every lane back", WAIT, || async { exactly(count(client, "#lanes .lane").await?, DEFAULT_WORK_ITEMS, "#lanes .lane") }).await?;
    click(client, "#focus-on").await?;
    wait_until("the focus back", WAIT, || async {
        ensure!(count(client, "#lanes .lane").await? < DEFAULT_WORK_ITEMS, "every lane is still shown");
        Ok(())
    })
    .await?;

    // A link made now reopens on the shrunk schedule.
    let trace = trace_of(client).await?;
    click(client, "button#share").await?;
    let shared = wait_until("`#share-url` to hold the link", WAIT, || async {
        let value = client.execute("const f = document.getElementById('share-url'); return f ? f.value : '';", vec![]).await.map_err(|e| e.to_string())?;
        let value = value.as_str().unwrap_or_default().to_string();
        ensure!(value.contains("#v1."), "#share-url holds {value:?}");
        Ok(value)
    })
    .await?;
    client.goto(&base).await.map_err(|e| e.to_string())?;
    wait_until("the app to render again", FIRST_RENDER_WAIT, || async { exactly(count(client, "button#run").await?, 1, "button#run") }).await?;
    client.goto(&shared).await.map_err(|e| e.to_string())?;
    wait_until("the link to reopen on the shrunk schedule", WAIT, || async {
        let steps = number_attribute(client, "#status", "data-steps").await?;
        ensure!(steps == steps_after, "the link's run is at step {steps}, the shrunk run ended at {steps_after}");
        // The link keeps the run, not the focus: every lane the focus showed is the same.
        let now = trace_of(client).await?;
        let (status, lanes) = trace.split_once(" | ").unwrap_or((&trace, ""));
        ensure!(now.starts_with(status), "the status differs: {now:?} against {trace:?}");
        let reopened: Vec<&str> = now.split(" | ").nth(1).unwrap_or_default().split(',').collect();
        ensure!(lanes.split(',').all(|lane| reopened.contains(&lane)), "the lanes differ: {now:?} against {trace:?}");
        Ok(())
    })
    .await?;
    ensure!(arrows >= 1, "no arrows");

    // Compare models: the matrix, and a cell that runs its model.
    retype(client, "#compare-runs", "20").await?;
    scroll_to(client, "#compare-title").await?;
    click(client, "#compare-start").await?;
    wait_until("the comparison to finish", EXPLORE_WAIT, || async {
        let phase = attribute(client, "#compare-status", "data-phase").await?;
        ensure!(phase == "done", "#compare-status is {phase:?}");
        ensure!(count(client, "#compare-matrix td.model-cell").await? >= 2, "no cells");
        Ok(())
    })
    .await?;
    scroll_to(client, "#compare-title").await?;
    save_screenshot(client, "e2e-compare-1600.png").await?;
    click(client, "#compare-matrix tr.finding-row td.model-cell[data-model=\"0\"] button").await?;
    wait_until("the cell's run", WAIT, || async {
        ensure!(count(client, "#compare-matrix td.model-cell.opened[data-model=\"0\"]").await? == 1, "the cell is not marked opened");
        ensure!(attribute(client, "#status", "data-status").await? == "completed", "the run has not completed");
        ensure!(count(client, "#findings > li[data-kind=\"data-race\"]").await? >= 1, "the run shows no race");
        Ok(())
    })
    .await?;

    // A smaller window: still usable.
    set_viewport(client, 1280, 720).await?;
    client.goto(&example).await.map_err(|e| e.to_string())?;
    wait_until("the example again", FIRST_RENDER_WAIT, || async { exactly(count(client, "button#run").await?, 1, "button#run") }).await?;
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    let lines = editor_lines(client).await?;
    ensure!(lines >= 12.0, "at 1280x720 the editor shows {lines:.1} lines of code");
    ensure!(!overflows_sideways(client).await?, "at 1280x720 the page is wider than the window");
    save_screenshot(client, "e2e-layout-1280.png").await?;
    // A splitter moved with the keyboard is remembered across a reload.
    let before = number_attribute(client, "#splitter-editor", "aria-valuenow").await?;
    let splitter = client.find(Locator::Css("#splitter-editor")).await.map_err(|e| e.to_string())?;
    splitter.send_keys(&Key::Right.to_string()).await.map_err(|e| format!("cannot press → on the splitter: {e}"))?;
    let moved = wait_until("the editor's column to grow and be stored", WAIT, || async {
        let now = number_attribute(client, "#splitter-editor", "aria-valuenow").await?;
        ensure!(now > before, "the editor is {now} px wide, was {before}");
        let stored = client.execute("return localStorage.getItem('interleave.layout') || '';", vec![]).await.map_err(|e| e.to_string())?;
        ensure!(stored.as_str().unwrap_or_default().contains(&format!("\"editor\":{now}")), "stored {stored:?}");
        Ok(now)
    })
    .await?;
    client.refresh().await.map_err(|e| e.to_string())?;
    wait_until("the moved splitter after a reload", FIRST_RENDER_WAIT, || async {
        let now = number_attribute(client, "#splitter-editor", "aria-valuenow").await?;
        ensure!(now == moved, "the editor is {now} px wide after the reload, was moved to {moved}");
        Ok(())
    })
    .await?;
    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    click(client, &format!("#shrink-finding-{race}")).await?;
    wait_until("the shrink at 1280x720", EXPLORE_WAIT, || async {
        ensure!(attribute(client, "#shrink-status", "data-phase").await? == "done", "not done");
        let after = attribute(client, "#shrink-status", "data-after-steps").await?;
        ensure!(attribute(client, "#status", "data-steps").await? == after, "not run");
        ensure!(number_attribute(client, "#timeline-canvas", "data-why-arrows").await? >= 1, "no arrows");
        Ok(())
    })
    .await?;
    save_screenshot(client, "e2e-shrunk-1280.png").await?;

    // A weak outcome picked in the histogram's table: Shrink it, and its reads-from and
    // coherence edges are drawn once its run has ended.
    set_viewport(client, 1600, 1000).await?;
    select(client, "#examples", "litmus/mp.litmus").await?;
    wait_until("the MP test", WAIT, || async { exactly(count(client, "#litmus-note").await?, 1, "#litmus-note") }).await?;
    select(client, "#memory-model", "relaxed").await?;
    click(client, "#explore-mode-exhaustive").await?;
    click(client, "#explore-start").await?;
    wait_for_phase(client, "done").await?;
    click(client, "#explore-outcomes tr[data-exists=\"true\"] button.replay").await?;
    wait_for_status(client, "completed").await?;
    click(client, "#shrink-outcome").await?;
    wait_until("the weak outcome shrunk, its edges drawn", EXPLORE_WAIT, || async {
        ensure!(attribute(client, "#shrink-status", "data-phase").await? == "done", "the shrink is not done");
        let registers = client.find(Locator::Css("#registers")).await.map_err(|e| format!("no #registers: {e}"))?.text().await.map_err(|e| e.to_string())?;
        ensure!(registers.contains(WEAK_MP), "#registers reads {registers:?}");
        let kinds = attribute(client, "#timeline-canvas", "data-why-kinds").await?;
        ensure!(kinds.split(' ').any(|k| k == "rf") && kinds.split(' ').any(|k| k == "missing"), "the arrows are {kinds:?}");
        // And in words, under the findings.
        exactly(count(client, "#outcome-why .why-missing").await?, 1, "#outcome-why .why-missing")?;
        Ok(())
    })
    .await?;
    scroll_to(client, "body").await?;
    save_screenshot(client, "e2e-weak-outcome-shrunk-1600.png").await?;
    element_picture(client, "#outcome-why", "e2e-weak-outcome-why-1600.png").await?;
    element_picture(client, "#lanes", "e2e-weak-outcome-lanes-1600.png").await?;
    // The arrows in the other theme too.
    click(client, "#theme").await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    element_picture(client, "#lanes", "e2e-weak-outcome-lanes-other-theme.png").await?;
    click(client, "#theme").await?;

    // A hang only lockstep causes: the warp lock's comparison, its lockstep cell, and that
    // hang shrunk, which replays under lockstep (a manual replay would not hang).
    select(client, "#examples", "warp_lock.toml").await?;
    wait_until("the warp lock", WAIT, || async {
        let text = editor_text(client).await?;
        ensure!(text.contains("atomicCAS"), "the editor holds {:?}", abbreviate(&text));
        Ok(())
    })
    .await?;
    retype(client, "#compare-runs", "10").await?;
    scroll_to(client, "#compare-title").await?;
    click(client, "#compare-start").await?;
    let row = wait_until("the warp lock's comparison", EXPLORE_WAIT, || async {
        ensure!(attribute(client, "#compare-status", "data-phase").await? == "done", "the comparison is not done");
        let row = client
            .execute(
                "const r = [...document.querySelectorAll('#compare-matrix tbody tr')];                  return r.findIndex(tr => tr.classList.contains('finding-row') && tr.querySelector('th').textContent.includes('livelock'));",
                vec![],
            )
            .await
            .map_err(|e| e.to_string())?;
        let row = row.as_i64().unwrap_or(-1);
        ensure!(row >= 0, "no livelock row in #compare-matrix");
        Ok(row)
    })
    .await?;
    // Column 2 is lockstep warps of 32 (`compare::models`).
    let cell = format!("#compare-matrix td.model-cell.seen[data-model=\"2\"][data-row=\"{row}\"] button");
    click(client, &cell).await?;
    wait_for_status(client, "livelock").await?;
    let hang = client
        .execute("return [...document.querySelectorAll('#findings > li')].findIndex(li => li.dataset.kind === 'livelock');", vec![])
        .await
        .map_err(|e| e.to_string())?
        .as_i64()
        .unwrap_or(-1);
    ensure!(hang >= 0, "the lockstep run shows no livelock finding");
    click(client, &format!("#shrink-finding-{hang}")).await?;
    wait_until("the lockstep hang shrunk", EXPLORE_WAIT, || async {
        ensure!(attribute(client, "#shrink-status", "data-phase").await? == "done", "the shrink is not done");
        ensure!(attribute(client, "#status", "data-status").await? == "livelock", "the shrunk replay does not hang");
        let scheduler = client
            .execute("const s = document.querySelector('#scheduler'); return s.options[s.selectedIndex].textContent;", vec![])
            .await
            .map_err(|e| e.to_string())?;
        ensure!(scheduler.as_str() == Some("lockstep (replay)"), "the scheduler reads {scheduler:?}");
        Ok(())
    })
    .await?;
    scroll_to(client, "body").await?;
    save_screenshot(client, "e2e-lockstep-shrunk-1600.png").await?;
    Ok(())
}
