//! Preparing a scenario to run: compiling it once ([`Prepared`]), filling in a litmus test's
//! launch, picking the kernel, and the machine limits the scenario sets. Each
//! [`Session`](super::Session) starts from a `Prepared`.

use std::rc::Rc;

use crate::diag::{Diagnostic, LineIndex};
use crate::exec::{self, Limits, Machine};
use crate::frontend;
use crate::rng::Rng;
use crate::scenario::{Number, Scenario};

/// A scenario compiled once, to be launched many times ([`Session::start`]).
#[derive(Clone)]
pub struct Prepared {
    /// The scenario as it runs (a litmus test's launch and arguments filled in).
    pub scenario: Scenario,
    pub(crate) program: Rc<crate::ir::Program>,
    pub(super) kernel: usize,
    pub(super) lines: LineIndex,
    pub litmus: Option<Rc<crate::litmus::LitmusTest>>,
    /// Whether sessions keep snapshots for seeking.
    pub history: bool,
    /// Whether sessions keep every event in their logs. A session without a history may
    /// keep only atomics, and count and hash the rest ([`crate::trace::EventLog::forget_events`]);
    /// [`crate::why::finish`] then runs it to its end, starting over
    /// keeping them when it turns out they are needed.
    pub keep_events: bool,
    /// Whether sessions fold their events into the trace hash. An exploration turns it off:
    /// it never reads the hash of its runs, and `trace_hash` then means nothing.
    pub(crate) trace_hash: bool,
    /// The launched machine, when launching does not depend on the seed (no random buffer
    /// contents, no local memory): exploration then copies it instead of launching again.
    pub(super) template: Option<Machine>,
}

/// The machine limits a scenario sets.
pub(super) fn limits(scenario: &Scenario) -> Limits {
    Limits {
        instructions_per_step: scenario.max_instructions_per_step.max(1),
        printf_bytes: scenario.max_printf_bytes as usize,
        memory_bytes: scenario.max_memory_bytes,
        history_events: scenario.max_history_events,
        ..Limits::default()
    }
}

impl Prepared {
    /// Compiles `scenario`, or explains why it cannot run.
    pub fn new(mut scenario: Scenario) -> Result<Prepared, Vec<Diagnostic>> {
        // Checked as given, before a litmus test fills in its launch and arguments.
        scenario.check()?;
        let options = crate::lower::Options { statements: scenario.granularity == crate::scenario::Granularity::Statement, ..Default::default() };
        let mut litmus = None;
        let program = if scenario.dialect == crate::scenario::Dialect::Litmus {
            let test = crate::litmus::parse(&scenario.source).map_err(|d| vec![d])?;
            litmus_scenario(&mut scenario, &test);
            let program = frontend::compile_litmus(&test, &scenario.defines, options);
            litmus = Some(Rc::new(test));
            program.map_err(|d| vec![d])?
        } else {
            frontend::compile_with(&scenario.source, scenario.dialect, &scenario.defines, options).map_err(|d| vec![d])?
        };
        let kernel = pick_kernel(&program, &scenario).map_err(|d| vec![d])?;
        let lines = LineIndex::new(&scenario.source);
        Ok(Prepared { scenario, program: Rc::new(program), kernel, lines, litmus, history: true, keep_events: true, trace_hash: true, template: None })
    }

    /// The same scenario with `program` in place of the one it compiled to: for checking one
    /// compilation of it against another.
    #[cfg(test)]
    pub(crate) fn with_program(&self, program: crate::ir::Program) -> Prepared {
        Prepared { program: Rc::new(program), template: None, ..self.clone() }
    }

    /// The compiler's warnings about the source (it runs regardless).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.program.warnings
    }

    /// Launches once to keep the machine for every later start, when the launch does not
    /// depend on the seed: it draws nothing from the seed's generator and has no local memory
    /// (whose arbitrary contents come from the seed). For exploration, which starts thousands
    /// of runs of one small launch.
    pub fn keep_launch(&mut self) {
        let mut rng = Rng::new(self.scenario.seed);
        let machine = exec::launch(self.program.clone(), self.kernel, &self.scenario, &mut rng, limits(&self.scenario));
        self.template = machine.ok().filter(|m| rng.next_u64() == Rng::new(self.scenario.seed).next_u64() && m.groups.iter().all(|g| g.local.is_empty()));
        // The litmus test's placement does not depend on the seed either: the template
        // carries it, so a start only copies it.
        if let (Some(machine), Some(test)) = (self.template.as_mut(), &self.litmus) {
            place_litmus(machine, test, self.kernel);
        }
        if let Some(machine) = self.template.as_mut() {
            machine.log.set_hashing(self.trace_hash);
        }
    }
}

/// Places a litmus test's threads on their devices, lets its barriers meet by count and marks
/// the buffers of locations declared `local`, right after the launch.
pub(super) fn place_litmus(machine: &mut Machine, test: &crate::litmus::LitmusTest, kernel: usize) {
    machine.set_group_devices(&test.group_device);
    machine.barriers_by_count = true;
    // The buffers of locations declared `local` order like local memory.
    let params = &machine.program.kernels[kernel].params;
    let local: Vec<u32> = params
        .iter()
        .enumerate()
        .filter(|(_, p)| test.locations.iter().any(|l| l.name == p.name && l.space == crate::litmus::LitmusSpace::Local))
        .filter_map(|(i, _)| machine.items.first().and_then(|item| item.regs.get(i)).map(|&bits| crate::ir::ptr::alloc(bits)))
        .collect();
    machine.races.local_allocs.clone_from(&local);
    machine.weak.local_allocs = local;
}

/// A litmus test's launch: its work-groups, one buffer of one element per location holding
/// its initial value (a location declared `local` too: litmus locations are shared by every
/// thread), and the generated kernel.
pub(super) fn litmus_scenario(scenario: &mut Scenario, test: &crate::litmus::LitmusTest) {
    use crate::scenario::{Access, ArgBinding, ArgSpec, BufferInit, Launch};
    scenario.launch = Launch { global: vec![test.local_size * test.groups], local: Some(vec![test.local_size]), offset: Vec::new() };
    scenario.kernel = Some("__litmus".into());
    scenario.args = test
        .locations
        .iter()
        .map(|l| ArgBinding {
            name: l.name.clone(),
            spec: ArgSpec::Buffer { elem: l.elem, len: 1, init: BufferInit::Fill { value: Number::Int(l.initial) }, access: Access::ReadWrite },
        })
        .collect();
}

pub(super) fn pick_kernel(program: &crate::ir::Program, scenario: &Scenario) -> Result<usize, Diagnostic> {
    let names: Vec<&str> = program.kernels.iter().map(|k| k.name.as_str()).collect();
    match &scenario.kernel {
        Some(name) => program.kernels.iter().position(|k| &k.name == name).ok_or_else(|| {
            Diagnostic::error("invalid-launch", format!("there is no kernel named `{name}`")).with_note(if names.is_empty() {
                "the source defines no kernel".to_string()
            } else {
                format!("kernels in this source: {}", names.join(", "))
            })
        }),
        None => match names.len() {
            0 => Err(Diagnostic::error("invalid-launch", "the source defines no kernel")
                .with_help("mark the entry point with `__kernel`, e.g. `__kernel void f(__global int *data)`")),
            1 => Ok(0),
            _ => Err(Diagnostic::error("invalid-launch", format!("the source defines {} kernels; say which to run", names.len()))
                .with_note(format!("kernels in this source: {}", names.join(", ")))
                .with_help(format!("pass --kernel {}", names[0]))),
        },
    }
}
