//! What the page address asks for, as plain data: the query's `gallery`, `tutorial`,
//! `lesson=ID`, `example=ID` and `embed=1`, and the addresses the page builds from them.
//!
//! This is the one place where they compose. The scenario comes from the first of: a share
//! link in the fragment (`#v1.…`, what someone saw), the lesson (its starting scenario), the
//! gallery example, and last the inputs stored in the browser. Independently, `lesson` (or
//! `tutorial`) opens the lesson pane beside the workbench, and `embed=1` trims the page to the
//! editor, the controls and the timeline, whatever was loaded.

/// The page's query, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// `?embed=1`: only the editor, the controls and the timeline.
    pub embed: bool,
    /// `?gallery`: the examples gallery page over the workbench.
    pub gallery: bool,
    /// `?tutorial`: the lesson pane with the list of lessons.
    pub tutorial: bool,
    /// `?lesson=ID`: that lesson in the lesson pane.
    pub lesson: Option<String>,
    /// `?example=ID`: a gallery example to load.
    pub example: Option<String>,
}

/// Where the page's scenario comes from at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The share link in the fragment.
    Link,
    /// The lesson's starting scenario.
    Lesson(String),
    /// A gallery example.
    Example(String),
    /// The inputs stored in the browser (or the default example).
    Stored,
}

/// Decodes `%XX` escapes and `+` of a query value; a malformed escape is kept as written.
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(high), Some(low)) => {
                        out.push((high * 16 + low) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Reads `location.search` (with or without its `?`). Unknown parameters are ignored; an
/// empty `lesson=` or `example=` is none.
pub fn parse(search: &str) -> Route {
    let mut route = Route::default();
    for pair in search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = unescape(value);
        match key {
            "embed" => route.embed = !matches!(value.as_str(), "0" | "false"),
            "gallery" => route.gallery = true,
            "tutorial" => route.tutorial = true,
            "lesson" if !value.is_empty() => route.lesson = Some(value),
            "example" if !value.is_empty() => route.example = Some(value),
            _ => {}
        }
    }
    route
}

/// Keeps the characters a lesson or example id may have; anything else is escaped.
fn escape(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The query for `route` (`?lesson=ID&embed=1`), or the empty string for the plain page.
pub fn search(route: &Route) -> String {
    let mut parts = Vec::new();
    if route.gallery {
        parts.push("gallery".to_string());
    }
    if route.tutorial && route.lesson.is_none() {
        parts.push("tutorial".to_string());
    }
    if let Some(lesson) = &route.lesson {
        parts.push(format!("lesson={}", escape(lesson)));
    }
    if let Some(example) = &route.example {
        parts.push(format!("example={}", escape(example)));
    }
    if route.embed {
        parts.push("embed=1".to_string());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// Where the scenario comes from, for a page opened at `route` with fragment `hash`.
pub fn source(route: &Route, hash: &str) -> Source {
    if !hash.trim_start_matches('#').trim().is_empty() {
        Source::Link
    } else if let Some(lesson) = &route.lesson {
        Source::Lesson(lesson.clone())
    } else if let Some(example) = &route.example {
        Source::Example(example.clone())
    } else {
        Source::Stored
    }
}

/// The address "Open in Interleave" leads to from an embedded page: the same page and query
/// without `embed`, and the share link of what the embedded page has now (`fragment`), so the
/// full app opens the same scenario, edits included.
pub fn full_app(path: &str, route: &Route, fragment: &str) -> String {
    let full = Route { embed: false, ..route.clone() };
    format!("{path}{}#{}", search(&full), fragment.trim_start_matches('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_reads_and_writes_back() {
        assert_eq!(parse(""), Route::default());
        let r = parse("?lesson=spin-lock&embed=1&utm=x");
        assert_eq!(r, Route { embed: true, lesson: Some("spin-lock".into()), ..Route::default() });
        assert_eq!(search(&r), "?lesson=spin-lock&embed=1");
        assert_eq!(parse(&search(&r)), r);
        assert!(parse("?tutorial").tutorial);
        assert_eq!(search(&parse("?gallery")), "?gallery");
        assert_eq!(search(&parse("?tutorial")), "?tutorial");
        assert!(!parse("?embed=0").embed);
        assert_eq!(parse("?lesson=").lesson, None);
        assert_eq!(parse("?example=count.toml&embed").example.as_deref(), Some("count.toml"));
        assert_eq!(parse("?example=a%20b%2").example.as_deref(), Some("a b%2"));
        // Whatever an id holds, it comes back as text, escaped in the address.
        let odd = Route { lesson: Some("<b>&x=1".into()), ..Route::default() };
        assert_eq!(search(&odd), "?lesson=%3Cb%3E%26x%3D1");
        assert_eq!(parse(&search(&odd)), odd);
    }

    #[test]
    fn a_link_wins_then_a_lesson_then_an_example() {
        let both = parse("?lesson=spin-lock&example=count.toml");
        assert_eq!(source(&both, "#v1.abc"), Source::Link);
        assert_eq!(source(&both, ""), Source::Lesson("spin-lock".into()));
        assert_eq!(source(&both, "#"), Source::Lesson("spin-lock".into()));
        assert_eq!(source(&parse("?example=count.toml&embed=1"), ""), Source::Example("count.toml".into()));
        assert_eq!(source(&parse("?embed=1"), ""), Source::Stored);
        assert_eq!(full_app("/app/", &parse("?lesson=x&embed=1"), "#v1.abc"), "/app/?lesson=x#v1.abc");
        assert_eq!(full_app("/", &parse("?embed=1"), "v1.abc"), "/#v1.abc");
    }
}
