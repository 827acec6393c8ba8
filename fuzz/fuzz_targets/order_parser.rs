//! Any text typed as an order must parse or be refused with a message, never panic,
//! in every phase of the Standard map.
#![no_main]

use chancery_engine::builtin::builtin;
use chancery_engine::parse::parse_order_line;
use chancery_engine::state::{GameState, Phase, PhaseKind};
use chancery_engine::validate::validate;
use chancery_engine::{Season, Variant};
use std::sync::OnceLock;
use libfuzzer_sys::fuzz_target;

static STANDARD: OnceLock<Variant> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let v = STANDARD.get_or_init(|| builtin("standard").expect("built in").expect("loads"));
    let mut state = GameState::initial(v);
    if let Ok((_, order)) = parse_order_line(v, text) {
        for kind in [PhaseKind::Movement, PhaseKind::Retreat, PhaseKind::Adjustment] {
            state.phase = Phase::new(Season::Fall, 1901, kind);
            let _ = validate(v, &state, &order);
            let _ = order.display(v).to_string();
        }
    }
});
