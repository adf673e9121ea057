//! The outcome histogram: one horizontal bar per distinct outcome, most frequent at the top,
//! drawn with plotters on a canvas. Bars whose outcome satisfies a litmus test's condition
//! take the highlight colour; the outcome loaded into the run is outlined.
//!
//! Horizontal bars leave room for labels as long as registers and buffer values get, one per
//! row. The canvas is drawn at the device's pixel ratio so text stays sharp. It is a picture
//! for the eye and the mouse: the outcome table beside it carries the same data for keyboards
//! and screen readers, so the canvas is one labelled image.

use std::rc::Rc;

use gloo::events::EventListener;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::explore::bar_at;
use crate::state::Theme;
use interleave_engine::limits::thousands;

/// The most bars drawn; the table lists every outcome.
pub const MAX_BARS: usize = 40;
/// Height of one bar's row, and of the count axis below the bars, in CSS pixels.
const ROW: f64 = 24.0;
const AXIS: f64 = 30.0;
const TOP: f64 = 6.0;
const FONT_PX: f64 = 12.0;
/// Approximate advance of one character of the monospace labels, in CSS pixels per font
/// pixel, for fitting labels to their column.
const CHAR_WIDTH: f64 = 0.62;

/// One bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    /// The whole outcome, for the tooltip.
    pub description: String,
    pub count: u64,
    /// Whether the outcome satisfies the litmus test's condition.
    pub holds: bool,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub bars: Rc<Vec<Bar>>,
    pub selected: Option<usize>,
    pub theme: Theme,
    /// Whether clicking a bar loads its outcome (not while the results are stale).
    pub enabled: bool,
    pub on_select: Callback<usize>,
}

struct Palette {
    background: RGBColor,
    text: RGBColor,
    grid: RGBColor,
    bar: RGBColor,
    holds: RGBColor,
}

fn palette(theme: Theme) -> Palette {
    match theme {
        Theme::Light => Palette {
            background: RGBColor(0xff, 0xff, 0xff),
            text: RGBColor(0x1b, 0x1f, 0x27),
            grid: RGBColor(0xd8, 0xdc, 0xe3),
            bar: RGBColor(0x24, 0x63, 0xeb),
            holds: RGBColor(0xd9, 0x2d, 0x5f),
        },
        Theme::Dark => Palette {
            background: RGBColor(0x1a, 0x1f, 0x29),
            text: RGBColor(0xe4, 0xe8, 0xef),
            grid: RGBColor(0x32, 0x3a, 0x4a),
            bar: RGBColor(0x5b, 0x8d, 0xff),
            holds: RGBColor(0xff, 0x6b, 0x94),
        },
    }
}

/// Where the bars are on the canvas, in CSS pixels, for mapping clicks to bars.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Geometry {
    top: f64,
    bottom: f64,
    bars: usize,
}

/// The canvas height, in CSS pixels, for `bars` bars.
fn height(bars: usize) -> f64 {
    TOP + bars as f64 * ROW + AXIS
}

fn label_font(size: f64, colour: &RGBColor) -> TextStyle<'static> {
    TextStyle { font: FontDesc::new(FontFamily::Monospace, size, FontStyle::Normal), color: colour.to_backend_color(), pos: Pos::default() }
}

/// `label` cut to `chars` characters, with an ellipsis when cut.
fn fit(label: &str, chars: usize) -> String {
    if label.chars().count() <= chars {
        label.to_string()
    } else {
        let kept: String = label.chars().take(chars.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// Draws the bars; `None` when the canvas cannot be drawn on (it then stays blank, and the
/// table still lists every outcome).
fn draw(canvas: &HtmlCanvasElement, bars: &[Bar], selected: Option<usize>, theme: Theme) -> Option<Geometry> {
    let n = bars.len().min(MAX_BARS);
    let max = bars.iter().take(n).map(|b| b.count).max()?;
    let ratio = gloo::utils::window().device_pixel_ratio().max(1.0);
    let width = f64::from(canvas.client_width().max(240));
    canvas.set_width((width * ratio).round() as u32);
    canvas.set_height((height(n) * ratio).round() as u32);
    let px = |css: f64| (css * ratio).round() as i32;
    let colours = palette(theme);
    let font = |colour: &RGBColor| label_font(FONT_PX * ratio, colour);

    // The label column fits the longest label, within 45% of the width.
    let longest = bars.iter().take(n).map(|b| b.label.chars().count()).max().unwrap_or(1);
    let char_width = FONT_PX * CHAR_WIDTH;
    let label_width = ((longest as f64 + 1.0) * char_width + 12.0).min(width * 0.45);
    let label_chars = ((label_width - 12.0) / char_width).floor().max(4.0) as usize;

    let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
    root.fill(&colours.background).ok()?;
    // Room to the right of the longest bar for its count.
    let x_max = max as f64 * 1.12 + 1.0;
    let mut chart = ChartBuilder::on(&root)
        .margin_top(px(TOP))
        .margin_right(px(12.0))
        .x_label_area_size(px(AXIS))
        .y_label_area_size(px(label_width))
        .build_cartesian_2d(0f64..x_max, 0f64..n as f64)
        .ok()?;
    let whole = |v: &f64| {
        if v.fract() == 0.0 && *v >= 0.0 {
            thousands(*v as u64)
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .x_label_formatter(&whole)
        .label_style(font(&colours.text))
        .axis_style(colours.grid)
        .bold_line_style(colours.grid)
        .light_line_style(colours.background)
        .draw()
        .ok()?;

    for (i, bar) in bars.iter().take(n).enumerate() {
        // Outcome 0 takes the top row.
        let row = (n - 1 - i) as f64;
        let colour = if bar.holds { colours.holds } else { colours.bar };
        let rectangle = Rectangle::new([(0.0, row + 0.18), (bar.count as f64, row + 0.82)], colour.filled());
        chart.draw_series(std::iter::once(rectangle)).ok()?;
        if selected == Some(i) {
            let outline =
                Rectangle::new([(0.0, row + 0.06), (bar.count as f64, row + 0.94)], ShapeStyle::from(&colours.text).stroke_width(px(2.0).max(1) as u32));
            chart.draw_series(std::iter::once(outline)).ok()?;
        }
        let (left, middle) = chart.backend_coord(&(0.0, row + 0.5));
        let label = fit(&bar.label, label_chars);
        let anchor = Pos::new(HPos::Right, VPos::Center);
        root.draw(&Text::new(label, (left - px(8.0), middle), font(&colours.text).pos(anchor))).ok()?;
        let (end, _) = chart.backend_coord(&(bar.count as f64, row + 0.5));
        let anchor = Pos::new(HPos::Left, VPos::Center);
        root.draw(&Text::new(thousands(bar.count), (end + px(5.0), middle), font(&colours.text).pos(anchor))).ok()?;
    }
    root.present().ok()?;
    let (_, rows) = chart.plotting_area().get_pixel_range();
    Some(Geometry { top: f64::from(rows.start) / ratio, bottom: f64::from(rows.end) / ratio, bars: n })
}

#[component]
pub fn Histogram(props: &Props) -> Html {
    let canvas = use_node_ref();
    let geometry = use_mut_ref(Geometry::default);
    // A new width redraws the chart: the canvas is drawn for the width it has.
    let resized = use_state(|| 0u32);
    {
        let resized = resized.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "resize", move |_| {
                resized.set(resized.wrapping_add(1));
            });
            move || drop(listener)
        });
    }
    {
        let (canvas, geometry) = (canvas.clone(), geometry.clone());
        use_effect_with((props.bars.clone(), props.selected, props.theme, *resized), move |(bars, selected, theme, _)| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                *geometry.borrow_mut() = draw(&element, bars, *selected, *theme).unwrap_or_default();
            }
        });
    }

    let bar_under = {
        let geometry = geometry.clone();
        move |event: &MouseEvent| {
            let g = *geometry.borrow();
            bar_at(f64::from(event.offset_y()), g.top, g.bottom, g.bars)
        }
    };
    let onclick = {
        let (on_select, enabled, bar_under) = (props.on_select.clone(), props.enabled, bar_under.clone());
        Callback::from(move |event: MouseEvent| {
            if let Some(index) = bar_under(&event).filter(|_| enabled) {
                on_select.emit(index);
            }
        })
    };
    let onmousemove = {
        let (bars, enabled) = (props.bars.clone(), props.enabled);
        Callback::from(move |event: MouseEvent| {
            let canvas: HtmlCanvasElement = event.target_unchecked_into();
            let (title, hover) = match bar_under(&event).and_then(|i| bars.get(i)) {
                Some(bar) if enabled => (format!("{} · {} runs · click to load", bar.description, thousands(bar.count)), "bar"),
                Some(bar) => (format!("{} · {} runs", bar.description, thousands(bar.count)), "none"),
                None => (String::new(), "none"),
            };
            canvas.set_title(&title);
            // The stylesheet shows a pointer over a bar that can be loaded.
            let _ = canvas.set_attribute("data-hover", hover);
        })
    };

    let shown = props.bars.len().min(MAX_BARS);
    let highlighted = props.bars.iter().take(shown).filter(|b| b.holds).count();
    let label = format!(
        "Histogram of {} outcome{}{}; the table lists them.",
        props.bars.len(),
        if props.bars.len() == 1 { "" } else { "s" },
        if highlighted > 0 { format!(", {highlighted} satisfying the condition (highlighted)") } else { String::new() },
    );
    html! {
        <div class="histogram">
            <canvas
                id="explore-histogram"
                ref={canvas}
                role="img"
                aria-label={label}
                data-bars={shown.to_string()}
                data-highlighted={highlighted.to_string()}
                style={format!("height:{}px", height(shown))}
                {onclick}
                {onmousemove}
            ></canvas>
            if props.bars.len() > MAX_BARS {
                <p class="note">{ format!("The chart shows the {MAX_BARS} most frequent of {} outcomes; the table lists them all.", props.bars.len()) }</p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_cut_to_their_column() {
        assert_eq!(fit("1:r0=1 1:r1=0", 20), "1:r0=1 1:r1=0");
        assert_eq!(fit("counters=[1,2,3,4]", 8), "counter…");
        assert_eq!(height(0), TOP + AXIS);
    }
}
