//! The examples gallery as plain data, tested natively: its entries read from the compiled-in
//! manifest (`static/examples/gallery.toml`, through [`crate::examples`]), and what a page
//! address asks for (`?gallery`, `?example=ID`).

use std::sync::OnceLock;

use interleave_engine::gallery;
use interleave_engine::scenario::{Dialect, Scenario};

use crate::examples::{self, Example};

/// One card of the gallery: a pitfall and its variants.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The entry's id in the manifest (`lost-updates`), which `?example=` accepts.
    pub id: String,
    pub variants: Vec<Variant>,
}

impl Entry {
    /// The first variant, whose title, description, lesson and dialect stand for the entry.
    pub fn main(&self) -> &Variant {
        &self.variants[0]
    }
}

/// One scenario of an entry: the manifest's variant with the example it names, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub example: &'static Example,
    /// The scenario file, read (title, description, lesson, dialect, settings).
    pub scenario: Scenario,
    /// The manifest's variant: how CI checks it, the kinds of finding that check reports and
    /// what to watch for.
    pub manifest: gallery::Variant,
}

/// Reads a manifest (through the engine's one reader of its format) against the examples it
/// may name. Every problem is a message: a manifest that does not read, a file no example
/// holds, a scenario that does not read.
pub fn read(manifest: &str, find: impl Fn(&str) -> Option<&'static Example>) -> Result<Vec<Entry>, String> {
    let entries = gallery::read(manifest).map_err(|d| format!("gallery.toml: {}", d.message))?;
    entries
        .into_iter()
        .map(|entry| {
            let variants = entry
                .variants
                .into_iter()
                .map(|v| {
                    let example = find(&v.scenario).ok_or_else(|| format!("{}: not among the app's examples", v.scenario))?;
                    let scenario = example
                        .scenario()
                        .ok_or_else(|| format!("{}: not a scenario file", v.scenario))?
                        .map_err(|d| format!("{}: {}", v.scenario, d.message))?;
                    Ok(Variant { example, scenario, manifest: v })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Entry { id: entry.id, variants })
        })
        .collect()
}

/// The gallery's entries, read once from the compiled-in manifest. A manifest that does not
/// read (which the tests rule out) gives an empty gallery rather than a broken page.
pub fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| read(examples::GALLERY_MANIFEST, examples::find).unwrap_or_default())
}

/// The example `?example=ID` names: a gallery entry's id (its first variant), a scenario
/// file's stem or name (`cas_product_broken`, `cas_product_broken.toml`), or any example's
/// id (`litmus/mp.litmus`).
pub fn example_for(id: &str) -> Option<&'static Example> {
    let id = id.trim();
    if id.is_empty() {
        return None;
    }
    entries()
        .iter()
        .find(|entry| entry.id == id)
        .map(|entry| entry.main().example)
        .or_else(|| examples::EXAMPLES.iter().find(|e| e.scenario.is_some() && e.stem() == id))
        .or_else(|| examples::find(id))
}

/// The example an address asks for: `?example=ID` read by [`crate::route::parse`] (the one
/// reader of the page's query), then resolved by [`example_for`]; an unknown id is none.
pub fn example_in(search: &str) -> Option<&'static Example> {
    crate::route::parse(search).example.as_deref().and_then(example_for)
}

/// The address that loads `example`: the page's path with `?example=` and the example's
/// stem.
pub fn example_url(path: &str, example: &Example) -> String {
    format!("{path}?example={}", example.stem())
}

/// The dialect's badge text.
pub fn dialect_label(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::OpenCl => "OpenCL C",
        Dialect::Cuda => "CUDA",
        Dialect::Litmus => "litmus",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::report::FindingKind;

    #[test]
    fn the_manifest_reads_into_fifteen_entries_over_every_gallery_example() {
        let entries = read(examples::GALLERY_MANIFEST, examples::find).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(entries.len(), 15);
        let mut named: Vec<&str> = entries.iter().flat_map(|e| e.variants.iter().map(|v| v.example.id)).collect();
        let mut scenario_examples: Vec<&str> = examples::EXAMPLES.iter().filter(|e| e.scenario.is_some()).map(|e| e.id).collect();
        // The picker lists the gallery's examples in the manifest's order.
        assert_eq!(named, scenario_examples, "examples.rs and gallery.toml list the gallery in different orders");
        named.sort_unstable();
        scenario_examples.sort_unstable();
        named.dedup();
        assert_eq!(named.len(), scenario_examples.len(), "a scenario is named twice");
        for entry in &entries {
            for variant in &entry.variants {
                assert!(!variant.scenario.description.trim().is_empty() && !variant.scenario.lesson.trim().is_empty(), "{}", variant.example.id);
                assert!(!variant.manifest.look_for.is_empty(), "{}", variant.example.id);
            }
        }
        assert_eq!(entries[0].id, "lost-updates");
        assert_eq!(entries[0].main().manifest.command_line(), "interleave run count.toml");
        let cas = &entries[1];
        assert_eq!(
            (cas.variants[1].example.id, cas.variants[1].manifest.command_line().as_str()),
            ("cas_product_broken.toml", "interleave explore cas_product_broken.toml --runs 100")
        );
        assert_eq!(cas.variants[1].manifest.findings, [FindingKind::DataRace]);
        assert_eq!(super::entries().len(), 15);
    }

    #[test]
    fn a_broken_manifest_is_a_message() {
        assert!(read("entry = 3", examples::find).unwrap_err().starts_with("gallery.toml"));
        assert!(read("[[entry]]\nid = \"x\"\nvariant = []\n", examples::find).unwrap_err().contains("no variant"));
        let missing = "[[entry]]\nid = \"x\"\n[[entry.variant]]\nscenario = \"nothing.toml\"\ncheck = \"run\"\nfindings = []\nlook_for = \"y\"\n";
        assert!(read(missing, examples::find).unwrap_err().contains("nothing.toml"));
        let bare = missing.replace("nothing.toml", "count.cl");
        assert!(read(&bare, examples::find).unwrap_err().contains("not a scenario file"));
    }

    #[test]
    fn addresses_name_the_gallery_or_an_example() {
        assert!(!crate::route::parse("").gallery);
        assert!(crate::route::parse("?gallery").gallery);
        assert!(crate::route::parse("?embed=1&gallery").gallery);
        assert_eq!(example_in(""), None);
        assert_eq!(example_in("?example=barrier-in-if"), examples::find("barrier_in_if.toml"));
        assert_eq!(example_in("?example=cas_product_broken"), examples::find("cas_product_broken.toml"));
        assert_eq!(example_in("?example=cas_product_broken.toml"), example_in("?example=cas_product_broken"));
        assert_eq!(example_in("?example=litmus%2Fmp.litmus"), examples::find("litmus/mp.litmus"));
        assert_eq!(example_in("?example=nothing"), None);
        assert_eq!(example_in("?example="), None);
        assert_eq!(example_in("?example=%zz%"), None);
        let example = examples::find("ring_buffer.toml").unwrap();
        assert_eq!(example_url("/app/", example), "/app/?example=ring_buffer");
        assert_eq!(example_in(example_url("/", example).trim_start_matches('/')), Some(example));
    }

    #[test]
    fn dialects_have_badges() {
        let dialects: Vec<&str> = entries().iter().map(|e| dialect_label(e.main().scenario.dialect)).collect();
        for label in ["OpenCL C", "CUDA", "litmus"] {
            assert!(dialects.contains(&label), "{label}");
        }
    }
}
