//! The timeline's tests: the store, the view, the layout, cells, hits and scenes.

use super::*;

fn event(step: u64, work_item: u32, kind: EventKind) -> Event {
    Event { step, work_item, kind, location: None, read: 0, written: 0, span: Span::new(0, 0), order: None, scope: None }
}

/// A store of `items` work-items in groups of `group`, warps of `warp`.
fn store(items: u32, group: u32, warp: u32, lockstep: bool) -> EventStore {
    let group_of = (0..items).map(|wi| wi / group).collect();
    EventStore::new(Topology { lockstep, ..Topology::new(group_of, warp) })
}

#[test]
fn warps_are_numbered_across_groups() {
    let topology = Topology::new(vec![0, 0, 0, 1, 1, 1], 2);
    assert_eq!(topology.warp_of, [0, 0, 1, 2, 2, 3]);
    assert_eq!(topology.warp_items, [0..2, 2..3, 3..5, 5..6]);
    assert_eq!(topology.group_items, [0..3, 3..6]);
}

#[test]
fn the_kind_mip_map_answers_every_range() {
    // Data-driven against the obvious scan, for every range of a series with an odd
    // length (partial blocks at every level).
    let mut series = Series::default();
    let kinds: Vec<EventKind> = (0..37).map(|i| KINDS[(i * 7 + i / 3) % KINDS.len()]).collect();
    for (i, &k) in kinds.iter().enumerate() {
        series.push(i as u32, i as u64 * 2, kind_bit(k));
    }
    for lo in 0..=kinds.len() {
        for hi in lo..=kinds.len() {
            let expected = kinds[lo..hi].iter().fold(0, |m, &k| m | kind_bit(k));
            assert_eq!(series.kinds(lo..hi), expected, "{lo}..{hi}");
        }
    }
}

#[test]
fn series_ranges_follow_steps_and_the_limit() {
    let mut series = Series::default();
    for (event, step) in [(0, 0), (3, 3), (4, 3), (9, 9)] {
        series.push(event, step, 1);
    }
    assert_eq!(series.count(4), 2);
    assert_eq!(series.count(100), 4);
    assert_eq!(series.step_range(3..4, 4), 1..3);
    assert_eq!(series.step_range(4..9, 4), 3..3);
    assert_eq!(series.step_range(0..100, 2), 0..2);
}

#[test]
fn views_zoom_about_the_pointer_and_stay_within_the_run() {
    let bounds = Bounds { steps: 1000, width: 500.0 };
    let fit = View::fit(bounds);
    assert_eq!(fit.start, 0.0);
    assert!((fit.end(500.0) - 1002.0).abs() < 1e-9);
    // Zooming in about x = 100 keeps the step under x = 100.
    let before = fit.step_at(100.0);
    let zoomed = fit.zoom_about(100.0, 4.0, bounds);
    assert!((zoomed.step_at(100.0) - before).abs() < 1e-9);
    assert!((zoomed.scale - fit.scale * 4.0).abs() < 1e-9);
    // No further out than fitting, no closer than the limit.
    assert_eq!(fit.zoom_about(0.0, 0.1, bounds), fit);
    assert_eq!(fit.zoom_about(0.0, 1e9, bounds).scale, MAX_SCALE);
    // Panning stops at either end.
    assert_eq!(zoomed.pan(-1e9, bounds).start, 0.0);
    // The cursor (at 1001) may go no further left than a quarter of the width.
    let far = zoomed.pan(1e9, bounds);
    assert!((far.step_at(125.0) - 1001.0).abs() < 1e-6);
    assert_eq!(zoomed.pan(40.0, bounds).start, zoomed.start + 40.0 / zoomed.scale);
    // A short run is not blown up beyond the limit: it spans at least MIN_SPAN steps.
    let short = View::fit(Bounds { steps: 3, width: 160.0 });
    assert_eq!(short.scale, 10.0);
    // Nonsense never escapes.
    let bad = View { start: f64::NAN, scale: f64::INFINITY };
    assert_eq!(bad.clamped(bounds), fit);
}

#[test]
fn the_view_follows_the_cursor_only_when_it_was_watching_it() {
    let bounds = Bounds { steps: 100, width: 100.0 };
    let view = View { start: 0.0, scale: 10.0 };
    // The cursor was after step 9 (visible) and is now after step 100: brought back.
    let followed = view.follow(9, bounds, false);
    assert!((followed.step_at(75.0) - 101.0).abs() < 1e-9);
    // It was not visible before: the user is looking elsewhere.
    let elsewhere = view.follow(50, bounds, false);
    assert_eq!(elsewhere, view);
    // A fitted view fits again.
    assert_eq!(view.follow(9, bounds, true), View::fit(bounds));
    assert_eq!(View { start: 3.2, scale: 10.0 }.visible_steps(100.0), (3, 13));
}

fn lanes(groups: &[(u32, u32)], warp: u32) -> Vec<LaneSpec> {
    // (group, count) per group, work-items numbered in order.
    let mut out = Vec::new();
    let mut wi = 0;
    for &(group, count) in groups {
        for local in 0..count {
            out.push(LaneSpec { work_item: wi, group, warp: group * 100 + local / warp });
            wi += 1;
        }
    }
    out
}

#[test]
fn layout_groups_lanes_and_collapses_headers() {
    let specs = lanes(&[(0, 4), (1, 4)], 2);
    let open = layout(&specs, Headers::Groups, &BTreeSet::new(), None);
    assert_eq!(open.rows.len(), 10);
    assert_eq!(open.place(5), Some(Place::Lane(7)));
    let folded = layout(&specs, Headers::Groups, &BTreeSet::from([Fold::Group(0)]), None);
    assert_eq!(folded.rows.len(), 6);
    assert_eq!(folded.place(2), Some(Place::Folded(0)));
    assert_eq!(folded.place(4), Some(Place::Lane(2)));
    // CUDA: warps within blocks, each collapsible.
    let warps = layout(&specs, Headers::GroupsAndWarps, &BTreeSet::from([Fold::Warp(101)]), None);
    let kinds: Vec<&str> = warps
        .rows
        .iter()
        .map(|r| match r {
            Row::Group { .. } => "g",
            Row::Warp { .. } => "w",
            Row::Lane { .. } => "l",
            Row::Others { .. } => "o",
        })
        .collect();
    assert_eq!(kinds.concat(), "gwllwllgwllw");
    assert_eq!(warps.place(7), Some(Place::Folded(11)));
    // A focus keeps its lanes and collapses each group's others into one row after them.
    let focused = layout(&specs, Headers::Groups, &BTreeSet::new(), Some(&BTreeSet::from([1, 6])));
    assert_eq!(
        focused.rows,
        vec![
            Row::Group { group: 0, lanes: 0..4, collapsed: false },
            Row::Lane { position: 1, work_item: 1 },
            Row::Others { group: 0, count: 3 },
            Row::Group { group: 1, lanes: 4..8, collapsed: false },
            Row::Lane { position: 6, work_item: 6 },
            Row::Others { group: 1, count: 3 },
        ]
    );
    assert_eq!(focused.place(0), Some(Place::Folded(2)));
    assert_eq!(focused.place(6), Some(Place::Lane(4)));
    assert_eq!(focused.series(2, &EventStore::new(Topology::new(vec![0; 8], 4))).map(|s| s.count(0)), None);
    // A group of one warp gets no warp header.
    let one = layout(&lanes(&[(0, 2)], 32), Headers::GroupsAndWarps, &BTreeSet::new(), None);
    assert_eq!(one.rows.len(), 3);
    assert_eq!(one.visible_rows(30.0, 10.0), 1..2);
    assert_eq!(one.row_at(45.0), Some(2));
    assert_eq!(one.row_at(70.0), None);
}

#[test]
fn zoomed_in_there_is_one_cell_per_step_and_zoomed_out_one_per_column() {
    let mut series = Series::default();
    // Steps 0..1000, a store every tenth step, a barrier arrival and release at step 500.
    let mut event = 0;
    for step in 0..1000u64 {
        let kind = if step % 10 == 0 { EventKind::Store } else { EventKind::Load };
        series.push(event, step, kind_bit(kind));
        event += 1;
        if step == 500 {
            series.push(event, step, kind_bit(EventKind::BarrierRelease));
            event += 1;
        }
    }
    let n = series.count(usize::MAX);
    let mut out = Vec::new();
    let close = View { start: 495.0, scale: 10.0 };
    cells(&series, n, &close, 100.0, 1.0, &mut out);
    assert_eq!(out.len(), 10);
    assert_eq!(out[5].count, 2);
    assert_eq!(out[5].kinds, kind_bit(EventKind::Store) | kind_bit(EventKind::BarrierRelease));
    assert_eq!(out[0].x, 0.0);
    // 1001 events over 100 columns: one cell per column, every event counted once.
    out.clear();
    let far = View::fit(Bounds { steps: 1000, width: 100.0 });
    cells(&series, n, &far, 100.0, 1.0, &mut out);
    assert!(out.len() <= 100, "{}", out.len());
    assert_eq!(out.iter().map(|c| c.count as usize).sum::<usize>(), 1001);
    assert!(out.iter().all(|c| c.kinds & kind_bit(EventKind::Load) != 0));
    assert!(out.windows(2).all(|w| w[0].x < w[1].x));
    // The sparse path gives the same cells as the dense one.
    let mut sparse = Vec::new();
    cells(&series, n, &far, 100.0, 0.25, &mut sparse);
    assert_eq!(sparse.iter().map(|c| c.count as usize).sum::<usize>(), 1001);
    // A limit hides later events.
    out.clear();
    cells(&series, series.count(10), &far, 100.0, 1.0, &mut out);
    assert_eq!(out.iter().map(|c| c.count).sum::<u32>(), 10);
}

#[test]
fn a_pixel_hits_the_nearest_event_within_reach() {
    let mut series = Series::default();
    for (event, step) in [(0u32, 2u64), (1, 8)] {
        series.push(event, step, kind_bit(EventKind::Load));
    }
    let view = View { start: 0.0, scale: 10.0 };
    assert_eq!(hit(&series, 2, &view, 25.0, 3.0), Some(0));
    assert_eq!(hit(&series, 2, &view, 32.0, 3.0), Some(0));
    assert_eq!(hit(&series, 2, &view, 50.0, 3.0), None);
    assert_eq!(hit(&series, 2, &view, 79.0, 3.0), Some(1));
    assert_eq!(hit(&series, 1, &view, 85.0, 3.0), None, "beyond the limit");
}

#[test]
fn barrier_episodes_close_at_the_release_and_stay_open_before_it() {
    let mut s = store(4, 4, 32, false);
    for (step, wi) in [(0, 2), (1, 0), (2, 1), (3, 3)] {
        s.push(&event(step, wi, EventKind::BarrierArrive), None);
    }
    let mut release = event(3, 3, EventKind::BarrierRelease);
    release.read = 4;
    s.push(&release, None);
    let closed = s.episodes(usize::MAX, 0..100);
    assert_eq!(closed.len(), 1);
    assert_eq!(closed[0].release, Some(3));
    assert_eq!(closed[0].arrivals.len(), 4);
    assert_eq!(closed[0].warp, None);
    // Seen from before the release: open, with the arrivals so far.
    let open = s.episodes(2, 0..100);
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].release, None);
    assert_eq!(open[0].arrivals.len(), 2);
}

#[test]
fn a_warp_collective_releases_only_its_warp() {
    let mut s = store(4, 4, 2, false);
    // Lanes 2 and 3 (warp 1) meet at a warp collective while lane 0 waits at the group's
    // barrier.
    s.push(&event(0, 0, EventKind::BarrierArrive), None);
    s.push(&event(1, 2, EventKind::BarrierArrive), None);
    s.push(&event(2, 3, EventKind::BarrierArrive), None);
    let mut release = event(2, 3, EventKind::BarrierRelease);
    release.read = 2;
    s.push(&release, None);
    let episodes = s.episodes(usize::MAX, 0..100);
    let warp = episodes.iter().find(|e| e.release.is_some()).unwrap();
    assert_eq!(warp.warp, Some(1));
    let members: Vec<u32> = warp.arrivals.iter().map(|a| a.work_item).collect();
    assert_eq!(members, [2, 3]);
    let open = episodes.iter().find(|e| e.release.is_none()).unwrap();
    assert_eq!(open.arrivals[0].work_item, 0);
}

#[test]
fn lockstep_instructions_are_runs_of_one_warps_lanes_in_lane_order() {
    let mut s = store(4, 4, 4, true);
    let at = |step, wi, span: u32| Event { span: Span::new(span, span + 1), ..event(step, wi, EventKind::Load) };
    // Lanes 0, 1, 3 at one instruction; then 2 alone (it diverged); then 0..3 together.
    for (step, wi, span) in [(0, 0, 10), (1, 1, 10), (2, 3, 10), (3, 2, 20), (4, 0, 30), (5, 1, 30), (6, 2, 30), (7, 3, 30)] {
        s.push(&at(step, wi, span), None);
    }
    let steps: Vec<Vec<u32>> = s.warp_steps(usize::MAX, 0..100).map(|w| w.lanes.iter().map(|&(wi, _)| wi).collect()).collect();
    assert_eq!(steps, [vec![0, 1, 3], vec![2], vec![0, 1, 2, 3]]);
    // Seen from step 5: the last instruction so far has two lanes.
    let partial: Vec<usize> = s.warp_steps(6, 0..100).map(|w| w.lanes.len()).collect();
    assert_eq!(partial, [3, 1, 2]);
}

#[test]
fn lock_bands_follow_holders_and_waiters() {
    use LockAction::*;
    let change = |step, wi, action, holder| LockChange { step, work_item: Some(wi), action, holder };
    // 0 takes it, 1 waits, 0 releases, 1 takes it and still holds it; 2 waits and
    // finishes at step 9.
    let changes = [
        change(1, 0, Acquire, Some(0)),
        change(2, 1, Attempt, Some(0)),
        change(3, 2, Attempt, Some(0)),
        change(5, 0, Release, None),
        change(6, 1, Acquire, Some(1)),
    ];
    let finished = |wi: u32| (wi == 2).then_some(9);
    let bands = lock_bands(0, &changes, &finished);
    let expect = |work_item, from, to, held| LockBand { lock: 0, work_item, from, to, held };
    assert_eq!(bands, [expect(0, 1, Some(5), true), expect(1, 2, Some(6), false), expect(1, 6, None, true), expect(2, 3, Some(9), false),]);
}

#[test]
fn ticks_are_round_and_apart() {
    assert_eq!(tick_every(100.0), 1);
    assert_eq!(tick_every(10.0), 10);
    assert_eq!(tick_every(1.0), 100);
    assert_eq!(tick_every(0.03), 5000);
}

/// A store with two groups of four: group 0 meets at a barrier, lane 5 races with lane 1.
fn scene_fixture() -> (EventStore, Layout) {
    let mut s = store(8, 4, 32, false);
    for wi in 0..4 {
        s.push(&event(wi as u64, wi, EventKind::BarrierArrive), None);
    }
    let mut release = event(3, 3, EventKind::BarrierRelease);
    release.read = 4;
    s.push(&release, None);
    for (step, wi) in [(4, 5), (5, 1), (6, 6)] {
        s.push(&event(step, wi, EventKind::Store), None);
    }
    let specs: Vec<LaneSpec> = (0..8).map(|wi| LaneSpec { work_item: wi, group: wi / 4, warp: wi / 4 }).collect();
    (s, layout(&specs, Headers::Groups, &BTreeSet::new(), None))
}

fn input<'a>(s: &'a EventStore, layout: &'a Layout, races: &'a [RaceArc]) -> SceneInput<'a> {
    SceneInput {
        store: s,
        limit: s.len(),
        layout,
        view: View::fit(Bounds { steps: 7, width: 320.0 }),
        width: 320.0,
        height: AXIS_HEIGHT + 10.0 * ROW_HEIGHT,
        scroll_top: 0.0,
        column: 1.0,
        cursor: 7,
        selected: Some(5),
        lock_bands: &[],
        lock_marks: &[],
        races,
        stale: &[],
    }
}

fn fills(scene: &Scene, paint: Paint) -> Vec<Rect> {
    scene
        .shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Fill { paint: p, rects, .. } if *p == paint => Some(rects.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn a_scene_has_marks_bands_arcs_and_the_cursor() {
    let (s, layout) = scene_fixture();
    let races = [RaceArc { first: (5, 1), second: (4, 5) }];
    let scene = scene(&input(&s, &layout, &races));
    assert_eq!(scene.events, 8);
    assert_eq!((scene.first_step, scene.last_step), (0, 15));
    // The barrier band covers group 0's four lane rows (rows 1..5), steps 0..4.
    let bands = fills(&scene, Paint::BarrierBand);
    assert_eq!(bands.len(), 1);
    assert_eq!(bands[0].y, AXIS_HEIGHT + ROW_HEIGHT);
    assert_eq!(bands[0].h, 4.0 * ROW_HEIGHT);
    assert_eq!(bands[0].w, 4.0 * 20.0);
    assert_eq!(fills(&scene, Paint::BarrierWait).len(), 4);
    assert_eq!(fills(&scene, Paint::Kind(EventKind::Store)).len(), 3);
    assert_eq!(fills(&scene, Paint::Kind(EventKind::BarrierRelease)).len(), 1);
    // Lane 5 is row 7; the selected row is highlighted there.
    assert_eq!(fills(&scene, Paint::Selected)[0].y, AXIS_HEIGHT + 7.0 * ROW_HEIGHT);
    let arcs = scene.shapes.iter().filter(|s| matches!(s, Shape::Arc { paint: Paint::Race, .. })).count();
    assert_eq!(arcs, 1);
    let cursor = fills(&scene, Paint::Cursor);
    assert_eq!(cursor[0].x, 8.0 * 20.0 - 1.0);
}

#[test]
fn a_collapsed_group_draws_its_events_on_its_header_and_hidden_rows_draw_nothing() {
    let (s, _) = scene_fixture();
    let specs: Vec<LaneSpec> = (0..8).map(|wi| LaneSpec { work_item: wi, group: wi / 4, warp: wi / 4 }).collect();
    let folded = layout(&specs, Headers::Groups, &BTreeSet::from([Fold::Group(0)]), None);
    let mut scene_input = input(&s, &folded, &[]);
    let whole = scene(&scene_input);
    assert_eq!(whole.events, 8);
    // Group 0's barrier band shrinks to its header row.
    let bands = fills(&whole, Paint::BarrierBand);
    assert_eq!((bands[0].y, bands[0].h), (AXIS_HEIGHT, ROW_HEIGHT));
    // Scrolled so that only the last rows show: group 0's events are not drawn.
    scene_input.scroll_top = 3.0 * ROW_HEIGHT;
    scene_input.height = AXIS_HEIGHT + 2.0 * ROW_HEIGHT;
    assert_eq!(scene(&scene_input).events, 2);
}

#[test]
fn lockstep_scenes_join_the_active_lanes_and_mark_the_masked_ones() {
    // One warp of four: lanes 0, 1 and 3 step an instruction together; lane 2 is masked
    // off, and once it has finished it is no longer marked.
    let mut s = store(4, 4, 4, true);
    for (step, wi) in [(1, 0), (2, 1), (3, 3)] {
        s.push(&event(step, wi, EventKind::Load), None);
    }
    let specs: Vec<LaneSpec> = (0..4).map(|wi| LaneSpec { work_item: wi, group: 0, warp: 0 }).collect();
    let rows = layout(&specs, Headers::GroupsAndWarps, &BTreeSet::new(), None);
    let scene_of = |s: &EventStore| {
        let mut scene_input = input(s, &rows, &[]);
        scene_input.limit = s.len();
        scene(&scene_input)
    };
    let joins = |scene: &Scene| -> Vec<(f64, f64, f64, f64)> {
        scene
            .shapes
            .iter()
            .filter_map(|shape| match shape {
                Shape::Lines { paint: Paint::Lockstep, lines, .. } => Some(lines.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    };
    let masked = |scene: &Scene| -> usize {
        scene
            .shapes
            .iter()
            .map(|shape| match shape {
                Shape::Outline { paint: Paint::Inactive, rects } => rects.len(),
                _ => 0,
            })
            .sum()
    };
    let first = scene_of(&s);
    // One line from lane 0's row (1) to lane 3's (4), one masked lane.
    let lines = joins(&first);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].1, AXIS_HEIGHT + 1.5 * ROW_HEIGHT);
    assert_eq!(lines[0].3, AXIS_HEIGHT + 4.5 * ROW_HEIGHT);
    assert_eq!(masked(&first), 1);
    // Lane 2 finishes alone; the next instruction of the others does not mark it.
    s.push(&event(4, 2, EventKind::Finish), None);
    for (step, wi) in [(5, 0), (6, 1), (7, 3)] {
        s.push(&event(step, wi, EventKind::Store), None);
    }
    assert_eq!(masked(&scene_of(&s)), 1 + 3, "lane 2's own step masks the other three");
}

/// An explanation's arrows: the edges it names between drawn lanes, the missing edge from
/// the earlier access to the later, and labels that do not cover each other.
#[test]
fn why_arrows_join_the_accesses_and_keep_their_labels_apart() {
    use interleave_engine::report::{Access, Edge, EdgeKind, Explanation, Point};
    let point = |wi: u64, step: u64| Point { line: 1, column: 1, work_item: [wi, 0, 0], step };
    let access = |wi: u64, step: u64| Access { line: 1, column: 1, work_item: [wi, 0, 0], step, text: String::new() };
    let explanation = Explanation {
        accesses: vec![access(1, 9), access(0, 4)],
        edges: vec![
            Edge { kind: EdgeKind::Po, from: point(0, 4), to: point(0, 5), text: String::new() },
            Edge { kind: EdgeKind::Rf, from: point(0, 5), to: point(1, 6), text: String::new() },
            Edge { kind: EdgeKind::Po, from: point(7, 1), to: point(7, 2), text: String::new() },
        ],
        missing: "a release".into(),
    };
    // Work-item 7 has no lane: its edge is left out.
    let arrows = why_arrows(&explanation, |id| (id[0] < 4).then_some(id[0] as u32));
    let arrow = |label, from, to, missing| WhyArrow { label, from, to, missing };
    assert_eq!(arrows.arrows, vec![arrow("po", (4, 0), (5, 0), false), arrow("rf", (5, 0), (6, 1), false), arrow("missing", (4, 0), (9, 1), true)]);
    assert_eq!(arrows.missing, "a release");

    let specs: Vec<LaneSpec> = (0..4).map(|wi| LaneSpec { work_item: wi, group: 0, warp: 0 }).collect();
    let rows = layout(&specs, Headers::Groups, &BTreeSet::new(), None);
    let store = EventStore::new(Topology::new(vec![0; 4], 4));
    let input = SceneInput {
        store: &store,
        limit: 0,
        layout: &rows,
        view: View { start: 0.0, scale: 10.0 },
        width: 400.0,
        height: 200.0,
        scroll_top: 0.0,
        column: 1.0,
        cursor: 10,
        selected: None,
        lock_bands: &[],
        lock_marks: &[],
        races: &[],
        stale: &[],
    };
    let shapes = why_shapes(&input, &arrows);
    assert_eq!(shapes.len(), 3);
    let boxes: Vec<Rect> = shapes
        .iter()
        .map(|s| match s {
            Shape::Arrow { label, label_at, .. } => {
                let w = label_width(label);
                Rect { x: label_at.0 - w / 2.0, y: label_at.1 - LABEL_HEIGHT / 2.0, w, h: LABEL_HEIGHT }
            }
            other => panic!("{other:?}"),
        })
        .collect();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
            assert!(apart, "{a:?} covers {b:?}");
        }
    }
    assert!(matches!(shapes[2], Shape::Arrow { paint: Paint::WhyMissing, dashed: true, .. }));

    // Framing: a fitted view of a long run zooms in on steps 4 to 9; a view that shows them
    // large enough stays.
    let bounds = Bounds { steps: 1000, width: 600.0 };
    let framed = framing(&arrows, View::fit(bounds), bounds).expect("zoomed in");
    assert!(framed.scale > View::fit(bounds).scale);
    assert!(framed.shows(4.0, 600.0) && framed.shows(10.0, 600.0), "{framed:?}");
    assert_eq!(framing(&arrows, framed, bounds), None);
    assert_eq!(framing(&WhyArrows::default(), framed, bounds), None);
}
