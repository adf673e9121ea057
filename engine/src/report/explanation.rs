//! The explanation of a finding or of a relaxed outcome, as data: the accesses it is about,
//! the edges of the execution graph between them that the run shows, and the edge that is
//! missing, in words. `crate::why` computes them from a run; findings and reports carry them
//! (`findings[].explanation` in `interleave run --json`).

use serde::{Deserialize, Serialize};

/// Which relation an edge belongs to. The serialized strings are stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    Po,
    Sw,
    Rf,
    Co,
    Fr,
    Barrier,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Po => "po",
            EdgeKind::Sw => "sw",
            EdgeKind::Rf => "rf",
            EdgeKind::Co => "co",
            EdgeKind::Fr => "fr",
            EdgeKind::Barrier => "barrier",
        }
    }
}

/// An event in the source: where, by whom, at which step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub line: u32,
    pub column: u32,
    pub work_item: [u64; 3],
    pub step: u64,
}

/// One of the accesses a finding is about, with what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    pub line: u32,
    pub column: u32,
    pub work_item: [u64; 3],
    pub step: u64,
    pub text: String,
}

/// One edge of the execution graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    pub kind: EdgeKind,
    pub from: Point,
    pub to: Point,
    pub text: String,
}

/// The explanation of a finding or of a relaxed outcome (`findings[].explanation`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    pub accesses: Vec<Access>,
    pub edges: Vec<Edge>,
    /// The edge that would have ordered them, in words.
    pub missing: String,
}

impl Explanation {
    /// The explanation as text lines for people: the edges, then what is missing.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> =
            self.edges.iter().map(|x| format!("{} {}:{} -> {}:{}: {}", x.kind.as_str(), x.from.line, x.from.column, x.to.line, x.to.column, x.text)).collect();
        out.push(format!("missing: {}", self.missing));
        out
    }
}
