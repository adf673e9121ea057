//! The exploration worker's side: what runs inside each Web Worker.
//!
//! A worker runs an instance of the page's own module (see [`crate::pool`]); the module's
//! entry point calls [`start`] when [`in_worker`] says it is not on the page.
//!
//! The worker waits for a [`ToWorker::Explore`] (one job; the page may send it another when it
//! has reported the last), builds the engine's `Explorer` and advances
//! it a chunk at a time (or, for [`ToWorker::Shrink`] and [`ToWorker::Compare`], the engine's
//! `Shrinker` or `Comparer`, which advance the same way) ([`next_chunk`] sizes chunks to about ten milliseconds). Between
//! chunks it yields to its event loop through a `MessageChannel` (a timer would be clamped to
//! several milliseconds after a few rounds), so a [`ToWorker::Stop`] from the page is read
//! within one chunk and answered with the results so far. Progress goes to the page at most
//! every [`PROGRESS_MS`], which keeps the page from re-rendering for every chunk.
//!
//! Messages are JSON strings (see [`crate::explore`]). The page terminates the worker once no
//! job is left for it, so nothing here cleans up.

use std::cell::RefCell;
use std::rc::Rc;

use interleave_engine::compare::Comparer;
use interleave_engine::diag::Diagnostic;
use interleave_engine::explore::Explorer;
use interleave_engine::shrink::{self, Shrinker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, MessagePort};

use crate::explore::{next_chunk, FromWorker, ToWorker};

/// The least time between two progress messages. Each one re-renders the page, whose main
/// thread shares the machine's cores with the workers: at every 50 ms, two workers kept it
/// busy for about a third of their exploration, at every 250 ms for about an eighth (a CPU
/// profile of the page's MP exploration in Chromium), while the count still moves four times
/// a second.
pub const PROGRESS_MS: f64 = 250.0;

/// What a worker's job runs: each advances a number of executions at a time and can give
/// its result so far.
enum Engine {
    Explore(Box<Explorer>),
    Shrink(Box<Shrinker>),
    Compare(Box<Comparer>),
}

impl Engine {
    fn executions(&self) -> u64 {
        match self {
            Engine::Explore(e) => e.executions(),
            Engine::Shrink(s) => s.executions(),
            Engine::Compare(c) => c.executions(),
        }
    }

    fn budget(&self) -> u64 {
        match self {
            Engine::Explore(e) => e.budget(),
            Engine::Shrink(s) => s.budget(),
            Engine::Compare(c) => c.budget(),
        }
    }

    fn advance(&mut self, executions: u64) -> Result<bool, Vec<Diagnostic>> {
        match self {
            Engine::Explore(e) => e.advance(executions),
            Engine::Shrink(s) => s.advance(executions),
            Engine::Compare(c) => c.advance(executions),
        }
    }

    /// The last message: the results so far, `stopped` when asked to stop early.
    fn finish(&self, stopped: bool) -> FromWorker {
        match self {
            Engine::Explore(e) => FromWorker::Done { exploration: e.result(), stopped },
            Engine::Shrink(s) => match s.result() {
                Ok(shrunk) => FromWorker::Shrunk { shrunk },
                Err(diagnostics) => FromWorker::Failed { diagnostics },
            },
            Engine::Compare(c) => FromWorker::Compared { comparison: c.result() },
        }
    }
}

struct Running {
    engine: Engine,
    chunk: u64,
    last_progress: f64,
    stop: bool,
}

struct Worker {
    scope: DedicatedWorkerGlobalScope,
    /// Posting to this port schedules the next chunk on the other one.
    wake: MessagePort,
    running: Option<Running>,
    /// The size of the last chunk run, which the next job starts from: a worker takes several
    /// jobs of the same scenario one after the other, and need not find its pace again.
    pace: u64,
}

impl Worker {
    fn post(&self, message: &FromWorker) {
        // Posting a string to the page cannot fail; if the page is gone, nobody listens.
        let _ = self.scope.post_message(&JsValue::from_str(&message.encode()));
    }

    fn progress(&mut self, now: f64) {
        if let Some(running) = &mut self.running {
            running.last_progress = now;
            let message = FromWorker::Progress { executions: running.engine.executions(), budget: running.engine.budget() };
            self.post(&message);
        }
    }

    fn schedule_chunk(&self) {
        let _ = self.wake.post_message(&JsValue::NULL);
    }

    fn received(&mut self, message: ToWorker) {
        match message {
            ToWorker::Explore { scenario, job } => self.begin(Explorer::new(&scenario, job.config()).map(|mut e| {
                if job.offer {
                    e.offer_exhaustive();
                }
                Engine::Explore(Box::new(e))
            })),
            ToWorker::Shrink { scenario, pick, budget } => {
                self.begin(Shrinker::new(&scenario, pick.pick(), shrink::Config { budget }).map(|s| Engine::Shrink(Box::new(s))))
            }
            ToWorker::Compare { scenario, runs } => self.begin(Comparer::new(&scenario, runs).map(|c| Engine::Compare(Box::new(c)))),
            // A Stop after the end has nothing left to stop.
            ToWorker::Stop => {
                if let Some(running) = &mut self.running {
                    running.stop = true;
                }
            }
        }
    }

    /// Starts a job's engine, or says why it cannot start.
    fn begin(&mut self, engine: Result<Engine, Vec<Diagnostic>>) {
        match engine {
            Ok(engine) => {
                self.running = Some(Running { engine, chunk: self.pace, last_progress: 0.0, stop: false });
                self.progress(js_sys::Date::now());
                self.schedule_chunk();
            }
            Err(diagnostics) => self.post(&FromWorker::Failed { diagnostics }),
        }
    }

    /// Runs one chunk, then reports and schedules the next, or reports the end.
    fn chunk(&mut self) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if running.stop {
            let last = running.engine.finish(true);
            self.running = None;
            self.post(&last);
            return;
        }
        let started = js_sys::Date::now();
        let advanced = running.engine.advance(running.chunk);
        let now = js_sys::Date::now();
        running.chunk = next_chunk(running.chunk, now - started);
        self.pace = running.chunk;
        let progress_due = now - running.last_progress >= PROGRESS_MS;
        match advanced {
            Ok(false) => {
                if progress_due {
                    self.progress(now);
                }
                self.schedule_chunk();
            }
            Ok(true) => {
                self.progress(now);
                if let Some(running) = self.running.take() {
                    self.post(&running.engine.finish(false));
                }
            }
            Err(diagnostics) => {
                self.running = None;
                self.post(&FromWorker::Failed { diagnostics });
            }
        }
    }
}

/// Whether this instance runs in a dedicated worker rather than on the page.
pub fn in_worker() -> bool {
    js_sys::global().is_instance_of::<DedicatedWorkerGlobalScope>()
}

/// The worker's entry point: listens for the page's messages and says it is ready.
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let Ok(channel) = web_sys::MessageChannel::new() else {
        return;
    };
    let worker = Rc::new(RefCell::new(Worker { scope: scope.clone(), wake: channel.port2(), running: None, pace: 1 }));

    let tick = {
        let worker = worker.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| {
            worker.borrow_mut().chunk();
        })
    };
    channel.port1().set_onmessage(Some(tick.as_ref().unchecked_ref()));
    // The worker lives until the page terminates it, and so do its handlers.
    tick.forget();

    let on_message = {
        let worker = worker.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let text = event.data().as_string().unwrap_or_default();
            match ToWorker::decode(&text) {
                Ok(message) => worker.borrow_mut().received(message),
                // Only the page talks to this worker, so this is a bug, never user input;
                // saying so beats leaving the page waiting.
                Err(error) => {
                    let diagnostic =
                        interleave_engine::diag::Diagnostic::error("internal", format!("the exploration worker could not read its request: {error}"));
                    worker.borrow().post(&FromWorker::Failed { diagnostics: vec![diagnostic] });
                }
            }
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();

    worker.borrow().post(&FromWorker::Ready);
}
