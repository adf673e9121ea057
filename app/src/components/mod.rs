//! One component per file, each with its own `Props`. Only [`app::App`] holds the session
//! and the reducer; the others receive plain data and callbacks, so each can be replaced on
//! its own (the textarea by a code editor, the lane DOM by a canvas).

pub mod app;
pub mod compare;
pub mod console;
pub mod controls;
pub mod diagnostics;
pub mod editor;
pub mod examples;
pub mod explore;
pub mod files;
pub mod findings;
pub mod gallery;
pub mod header;
pub mod help;
pub mod histogram;
pub mod icon;
pub mod inspector;
pub mod lanes;
pub mod launch;
pub mod outcomes;
pub mod persist;
pub mod restore;
pub mod share;
pub mod shrink_status;
pub mod splitter;
pub mod status;
pub mod timeline_canvas;
pub mod tutorial;
