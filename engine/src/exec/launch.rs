//! Launch: from a lowered program and a scenario to the initial machine.
//!
//! Checks the NDRange, binds every kernel parameter to an argument (or to a default buffer
//! filled from the seed), lays out memory and runs every work-item to its first event.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::{interp, Alloc, Group, Limits, Machine, Status, WorkItem};
use crate::diag::Diagnostic;
use crate::ir::{ptr, Function, Instr, ParamKind, Program};
use crate::limits::thousands;
use crate::rng::Rng;
use crate::scenario::{Access, ArgSpec, BufferInit, ElemType, Number, Scenario};
use crate::trace::{EventLog, Space};

/// Distinguishes the machine's random stream from the scheduler's for the same seed.
pub const MACHINE_STREAM: u64 = 0x6d61_6368_696e_6521;

/// The random stream that fills local memory before a kernel writes it.
const LOCAL_MEMORY_STREAM: u64 = 0x6c6f_6361_6c21_2121;

/// The NDRange of a launch, padded to three dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub dims: u32,
    pub global: [u64; 3],
    /// The enqueued work-group size; the last group in a dimension may be smaller.
    pub local: [u64; 3],
    pub offset: [u64; 3],
    pub num_groups: [u64; 3],
}

impl Geometry {
    pub fn group_id(&self, group: u32) -> [u64; 3] {
        let g = group as u64;
        let [nx, ny, nz] = self.num_groups;
        // A row of groups (every one-dimensional launch) needs no division: each costs tens
        // of cycles, and `get_global_id` asks for both coordinates.
        if ny == 1 && nz == 1 {
            return [g, 0, 0];
        }
        [g % nx, (g / nx) % ny, g / (nx * ny)]
    }

    /// The actual size of a group (smaller than `local` for a trailing partial group).
    pub fn group_size(&self, group: u32) -> [u64; 3] {
        let id = self.group_id(group);
        let mut size = [1; 3];
        for d in 0..3 {
            size[d] = self.local[d].min(self.global[d] - id[d] * self.local[d]);
        }
        size
    }

    pub fn local_id(&self, group: u32, local_linear: u32) -> [u64; 3] {
        let l = local_linear as u64;
        // As in `group_id`: in a row of work-items the linear index is the x coordinate.
        if self.local[1] == 1 && self.local[2] == 1 {
            return [l, 0, 0];
        }
        let [sx, sy, _] = self.group_size(group);
        [l % sx, (l / sx) % sy, l / (sx * sy)]
    }

    pub fn global_id(&self, group: u32, local_linear: u32) -> [u64; 3] {
        let gid = self.group_id(group);
        let lid = self.local_id(group, local_linear);
        let mut out = [0; 3];
        for d in 0..3 {
            out[d] = gid[d] * self.local[d] + lid[d] + self.offset[d];
        }
        out
    }

    pub fn work_items(&self) -> u64 {
        self.global.iter().product()
    }

    pub fn group_count(&self) -> u64 {
        self.num_groups.iter().product()
    }
}

fn launch_error(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("invalid-launch", message)
}

fn geometry(scenario: &Scenario) -> Result<Geometry, Diagnostic> {
    let global = &scenario.launch.global;
    if global.is_empty() || global.len() > 3 {
        return Err(launch_error("the global size needs 1 to 3 dimensions, e.g. --global 64 or --global 16,16"));
    }
    if global.contains(&0) {
        return Err(launch_error("every dimension of the global size must be at least 1"));
    }
    let dims = global.len();
    let mut g = [1u64; 3];
    g[..dims].copy_from_slice(global);
    let total = g.iter().try_fold(1u64, |acc, &x| acc.checked_mul(x)).unwrap_or(u64::MAX);
    if total > scenario.max_work_items {
        return Err(crate::limits::WORK_ITEMS.refused(total, scenario.max_work_items, "this launch"));
    }
    let mut l = [1u64; 3];
    match &scenario.launch.local {
        Some(local) => {
            if local.len() != dims {
                return Err(launch_error(format!("the local size has {} dimension(s) but the global size has {dims}", local.len())));
            }
            if local.contains(&0) {
                return Err(launch_error("every dimension of the local size must be at least 1"));
            }
            l[..dims].copy_from_slice(local);
        }
        None => {
            // Like an OpenCL implementation, pick a size that divides the range: the largest
            // divisor of the first dimension up to 256.
            l[0] = (1..=g[0].min(256)).rev().find(|d| g[0] % d == 0).unwrap_or(1);
        }
    }
    let group_items: u64 = l.iter().product();
    if group_items > 1024 {
        return Err(launch_error(format!("a work-group of {group_items} work-items is more than the limit of 1024")));
    }
    let mut num_groups = [1u64; 3];
    for d in 0..3 {
        num_groups[d] = g[d].div_ceil(l[d]);
    }
    let mut offset = [0u64; 3];
    let given = &scenario.launch.offset;
    if !given.is_empty() {
        if given.len() != dims {
            return Err(launch_error(format!("the global offset has {} dimension(s) but the global size has {dims}", given.len())));
        }
        for d in 0..dims {
            // A global id is offset + index; it must stay a valid size_t.
            if given[d].checked_add(g[d]).is_none() {
                return Err(launch_error(format!("the global offset {} overflows the range of global ids", given[d])));
            }
        }
        offset[..dims].copy_from_slice(given);
    }
    Ok(Geometry { dims: dims as u32, global: g, local: l, offset, num_groups })
}

fn random_value(rng: &mut Rng, ty: ElemType) -> Number {
    // Small, readable values: integers 0..99, floats with two decimals in [0, 10).
    let r = rng.below(100) as i64;
    match ty {
        ElemType::Float | ElemType::Double => Number::Float((rng.below(1000) as f64) / 100.0),
        ElemType::Bool => Number::Int(r & 1),
        _ => Number::Int(r),
    }
}

/// The register bits of a number converted to `ty`.
pub fn number_bits(n: Number, ty: ElemType) -> u64 {
    match ty {
        ElemType::Float => (n.as_f64() as f32).to_bits() as u64,
        ElemType::Double => n.as_f64().to_bits(),
        _ => {
            let v = match n {
                Number::Float(f) => f as i64 as u64,
                Number::Int(i) => i as u64,
                Number::UInt(u) => u,
            };
            let mut bytes = [0u8; 8];
            ty.encode(v, &mut bytes);
            ty.decode(&bytes)
        }
    }
}

/// `n` copies of `value`, or a diagnostic when the host cannot give the memory: sizes come
/// from the user (within the memory limit, which a host may still not have), and a failed
/// allocation must end in a message, never in an abort of the process.
pub(crate) fn filled<T: Clone>(n: u64, value: T, what: &str) -> Result<Vec<T>, Diagnostic> {
    let mut v = Vec::new();
    match usize::try_from(n).ok().filter(|&n| v.try_reserve_exact(n).is_ok()) {
        Some(n) => {
            v.resize(n, value);
            Ok(v)
        }
        None => Err(Diagnostic::error(
            "resource-limit",
            format!("this machine could not allocate {} bytes for {what}", thousands(n.saturating_mul(std::mem::size_of::<T>() as u64))),
        )
        .with_help("make the launch smaller or lower `max_memory_bytes`")),
    }
}

fn fill_buffer(name: &str, elem: ElemType, len: u64, init: &BufferInit, access: Access, rng: &mut Rng) -> Result<Alloc, Diagnostic> {
    let size = elem.size();
    let mut bytes = filled(len.saturating_mul(size), 0u8, &format!("buffer `{name}`"))?;
    let mut put = |i: u64, n: Number| {
        let at = (i * size) as usize;
        elem.encode(number_bits(n, elem), &mut bytes[at..]);
    };
    let mut init_bits = None;
    match init {
        BufferInit::Zeros => {}
        BufferInit::Fill { value } => {
            // One element's bytes, repeated: converting the value once, and not at all when
            // its bytes are zero, which the buffer already is.
            let mut pattern = [0u8; 8];
            elem.encode(number_bits(*value, elem), &mut pattern);
            if pattern != [0; 8] {
                repeat(&mut bytes, &pattern, size);
            }
        }
        BufferInit::Range { start, step } => {
            for i in 0..len {
                let n = match (start, step) {
                    (Number::Float(_), _) | (_, Number::Float(_)) => Number::Float(start.as_f64() + step.as_f64() * i as f64),
                    _ => Number::Int(start.as_i64_wrapping().wrapping_add(step.as_i64_wrapping().wrapping_mul(i as i64))),
                };
                put(i, n);
            }
        }
        BufferInit::Values { values } => {
            if values.len() as u64 > len {
                return Err(launch_error(format!("`{name}` has {len} elements but {} values were given", values.len())));
            }
            for (i, v) in values.iter().enumerate() {
                put(i as u64, *v);
            }
        }
        BufferInit::Random => (0..len).for_each(|i| put(i, random_value(rng, elem))),
        BufferInit::Uninit => init_bits = Some(filled(len * size, false, &format!("buffer `{name}`"))?),
    }
    Ok(Alloc { name: name.to_string(), bytes, init: init_bits, access, elem: Some(elem), shadow: Default::default() })
}

/// Fills `bytes` with copies of the first `size` bytes of `pattern`, one arm per width so
/// that each copy has a constant length.
fn repeat(bytes: &mut [u8], pattern: &[u8; 8], size: u64) {
    match size {
        1 => bytes.fill(pattern[0]),
        2 => bytes.chunks_exact_mut(2).for_each(|chunk| chunk.copy_from_slice(&pattern[..2])),
        4 => bytes.chunks_exact_mut(4).for_each(|chunk| chunk.copy_from_slice(&pattern[..4])),
        _ => bytes.chunks_exact_mut(8).for_each(|chunk| chunk.copy_from_slice(pattern)),
    }
}

/// What a launch holds for each work-item and each work-group, in bytes of the host.
struct Held {
    /// From its group's start to the end of the run: the `WorkItem`, its kernel's registers,
    /// the private memory of its by-value arguments and kernel variables with their
    /// initialisation flags (in their `Rare` box), its places in the ready list and the
    /// detectors' agent tables, and its relaxed-model view.
    work_item: u64,
    /// Of `work_item`, what each work-item reserves itself as it starts (its kernel's private
    /// variables), charged to the run's room as it happens.
    grown: u64,
    /// Its private memory once its kernel's variables are reserved.
    private: u64,
    /// A work-group's own record and its copy engine's places.
    group: u64,
}

impl Held {
    fn new(kernel: &Function, image: u64, relaxed: bool) -> Held {
        use std::mem::size_of;
        let private = kernel_private_bytes(kernel, image);
        let rare = if private > 0 { size_of::<super::Rare>() as u64 } else { 0 };
        // The ready list and its positions, and the agent's group (and device) in each detector.
        let bookkeeping = 5 * size_of::<u32>() as u64 + if relaxed { size_of::<crate::concurrency::weak::Agent>() as u64 } else { 0 };
        let work_item = size_of::<WorkItem>() as u64 + super::regs_heap_bytes_for(kernel.num_regs as usize) + rare + private * 2 + bookkeeping;
        let grown = (private - image) * 2 + if image == 0 { rare } else { 0 };
        Held { work_item, grown, private, group: size_of::<Group>() as u64 + bookkeeping }
    }
}

/// The private memory every work-item holds once its kernel's own variables are reserved:
/// the image of its by-value arguments, then each `Alloca` at the kernel's entry (lowering
/// puts them all there), aligned as the interpreter aligns them.
fn kernel_private_bytes(kernel: &Function, image: u64) -> u64 {
    kernel
        .code
        .iter()
        .map_while(|i| match *i {
            Instr::Alloca { size, align, .. } => Some((size as u64, align.max(1) as u64)),
            _ => None,
        })
        .fold(image, |top, (size, align)| top.div_ceil(align) * align + size)
}

/// Builds the initial machine for `kernel` of `program`.
pub fn launch(program: Rc<Program>, kernel: usize, scenario: &Scenario, rng: &mut Rng, limits: Limits) -> Result<Machine, Diagnostic> {
    let k = &program.kernels[kernel];
    let geometry = match k.reqd_work_group_size {
        // With no local size given, the kernel's required one is used.
        Some((size, _)) if scenario.launch.local.is_none() => {
            let mut s = scenario.clone();
            s.launch.local = Some(size[..s.launch.global.len().clamp(1, 3)].to_vec());
            geometry(&s)?
        }
        _ => geometry(scenario)?,
    };
    if let Some((size, span)) = k.reqd_work_group_size {
        if geometry.local != size {
            let l = geometry.local;
            return Err(launch_error(format!(
                "kernel `{}` requires work-groups of {}x{}x{}, but the launch uses {}x{}x{}",
                k.name, size[0], size[1], size[2], l[0], l[1], l[2]
            ))
            .with_span(span, "required by this attribute")
            .with_help(format!("launch with --local {},{},{} or leave --local out", size[0], size[1], size[2])));
        }
    }
    let n_items = geometry.work_items();
    let default_elems = scenario.default_buffer_elements.unwrap_or((4 * n_items).max(1024));
    let param_names: BTreeSet<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    for arg in &scenario.args {
        if !param_names.contains(arg.name.as_str()) {
            let known: Vec<&str> = param_names.iter().copied().collect();
            return Err(launch_error(format!("kernel `{}` has no parameter named `{}`", k.name, arg.name))
                .with_note(format!("its parameters are: {}", known.join(", "))));
        }
    }
    // Everything the launch holds is charged before it is allocated; what its work-items
    // will grow into later (calls, saved spin states) is charged as they grow.
    let mut memory_bytes: u64 = 0;
    let mut budget = |bytes: u64, what: &str| -> Result<(), Diagnostic> {
        memory_bytes = memory_bytes.saturating_add(bytes);
        if memory_bytes > scenario.max_memory_bytes {
            return Err(crate::limits::MEMORY_BYTES.refused(memory_bytes, scenario.max_memory_bytes, &format!("this launch, with {what},")));
        }
        Ok(())
    };
    let n_groups_total = geometry.group_count();
    let mut global = vec![Alloc { name: "NULL".into(), bytes: Vec::new(), init: None, access: Access::ReadWrite, elem: None, shadow: Default::default() }];
    let mut constant = vec![Alloc { name: "NULL".into(), bytes: Vec::new(), init: None, access: Access::ReadOnly, elem: None, shadow: Default::default() }];
    let mut local_sizes: Vec<(String, u64, Option<ElemType>)> = program.locals.iter().map(|l| (l.name.clone(), l.size, l.elem)).collect();
    let mut param_values = Vec::new();
    // Structs and vectors passed by value: the bytes every work-item starts its private
    // memory with, one copy each.
    let mut private_image: Vec<u8> = Vec::new();
    for p in &k.params {
        let spec = scenario.args.iter().find(|a| a.name == p.name).map(|a| &a.spec);
        let value = match (&p.kind, spec) {
            (ParamKind::Scalar(ty), Some(ArgSpec::Scalar { value, .. })) => number_bits(*value, *ty),
            (ParamKind::Scalar(ty), None) => {
                return Err(launch_error(format!("the scalar parameter `{}` has no value", p.name)).with_help(format!(
                    "pass one with --arg {}={}:VALUE",
                    p.name,
                    ty.name()
                )))
            }
            (ParamKind::Scalar(ty), Some(_)) => {
                return Err(launch_error(format!("`{}` is a scalar `{}`, so its argument must be a value", p.name, ty.name())).with_help(format!(
                    "pass one with --arg {}={}:VALUE",
                    p.name,
                    ty.name()
                )))
            }
            (ParamKind::Aggregate { size, align }, spec) => {
                let bytes = match spec {
                    Some(ArgSpec::Buffer { elem, len, init, access }) => fill_buffer(&p.name, *elem, *len, init, *access, rng)?.bytes,
                    None => fill_buffer(&p.name, ElemType::UChar, *size, &BufferInit::Random, Access::ReadWrite, rng)?.bytes,
                    Some(_) => {
                        return Err(launch_error(format!("`{}` is a {size}-byte struct or vector passed by value, so its argument is its bytes", p.name))
                            .with_help(format!("pass them with --arg {}=uchar[{size}]:values=... (or leave it out for seeded random bytes)", p.name)))
                    }
                };
                if bytes.len() as u64 > *size {
                    return Err(launch_error(format!("`{}` has {size} bytes, but its argument gives {}", p.name, bytes.len())));
                }
                let at = private_image.len().div_ceil(*align as usize) * *align as usize;
                private_image.resize(at + *size as usize, 0);
                private_image[at..at + bytes.len()].copy_from_slice(&bytes);
                ptr::make(Space::Private, 1, at as u64)
            }
            (ParamKind::Pointer { .. }, Some(ArgSpec::Null)) => 0,
            (ParamKind::Pointer { space: Space::Local, elem, .. }, spec) => {
                let bytes = match spec {
                    Some(ArgSpec::Local { bytes }) => *bytes,
                    None => default_elems * elem.map_or(1, ElemType::size),
                    Some(_) => {
                        return Err(launch_error(format!("`{}` points to local memory, so its argument is a size", p.name))
                            .with_help(format!("pass one with --arg {}=local:BYTES", p.name)))
                    }
                };
                // Each byte of local memory comes with its initialisation flag, in every group.
                budget(
                    bytes.saturating_mul(2).saturating_mul(n_groups_total),
                    &format!("local memory `{}` ({} bytes for each of {} work-groups)", p.name, thousands(bytes), thousands(n_groups_total)),
                )?;
                local_sizes.push((p.name.clone(), bytes, *elem));
                ptr::make(Space::Local, (local_sizes.len() - 1) as u32, 0)
            }
            (ParamKind::Pointer { space, elem, is_const }, spec) => {
                let (alloc_elem, len, init, access) = match spec {
                    Some(ArgSpec::Buffer { elem, len, init, access }) => (*elem, *len, init.clone(), *access),
                    None => (elem.unwrap_or(ElemType::UChar), default_elems, BufferInit::Random, Access::ReadWrite),
                    Some(_) => {
                        return Err(launch_error(format!("`{}` is a pointer, so its argument must be a buffer", p.name)).with_help(format!(
                            "pass one with --arg {}={}[LEN]",
                            p.name,
                            elem.unwrap_or(ElemType::UChar).name()
                        )))
                    }
                };
                // A buffer that starts uninitialised keeps a flag per byte besides.
                let flags = if matches!(init, BufferInit::Uninit) { 2 } else { 1 };
                budget(len.saturating_mul(alloc_elem.size()).saturating_mul(flags), &format!("buffer `{}`", p.name))?;
                let access = if *is_const && access == Access::ReadWrite { Access::ReadOnly } else { access };
                let alloc = fill_buffer(&p.name, alloc_elem, len, &init, access, rng)?;
                let pool = if *space == Space::Constant { &mut constant } else { &mut global };
                pool.push(alloc);
                ptr::make(*space, (pool.len() - 1) as u32, 0)
            }
        };
        param_values.push(value);
    }
    // Program-scope variables live after the buffers, one allocation each.
    let mut program_globals = Vec::new();
    for g in &program.globals {
        budget(g.bytes.len() as u64, &format!("program-scope variable `{}`", g.name))?;
        let access = if g.space == Space::Constant { Access::ReadOnly } else { Access::ReadWrite };
        let pool = if g.space == Space::Constant { &mut constant } else { &mut global };
        pool.push(Alloc { name: g.name.clone(), bytes: g.bytes.clone(), init: None, access, elem: None, shadow: Default::default() });
        program_globals.push(ptr::make(g.space, (pool.len() - 1) as u32, 0));
    }
    // Pointers initialised with another variable's address, now that every variable has its
    // place.
    for (g, &own) in program.globals.iter().zip(&program_globals) {
        for p in &g.pointers {
            let Some(&target) = program_globals.get(p.target as usize) else { continue };
            let value = ptr::add(target, p.offset);
            let pool = if g.space == Space::Constant { &mut constant } else { &mut global };
            if let Some(bytes) = pool.get_mut(ptr::alloc(own) as usize).and_then(|a| a.bytes.get_mut(p.at as usize..p.at as usize + 8)) {
                bytes.copy_from_slice(&value.to_le_bytes());
            }
        }
    }
    // The device heap for `malloc`, only when the program allocates.
    let heap = if program.uses_heap {
        budget(scenario.heap_bytes, "the device heap")?;
        let bytes = filled(scenario.heap_bytes, 0u8, "the device heap")?;
        global.push(Alloc { name: "heap".into(), bytes, init: None, access: Access::ReadWrite, elem: None, shadow: Default::default() });
        Some(((global.len() - 1) as u32, std::collections::BTreeMap::new()))
    } else {
        None
    };
    let warp_size = scenario.warp_size.clamp(1, 64);
    let n_groups = n_groups_total as u32;
    // The program's own `__local` variables (parameters were charged above), each byte with
    // its initialisation flag, in every group.
    let program_local: u64 = program.locals.iter().map(|l| l.size).sum();
    budget(
        program_local.saturating_mul(2).saturating_mul(n_groups_total),
        &format!("{} bytes of `__local` variables for each of {} work-groups", thousands(program_local), thousands(n_groups_total)),
    )?;
    let func = &program.functions[k.func as usize];
    // Every work-item gets its registers and private memory when its group starts; groups
    // that are not resident yet start later, but every group starts eventually and a
    // finished work-item keeps its state (the inspector reads it), so the launch is charged
    // for all of them now.
    let warps_per_group = geometry.local.iter().product::<u64>().div_ceil(warp_size as u64);
    let held = Held::new(func, private_image.len() as u64, scenario.memory_model == crate::scenario::MemoryModel::Relaxed);
    budget(
        held.group.saturating_add(warps_per_group.saturating_mul(std::mem::size_of::<super::Warp>() as u64)).saturating_mul(n_groups_total),
        &format!("the bookkeeping of {} work-groups", thousands(n_groups_total)),
    )?;
    budget(
        held.work_item.saturating_mul(n_items),
        &format!(
            "{} bytes of registers and {} bytes of private memory for each of its {} work-items (a private byte is kept with its initialisation flag)",
            thousands(func.num_regs as u64 * 8),
            thousands(held.private),
            thousands(n_items)
        ),
    )?;
    // The kernel's own private variables are reserved by each work-item as it starts, from
    // the room left now, like any later growth; the check above made sure they fit.
    let memory_room = scenario.max_memory_bytes.saturating_sub(memory_bytes) + held.grown.saturating_mul(n_items);
    let mut groups = Vec::with_capacity(n_groups as usize);
    let mut garbage = Rng::new(scenario.seed ^ LOCAL_MEMORY_STREAM);
    let mut warps: Vec<super::Warp> = Vec::new();
    let mut items = Vec::with_capacity(n_items as usize);
    for g in 0..n_groups {
        let size: u64 = geometry.group_size(g).iter().product();
        let first = items.len() as u32;
        let local = local_sizes
            .iter()
            .map(|(name, bytes, elem)| {
                // Local memory starts with whatever the last kernel left there: arbitrary
                // bytes, drawn from the seed, and marked uninitialised.
                let what = format!("local memory `{name}`");
                let mut contents = filled(*bytes, 0u8, &what)?;
                contents.iter_mut().for_each(|b| *b = garbage.below(256) as u8);
                Ok(Alloc {
                    name: name.clone(),
                    bytes: contents,
                    init: Some(filled(*bytes, false, &what)?),
                    access: Access::ReadWrite,
                    elem: *elem,
                    shadow: Default::default(),
                })
            })
            .collect::<Result<_, Diagnostic>>()?;
        let rendezvous = |members: u32| super::Rendezvous { unfinished: members, waiting: Vec::new(), first_finished: None };
        groups.push(Group { first, rendezvous: rendezvous(size as u32), local, copies: Vec::new() });
        for lane0 in (0..size as u32).step_by(warp_size as usize) {
            let members = (size as u32 - lane0).min(warp_size);
            let active = if members >= 64 { u64::MAX } else { (1u64 << members) - 1 };
            warps.push(super::Warp { first: first + lane0, rendezvous: rendezvous(members), active });
        }
        let first_warp = warps.len() as u32 - (size as u32).div_ceil(warp_size);
        for member in 0..size as u32 {
            items.push(WorkItem {
                func: k.func,
                pc: 0,
                base: 0,
                warp: first_warp + member / warp_size,
                group: g,
                status: Status::Ready,
                spurious: false,
                cycles: 0,
                // Registers and private memory are made when the group starts (below for the
                // groups resident from the start, in `start_next_group` for the others).
                regs: super::Regs::new(),
                rare: None,
            });
        }
    }
    let n = items.len();
    // Only the first `resident_limit` groups start; the rest wait for a free slot.
    let resident_limit = scenario.max_resident_groups.map_or(n_groups, |r| r.clamp(1, n_groups.max(1)));
    let started = groups.get(resident_limit as usize).map_or(n as u32, |g| g.first);
    let mut entry_regs = vec![0u64; func.num_regs as usize];
    entry_regs[..param_values.len()].copy_from_slice(&param_values);
    let entry = super::Entry { regs: super::Regs::from_vec(entry_regs), private: private_image };
    for item in &mut items[..started as usize] {
        item.regs.extend_from_slice(&entry.regs);
        item.rare = entry.rare();
    }
    for item in &mut items[started as usize..] {
        item.status = Status::NotStarted;
    }
    // The work-group of every agent: the work-items, then each group's copy engine.
    let agent_group: Rc<[u32]> = items.iter().map(|i| i.group).chain(0..n_groups).collect();
    let mut machine = Machine {
        program: program.clone(),
        entry: Rc::new(entry),
        geometry,
        global,
        constant,
        program_globals,
        groups,
        warps,
        items,
        spins: Vec::new(),
        heap,
        ready: (0..started).collect(),
        // Copy engines start idle.
        ready_pos: (0..n as u32).map(|wi| if wi < started { wi } else { u32::MAX }).chain((0..n_groups).map(|_| u32::MAX)).collect(),
        log: EventLog::default(),
        faults: Vec::new(),
        reported: BTreeSet::new(),
        printf: Vec::new(),
        printf_bytes: 0,
        limits,
        step: 0,
        runaway: None,
        memory_room,
        warp_size,
        released: false,
        ready_added_low: u32::MAX,
        ready_log: None,
        write_epoch: 1,
        resident_limit,
        resident: resident_limit.min(n_groups),
        next_group: resident_limit.min(n_groups),
        // A stream of its own, derived from the seed, so the scheduler's draws stay as they were.
        rng: Rng::new(scenario.seed ^ MACHINE_STREAM),
        weak: crate::concurrency::weak::Weak::new(
            scenario.memory_model == crate::scenario::MemoryModel::Relaxed,
            agent_group.clone(),
            Rc::from(vec![0; agent_group.len()]),
        ),
        races: crate::concurrency::race::Races::new(scenario.race_detection, agent_group, n as u32, n_groups as usize),
        barriers_by_count: false,
        converged_warps: scenario.scheduler == crate::scenario::SchedulerKind::Lockstep,
        fold_reads: scenario.granularity == crate::scenario::Granularity::Observable,
        named_barriers: None,
    };
    machine.weak.script.clone_from(&scenario.choices);
    // CUDA kernels and PTX litmus tests synchronise as PTX defines it.
    machine.races.ptx = program.ptx;
    machine.weak.ptx = machine.races.ptx;
    for wi in 0..n as u32 {
        if machine.items[wi as usize].status == Status::Ready && machine.runaway.is_none() {
            interp::run_private(&mut machine, wi);
        }
    }
    Ok(machine)
}

#[cfg(test)]
mod tests {
    use super::Geometry;

    /// The coordinates by division, as the linear numbering defines them, with no shortcut.
    fn by_division(g: &Geometry, group: u32, local_linear: u32) -> ([u64; 3], [u64; 3]) {
        let (n, l) = (g.num_groups, group as u64);
        let id = [l % n[0], (l / n[0]) % n[1], l / (n[0] * n[1])];
        let mut size = [1; 3];
        for d in 0..3 {
            size[d] = g.local[d].min(g.global[d] - id[d] * g.local[d]);
        }
        let k = local_linear as u64;
        (id, [k % size[0], (k / size[0]) % size[1], k / (size[0] * size[1])])
    }

    /// Rows of groups and of work-items skip the divisions; every shape, partial groups
    /// included, must give the coordinates the divisions give.
    #[test]
    fn ids_without_division_are_the_ids_by_division() {
        let shapes: [([u64; 3], [u64; 3]); 7] = [
            ([256, 1, 1], [64, 1, 1]),
            ([250, 1, 1], [64, 1, 1]),
            ([1, 1, 1], [1, 1, 1]),
            ([16, 6, 1], [4, 3, 1]),
            ([7, 5, 3], [2, 2, 2]),
            ([64, 1, 4], [32, 1, 2]),
            ([8, 3, 1], [8, 1, 1]),
        ];
        let mut checked = 0;
        for (global, local) in shapes {
            let num_groups = [0, 1, 2].map(|d| global[d].div_ceil(local[d]));
            let g = Geometry { dims: 3, global, local, offset: [0; 3], num_groups };
            for group in 0..num_groups.iter().product::<u64>() as u32 {
                let size: u64 = g.group_size(group).iter().product();
                for l in 0..size as u32 {
                    let (id, lid) = by_division(&g, group, l);
                    assert_eq!((g.group_id(group), g.local_id(group, l)), (id, lid), "{global:?} in groups of {local:?}: group {group}, work-item {l}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 256 + 250 + 1 + 96 + 105 + 256 + 24);
    }
}
