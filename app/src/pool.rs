//! The page's side of exploration: the Web Workers of one exploration and their messages.
//!
//! An exploration is a list of jobs (ranges of seeds, or the whole exhaustive search), each one
//! part of the result; a few workers take them in order, each the next job as soon as it has
//! reported its last, so a worker that gets less of the machine does less of the work instead
//! of holding up the end. Workers run the page's own WebAssembly module: the worker script (`static/explore-worker.js`, a
//! module worker) receives the module the page has already compiled, with the address of its
//! JavaScript glue, and instantiates it, so the engine is downloaded and compiled once. A
//! worker says [`FromWorker::Ready`] once its WebAssembly runs, and only then is its request
//! sent: a message posted before the module listens would be lost. A worker is terminated as soon
//! as no job is left for it; dropping the pool terminates whatever still runs, which is how an
//! exploration is abandoned without waiting for it.

use std::cell::Cell;
use std::rc::Rc;

use interleave_engine::explore::Exploration;
use interleave_engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

use crate::explore::{FromWorker, Job, ToWorker, WorkerEvent as Event};

#[wasm_bindgen]
extern "C" {
    /// `import.meta.url` as the JavaScript glue evaluates it: the glue's own address, which
    /// the workers import to instantiate the module (its name carries a content hash that
    /// only the built page knows).
    #[wasm_bindgen(thread_local_v2, js_namespace = ["import", "meta"], js_name = url)]
    static GLUE_URL: JsValue;
}

/// The first message to a worker: the page's compiled module and the address of its glue.
pub(crate) fn bootstrap_message() -> JsValue {
    let message = js_sys::Object::new();
    let glue = GLUE_URL.with(JsValue::clone);
    // Setting a property of a new plain object cannot fail.
    let _ = js_sys::Reflect::set(&message, &JsValue::from_str("glue"), &glue);
    let _ = js_sys::Reflect::set(&message, &JsValue::from_str("module"), &wasm_bindgen::module());
    message.into()
}

/// The jobs of one exploration and what has become of them, shared by the workers' handlers.
struct Queue {
    /// The encoded request of each job.
    requests: Vec<String>,
    /// The first job no worker has taken yet.
    next: Cell<usize>,
    /// Whether the exploration has been asked to stop: jobs not yet taken are then reported
    /// as stopped with nothing explored, and no worker takes another.
    stopping: Cell<bool>,
    on_event: Callback<(usize, Event)>,
}

impl Queue {
    /// Gives `worker` the next job, or, when none is left (or the exploration is stopping),
    /// terminates it; returns the job given.
    fn hand_out(&self, worker: &Worker, finished: &Cell<bool>) -> Option<usize> {
        let next = self.next.get();
        if self.stopping.get() {
            self.next.set(self.requests.len());
            for part in next..self.requests.len() {
                let exploration = Rc::new(nothing_explored());
                self.on_event.emit((part, Event::Done { exploration, stopped: true }));
            }
        } else if let Some(request) = self.requests.get(next) {
            self.next.set(next + 1);
            let _ = worker.post_message(&JsValue::from_str(request));
            return Some(next);
        }
        finished.set(true);
        worker.terminate();
        None
    }
}

struct Member {
    worker: Worker,
    /// The job the worker is exploring, if any.
    job: Rc<Cell<Option<usize>>>,
    /// Whether the worker has said its last word (and has been terminated).
    finished: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// The workers of one exploration.
pub struct Pool {
    queue: Rc<Queue>,
    members: Vec<Member>,
}

/// The empty result of a part that was stopped before it started.
fn nothing_explored() -> Exploration {
    Exploration {
        runs: 0,
        discarded: 0,
        complete: false,
        findings: Vec::new(),
        outcomes: Vec::new(),
        exists_observed: None,
        distinct_schedules: 0,
        distinct_schedules_capped: false,
        schedule_hashes: Vec::new(),
        pct: None,
        exhaustive_offer: None,
    }
}

impl Pool {
    /// Explores `scenario`, one part per job, in at most `workers` workers started from the
    /// script at `url`; `on_event` receives `(part, event)`. Fails when the browser refuses to
    /// start a worker.
    pub fn start(url: &str, scenario: &Scenario, jobs: &[Job], workers: usize, on_event: Callback<(usize, Event)>) -> Result<Pool, String> {
        let queue = Rc::new(Queue {
            requests: jobs
                .iter()
                .map(|&job| {
                    let scenario = scenario.clone();
                    ToWorker::Explore { scenario, job }.encode()
                })
                .collect(),
            next: Cell::new(0),
            stopping: Cell::new(false),
            on_event,
        });
        // Built up in place, so that the workers already started are terminated (by the
        // pool's drop) if a later one cannot start.
        let count = workers.clamp(1, jobs.len().max(1));
        let mut pool = Pool { queue: queue.clone(), members: Vec::with_capacity(count) };
        let bootstrap = bootstrap_message();
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        for _ in 0..count {
            let worker = Worker::new_with_options(url, &options)
                .map_err(|e| format!("the browser could not start a Web Worker ({})", e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
            let job: Rc<Cell<Option<usize>>> = Rc::default();
            let finished = Rc::new(Cell::new(false));
            let on_message = {
                let (worker, queue) = (worker.clone(), queue.clone());
                let (job, finished) = (job.clone(), finished.clone());
                Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                    if finished.get() {
                        return;
                    }
                    let text = event.data().as_string().unwrap_or_default();
                    let part = job.get().unwrap_or(0);
                    let reported = match FromWorker::decode(&text) {
                        Ok(FromWorker::Ready) => {
                            job.set(queue.hand_out(&worker, &finished));
                            return;
                        }
                        Ok(FromWorker::Progress { executions, budget }) => {
                            queue.on_event.emit((part, Event::Progress { executions, budget }));
                            return;
                        }
                        Ok(FromWorker::Done { exploration, stopped }) => {
                            job.set(None);
                            let exploration = Rc::new(exploration);
                            queue.on_event.emit((part, Event::Done { exploration, stopped }));
                            job.set(queue.hand_out(&worker, &finished));
                            return;
                        }
                        Ok(FromWorker::Failed { diagnostics }) => Event::Failed { diagnostics },
                        // Only a shrink's or a comparison's worker (`crate::task`) says these.
                        Ok(FromWorker::Shrunk { .. } | FromWorker::Compared { .. }) => {
                            Event::Crashed { message: "the exploration worker answered another request".to_string() }
                        }
                        Err(error) => Event::Crashed { message: format!("the exploration worker sent an unreadable message ({error})") },
                    };
                    // This worker has said its last word.
                    finished.set(true);
                    worker.terminate();
                    queue.on_event.emit((part, reported));
                })
            };
            let on_error = {
                let (worker, queue) = (worker.clone(), queue.clone());
                let (job, finished) = (job.clone(), finished.clone());
                Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
                    if finished.replace(true) {
                        return;
                    }
                    worker.terminate();
                    let detail = event.message();
                    let message = if detail.is_empty() {
                        "the exploration worker could not be loaded".to_string()
                    } else {
                        format!("the exploration worker stopped: {detail}")
                    };
                    queue.on_event.emit((job.get().unwrap_or(0), Event::Crashed { message }));
                })
            };
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            // Queued until the worker's script listens; posting a module to a worker of the
            // same page cannot fail.
            let _ = worker.post_message(&bootstrap);
            pool.members.push(Member { worker, job, finished, _on_message: on_message, _on_error: on_error });
        }
        Ok(pool)
    }

    /// Asks every worker still exploring to stop after its current chunk and report what it
    /// has found so far; the jobs nobody has taken are reported as stopped before starting.
    pub fn stop(&self) {
        if self.queue.stopping.replace(true) {
            return;
        }
        let stop = JsValue::from_str(&ToWorker::Stop.encode());
        for member in &self.members {
            if !member.finished.get() && member.job.get().is_some() {
                let _ = member.worker.post_message(&stop);
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for member in &self.members {
            member.worker.terminate();
        }
    }
}
