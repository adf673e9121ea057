//! Opening files and downloading the scenario: the Open button (a file picker), files dropped
//! anywhere on the page (with a drop target shown while they are dragged over it), and the
//! Download button, which saves the current scenario as a `.toml` scenario file.
//!
//! The component only reads files as text and hands them over; what they mean (which is the
//! kernel of a `.sim` or `.toml` file, what goes wrong) is decided by the pure `crate::files`.
//! Several files may be chosen or dropped at once, which is how a scenario or simulation file
//! comes with its kernel.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::file::callbacks::FileReader;
use gloo::file::{Blob, ObjectUrl};
use gloo::timers::callback::Timeout;
use interleave_engine::scenario::{to_toml, Scenario};
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, HtmlAnchorElement, HtmlInputElement};
use yew::prelude::*;

use crate::files::{self, OpenedFile};

/// How long a downloaded file's object URL is kept: long enough for the browser to fetch it.
const KEEP_DOWNLOAD_URL_MS: u32 = 60_000;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The scenario to download; `None` while the launch panel holds an invalid value.
    pub scenario: Option<Rc<Scenario>>,
    /// The file the source came from, which names the download.
    #[prop_or_default]
    pub file_name: Option<AttrValue>,
    /// Files chosen or dropped together, read as text.
    pub on_open: Callback<Vec<OpenedFile>>,
}

/// Reads `list` as text and hands the files to `on_open` once all are read. A file that is
/// too large or cannot be read is handed over with the reason, so that it is explained.
fn read_files(list: &web_sys::FileList, readers: &Rc<RefCell<Vec<FileReader>>>, on_open: &Callback<Vec<OpenedFile>>) {
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    if files.is_empty() {
        return;
    }
    let results: Rc<RefCell<Vec<Option<OpenedFile>>>> = Rc::new(RefCell::new(vec![None; files.len()]));
    let finish = {
        let (results, on_open, readers) = (results.clone(), on_open.clone(), readers.clone());
        move || {
            let done: Option<Vec<OpenedFile>> = results.borrow().iter().cloned().collect();
            if let Some(done) = done {
                readers.borrow_mut().clear();
                on_open.emit(done);
            }
        }
    };
    let finish = Rc::new(finish);
    readers.borrow_mut().clear();
    for (i, file) in files.into_iter().enumerate() {
        let name = file.name();
        if file.size() > files::MAX_FILE_BYTES {
            results.borrow_mut()[i] = Some(OpenedFile {
                name,
                text: String::new(),
                unreadable: Some(format!(
                    "it is {:.1} MiB, more than the {} MiB a kernel or scenario file may have",
                    file.size() / 1_048_576.0,
                    files::MAX_FILE_BYTES / 1_048_576.0
                )),
            });
            continue;
        }
        let (results, finish) = (results.clone(), finish.clone());
        let reader = gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |read| {
            let opened = match read {
                Ok(text) => OpenedFile { name, text, unreadable: None },
                Err(e) => OpenedFile { name, text: String::new(), unreadable: Some(e.to_string()) },
            };
            results.borrow_mut()[i] = Some(opened);
            finish();
        });
        readers.borrow_mut().push(reader);
    }
    // Files that were all refused without reading are handed over at once.
    finish();
}

/// Whether a drag carries files (rather than text or a link being moved on the page).
fn carries_files(event: &DragEvent) -> bool {
    event.data_transfer().is_some_and(|transfer| {
        let types = transfer.types();
        (0..types.length()).any(|i| types.get(i).as_string().as_deref() == Some("Files"))
    })
}

/// Saves `text` as a file called `name` through a temporary link.
fn download(text: &str, name: &str) {
    let blob = Blob::new_with_options(text, Some("application/toml"));
    let url = ObjectUrl::from(blob);
    let document = gloo::utils::document();
    let Ok(link) = document.create_element("a") else {
        return;
    };
    let link: HtmlAnchorElement = link.unchecked_into();
    link.set_href(&url);
    link.set_download(name);
    link.click();
    // Revoked later rather than now, so that the browser has fetched it.
    Timeout::new(KEEP_DOWNLOAD_URL_MS, move || drop(url)).forget();
}

#[component]
pub fn FileBar(props: &Props) -> Html {
    let input = use_node_ref();
    let readers: Rc<RefCell<Vec<FileReader>>> = use_mut_ref(Vec::new);
    let dragging = use_state(|| false);

    // Files dragged over any part of the page: show the drop target, and open them on drop.
    {
        let (dragging, readers, on_open) = (dragging.clone(), readers.clone(), props.on_open.clone());
        use_effect_with(props.on_open.clone(), move |_| {
            let document = gloo::utils::document();
            let options = EventListenerOptions::enable_prevent_default();
            let over = {
                let dragging = dragging.clone();
                move |event: &web_sys::Event| {
                    let Some(event) = event.dyn_ref::<DragEvent>() else {
                        return;
                    };
                    if carries_files(event) {
                        // Without this the browser would open the file itself.
                        event.prevent_default();
                        if let Some(transfer) = event.data_transfer() {
                            transfer.set_drop_effect("copy");
                        }
                        dragging.set(true);
                    }
                }
            };
            let enter = EventListener::new_with_options(&document, "dragenter", options, over.clone());
            let over = EventListener::new_with_options(&document, "dragover", options, over);
            let leave = {
                let dragging = dragging.clone();
                EventListener::new(&document, "dragleave", move |event| {
                    // Leaving for another element of the page keeps the target; leaving the
                    // window (no element to go to) hides it.
                    if let Some(event) = event.dyn_ref::<DragEvent>() {
                        if event.related_target().is_none() {
                            dragging.set(false);
                        }
                    }
                })
            };
            let on_drop = EventListener::new_with_options(&document, "drop", options, move |event| {
                let Some(event) = event.dyn_ref::<DragEvent>() else {
                    return;
                };
                dragging.set(false);
                if let Some(list) = event.data_transfer().and_then(|t| t.files()) {
                    if list.length() > 0 {
                        event.prevent_default();
                        read_files(&list, &readers, &on_open);
                    }
                }
            });
            move || std::mem::drop((enter, over, leave, on_drop))
        });
    }

    let onchange = {
        let (readers, on_open) = (readers.clone(), props.on_open.clone());
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Some(list) = input.files() {
                read_files(&list, &readers, &on_open);
            }
            // Choosing the same file again must fire another change.
            input.set_value("");
        })
    };
    let open_picker = {
        let input = input.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = input.cast::<HtmlInputElement>() {
                input.click();
            }
        })
    };

    let toml = use_memo(props.scenario.clone(), |scenario| scenario.as_ref().map(|s| to_toml(s).map_err(|d| d.message)));
    let name = files::download_name(props.file_name.as_deref());
    let (download_title, on_download) = match &*toml {
        None => ("Fix the highlighted launch settings first.".to_string(), None),
        Some(Err(why)) => (why.clone(), None),
        Some(Ok(text)) => {
            let (text, name) = (text.clone(), name.clone());
            (format!("Save the scenario (source, launch, arguments, schedule) as {name}"), Some(Callback::from(move |_: MouseEvent| download(&text, &name))))
        }
    };

    html! {
        <div class="file-bar">
            <input
                ref={input}
                id="open-file-input"
                type="file"
                class="visually-hidden"
                multiple=true
                accept={files::ACCEPT}
                tabindex="-1"
                aria-hidden="true"
                aria-label="Files to open"
                {onchange}
            />
            <button id="open-file" type="button" onclick={open_picker} title="Open a kernel (.cl, .cu), a litmus test, or a .sim or .toml file with its kernel; or drop files on the page">
                { "Open…" }
            </button>
            <button id="download-scenario" type="button" disabled={on_download.is_none()} title={download_title} onclick={on_download.unwrap_or_default()}>
                { "Download .toml" }
            </button>
            if *dragging {
                <div id="drop-target" class="drop-target" aria-hidden="true">
                    <p>{ "Drop to open: a kernel (.cl, .cu), a litmus test, or a .sim or .toml file together with its kernel" }</p>
                </div>
            }
        </div>
    }
}
