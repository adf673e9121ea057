//! Share links: a whole scenario and the view on it (step, selected work-item, open panel) in
//! the fragment of a URL, so that opening the link restores the same trace.
//!
//! The fragment is `v1.` followed by the base64url text (no padding) of the raw-deflated JSON
//! of a versioned payload `{"version":1,"scenario":{...},"view":{...}}`. Links are untrusted
//! input: the text and the inflated payload are bounded ([`MAX_LINK_BYTES`],
//! [`MAX_PAYLOAD_BYTES`]; inflating stops at the bound), the payload is checked against the
//! schema (unknown fields are errors, a `source_file` is refused: a link carries its source),
//! and every problem is a [`Diagnostic`], never a panic. Decoding a link of an older version
//! must keep working: `engine/tests/data/links/` holds links of every released version.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::scenario::Scenario;

/// The version this engine writes.
pub const VERSION: u32 = 1;
/// The longest link text (a URL, `#fragment` or bare fragment) that is decoded.
pub const MAX_LINK_BYTES: usize = 64 * 1024;
/// The largest inflated payload; inflating stops past it.
pub const MAX_PAYLOAD_BYTES: usize = 1024 * 1024;
/// The panels a link may open.
pub const PANELS: [&str; 5] = ["work-item", "memory", "locks", "barriers", "console"];

/// What a link restores: the scenario and the view on its run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Link {
    pub scenario: Scenario,
    pub view: LinkView,
}

/// The view state a link carries besides the scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinkView {
    /// The step the run is shown at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    /// The selected work-item (linear index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<u32>,
    /// The open panel, one of [`PANELS`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub panel: Option<String>,
}

#[derive(Serialize)]
struct PayloadOut<'a> {
    version: u32,
    scenario: &'a Scenario,
    view: &'a LinkView,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PayloadIn {
    version: u32,
    scenario: Scenario,
    #[serde(default)]
    view: LinkView,
}

fn broken(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error("invalid-link", message)
}

/// The fragment (without `#`) of `link`. The same link always gives the same text.
pub fn encode(link: &Link) -> String {
    let payload = PayloadOut { version: VERSION, scenario: &link.scenario, view: &link.view };
    // Serialising plain data (strings, numbers, vectors, enums) to JSON cannot fail.
    let json = serde_json::to_vec(&payload).unwrap_or_default();
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("v{VERSION}.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(deflated))
}

/// The share URL of `link` under `base` (a page address; any fragment of it is replaced).
pub fn url(base: &str, link: &Link) -> String {
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}#{}", encode(link))
}

/// Whether `text` looks like a link rather than a file name: a `http(s)://` URL with a
/// fragment, a `#fragment`, or a bare fragment starting with a version prefix (`v1.`) and
/// then at least 16 base64url characters (so `v1.cl` stays a file name).
pub fn looks_like_link(text: &str) -> bool {
    let text = text.trim();
    if text.starts_with('#') {
        return true;
    }
    if (text.starts_with("http://") || text.starts_with("https://")) && text.contains('#') {
        return true;
    }
    match version_prefix(text) {
        Some((_, rest)) => rest.len() >= 16 && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        None => false,
    }
}

/// Splits `v<digits>.rest` into the version and the rest.
fn version_prefix(text: &str) -> Option<(&str, &str)> {
    let after_v = text.strip_prefix('v')?;
    let (digits, rest) = after_v.split_once('.')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits, rest))
}

/// Reads a link: a full URL, a `#fragment` or the bare fragment.
pub fn decode(text: &str) -> Result<Link, Diagnostic> {
    if text.len() > MAX_LINK_BYTES {
        return Err(Diagnostic::error("link-too-large", format!("this link is {} bytes long; links of at most {MAX_LINK_BYTES} bytes are read", text.len())));
    }
    let text = text.trim();
    let fragment = match text.split_once('#') {
        Some((_, fragment)) => fragment,
        None => text,
    };
    let Some((digits, body)) = version_prefix(fragment) else {
        return Err(broken("this is not an Interleave link: its fragment does not start with a version such as `v1.`"));
    };
    match digits.parse::<u32>() {
        Ok(VERSION) => decode_v1(body),
        _ => Err(Diagnostic::error("link-version", format!("this link has format version `v{digits}`, which this version of Interleave cannot read"))
            .with_help(format!("this version of Interleave reads links up to `v{VERSION}`; a newer one may read it"))),
    }
}

fn decode_v1(body: &str) -> Result<Link, Diagnostic> {
    let deflated = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|e| match e {
            base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidLastSymbol(..) => {
                broken("this link is truncated: its text ends in the middle of a character group")
            }
            e => broken(format!("this link is broken: its text is not base64url ({e})")),
        })
        .map_err(|d| d.with_help("copy the whole link again"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_PAYLOAD_BYTES).map_err(|e| match e.status {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
            Diagnostic::error("link-too-large", format!("this link's scenario is larger than {MAX_PAYLOAD_BYTES} bytes"))
        }
        miniz_oxide::inflate::TINFLStatus::FailedCannotMakeProgress => {
            broken("this link is truncated: its compressed data ends early").with_help("copy the whole link again")
        }
        _ => broken("this link is broken: its compressed data is corrupt").with_help("copy the whole link again"),
    })?;
    let payload: PayloadIn = serde_json::from_slice(&json).map_err(|e| broken(format!("this link's scenario is invalid: {e}")))?;
    if payload.version != 1 {
        return Err(broken(format!("this link says version 1 outside and version {} inside", payload.version)));
    }
    let link = Link { scenario: payload.scenario, view: payload.view };
    validate(&link)?;
    Ok(link)
}

/// The checks a link's contents must pass beyond the schema.
fn validate(link: &Link) -> Result<(), Diagnostic> {
    let s = &link.scenario;
    if s.source_file.is_some() {
        return Err(broken("a link carries its kernel source; it cannot name a `source_file`"));
    }
    if !(1..=64).contains(&s.warp_size) {
        return Err(broken(format!("this link's warp size {} is not from 1 to 64", s.warp_size)));
    }
    if s.pct_depth == 0 {
        return Err(broken("this link's PCT depth is 0; it must be at least 1"));
    }
    if s.max_resident_groups == Some(0) {
        return Err(broken("this link makes no work-group resident"));
    }
    // A limit out of range would be refused at launch anyway; refusing the link says so
    // where the problem is.
    if let Err(errors) = s.check_limits() {
        if let Some(first) = errors.into_iter().next() {
            return Err(first);
        }
    }
    if let Some(panel) = &link.view.panel {
        if !PANELS.contains(&panel.as_str()) {
            return Err(broken(format!("this link opens an unknown panel `{panel}`")).with_help(format!("panels: {}", PANELS.join(", "))));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ArgBinding, Dialect};

    fn sample() -> Link {
        let mut scenario = Scenario::new("__kernel void k(__global int *p) { p[get_global_id(0)] += 1; }\n", "k.cl", Dialect::OpenCl);
        scenario.launch.global = vec![8];
        scenario.args = vec![ArgBinding::parse("p=int[8]:fill=0").unwrap()];
        scenario.seed = u64::MAX;
        Link { scenario, view: LinkView { step: Some(5), selected: Some(3), panel: Some("memory".into()) } }
    }

    fn payload(json: &[u8]) -> String {
        format!("v1.{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 6)))
    }

    fn code(text: &str) -> String {
        decode(text).map(|_| String::new()).unwrap_or_else(|d| d.code)
    }

    #[test]
    fn round_trip_in_every_form() {
        let link = sample();
        let fragment = encode(&link);
        assert!(fragment.starts_with("v1."));
        assert_eq!(encode(&link), fragment, "deterministic");
        assert_eq!(decode(&fragment), Ok(link.clone()));
        assert_eq!(decode(&format!("#{fragment}")), Ok(link.clone()));
        let full = url("http://127.0.0.1:8080/#old", &link);
        assert_eq!(full, format!("http://127.0.0.1:8080/#{fragment}"));
        assert_eq!(decode(&full), Ok(link.clone()));
        assert!(looks_like_link(&full) && looks_like_link(&fragment) && looks_like_link("#x"));
        assert!(!looks_like_link("v1.cl") && !looks_like_link("kernel.cl") && !looks_like_link("http://example.org/a.cl"));
    }

    #[test]
    fn broken_links_are_diagnostics() {
        let fragment = encode(&sample());
        assert_eq!(code(&fragment[..fragment.len() / 2]), "invalid-link", "truncated");
        assert_eq!(code(&fragment[..fragment.len() - 1]), "invalid-link", "one character short");
        assert_eq!(code(&format!("{}!*{}", &fragment[..10], &fragment[12..])), "invalid-link", "not base64url");
        assert_eq!(code(&format!("{}AAAA{}", &fragment[..20], &fragment[24..])), "invalid-link", "corrupted");
        assert_eq!(code(""), "invalid-link");
        assert_eq!(code("v1."), "invalid-link");
        assert_eq!(code("hello"), "invalid-link");
        assert_eq!(code(&fragment.replacen("v1.", "v2.", 1)), "link-version");
        assert_eq!(code(&fragment.replacen("v1.", "v99999999999999999999.", 1)), "link-version");
        // Every prefix of a valid link is refused without a panic.
        for end in 0..fragment.len() {
            let _ = decode(&fragment[..end]);
        }
    }

    #[test]
    fn bounds_hold() {
        assert_eq!(code(&format!("v1.{}", "A".repeat(MAX_LINK_BYTES + 1))), "link-too-large");
        // A bomb: a few kilobytes that inflate far past the bound.
        let bomb = payload(&vec![b' '; 16 * MAX_PAYLOAD_BYTES]);
        assert!(bomb.len() < MAX_LINK_BYTES, "{}", bomb.len());
        assert_eq!(code(&bomb), "link-too-large");
    }

    #[test]
    fn the_schema_is_checked() {
        assert_eq!(code(&payload(br#"{"version":1,"scenario":{"source_file":"k.cl"}}"#)), "invalid-link");
        assert_eq!(code(&payload(br#"{"version":1,"scenario":{"sauce":"x"}}"#)), "invalid-link");
        assert_eq!(code(&payload(br#"{"version":1,"scenario":{},"extra":1}"#)), "invalid-link");
        assert_eq!(code(&payload(br#"{"version":2,"scenario":{}}"#)), "invalid-link");
        assert_eq!(code(&payload(br#"{"version":1,"scenario":{},"view":{"panel":"nope"}}"#)), "invalid-link");
        assert_eq!(code(&payload(br#"{"version":1,"scenario":{"warp_size":0}}"#)), "invalid-link");
        assert_eq!(code(&payload(br#"{"version":1}"#)), "invalid-link");
        assert_eq!(code(&payload(b"\xff\xfe")), "invalid-link");
        assert_eq!(decode(&payload(br#"{"version":1,"scenario":{}}"#)), Ok(Link::default()));
    }
}
