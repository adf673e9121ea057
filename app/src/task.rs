//! One request run in a Web Worker of its own: a shrink or a comparison of execution models.
//!
//! The worker is the exploration's (`static/explore-worker.js`, the page's own module; see
//! [`crate::pool`]): it is sent the compiled module, says [`FromWorker::Ready`], is given the
//! request, reports progress and answers once. The task is then over and the worker is
//! terminated; dropping a [`Task`] terminates it at any time, which is how a task is
//! abandoned. [`Task::stop`] asks it for its result so far instead.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

use crate::explore::{FromWorker, ToWorker};
use crate::pool::bootstrap_message;

/// What a task's worker said, as the page passes it on.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskEvent {
    Progress {
        executions: u64,
        budget: u64,
    },
    /// The worker's last message: a result, or why there is none.
    Over(Rc<FromWorker>),
    /// The worker could not load, or stopped without answering.
    Crashed(String),
}

/// A worker running one request.
pub struct Task {
    worker: Worker,
    finished: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Task {
    /// Starts a worker from the script at `url` and gives it `request` once it is ready;
    /// `on_event` receives its progress and its answer.
    pub fn start(url: &str, request: &ToWorker, on_event: Callback<TaskEvent>) -> Result<Task, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(url, &options)
            .map_err(|e| format!("the browser could not start a Web Worker ({})", e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
        let finished = Rc::new(Cell::new(false));
        let request = request.encode();
        let on_message = {
            let (worker, finished, on_event) = (worker.clone(), finished.clone(), on_event.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if finished.get() {
                    return;
                }
                let text = event.data().as_string().unwrap_or_default();
                let reported = match FromWorker::decode(&text) {
                    Ok(FromWorker::Ready) => {
                        let _ = worker.post_message(&JsValue::from_str(&request));
                        return;
                    }
                    Ok(FromWorker::Progress { executions, budget }) => {
                        on_event.emit(TaskEvent::Progress { executions, budget });
                        return;
                    }
                    Ok(last) => TaskEvent::Over(Rc::new(last)),
                    Err(error) => TaskEvent::Crashed(format!("the worker sent an unreadable message ({error})")),
                };
                finished.set(true);
                worker.terminate();
                on_event.emit(reported);
            })
        };
        let on_error = {
            let (worker, finished) = (worker.clone(), finished.clone());
            Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
                if finished.replace(true) {
                    return;
                }
                worker.terminate();
                let detail = event.message();
                let message = if detail.is_empty() { "the worker could not be loaded".to_string() } else { format!("the worker stopped: {detail}") };
                on_event.emit(TaskEvent::Crashed(message));
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let _ = worker.post_message(&bootstrap_message());
        Ok(Task { worker, finished, _on_message: on_message, _on_error: on_error })
    }

    /// Asks the worker to stop after its current chunk and answer with what it has.
    pub fn stop(&self) {
        if !self.finished.get() {
            let _ = self.worker.post_message(&JsValue::from_str(&ToWorker::Stop.encode()));
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
