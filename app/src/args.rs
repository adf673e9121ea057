//! The kernel-argument table as plain data: one row per kernel parameter, with structured
//! fields (what the parameter gets, element type, length, initial contents, access, local
//! size, scalar value) that are written out as the `NAME=SPEC` text the engine parses, exactly
//! as the CLI's `--arg`.
//!
//! Rows are kept by the parameter they belong to, so they survive edits of the kernel that
//! keep the parameter's name; a row whose parameter is gone (renamed, or of another kernel in
//! the same source) is set aside, shown, and not passed, rather than lost. Every field is
//! checked on its own so that the panel can flag exactly the one that is wrong; the text that
//! valid fields make is then parsed by the engine's `ArgBinding::parse`, which has the last
//! word. A row can also be typed as text, for people who know the syntax; its text is then
//! what counts, and its fields follow it when it parses.

use serde::{Deserialize, Serialize};

use interleave_engine::frontend::ParamSignature;
use interleave_engine::scenario::{Access, ArgBinding, ArgSpec, BufferInit, ElemType, Number};

/// What a parameter is, read from its signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamClass {
    /// A `__global` or `__constant` pointer: a buffer (`None` for `void*` or structs).
    Buffer { elem: Option<ElemType>, read_only: bool },
    /// A `__local` pointer: a size in bytes for each work-group.
    Local { elem: Option<ElemType> },
    /// A scalar passed by value.
    Scalar(ElemType),
    /// A struct or vector passed by value: its bytes.
    Aggregate,
}

/// The element type of a pointer type as the engine spells it (`int*`, `const float4*`): the
/// scalar, or a vector's element, or `half`'s bit patterns.
fn pointee(ty: &str) -> Option<ElemType> {
    let ty = ty.trim().trim_start_matches("const ").trim();
    let base = ty.strip_suffix('*')?.trim();
    if base == "half" {
        return Some(ElemType::UShort);
    }
    ElemType::parse(base).or_else(|| {
        let scalar = base.trim_end_matches(|c: char| c.is_ascii_digit());
        (scalar.len() < base.len()).then(|| ElemType::parse(scalar)).flatten()
    })
}

/// What kind of argument the engine expects for `param`.
pub fn classify(param: &ParamSignature) -> ParamClass {
    let ty = param.ty.trim();
    match param.address_space.as_str() {
        "local" => ParamClass::Local { elem: pointee(ty) },
        "global" | "constant" => ParamClass::Buffer { elem: pointee(ty), read_only: param.address_space == "constant" || ty.starts_with("const ") },
        _ => ElemType::parse(ty).map_or(ParamClass::Aggregate, ParamClass::Scalar),
    }
}

/// What a row passes for its parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArgKind {
    /// Nothing: the engine's default (a buffer or local array of seeded random contents, or
    /// random bytes for a struct; a scalar has none).
    Default,
    Buffer,
    Local,
    Scalar,
    Null,
}

/// A buffer's initial contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Init {
    Zeros,
    Fill,
    Range,
    Random,
    Values,
    Uninit,
}

impl Init {
    /// Every kind of initial contents, with the words the panel shows for it.
    pub const ALL: [(Init, &'static str, &'static str); 6] = [
        (Init::Zeros, "zeros", "zeros"),
        (Init::Fill, "fill", "fill"),
        (Init::Range, "range", "range"),
        (Init::Random, "random", "random"),
        (Init::Values, "values", "values"),
        (Init::Uninit, "uninit", "uninitialised"),
    ];

    pub fn name(self) -> &'static str {
        Init::ALL.iter().find(|(init, _, _)| *init == self).map_or("zeros", |(_, name, _)| name)
    }

    pub fn parse(text: &str) -> Option<Init> {
        Init::ALL.iter().find(|(_, name, _)| *name == text).map(|&(init, _, _)| init)
    }
}

/// The accesses the panel offers, with their words.
pub const ACCESSES: [(Access, &str, &str); 3] =
    [(Access::ReadWrite, "read-write", "read-write"), (Access::ReadOnly, "read-only", "read-only"), (Access::WriteOnly, "write-only", "write-only")];

/// One field of a row, to say which one a message is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Len,
    Fill,
    Start,
    Step,
    Values,
    Bytes,
    Value,
    /// The row's text, when it is typed as text.
    Text,
}

impl Field {
    /// The suffix of the field's DOM id.
    pub fn slug(self) -> &'static str {
        match self {
            Field::Len => "len",
            Field::Fill => "fill",
            Field::Start => "start",
            Field::Step => "step",
            Field::Values => "values",
            Field::Bytes => "bytes",
            Field::Value => "value",
            Field::Text => "text",
        }
    }
}

/// A row's structured fields, as typed (numbers stay text until they are checked).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgFields {
    pub name: String,
    pub kind: ArgKind,
    /// The element type of a buffer, or the type of a scalar.
    pub elem: ElemType,
    pub len: String,
    pub init: Init,
    pub fill: String,
    pub start: String,
    pub step: String,
    /// Comma-separated values.
    pub values: String,
    pub access: Access,
    pub bytes: String,
    pub value: String,
}

/// Sizes the defaults of a new row are taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Work-items of the launch (a buffer's default length: one element each).
    pub work_items: u64,
    /// Work-items per work-group (a local array's default: one element each).
    pub group_items: u64,
}

impl ArgFields {
    /// Fields with nothing chosen yet, named `name`.
    fn blank(name: &str) -> ArgFields {
        ArgFields {
            name: name.to_string(),
            kind: ArgKind::Default,
            elem: ElemType::Int,
            len: String::new(),
            init: Init::Zeros,
            fill: "0".into(),
            start: "0".into(),
            step: "1".into(),
            values: String::new(),
            access: Access::ReadWrite,
            bytes: String::new(),
            value: String::new(),
        }
    }

    /// The row a parameter starts with: the engine's default for pointers and structs (so
    /// that a kernel runs as the CLI would run it without `--arg`), with the fields one would
    /// most likely want pre-filled; a scalar has no default and asks for its value.
    pub fn for_param(param: &ParamSignature, sizes: Sizes) -> ArgFields {
        let mut fields = ArgFields::blank(&param.name);
        match classify(param) {
            ParamClass::Buffer { elem, read_only } => {
                fields.elem = elem.unwrap_or(ElemType::UChar);
                fields.len = sizes.work_items.max(1).to_string();
                if read_only {
                    fields.access = Access::ReadOnly;
                }
            }
            ParamClass::Local { elem } => {
                let elem = elem.unwrap_or(ElemType::UChar);
                fields.elem = elem;
                fields.bytes = (sizes.group_items.max(1) * elem.size()).to_string();
            }
            ParamClass::Scalar(ty) => {
                fields.kind = ArgKind::Scalar;
                fields.elem = ty;
            }
            ParamClass::Aggregate => {
                fields.elem = ElemType::UChar;
                fields.init = Init::Random;
            }
        }
        fields
    }

    /// The fields of a parsed binding, so that text (an example's launch, a scenario file, a
    /// row typed as text) shows in the table.
    pub fn from_binding(binding: &ArgBinding) -> ArgFields {
        let mut fields = ArgFields::blank(&binding.name);
        match &binding.spec {
            ArgSpec::Null => fields.kind = ArgKind::Null,
            ArgSpec::Local { bytes } => {
                fields.kind = ArgKind::Local;
                fields.bytes = bytes.to_string();
            }
            ArgSpec::Scalar { ty, value } => {
                fields.kind = ArgKind::Scalar;
                fields.elem = *ty;
                fields.value = value.to_string();
            }
            ArgSpec::Buffer { elem, len, init, access } => {
                fields.kind = ArgKind::Buffer;
                fields.elem = *elem;
                fields.len = len.to_string();
                fields.access = *access;
                fields.init = match init {
                    BufferInit::Zeros => Init::Zeros,
                    BufferInit::Fill { value } => {
                        fields.fill = value.to_string();
                        Init::Fill
                    }
                    BufferInit::Range { start, step } => {
                        fields.start = start.to_string();
                        fields.step = step.to_string();
                        Init::Range
                    }
                    BufferInit::Values { values } => {
                        let list: Vec<String> = values.iter().map(Number::to_string).collect();
                        fields.values = list.join(", ");
                        Init::Values
                    }
                    BufferInit::Random => Init::Random,
                    BufferInit::Uninit => Init::Uninit,
                };
            }
        }
        fields
    }

    /// The `NAME=SPEC` text the fields stand for, as typed (so possibly invalid); empty for
    /// the engine's default, which passes nothing.
    pub fn text(&self) -> String {
        let name = &self.name;
        let compact = |text: &str| text.split_whitespace().collect::<String>();
        match self.kind {
            ArgKind::Default => String::new(),
            ArgKind::Null => format!("{name}=null"),
            ArgKind::Local => format!("{name}=local:{}", self.bytes.trim()),
            ArgKind::Scalar => format!("{name}={}:{}", self.elem.name(), self.value.trim()),
            ArgKind::Buffer => {
                let mut text = format!("{name}={}[{}]", self.elem.name(), self.len.trim());
                match self.init {
                    Init::Zeros => {}
                    Init::Fill => text += &format!(":fill={}", self.fill.trim()),
                    Init::Range => text += &format!(":range={}:{}", self.start.trim(), self.step.trim()),
                    Init::Values => text += &format!(":values={}", compact(&self.values)),
                    Init::Random => text += ":random",
                    Init::Uninit => text += ":uninit",
                }
                match self.access {
                    Access::ReadWrite => {}
                    Access::ReadOnly => text += ":ro",
                    Access::WriteOnly => text += ":wo",
                }
                text
            }
        }
    }

    /// Checks each field the kind uses: the text the fields make, or a message per invalid
    /// field. `None` for the engine's default.
    pub fn check(&self) -> Result<Option<String>, Vec<(Field, String)>> {
        let mut errors = Vec::new();
        let mut number = |field: Field, text: &str, what: &str| {
            let text = text.trim();
            if text.is_empty() {
                errors.push((field, format!("enter {what}")));
            } else if Number::parse(text).is_none() {
                errors.push((field, format!("`{text}` is not a number")));
            }
        };
        match self.kind {
            ArgKind::Default => return Ok(None),
            ArgKind::Null => {}
            ArgKind::Scalar => number(Field::Value, &self.value, "a value"),
            ArgKind::Local => {
                if let Err(e) = count(&self.bytes, "a size in bytes", 0) {
                    errors.push((Field::Bytes, e));
                }
            }
            ArgKind::Buffer => {
                match self.init {
                    Init::Fill => number(Field::Fill, &self.fill, "a fill value"),
                    Init::Range => {
                        number(Field::Start, &self.start, "a start");
                        number(Field::Step, &self.step, "a step");
                    }
                    Init::Values => {
                        let items: Vec<&str> = self.values.split(',').map(str::trim).collect();
                        if items.iter().all(|item| item.is_empty()) {
                            errors.push((Field::Values, "enter values, e.g. 1, 2, 3".into()));
                        } else if let Some(bad) = items.iter().find(|item| Number::parse(item).is_none()) {
                            let message = if bad.is_empty() { "a value is missing between two commas".to_string() } else { format!("`{bad}` is not a number") };
                            errors.push((Field::Values, message));
                        }
                    }
                    Init::Zeros | Init::Random | Init::Uninit => {}
                }
                match count(&self.len, "a length", 1) {
                    Ok(len) => {
                        let given = self.values.split(',').count() as u64;
                        if self.init == Init::Values && given > len && errors.is_empty() {
                            errors.push((Field::Values, format!("{given} values for a buffer of {len} elements")));
                        }
                    }
                    Err(e) => errors.insert(0, (Field::Len, e)),
                }
            }
        }
        if errors.is_empty() {
            Ok(Some(self.text()))
        } else {
            Err(errors)
        }
    }
}

/// A whole number of at least `min`.
fn count(text: &str, what: &str, min: u64) -> Result<u64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(format!("enter {what}"));
    }
    match text.parse::<u64>() {
        Ok(n) if n >= min => Ok(n),
        Ok(_) => Err(format!("{what} of at least {min}")),
        Err(_) => Err(format!("`{text}` is not a whole number")),
    }
}

/// The parameter name a `NAME=SPEC` text binds (what comes before `=`), trimmed.
pub fn text_name(text: &str) -> &str {
    text.split_once('=').map_or(text, |(name, _)| name).trim()
}

/// A stored row, as the table needs it: its parameter and content.
#[derive(Clone, Debug, PartialEq)]
pub struct RowInput<'a> {
    pub id: u32,
    pub text: &'a str,
    /// The parameter the row was made for in the table, if it was.
    pub param: Option<&'a str>,
    pub fields: Option<&'a ArgFields>,
}

impl RowInput<'_> {
    /// The parameter the row is for: the one it was made for, or the name its text binds.
    pub fn key(&self) -> &str {
        self.param.unwrap_or_else(|| text_name(self.text))
    }
}

/// One checked row of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The parameter's name (for a row set aside, the name its text binds).
    pub name: String,
    /// The parameter's signature, when the kernel's parameters are known.
    pub param: Option<ParamSignature>,
    /// The stored row, or `None` while the parameter has its default row.
    pub id: Option<u32>,
    /// Whether the row is typed as text (its text counts, not its fields).
    pub as_text: bool,
    /// What the controls show.
    pub fields: ArgFields,
    /// What the text field shows.
    pub text: String,
    /// A message per invalid field.
    pub errors: Vec<(Field, String)>,
    /// The binding the row passes, once it is valid; `None` for the engine's default.
    pub binding: Option<ArgBinding>,
}

impl Checked {
    pub fn error(&self, field: Field) -> Option<&str> {
        self.errors.iter().find(|(f, _)| *f == field).map(|(_, message)| message.as_str())
    }
}

/// The table: a row per parameter (or per stored row, while the parameters are unknown), and
/// the rows set aside because their parameter is not in the kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub rows: Vec<Checked>,
    /// Rows that name no parameter of the kernel: shown, not passed, and not blocking.
    pub set_aside: Vec<Checked>,
}

impl Table {
    /// Whether every row the launch uses is valid.
    pub fn valid(&self) -> bool {
        self.rows.iter().all(|row| row.errors.is_empty())
    }

    /// The bindings to launch with, in parameter order.
    pub fn bindings(&self) -> Vec<ArgBinding> {
        self.rows.iter().filter_map(|row| row.binding.clone()).collect()
    }
}

/// Checks one stored row (or, with `row` `None`, the default row of `param`).
fn check_row(name: &str, param: Option<&ParamSignature>, row: Option<&RowInput>, sizes: Sizes) -> Checked {
    let default = || match param {
        Some(param) => ArgFields::for_param(param, sizes),
        None => ArgFields::blank(name),
    };
    let mut checked = Checked {
        name: name.to_string(),
        param: param.cloned(),
        id: row.map(|r| r.id),
        as_text: false,
        fields: default(),
        text: String::new(),
        errors: Vec::new(),
        binding: None,
    };
    let text = match row {
        Some(RowInput { fields: Some(fields), .. }) => {
            checked.fields = ArgFields::clone(fields);
            checked.text = fields.text();
            match fields.check() {
                Ok(text) => text,
                Err(errors) => {
                    checked.errors = errors;
                    None
                }
            }
        }
        Some(row) => {
            checked.as_text = true;
            checked.text = row.text.to_string();
            let text = row.text.trim();
            (!text.is_empty()).then(|| text.to_string())
        }
        None => {
            checked.text = checked.fields.text();
            match checked.fields.check() {
                Ok(text) => text,
                Err(errors) => {
                    checked.errors = errors;
                    None
                }
            }
        }
    };
    if let Some(text) = text {
        // The engine parses what the fields or the user wrote, as the CLI's `--arg`.
        match ArgBinding::parse(&text) {
            Ok(binding) if binding.name != name => {
                checked.errors.push((Field::Text, format!("this row is for `{name}`, but the text binds `{}`", binding.name)))
            }
            Ok(binding) => {
                if checked.as_text {
                    checked.fields = ArgFields::from_binding(&binding);
                }
                checked.binding = Some(binding);
            }
            Err(diagnostic) => checked.errors.push((Field::Text, diagnostic.message)),
        }
    } else if checked.as_text {
        if let Some(param) = param {
            // An emptied text passes nothing, which a scalar cannot do without.
            if matches!(classify(param), ParamClass::Scalar(_)) {
                checked.errors.push((Field::Text, format!("`{name}` needs a value")));
            }
        }
    }
    checked
}

/// Lays the stored rows over the kernel's parameters (`None` while they cannot be read).
/// Each parameter gets its stored row, or its default row when it has none; a parameter with
/// two rows keeps the first and the second is flagged as binding it twice.
pub fn table(params: Option<&[ParamSignature]>, rows: &[RowInput], sizes: Sizes) -> Table {
    let mut table = Table::default();
    let mut used = vec![false; rows.len()];
    match params {
        Some(params) => {
            for param in params {
                let found = rows.iter().enumerate().find(|(i, row)| !used[*i] && row.key() == param.name);
                if let Some((i, _)) = found {
                    used[i] = true;
                }
                table.rows.push(check_row(&param.name, Some(param), found.map(|(_, row)| row), sizes));
            }
        }
        None => {
            for (i, row) in rows.iter().enumerate() {
                let key = row.key();
                if key.is_empty() || table.rows.iter().any(|r| r.name == key) {
                    continue;
                }
                used[i] = true;
                table.rows.push(check_row(key, None, Some(row), sizes));
            }
        }
    }
    for (_, row) in rows.iter().enumerate().filter(|(i, _)| !used[*i]) {
        let mut checked = check_row(row.key(), None, Some(row), sizes);
        checked.binding = None;
        if !row.key().is_empty() && table.rows.iter().any(|r| r.name == row.key()) {
            // A duplicate blocks the launch: which of the two is meant is the user's call.
            let message = format!("`{}` is bound twice", row.key());
            checked.errors.insert(0, (Field::Text, message));
            table.rows.push(checked);
        } else {
            table.set_aside.push(checked);
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::frontend;
    use interleave_engine::scenario::Dialect;

    fn params(source: &str) -> Vec<ParamSignature> {
        frontend::kernels(source, Dialect::OpenCl, &[]).unwrap().remove(0).params
    }

    /// A change to a row's fields, for the data-driven cases.
    type Edit = fn(&mut ArgFields);

    const SIZES: Sizes = Sizes { work_items: 8, group_items: 4 };

    const KERNEL: &str = "__kernel void k(__global int *out, __constant float4 *in, __local short *tmp, uint n, __global void *raw) { }";

    #[test]
    fn parameters_are_classified_from_their_signature() {
        let classes: Vec<ParamClass> = params(KERNEL).iter().map(classify).collect();
        assert_eq!(
            classes,
            [
                ParamClass::Buffer { elem: Some(ElemType::Int), read_only: false },
                ParamClass::Buffer { elem: Some(ElemType::Float), read_only: true },
                ParamClass::Local { elem: Some(ElemType::Short) },
                ParamClass::Scalar(ElemType::UInt),
                ParamClass::Buffer { elem: None, read_only: false },
            ]
        );
        let by_value = params("typedef struct { int a; int b; } P; __kernel void k(P p, int4 v) {}");
        assert!(by_value.iter().all(|p| classify(p) == ParamClass::Aggregate));
    }

    #[test]
    fn default_rows_pass_nothing_but_a_scalar_asks_for_its_value() {
        let params = params(KERNEL);
        let table = table(Some(&params), &[], SIZES);
        let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["out", "in", "tmp", "n", "raw"]);
        assert!(table.rows.iter().all(|r| r.id.is_none() && r.binding.is_none()));
        let n = &table.rows[3];
        assert_eq!(n.error(Field::Value), Some("enter a value"));
        assert!(!table.valid());
        // The pre-filled fields are what choosing a buffer starts from.
        assert_eq!(table.rows[0].fields.len, "8");
        assert_eq!(table.rows[1].fields.access, Access::ReadOnly);
        assert_eq!(table.rows[2].fields.bytes, "8");
    }

    #[test]
    fn fields_become_the_engine_s_argument_text() {
        let mut fields = ArgFields::for_param(&params(KERNEL)[0], SIZES);
        fields.kind = ArgKind::Buffer;
        let cases: Vec<(Edit, &str)> = vec![
            (|_| {}, "out=int[8]"),
            (
                |f| {
                    f.init = Init::Fill;
                    f.fill = " -3 ".into();
                },
                "out=int[8]:fill=-3",
            ),
            (
                |f| {
                    f.init = Init::Range;
                    f.start = "10".into();
                    f.step = "-2".into();
                    f.access = Access::WriteOnly;
                },
                "out=int[8]:range=10:-2:wo",
            ),
            (
                |f| {
                    f.init = Init::Values;
                    f.values = "1, 2,\t3".into();
                    f.elem = ElemType::Float;
                    f.access = Access::ReadOnly;
                },
                "out=float[8]:values=1,2,3:ro",
            ),
            (|f| f.init = Init::Random, "out=int[8]:random"),
            (|f| f.init = Init::Uninit, "out=int[8]:uninit"),
            (|f| f.kind = ArgKind::Null, "out=null"),
            (
                |f| {
                    f.kind = ArgKind::Local;
                    f.bytes = "64".into();
                },
                "out=local:64",
            ),
            (
                |f| {
                    f.kind = ArgKind::Scalar;
                    f.elem = ElemType::ULong;
                    f.value = "0x10".into();
                },
                "out=ulong:0x10",
            ),
        ];
        for (edit, expected) in cases {
            let mut f = fields.clone();
            edit(&mut f);
            let text = f.check().unwrap().unwrap();
            assert_eq!(text, expected);
            // The engine reads it, and its binding shows as the same fields.
            let binding = ArgBinding::parse(&text).unwrap();
            assert_eq!(ArgFields::from_binding(&binding).check().unwrap().unwrap(), binding.to_string());
        }
    }

    #[test]
    fn each_invalid_field_is_flagged_on_its_own() {
        let mut base = ArgFields::for_param(&params(KERNEL)[0], SIZES);
        base.kind = ArgKind::Buffer;
        let cases: Vec<(Edit, Field, &str)> = vec![
            (|f| f.len = "0".into(), Field::Len, "a length of at least 1"),
            (|f| f.len = "eight".into(), Field::Len, "`eight` is not a whole number"),
            (|f| f.len = "".into(), Field::Len, "enter a length"),
            (
                |f| {
                    f.init = Init::Fill;
                    f.fill = "1:2".into();
                },
                Field::Fill,
                "`1:2` is not a number",
            ),
            (
                |f| {
                    f.init = Init::Range;
                    f.step = "".into();
                },
                Field::Step,
                "enter a step",
            ),
            (
                |f| {
                    f.init = Init::Values;
                    f.values = "1,,2".into();
                },
                Field::Values,
                "a value is missing between two commas",
            ),
            (
                |f| {
                    f.init = Init::Values;
                    f.values = "1,2,3,4,5,6,7,8,9".into();
                },
                Field::Values,
                "9 values for a buffer of 8 elements",
            ),
            (
                |f| {
                    f.kind = ArgKind::Local;
                    f.bytes = "-1".into();
                },
                Field::Bytes,
                "`-1` is not a whole number",
            ),
            (
                |f| {
                    f.kind = ArgKind::Scalar;
                    f.value = "x".into();
                },
                Field::Value,
                "`x` is not a number",
            ),
        ];
        for (edit, field, message) in cases {
            let mut f = base.clone();
            edit(&mut f);
            assert_eq!(f.check(), Err(vec![(field, message.to_string())]));
        }
    }

    fn text_row<'a>(id: u32, text: &'a str) -> RowInput<'a> {
        RowInput { id, text, param: None, fields: None }
    }

    #[test]
    fn stored_rows_are_laid_over_the_parameters() {
        let params = params("__kernel void k(__global int *ids, __global int *counters) {}");
        let rows = [text_row(4, "counters=int[2]:fill=0"), text_row(5, "ids=int[8]"), text_row(6, "gone=int[1]")];
        let table = table(Some(&params), &rows, SIZES);
        assert!(table.valid());
        let texts: Vec<String> = table.bindings().iter().map(|b| b.to_string()).collect();
        assert_eq!(texts, ["ids=int[8]", "counters=int[2]:fill=0"]);
        assert_eq!(table.rows[1].id, Some(4));
        assert_eq!(table.rows[1].fields.init, Init::Fill);
        // A row of a parameter that is not there is kept aside, not passed.
        assert_eq!(table.set_aside.len(), 1);
        assert_eq!(table.set_aside[0].name, "gone");
        assert!(table.set_aside[0].binding.is_none());
    }

    #[test]
    fn rows_typed_as_text_are_checked_by_the_engine() {
        let params = params("__kernel void k(__global int *ids, int n) {}");
        let wrong_type = text_row(1, "ids=quux[8]");
        let table1 = table(Some(&params), &[wrong_type], SIZES);
        let message = table1.rows[0].error(Field::Text).unwrap();
        assert!(message.contains("unknown element type `quux`"), "{message}");
        // A row made for `ids` that binds another name is flagged, not moved.
        let moved = RowInput { id: 2, text: "n=int:3", param: Some("ids"), fields: None };
        let table2 = table(Some(&params), &[moved], SIZES);
        assert!(table2.rows[0].error(Field::Text).unwrap().contains("binds `n`"));
        // Emptying a scalar's text leaves it without a value.
        let emptied = RowInput { id: 3, text: "", param: Some("n"), fields: None };
        let table3 = table(Some(&params), &[emptied], SIZES);
        assert_eq!(table3.rows[1].error(Field::Text), Some("`n` needs a value"));
    }

    #[test]
    fn a_parameter_bound_twice_blocks_the_launch() {
        let params = params("__kernel void k(__global int *ids) {}");
        let rows = [text_row(0, "ids=int[8]"), text_row(1, "ids=int[2]")];
        let table = table(Some(&params), &rows, SIZES);
        assert!(!table.valid());
        assert_eq!(table.rows[1].id, Some(1));
        assert!(table.rows[1].error(Field::Text).unwrap().contains("twice"));
    }

    #[test]
    fn without_a_signature_the_rows_are_kept_as_they_were() {
        let rows = [text_row(0, "ids=int[8]"), text_row(1, ""), text_row(2, "n=int:7")];
        let table = table(None, &rows, SIZES);
        let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["ids", "n"]);
        assert_eq!(table.bindings().len(), 2);
        // The empty row waits aside for its text.
        assert_eq!(table.set_aside.len(), 1);
    }
}
