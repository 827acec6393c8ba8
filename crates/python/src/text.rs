//! Orders, units and places as the `diplomacy` package writes them (`A PAR - BUR`,
//! `F STP/SC`, `A PAR B` for a build, `WAIVE`), and the reading of that notation into
//! the engine's orders alongside Chancery's own.

use chancery_engine::order::{Order, OrderError, OrderKind, UnitRef};
use chancery_engine::parse::parse_order;
use chancery_engine::state::PhaseKind;
use chancery_engine::{GameState, Location, PowerId, Unit, UnitKind, Variant};

/// A place: `PAR`, `STP/SC`.
pub fn place(v: &Variant, loc: Location) -> String {
    v.location_name(loc).to_ascii_uppercase()
}

/// A space without its coast: `STP`.
pub fn space(v: &Variant, p: u16) -> String {
    v.province(p).abbr.to_ascii_uppercase()
}

/// A power's name as the package writes it: upper case (`FRANCE`, `SOVIET UNION`).
pub fn power(v: &Variant, p: PowerId) -> String {
    v.power(p).name.to_uppercase()
}

fn letter(kind: Option<UnitKind>) -> &'static str {
    match kind {
        Some(UnitKind::Army) => "A ",
        Some(UnitKind::Fleet) => "F ",
        None => "",
    }
}

/// A unit: `A PAR`, `F STP/SC`.
pub fn unit(v: &Variant, u: &Unit) -> String {
    format!("{}{}", letter(Some(u.kind)), place(v, u.location))
}

fn unit_ref(v: &Variant, u: &UnitRef) -> String {
    format!("{}{}", letter(u.kind), place(v, u.location))
}

/// Every location's name in capitals, by location index, made once per variant: the
/// orders of a whole position are written from it without allocating names.
pub struct Places(Vec<String>);

impl Places {
    pub fn new(v: &Variant) -> Places {
        let mut names = Vec::with_capacity(v.location_count());
        for p in 0..v.provinces.len() as u16 {
            names.push(place(v, Location::province(p)));
            for c in 1..=v.province(p).coasts.len() as u8 {
                names.push(place(v, Location::new(p, c)));
            }
        }
        Places(names)
    }

    fn at(&self, v: &Variant, l: Location) -> &str {
        &self.0[v.location_index(l)]
    }

    fn unit(&self, v: &Variant, out: &mut String, u: &UnitRef) {
        out.push_str(letter(u.kind));
        out.push_str(self.at(v, u.location));
    }

    /// `order`, written at the end of `s`: the lists of `get_all_possible_orders` reuse
    /// one buffer.
    pub fn write_order(&self, v: &Variant, o: &Order, s: &mut String) {
        let s = &mut *s;
        match o.kind {
            OrderKind::Hold => {
                self.unit(v, s, &o.unit);
                s.push_str(" H");
            }
            OrderKind::Move { to, via_convoy } => {
                self.unit(v, s, &o.unit);
                s.push_str(" - ");
                s.push_str(self.at(v, to));
                if via_convoy {
                    s.push_str(" VIA");
                }
            }
            OrderKind::SupportHold { unit } => {
                self.unit(v, s, &o.unit);
                s.push_str(" S ");
                self.unit(v, s, &unit);
            }
            OrderKind::SupportMove { unit, to } => {
                self.unit(v, s, &o.unit);
                s.push_str(" S ");
                self.unit(v, s, &unit);
                s.push_str(" - ");
                s.push_str(self.at(v, to));
            }
            OrderKind::Convoy { army, to } => {
                self.unit(v, s, &o.unit);
                s.push_str(" C ");
                self.unit(v, s, &army);
                s.push_str(" - ");
                s.push_str(self.at(v, to));
            }
            _ => s.push_str(&order(v, o)),
        }
    }
}

/// An order in the package's notation. Original 1958's boarding, which the package does
/// not have, keeps Chancery's words in capitals (`F NTH - YOR B`).
pub fn order(v: &Variant, o: &Order) -> String {
    let me = unit_ref(v, &o.unit);
    match o.kind {
        OrderKind::Hold => format!("{me} H"),
        OrderKind::Move { to, via_convoy } => {
            format!("{me} - {}{}", place(v, to), if via_convoy { " VIA" } else { "" })
        }
        OrderKind::SupportHold { unit } => format!("{me} S {}", unit_ref(v, &unit)),
        OrderKind::SupportMove { unit, to } => format!("{me} S {} - {}", unit_ref(v, &unit), place(v, to)),
        OrderKind::Convoy { army, to } => format!("{me} C {} - {}", unit_ref(v, &army), place(v, to)),
        OrderKind::Board { to, with } => {
            let mut s = match to {
                Some(to) => format!("{me} - {} B", place(v, to)),
                None => format!("{me} B"),
            };
            if let Some(p) = with {
                s.push(' ');
                s.push_str(&power(v, p));
            }
            s
        }
        OrderKind::Retreat { to } => format!("{me} R {}", place(v, to)),
        OrderKind::Disband | OrderKind::Remove => format!("{me} D"),
        OrderKind::Build { .. } => format!("{me} B"),
        OrderKind::Waive => "WAIVE".to_string(),
    }
}

/// Reads an order in either notation for `power` in `state`'s phase. The package's
/// Winter words mean builds and removals: `A PAR B` builds (where Chancery's parser
/// reads a boarding) and `A PAR D` removes.
pub fn read_order(v: &Variant, state: &GameState, power: PowerId, text: &str) -> Result<Order, OrderError> {
    let mut o = parse_order(v, power, text)?;
    if state.phase.kind == PhaseKind::Adjustment {
        o.kind = match o.kind {
            OrderKind::Board { to: None, with: None } => OrderKind::Build { kind: o.unit.kind },
            OrderKind::Disband => OrderKind::Remove,
            k => k,
        };
    }
    Ok(o)
}

/// Reads a unit as the package writes one (`A PAR`, `F STP/SC`, `*A MUN` for a
/// dislodged unit: the star is dropped).
pub fn read_unit(v: &Variant, power: PowerId, text: &str) -> Result<Unit, OrderError> {
    let text = text.trim().trim_start_matches('*');
    let o = parse_order(v, power, text)?;
    match (o.unit.kind, o.kind) {
        (Some(kind), OrderKind::Hold) => Ok(Unit {
            power,
            kind,
            location: o.unit.location,
        }),
        _ => Err(OrderError::Other(format!(
            "`{text}` is not a unit: write `A PAR` or `F STP/SC`"
        ))),
    }
}

/// A bid in Chancery's bid notation, which `parse_bid` reads back: `2 A vie S A ber - sil`.
pub fn bid(v: &Variant, b: &chancery_engine::dp::Bid) -> String {
    format!("{} {}", b.dp, b.order.display(v))
}
