//! The page's side of exploration: the Web Workers of one exploration and their messages.
//!
//! Each worker explores one part (a range of seeds, or the whole exhaustive search). A worker
//! says [`FromWorker::Ready`] once its WebAssembly runs, and only then is its request sent:
//! a message posted before the worker listens would be lost. A worker that has reported its
//! results is terminated at once; dropping the pool terminates whatever still runs, which is
//! how an exploration is abandoned without waiting for it.

use std::cell::Cell;
use std::rc::Rc;

use interleave_engine::explore::Exploration;
use interleave_engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker};
use yew::Callback;

use crate::explore::{FromWorker, Job, ToWorker, WorkerEvent as Event};

struct Member {
    worker: Worker,
    /// Whether the worker has been asked to stop; one that is not ready yet then is simply
    /// terminated, since it has explored nothing.
    stopping: Rc<Cell<bool>>,
    finished: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// The workers of one exploration.
pub struct Pool {
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
    }
}

impl Pool {
    /// Starts one worker per job from the script at `url`, each exploring `scenario`;
    /// `on_event` receives `(part, event)`. Fails when the browser refuses to start a worker.
    pub fn start(
        url: &str,
        scenario: &Scenario,
        jobs: &[Job],
        on_event: Callback<(usize, Event)>,
    ) -> Result<Pool, String> {
        // Built up in place, so that the workers already started are terminated (by the
        // pool's drop) if a later one cannot start.
        let mut pool = Pool {
            members: Vec::with_capacity(jobs.len()),
        };
        for (part, &job) in jobs.iter().enumerate() {
            let worker = Worker::new(url).map_err(|e| {
                format!(
                    "the browser could not start a Web Worker ({})",
                    e.as_string().unwrap_or_else(|| format!("{e:?}"))
                )
            })?;
            let request = ToWorker::Explore {
                scenario: scenario.clone(),
                job,
            }
            .encode();
            let stopping = Rc::new(Cell::new(false));
            let finished = Rc::new(Cell::new(false));
            let on_message = {
                let (worker, on_event) = (worker.clone(), on_event.clone());
                let (stopping, finished) = (stopping.clone(), finished.clone());
                Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                    if finished.get() {
                        return;
                    }
                    let text = event.data().as_string().unwrap_or_default();
                    let reported = match FromWorker::decode(&text) {
                        Ok(FromWorker::Ready) if stopping.get() => Event::Done {
                            exploration: Rc::new(nothing_explored()),
                            stopped: true,
                        },
                        Ok(FromWorker::Ready) => {
                            let _ = worker.post_message(&JsValue::from_str(&request));
                            return;
                        }
                        Ok(FromWorker::Progress { executions, budget }) => {
                            Event::Progress { executions, budget }
                        }
                        Ok(FromWorker::Done {
                            exploration,
                            stopped,
                        }) => Event::Done {
                            exploration: Rc::new(exploration),
                            stopped,
                        },
                        Ok(FromWorker::Failed { diagnostics }) => Event::Failed { diagnostics },
                        Err(error) => Event::Crashed {
                            message: format!(
                                "the exploration worker sent an unreadable message ({error})"
                            ),
                        },
                    };
                    if !matches!(reported, Event::Progress { .. }) {
                        // This worker has said its last word.
                        finished.set(true);
                        worker.terminate();
                    }
                    on_event.emit((part, reported));
                })
            };
            let on_error = {
                let (worker, on_event, finished) =
                    (worker.clone(), on_event.clone(), finished.clone());
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
                    on_event.emit((part, Event::Crashed { message }));
                })
            };
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            pool.members.push(Member {
                worker,
                stopping,
                finished,
                _on_message: on_message,
                _on_error: on_error,
            });
        }
        Ok(pool)
    }

    /// Asks every worker still exploring to stop after its current chunk and report what it
    /// has found so far.
    pub fn stop(&self) {
        let stop = JsValue::from_str(&ToWorker::Stop.encode());
        for member in &self.members {
            if !member.finished.get() && !member.stopping.replace(true) {
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
