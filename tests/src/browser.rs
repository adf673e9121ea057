//! Headless Chromium driven through chromedriver, as the browser tests use it: the end-to-end
//! test (`tests/e2e.rs`) and the app's figures for BENCHMARKS.md (`tests/app_bench.rs`) open
//! their sessions here, so both run Chromium with the same flags and clean up the same way.

use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium's flags. Root needs `--no-sandbox`; the network is closed on test machines, so the
/// background-networking, component-update and sync flags stop Chromium from trying to reach
/// the internet; the fixed window size makes screenshots comparable from run to run.
pub const CHROME_ARGS: &[&str] = &[
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

/// How long chromedriver may take to listen.
const START_WAIT: Duration = Duration::from_secs(20);

const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// What a session needs beyond [`CHROME_ARGS`].
#[derive(Clone, Debug, Default)]
pub struct SessionConfig {
    /// Downloads go to this folder without asking, so that a test can read them.
    pub downloads: Option<PathBuf>,
    /// Whether the browser's console is logged, for a test to read its errors.
    pub console_log: bool,
}

/// A chromedriver child process, killed on drop together with the Chromium it started, whether
/// the test passed, failed or panicked.
pub struct ChromeDriver {
    child: Child,
    addr: SocketAddr,
}

impl ChromeDriver {
    /// Starts the chromedriver that `CHROMEDRIVER` names (`chromedriver` from the `PATH`
    /// otherwise) and waits until it listens.
    pub fn start() -> Result<ChromeDriver, String> {
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
        let deadline = Instant::now() + START_WAIT;
        while TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(format!("{binary} exited with {status} before accepting connections"));
            }
            if Instant::now() >= deadline {
                return Err(format!("{binary} did not listen on {addr} within {START_WAIT:?}"));
            }
            std::thread::sleep(POLL_INTERVAL);
        }
        Ok(driver)
    }

    /// Opens a WebDriver session in the headless Chromium that `CHROMIUM` names
    /// (`/usr/bin/chromium` otherwise).
    pub async fn session(&self, config: &SessionConfig) -> Result<Client, String> {
        let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
        let mut options = json!({ "binary": chromium, "args": CHROME_ARGS });
        if let Some(downloads) = &config.downloads {
            std::fs::create_dir_all(downloads).map_err(|e| format!("create {}: {e}", downloads.display()))?;
            let downloads = downloads.canonicalize().map_err(|e| format!("{}: {e}", downloads.display()))?;
            options["prefs"] = json!({
                "download.default_directory": downloads,
                "download.prompt_for_download": false,
                // The network is closed: a download must not wait for a reputation check.
                "safebrowsing.enabled": false,
            });
        }
        let mut capabilities = json!({ "browserName": "chrome", "goog:chromeOptions": options });
        if config.console_log {
            capabilities["goog:loggingPrefs"] = json!({ "browser": "ALL" });
        }
        let Value::Object(capabilities) = capabilities else { unreachable!("a JSON object literal is an object") };
        ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://{}/", self.addr))
            .await
            .map_err(|e| format!("cannot start {chromium} through chromedriver (set CHROMIUM): {e}"))
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        // The negative id names the whole process group: chromedriver and every Chromium
        // process it started.
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
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
