//! The two ways the CLI's JSON inputs write a phase's orders, shared by `adjudicate` and
//! `render` so both accept the same files.

use std::collections::BTreeMap;

use serde::Deserialize;

/// `{"England": ["F lon - nth"], ...}` or `["England: F lon - nth", ...]`.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum OrderLines {
    ByPower(BTreeMap<String, Vec<String>>),
    Lines(Vec<String>),
}

impl OrderLines {
    /// Every order as a `Power: order` line, the form `parse_named_order` reads.
    pub fn into_lines(self) -> Vec<String> {
        match self {
            OrderLines::Lines(lines) => lines,
            OrderLines::ByPower(map) => map
                .into_iter()
                .flat_map(|(power, list)| list.into_iter().map(move |o| format!("{power}: {o}")))
                .collect(),
        }
    }
}
