//! The user's inputs as plain data: what the editor and the launch panel hold, in the form
//! the page keeps in `localStorage` and the form scenario files are read into.
//!
//! Everything is kept as the user typed it (text, and enums by name), so that an edit halfway
//! through, invalid or not, survives a reload exactly. The stored value carries a version;
//! decoding is tolerant: a missing field takes its default, an unknown name falls back to the
//! default, an argument row that cannot be read keeps its text, and a value that is not ours
//! at all (or from a newer version) is reported rather than trusted, so a bad stored value
//! can never stop the page from starting.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use interleave_engine::scenario::{Dialect, Scenario, SchedulerKind};

use crate::args::ArgFields;

/// The `localStorage` key of the stored inputs.
pub const STORAGE_KEY: &str = "interleave.inputs";

/// The version of the stored format. Bump it when a field changes meaning, and read the old
/// version in [`decode`].
pub const VERSION: u32 = 1;

/// The fields of a scenario the panel has no control for (a scenario file's title,
/// description, lesson and definitions, the heap, limits), carried along unchanged so that opening a file and
/// downloading it again loses nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Carried {
    pub title: String,
    /// What the scenario shows, for people (a gallery example's description).
    pub description: String,
    /// The lesson the scenario teaches, for people.
    pub lesson: String,
    /// Preprocessor definitions (`-D`); they also decide the kernel's signature.
    pub defines: Vec<String>,
    pub heap_bytes: u64,
    pub max_instructions_per_step: u64,
    pub default_buffer_elements: Option<u64>,
    pub report_buffers: Vec<String>,
    pub race_detection: bool,
}

impl Default for Carried {
    fn default() -> Carried {
        Carried::of(&Scenario::default())
    }
}

impl Carried {
    /// The carried fields of `scenario`.
    pub fn of(scenario: &Scenario) -> Carried {
        Carried {
            title: scenario.title.clone(),
            description: scenario.description.clone(),
            lesson: scenario.lesson.clone(),
            defines: scenario.defines.clone(),
            heap_bytes: scenario.heap_bytes,
            max_instructions_per_step: scenario.max_instructions_per_step,
            default_buffer_elements: scenario.default_buffer_elements,
            report_buffers: scenario.report_buffers.clone(),
            race_detection: scenario.race_detection,
        }
    }

    /// Sets the carried fields on `scenario`.
    pub fn apply(&self, scenario: &mut Scenario) {
        scenario.title = self.title.clone();
        scenario.description = self.description.clone();
        scenario.lesson = self.lesson.clone();
        scenario.defines = self.defines.clone();
        scenario.heap_bytes = self.heap_bytes;
        scenario.max_instructions_per_step = self.max_instructions_per_step;
        scenario.default_buffer_elements = self.default_buffer_elements;
        scenario.report_buffers = self.report_buffers.clone();
        scenario.race_detection = self.race_detection;
    }
}

/// One argument row: its text, the parameter it was made for, and its fields when it was
/// edited through them (kept as JSON so that a row whose fields cannot be read still keeps
/// its text).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StoredArg {
    pub text: String,
    pub param: Option<String>,
    pub fields: Option<Value>,
}

impl StoredArg {
    /// The row's fields, if they are there and readable.
    pub fn fields(&self) -> Option<ArgFields> {
        self.fields
            .as_ref()
            .and_then(|value| serde_json::from_value(value.clone()).ok())
    }
}

/// An explored execution being replayed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StoredReplay {
    pub schedule: Vec<u32>,
    pub choices: Vec<u32>,
}

/// Everything the user has typed or chosen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inputs {
    pub source: String,
    /// `opencl` or `cuda` (a litmus test is recognised from the source).
    pub dialect: String,
    pub kernel: Option<String>,
    /// The global size, or for CUDA the grid.
    pub global: String,
    /// The local size, or for CUDA the block.
    pub local: String,
    pub offset: String,
    pub seed: String,
    pub scheduler: String,
    pub pct_depth: String,
    pub memory_model: String,
    pub warp_size: String,
    pub resident_groups: String,
    pub progress: String,
    pub granularity: String,
    pub max_steps: String,
    /// The texts of the resource limit fields (`crate::form::LIMITS`, in order); empty in a
    /// value stored before they existed, which then takes the defaults.
    pub limits: Vec<String>,
    pub args: Vec<StoredArg>,
    pub replay: Option<StoredReplay>,
    pub carried: Carried,
    /// The example the editor holds unedited, by id.
    pub example: Option<String>,
    /// The file the source was opened from.
    pub file_name: Option<String>,
}

impl Default for Inputs {
    /// The inputs the page starts with, so that a field a stored value lacks takes the value
    /// it would have on a first visit.
    fn default() -> Inputs {
        crate::state::State::default().inputs()
    }
}

/// The name the stored format gives a dialect.
pub fn dialect_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Cuda => "cuda",
        Dialect::OpenCl | Dialect::Litmus => "opencl",
    }
}

/// Sizes as the panel writes them: `8` or `8,2`.
pub fn sizes_text(sizes: &[u64]) -> String {
    let parts: Vec<String> = sizes.iter().map(u64::to_string).collect();
    parts.join(",")
}

/// The inputs that describe `scenario` (a scenario file, or a `.sim` file's launch). A CUDA
/// launch is shown as a grid of blocks; a manual schedule becomes a replay.
pub fn from_scenario(scenario: &Scenario) -> Inputs {
    let launch = &scenario.launch;
    let (global, local) = match (scenario.dialect, &launch.local) {
        (Dialect::Cuda, Some(block))
            if block.len() == launch.global.len()
                && block
                    .iter()
                    .zip(&launch.global)
                    .all(|(b, g)| *b > 0 && g % b == 0) =>
        {
            let grid: Vec<u64> = launch
                .global
                .iter()
                .zip(block)
                .map(|(g, b)| g / b)
                .collect();
            (sizes_text(&grid), sizes_text(block))
        }
        // A CUDA launch without a block leaves the block to be filled in (the panel flags it).
        (Dialect::Cuda, None) => (sizes_text(&launch.global), String::new()),
        (_, local) => (
            sizes_text(&launch.global),
            local.as_deref().map(sizes_text).unwrap_or_default(),
        ),
    };
    let replay = (scenario.scheduler == SchedulerKind::Manual).then(|| StoredReplay {
        schedule: scenario.schedule.clone(),
        choices: scenario.choices.clone(),
    });
    let scheduler = match scenario.scheduler {
        SchedulerKind::Manual => SchedulerKind::Random,
        other => other,
    };
    Inputs {
        source: scenario.source.clone(),
        dialect: dialect_name(scenario.dialect).into(),
        kernel: scenario.kernel.clone(),
        global,
        local,
        offset: sizes_text(&launch.offset),
        seed: scenario.seed.to_string(),
        scheduler: scheduler.name().into(),
        pct_depth: scenario.pct_depth.to_string(),
        memory_model: match scenario.memory_model {
            interleave_engine::scenario::MemoryModel::Sc => "sc".into(),
            interleave_engine::scenario::MemoryModel::Relaxed => "relaxed".into(),
        },
        warp_size: scenario.warp_size.to_string(),
        resident_groups: scenario
            .max_resident_groups
            .map(|n| n.to_string())
            .unwrap_or_default(),
        progress: scenario.progress.name().into(),
        granularity: scenario.granularity.name().into(),
        max_steps: scenario.max_steps.to_string(),
        limits: crate::form::limit_texts(scenario).to_vec(),
        args: scenario
            .args
            .iter()
            .map(|binding| StoredArg {
                text: binding.to_string(),
                param: None,
                fields: None,
            })
            .collect(),
        replay,
        carried: Carried::of(scenario),
        example: None,
        file_name: None,
    }
}

/// Inputs set aside when something else was loaded over them, until the user restores or
/// dismisses them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stash {
    /// What was loaded (an example's title, a file's name).
    pub label: String,
    pub inputs: Inputs,
    /// Whether the user already restored their edits: the stash then holds what was loaded.
    pub restored: bool,
}

/// What `localStorage` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    pub version: u32,
    pub current: Inputs,
    /// Whether `current` was edited since it was loaded (so loading over it sets it aside).
    #[serde(default = "edited_by_default")]
    pub edited: bool,
    #[serde(default)]
    pub stash: Option<Stash>,
}

/// Without word either way, inputs are taken as the user's own edits, which are kept.
fn edited_by_default() -> bool {
    true
}

/// The stored text of `current` (`edited` or not) and `stash`.
pub fn encode(current: Inputs, edited: bool, stash: Option<Stash>) -> String {
    let stored = Stored {
        version: VERSION,
        current,
        edited,
        stash,
    };
    // Plain strings, numbers and JSON values only: this cannot fail.
    serde_json::to_string(&stored).unwrap_or_default()
}

/// Reads a stored value, or says why it cannot be used.
pub fn decode(text: &str) -> Result<Stored, String> {
    // From bytes, as every JSON reader of the page does, so that serde_json's parser is
    // compiled for one input type only.
    let value: Value = serde_json::from_slice(text.as_bytes())
        .map_err(|e| format!("the saved inputs are not JSON ({e})"))?;
    let version = value
        .get("version")
        .and_then(Value::as_u64)
        .ok_or("the saved inputs have no version")?;
    if version > u64::from(VERSION) {
        return Err(format!(
            "the saved inputs are from a newer version of Interleave (format {version})"
        ));
    }
    let current = value
        .get("current")
        .ok_or("the saved inputs are empty")?
        .clone();
    let current: Inputs = serde_json::from_value(current)
        .map_err(|e| format!("the saved inputs cannot be read ({e})"))?;
    // A stash that cannot be read is dropped rather than blocking the current inputs.
    let stash = value
        .get("stash")
        .cloned()
        .and_then(|stash| serde_json::from_value::<Option<Stash>>(stash).ok())
        .flatten();
    let edited = value
        .get("edited")
        .and_then(Value::as_bool)
        .unwrap_or_else(edited_by_default);
    Ok(Stored {
        version: VERSION,
        current,
        edited,
        stash,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;
    use interleave_engine::scenario::{from_toml, ArgBinding, Launch};

    #[test]
    fn inputs_survive_encoding() {
        let mut inputs = State::default().inputs();
        inputs.global = "abc".into();
        inputs.carried.defines = vec!["N=4".into()];
        let stash = Stash {
            label: "MP".into(),
            inputs: Inputs::default(),
            restored: false,
        };
        let decoded = decode(&encode(inputs.clone(), false, Some(stash.clone()))).unwrap();
        assert_eq!(decoded.current, inputs);
        assert!(!decoded.edited);
        assert_eq!(decoded.stash, Some(stash));
    }

    #[test]
    fn bad_stored_values_are_reported_not_trusted() {
        for (text, why) in [
            ("", "not JSON"),
            ("{\"current\": {}}", "no version"),
            ("[1, 2]", "no version"),
            ("{\"version\": 99, \"current\": {}}", "newer version"),
            ("{\"version\": 1}", "empty"),
            (
                "{\"version\": 1, \"current\": {\"global\": 8}}",
                "cannot be read",
            ),
        ] {
            let error = decode(text).unwrap_err();
            assert!(error.contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn missing_and_unreadable_parts_take_their_defaults() {
        let text = r#"{"version": 1, "current": {"source": "k", "args": [{"text": "n=int:1", "fields": {"kind": "teapot"}}], "unknown": 3}, "stash": {"label": 7}}"#;
        let stored = decode(text).unwrap();
        assert_eq!(stored.current.source, "k");
        assert_eq!(stored.current.global, Inputs::default().global);
        assert_eq!(stored.current.args[0].text, "n=int:1");
        assert_eq!(stored.current.args[0].fields(), None);
        assert_eq!(stored.stash, None);
        assert!(stored.edited);
    }

    #[test]
    fn a_cuda_scenario_shows_its_grid_and_block() {
        let mut scenario = Scenario::new("", "k.cu", Dialect::Cuda);
        scenario.launch = Launch {
            global: vec![64, 4],
            local: Some(vec![32, 2]),
            offset: Vec::new(),
        };
        scenario.scheduler = SchedulerKind::Manual;
        scenario.schedule = vec![1, 0];
        scenario.args = vec![ArgBinding::parse("p=int[4]:fill=1").unwrap()];
        let inputs = from_scenario(&scenario);
        assert_eq!(
            (inputs.global.as_str(), inputs.local.as_str()),
            ("2,2", "32,2")
        );
        assert_eq!(inputs.dialect, "cuda");
        assert_eq!(inputs.scheduler, "random");
        assert_eq!(inputs.replay.unwrap().schedule, [1, 0]);
        assert_eq!(inputs.args[0].text, "p=int[4]:fill=1");
    }

    #[test]
    fn a_scenario_file_s_hidden_fields_are_carried() {
        let scenario = from_toml(
            "title = \"t\"\ndescription = \"d\"\nlesson = \"l\"\ndefines = [\"N=2\"]\nheap_bytes = 64\nrace_detection = false\nsource = \"x\"\n[launch]\nglobal = [4]\noffset = [2]\n",
            |_| unreachable!("inline source"),
        )
        .unwrap();
        let inputs = from_scenario(&scenario);
        assert_eq!(inputs.offset, "2");
        assert_eq!(inputs.local, "");
        let mut back = Scenario::default();
        inputs.carried.apply(&mut back);
        assert_eq!(back.title, "t");
        assert_eq!((back.description.as_str(), back.lesson.as_str()), ("d", "l"));
        assert_eq!(back.defines, ["N=2"]);
        assert_eq!(back.heap_bytes, 64);
        assert!(!back.race_detection);
    }
}
