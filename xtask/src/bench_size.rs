//! The app's size for `cargo xtask bench`: every file Trunk wrote to `dist/`, as stored and
//! brotli-compressed (quality 11, the most a server would precompress with), summed by kind.
//!
//! The page loads `index.html`, the app's JavaScript glue and wasm, the stylesheet and the
//! icon; the exploration worker's own script (`explore-worker.js`) loads only when an
//! exploration starts, and runs the page's module. Both sums are reported, and the whole.

use std::io::Write;
use std::path::Path;

/// Brotli's window (log2 bytes) and quality: the largest window and the best compression.
const WINDOW: u32 = 22;
const QUALITY: u32 = 11;

/// Compressed size of `bytes`.
pub fn brotli_size(bytes: &[u8]) -> usize {
    let mut out = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 4096, QUALITY, WINDOW);
        writer.write_all(bytes).expect("writing to memory cannot fail");
    }
    out.len()
}

/// What a file is, for the sums: `wasm`, `js`, `css` or `other`.
fn kind(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("wasm") => "wasm",
        Some("js") | Some("mjs") => "js",
        Some("css") => "css",
        _ => "other",
    }
}

/// One `NAME raw_bytes=.. brotli_bytes=..` line per sum: `total`, `page`, `worker` and each
/// kind (`wasm`, `js`, `css`, `other`), then `file/NAME` per file.
pub fn measure(dist: &Path) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    collect(dist, dist, &mut files)?;
    if files.is_empty() {
        return Err(format!("{} holds no files", dist.display()));
    }
    let mut sums: std::collections::BTreeMap<String, (usize, usize)> = std::collections::BTreeMap::new();
    let mut lines = Vec::new();
    for (name, bytes) in &files {
        let compressed = brotli_size(bytes);
        let part = if name.starts_with("explore-worker") { "worker" } else { "page" };
        for key in ["total", part, kind(name)] {
            let sum = sums.entry(key.to_owned()).or_default();
            sum.0 += bytes.len();
            sum.1 += compressed;
        }
        lines.push(format!("file/{name} raw_bytes={} brotli_bytes={compressed}", bytes.len()));
    }
    let mut out: Vec<String> = sums.iter().map(|(key, (raw, compressed))| format!("{key} raw_bytes={raw} brotli_bytes={compressed}")).collect();
    out.extend(lines);
    for line in &out {
        println!("size {line}");
    }
    Ok(out)
}

/// The first wasm module directly in `dist` that is empty, if any.
pub fn empty_wasm(dist: &Path) -> Option<String> {
    let entries = std::fs::read_dir(dist).ok()?;
    entries.flatten().map(|e| e.path()).find_map(|path| {
        let name = path.file_name()?.to_string_lossy().into_owned();
        let empty = name.ends_with(".wasm") && std::fs::metadata(&path).is_ok_and(|m| m.len() == 0);
        empty.then_some(name)
    })
}

/// Every file under `dir`, by its path relative to `root`, with its contents.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out)?;
        } else {
            let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let name = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().into_owned();
            out.push((name, bytes));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compresses_and_sums_by_part_and_kind() {
        // Repetitive text compresses to a small fraction of its size.
        let text = "interleave ".repeat(1000);
        let small = brotli_size(text.as_bytes());
        assert!(small > 0 && small < 100, "{small}");
        let dir = std::env::temp_dir().join(format!("xtask-size-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<html></html>").unwrap();
        std::fs::write(dir.join("app.js"), &text).unwrap();
        std::fs::write(dir.join("explore-worker_bg.wasm"), [0u8; 64]).unwrap();
        assert_eq!(empty_wasm(&dir), None);
        let lines = measure(&dir).unwrap();
        std::fs::write(dir.join("broken.wasm"), []).unwrap();
        assert_eq!(empty_wasm(&dir).as_deref(), Some("broken.wasm"));
        std::fs::remove_dir_all(&dir).unwrap();
        let find = |name: &str| lines.iter().find(|l| l.starts_with(&format!("{name} "))).cloned().unwrap_or_default();
        assert_eq!(find("total").split_whitespace().nth(1), Some("raw_bytes=11077"));
        assert!(find("page").starts_with("page raw_bytes=11013 "), "{lines:?}");
        assert!(find("worker").starts_with("worker raw_bytes=64 "), "{lines:?}");
        assert!(find("js").starts_with("js raw_bytes=11000 "), "{lines:?}");
        assert!(find("other").starts_with("other raw_bytes=13 "), "{lines:?}");
        assert!(find("file/app.js").contains(&format!("brotli_bytes={small}")), "{lines:?}");
    }
}
