//! Small inline SVG icons, so that buttons look the same whether or not the system has an
//! emoji or symbol font. They are decoration only: every button carries its own name.

use yew::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Run,
    Pause,
    Step,
    Reset,
    Dice,
    Moon,
    Sun,
    Close,
    Back,
    ToStart,
    ToEnd,
    Flag,
}

/// The icon as an `aria-hidden` SVG that takes the current text colour.
pub fn icon(which: Icon) -> Html {
    let body = match which {
        Icon::Run => html! { <path d="M5 3.5v9l8-4.5z" fill="currentColor" /> },
        Icon::Pause => html! { <path d="M4.5 3h2.5v10H4.5zM9 3h2.5v10H9z" fill="currentColor" /> },
        Icon::Step => html! { <path d="M3.5 3.5v9l7-4.5zM11 3.5h2v9h-2z" fill="currentColor" /> },
        Icon::Reset => html! {
            <>
                <path d="M12.5 8a4.5 4.5 0 1 1-1.4-3.3" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" />
                <path d="M9.5 2.5h3.5v3.5z" fill="currentColor" />
            </>
        },
        Icon::Dice => html! {
            <>
                <rect x="2" y="2" width="12" height="12" rx="2.5" fill="none" stroke="currentColor" stroke-width="1.4" />
                <circle cx="5.3" cy="5.3" r="1.1" fill="currentColor" />
                <circle cx="8" cy="8" r="1.1" fill="currentColor" />
                <circle cx="10.7" cy="10.7" r="1.1" fill="currentColor" />
            </>
        },
        Icon::Moon => {
            html! { <path d="M10.5 2.5a5.5 5.5 0 1 0 3 9.6A6 6 0 0 1 10.5 2.5z" fill="currentColor" /> }
        }
        Icon::Sun => html! {
            <>
                <circle cx="8" cy="8" r="3" fill="currentColor" />
                <path d="M8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6L13 13M3 13l1.4-1.4M11.6 4.4L13 3" stroke="currentColor" stroke-width="1.4" stroke-linecap="round" />
            </>
        },
        Icon::Back => html! { <path d="M12.5 3.5v9l-7-4.5zM5 3.5H3v9h2z" fill="currentColor" /> },
        Icon::ToStart => html! { <path d="M3 3h2v10H3zM13.5 3.5v9l-7.5-4.5z" fill="currentColor" /> },
        Icon::ToEnd => html! { <path d="M11 3h2v10h-2zM2.5 3.5v9l7.5-4.5z" fill="currentColor" /> },
        Icon::Flag => html! { <path d="M4 2v12M4 2.5h8l-2 3 2 3H4" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" /> },
        Icon::Close => {
            html! { <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" /> }
        }
    };
    html! {
        <svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">{ body }</svg>
    }
}
