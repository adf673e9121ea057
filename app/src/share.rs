//! Share links on the page: the link of the current state, and the link a page address's
//! fragment holds. The encoding, its bounds and its checks are the engine's `link` module;
//! here is only what the app's state means for it.

use interleave_engine::diag::Diagnostic;
use interleave_engine::link::{self, Link, LinkView};
use interleave_engine::scenario::Scenario;

use crate::inspector::Tab;

/// The link of `scenario` shown at `step` (when a session is live), with the work-item
/// `selected` and the inspector on `tab`.
pub fn link_of(scenario: &Scenario, step: Option<u64>, selected: Option<usize>, tab: Tab) -> Link {
    Link { scenario: scenario.clone(), view: LinkView { step, selected: selected.and_then(|s| u32::try_from(s).ok()), panel: Some(tab.as_str().to_string()) } }
}

/// The page address without its fragment, which a share URL is built on.
pub fn base(href: &str) -> &str {
    href.split('#').next().unwrap_or_default()
}

/// The link a page's `location.hash` holds: `None` when there is no fragment, the link or
/// why it cannot be read otherwise.
pub fn from_hash(hash: &str) -> Option<Result<Link, Diagnostic>> {
    let fragment = hash.strip_prefix('#').unwrap_or(hash);
    if fragment.trim().is_empty() {
        return None;
    }
    Some(link::decode(fragment))
}

/// The inspector tab a link's panel opens, if it is one (the console is always shown).
pub fn tab_of(panel: Option<&str>) -> Option<Tab> {
    Tab::ALL.into_iter().find(|tab| Some(tab.as_str()) == panel)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples;

    fn scenario() -> Scenario {
        Scenario::new(examples::DEFAULT.source, "k.cl", interleave_engine::scenario::Dialect::OpenCl)
    }

    #[test]
    fn the_link_of_the_state_round_trips_through_the_fragment() {
        let link = link_of(&scenario(), Some(7), Some(2), Tab::Locks);
        assert_eq!(link.view, LinkView { step: Some(7), selected: Some(2), panel: Some("locks".into()) });
        let url = link::url(base("http://127.0.0.1:8080/?x=1#v1.old"), &link);
        assert!(url.starts_with("http://127.0.0.1:8080/?x=1#v1."), "{url}");
        let hash = &url[url.find('#').unwrap()..];
        assert_eq!(from_hash(hash), Some(Ok(link.clone())));
        assert_eq!(tab_of(link.view.panel.as_deref()), Some(Tab::Locks));
    }

    /// A shrunk (or explored) run is a replay: the manual scheduler with its schedule and its
    /// decisions, which the link carries and gives back.
    #[test]
    fn a_replay_survives_the_link() {
        let mut replayed = scenario();
        replayed.scheduler = interleave_engine::scenario::SchedulerKind::Manual;
        replayed.schedule = vec![0, 0, 1, 3, 3, 0];
        replayed.choices = vec![1, 0];
        let link = link_of(&replayed, Some(6), None, Tab::WorkItem);
        let back = from_hash(&format!("#{}", link::encode(&link))).unwrap().unwrap();
        assert_eq!((back.scenario.scheduler, &back.scenario.schedule, &back.scenario.choices), (replayed.scheduler, &replayed.schedule, &replayed.choices));
        assert_eq!(back.view.step, Some(6));
    }

    #[test]
    fn no_fragment_is_no_link_and_a_broken_one_is_a_diagnostic() {
        assert_eq!(from_hash(""), None);
        assert_eq!(from_hash("#"), None);
        let broken = from_hash("#v1.<img src=x onerror=alert(1)>").unwrap().unwrap_err();
        assert_eq!(broken.code, "invalid-link");
        assert_eq!(from_hash("#hello").unwrap().unwrap_err().code, "invalid-link");
        assert_eq!(tab_of(Some("console")), None);
        assert_eq!(tab_of(None), None);
        assert_eq!(link_of(&scenario(), None, None, Tab::WorkItem).view.step, None);
    }
}
