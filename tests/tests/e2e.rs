//! Browser end-to-end test: the release build of the app, served the way `cargo xtask serve`
//! serves it, driven in headless Chromium through chromedriver.
//!
//! Unit and wasm-bindgen tests check the engine and the components in isolation; only this test
//! sees the app as a user does, after Trunk's bundling and wasm-opt, under the real
//! Content-Security-Policy, with real clicks. It checks the DOM contract the app promises:
//!
//! - `button#run`, `button#step`, `button#reset`, and the editor `#source` holding the default
//!   example's kernel;
//! - `#lanes[data-work-items]`, the number of work-items of the example's launch, and one
//!   `#lanes .lane[data-work-item]` per work-item once the example has run, each with at least
//!   one `.mark` (an event of that work-item on the timeline);
//! - `#status[data-status]`, `completed` after a full run and `running` after a single step.
//!
//! It needs a built `dist/` directory (named by `INTERLEAVE_DIST`), Chromium and chromedriver,
//! so it only exists with the `e2e` feature; `cargo xtask test` provides all of that. Every wait
//! polls for the expected state with a deadline, because the app renders asynchronously and a
//! fixed sleep would be either flaky or slow. Screenshots go to `target/screenshots/` so that a
//! failure (or a layout change) can be looked at afterwards.

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use interleave_tests::serve_dir;
use serde_json::{json, Value};
use std::future::Future;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Work-items in the launch of the example the app opens with.
const DEFAULT_WORK_ITEMS: usize = 8;

/// How long to wait for the first render: it includes fetching and compiling the wasm module,
/// which a busy two-core machine can make slow.
const FIRST_RENDER_WAIT: Duration = Duration::from_secs(40);

/// How long to wait for the app to react to a click.
const WAIT: Duration = Duration::from_secs(20);

const POLL_INTERVAL: Duration = Duration::from_millis(100);

/// Chromium's flags. Root needs `--no-sandbox`; the network is closed on test machines, so the
/// background-networking, component-update and sync flags stop Chromium from trying to reach
/// the internet; the fixed window size makes screenshots comparable from run to run.
const CHROME_ARGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1400,900",
];

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

#[tokio::test]
async fn default_example_runs_and_steps_in_chromium() {
    let Some(dist) = std::env::var_os("INTERLEAVE_DIST").map(PathBuf::from) else {
        panic!(
            "INTERLEAVE_DIST is not set. This test needs the app built by Trunk; run \
             `cargo xtask test`, which builds it and sets INTERLEAVE_DIST to its dist/ directory"
        );
    };
    assert!(
        dist.join("index.html").is_file(),
        "{} has no index.html; run `cargo xtask test` to build the app",
        dist.display()
    );

    let server = serve_dir(&dist, "127.0.0.1:0").expect("serve the built app");
    let driver = ChromeDriver::start().expect("start chromedriver");
    let client = driver.session().await.expect("open a Chromium session");

    let outcome = check_app(&client, &server.url()).await;
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
        Ok(Some(errors)) => assert!(
            errors.is_empty(),
            "the browser console has errors:\n{}",
            errors.join("\n")
        ),
        Ok(None) => eprintln!("note: this chromedriver does not return console logs; not checked"),
        Err(message) => panic!("{message}"),
    }
}

/// Walks through the DOM contract: load, run the default example to the end, then reset and
/// take a single step.
async fn check_app(client: &Client, url: &str) -> Check {
    client
        .goto(url)
        .await
        .map_err(|e| format!("cannot open {url}: {e}"))?;

    wait_until(
        "the app to render `button#run`",
        FIRST_RENDER_WAIT,
        || async {
            count(client, "button#run")
                .await
                .and_then(|n| exactly(n, 1, "button#run"))
        },
    )
    .await?;

    wait_until(
        "the editor `#source` to hold the default kernel",
        WAIT,
        || async {
            let source = client
                .find(Locator::Css("#source"))
                .await
                .map_err(|e| e.to_string())?;
            let text = match source.prop("value").await.map_err(|e| e.to_string())? {
                Some(value) => value,
                None => source.text().await.map_err(|e| e.to_string())?,
            };
            if text.contains("__kernel") {
                Ok(())
            } else {
                Err(format!("#source holds {:?}", abbreviate(&text)))
            }
        },
    )
    .await?;

    wait_until(
        "`#lanes[data-work-items]` to give the launch size",
        WAIT,
        || async {
            let value = attribute(client, "#lanes", "data-work-items").await?;
            if value == DEFAULT_WORK_ITEMS.to_string() {
                Ok(())
            } else {
                Err(format!(
                    "data-work-items is {value:?}, expected {DEFAULT_WORK_ITEMS}"
                ))
            }
        },
    )
    .await?;

    click(client, "button#run").await?;
    wait_for_status(client, "completed").await?;
    wait_until("one lane per work-item, each with a mark", WAIT, || {
        lanes_after_run(client)
    })
    .await?;
    save_screenshot(client, "e2e-default-example.png").await?;

    click(client, "button#reset").await?;
    // Waiting for the marks to disappear makes sure the reset has been handled before the step,
    // so the count below cannot include a leftover of the run.
    wait_until("the reset to clear every `.mark`", WAIT, || async {
        count(client, ".mark")
            .await
            .and_then(|n| exactly(n, 0, ".mark"))
    })
    .await?;

    click(client, "button#step").await?;
    wait_until(
        "one step: a single `.mark` and status `running`",
        WAIT,
        || async {
            let marks = count(client, ".mark").await?;
            let status = attribute(client, "#status", "data-status").await?;
            if marks == 1 && status == "running" {
                Ok(())
            } else {
                Err(format!("{marks} .mark element(s), data-status {status:?}"))
            }
        },
    )
    .await?;
    save_screenshot(client, "e2e-step.png").await?;
    Ok(())
}

/// Ready when `#lanes .lane` holds exactly one lane per work-item, numbered 0..N by
/// `data-work-item`, and every lane shows at least one mark.
async fn lanes_after_run(client: &Client) -> Check {
    let lanes = client
        .find_all(Locator::Css("#lanes .lane"))
        .await
        .map_err(|e| e.to_string())?;
    exactly(lanes.len(), DEFAULT_WORK_ITEMS, "#lanes .lane")?;
    let mut numbers = Vec::new();
    for lane in &lanes {
        let number = lane
            .attr("data-work-item")
            .await
            .map_err(|e| e.to_string())?
            .ok_or("a .lane has no data-work-item attribute")?;
        let marks = lane
            .find_all(Locator::Css(".mark"))
            .await
            .map_err(|e| e.to_string())?;
        ensure!(!marks.is_empty(), "lane {number} has no .mark");
        numbers.push(
            number
                .parse::<usize>()
                .map_err(|_| format!("data-work-item {number:?}"))?,
        );
    }
    numbers.sort_unstable();
    ensure!(
        numbers == (0..DEFAULT_WORK_ITEMS).collect::<Vec<_>>(),
        "lanes are numbered {numbers:?}, expected 0..{DEFAULT_WORK_ITEMS}"
    );
    Ok(())
}

/// Waits until `#status[data-status]` reads `expected`.
async fn wait_for_status(client: &Client, expected: &str) -> Check {
    wait_until(
        &format!("`#status[data-status]` to be {expected:?}"),
        WAIT,
        || async {
            let status = attribute(client, "#status", "data-status").await?;
            if status == expected {
                Ok(())
            } else {
                Err(format!("data-status is {status:?}"))
            }
        },
    )
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
                return Err(format!(
                    "timed out after {timeout:?} waiting for {what}; last seen: {seen}"
                ));
            }
            Err(_) => tokio::time::sleep(POLL_INTERVAL).await,
        }
    }
}

fn exactly(found: usize, expected: usize, what: &str) -> Check {
    ensure!(
        found == expected,
        "{found} {what} element(s), expected {expected}"
    );
    Ok(())
}

async fn count(client: &Client, css: &str) -> Check<usize> {
    client
        .find_all(Locator::Css(css))
        .await
        .map(|found| found.len())
        .map_err(|e| format!("cannot query {css}: {e}"))
}

async fn attribute(client: &Client, css: &str, name: &str) -> Check<String> {
    let element = client
        .find(Locator::Css(css))
        .await
        .map_err(|e| format!("no {css}: {e}"))?;
    element
        .attr(name)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("{css} has no {name} attribute"))
}

async fn click(client: &Client, css: &str) -> Check {
    let element = client
        .find(Locator::Css(css))
        .await
        .map_err(|e| format!("no {css} to click: {e}"))?;
    element
        .click()
        .await
        .map_err(|e| format!("cannot click {css}: {e}"))
}

fn abbreviate(text: &str) -> String {
    text.chars().take(80).collect()
}

/// Saves a PNG of the viewport to `<workspace>/target/screenshots/<name>`.
async fn save_screenshot(client: &Client, name: &str) -> Check {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("target/screenshots");
    let png = client
        .screenshot()
        .await
        .map_err(|e| format!("screenshot {name}: {e}"))?;
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
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({ "type": "browser" }).to_string()),
        )
    }
}

/// A chromedriver child process, killed on drop together with the Chromium it started, whether
/// the test passed, failed or panicked.
struct ChromeDriver {
    child: Child,
    addr: SocketAddr,
}

impl ChromeDriver {
    fn start() -> Result<ChromeDriver, String> {
        use std::os::unix::process::CommandExt;

        let binary = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_owned());
        let addr = free_local_port()?;
        let child = Command::new(&binary)
            .arg(format!("--port={}", addr.port()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // A process group of its own lets Drop end Chromium too, not only chromedriver.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start {binary} (set CHROMEDRIVER): {e}"))?;
        let mut driver = ChromeDriver { child, addr };
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(format!(
                    "{binary} exited with {status} before accepting connections"
                ));
            }
            if Instant::now() >= deadline {
                return Err(format!("{binary} did not listen on {addr} within {WAIT:?}"));
            }
            std::thread::sleep(POLL_INTERVAL);
        }
        Ok(driver)
    }

    /// Opens a WebDriver session in headless Chromium with console logging on.
    async fn session(&self) -> Result<Client, String> {
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": CHROME_ARGS },
            "goog:loggingPrefs": { "browser": "ALL" },
        });
        let Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://{}/", self.addr))
            .await
            .map_err(|e| {
                format!("cannot start {chromium} through chromedriver (set CHROMIUM): {e}")
            })
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        // The negative id names the whole process group: chromedriver and every Chromium
        // process it started.
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An unused port on the loopback interface. Another process could take it before chromedriver
/// binds it, but on a test machine that race is rare and shows up as a clear start-up error.
fn free_local_port() -> Result<SocketAddr, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    listener.local_addr().map_err(|e| e.to_string())
}
