//! The sizes of the resizable panes: their defaults for the window the page opens in, their
//! bounds, and the stored form they are remembered in (`localStorage`, [`LAYOUT_KEY`]).
//!
//! The defaults give the code editor most of the scenario column: the launch panel scrolls
//! within about a quarter of it, so that on a 1600×1000 window the editor shows 25 lines and
//! more, and on 1280×720 it still shows a dozen beside a usable launch panel.

use serde::{Deserialize, Serialize};

/// Where the panes' sizes are remembered.
pub const LAYOUT_KEY: &str = "interleave.layout";

/// The sizes of the resizable panes, in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Panes {
    /// The editor's column.
    pub editor: f64,
    /// The inspector's column.
    pub inspector: f64,
    /// The height of the workspace (editor, timeline, inspector); the results follow below.
    pub workspace: f64,
    /// The most height the launch panel takes under the editor (it scrolls beyond).
    pub launch: f64,
}

/// Which splitter a resize moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Editor,
    Inspector,
    Workspace,
    Launch,
}

impl Pane {
    /// The least and the most size of the pane, so that a drag cannot make one vanish.
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Pane::Launch => (Panes::MIN_LAUNCH, Panes::MAX),
            _ => (Panes::MIN, Panes::MAX),
        }
    }
}

impl Panes {
    /// The sizes for a window of 1600×1000 CSS pixels.
    pub const DEFAULT: Panes = Panes { editor: 580.0, inspector: 320.0, workspace: 870.0, launch: 235.0 };
    /// No pane gets narrower than this, so a drag cannot make one vanish.
    pub const MIN: f64 = 200.0;
    /// The launch panel may shrink to its title and a row of fields.
    pub const MIN_LAUNCH: f64 = 80.0;
    /// Nor wider than this.
    pub const MAX: f64 = 1400.0;
    /// What the page keeps above the workspace (header and padding) and the height of the
    /// results it shows below it without scrolling.
    const ABOVE_AND_BELOW: f64 = 130.0;

    /// The default sizes for a window of `width` × `height` CSS pixels: the workspace fills
    /// the window but for the header and a glimpse of the results, the launch panel takes a
    /// third of it at most, and a narrower window gets a narrower editor column.
    pub fn for_window(width: f64, height: f64) -> Panes {
        if !(width.is_finite() && height.is_finite()) || width <= 0.0 || height <= 0.0 {
            return Panes::DEFAULT;
        }
        let workspace = (height - Panes::ABOVE_AND_BELOW).clamp(460.0, Panes::MAX);
        let launch = (workspace * 0.27).clamp(150.0, 280.0);
        // The editor's column is wide enough for a kernel's longer lines where the window
        // leaves the run column room; the inspector narrows on smaller windows.
        let (editor, inspector) = if width >= 1500.0 {
            (Panes::DEFAULT.editor, Panes::DEFAULT.inspector)
        } else if width >= 1400.0 {
            (520.0, 320.0)
        } else {
            // The run column keeps room for its controls and lanes.
            (420.0, 300.0)
        };
        Panes { editor, inspector, workspace, launch }
    }

    /// The custom properties the workspace's grid reads its sizes from.
    pub fn style(&self) -> String {
        format!("--editor-w:{:.0}px;--inspector-w:{:.0}px;--workspace-h:{:.0}px;--launch-h:{:.0}px", self.editor, self.inspector, self.workspace, self.launch)
    }

    /// Sets the size of `pane`, within its bounds; a size that is not a number changes
    /// nothing.
    pub fn resize(&mut self, pane: Pane, size: f64) {
        if !size.is_finite() {
            return;
        }
        let (min, max) = pane.bounds();
        let size = size.clamp(min, max);
        match pane {
            Pane::Editor => self.editor = size,
            Pane::Inspector => self.inspector = size,
            Pane::Workspace => self.workspace = size,
            Pane::Launch => self.launch = size,
        }
    }

    /// The stored form of the sizes.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The sizes stored as `text` over `defaults`: each one read and kept within its bounds,
    /// and one that is missing or not a number left at its default. Anything unreadable is
    /// the defaults.
    pub fn decode(text: &str, defaults: Panes) -> Panes {
        let Ok(serde_json::Value::Object(map)) = serde_json::from_slice::<serde_json::Value>(text.as_bytes()) else {
            return defaults;
        };
        let mut panes = defaults;
        for (pane, key) in [(Pane::Editor, "editor"), (Pane::Inspector, "inspector"), (Pane::Workspace, "workspace"), (Pane::Launch, "launch")] {
            if let Some(size) = map.get(key).and_then(serde_json::Value::as_f64) {
                panes.resize(pane, size);
            }
        }
        panes
    }
}
