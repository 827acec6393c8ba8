//! Movement adjudication by the decision model of DATC chapter 5: every move, support
//! and convoy is a boolean decision defined by strengths and paths; `resolve` finds a
//! consistent assignment with the guess algorithm of DATC 5.F and applies the backup
//! rule (circular movement succeeds; Szykman for convoy paradoxes) when a cycle of
//! decisions has no single answer.
//!
//! The resolver keeps its buffers between phases, so adjudicating a phase allocates
//! nothing once the buffers have grown to the board's size.

use crate::state::{GameState, Side};
use crate::variant::{Location, ProvinceId, Terrain, UnitKind, Variant};

const NONE: u16 = u16::MAX;

/// A unit's order as the resolver sees it: validated, with units instead of places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Holds; also every refused order, since a void order's unit holds.
    Hold,
    /// Moves, over land or by sea (DATC 4.A.3 decides which; see [`Resolver::uses_convoy`]).
    Move {
        /// The destination, coast included.
        to: Location,
        /// The order asked for the sea route.
        via_convoy: bool,
    },
    /// Supports the unit in `target` where it stands.
    SupportHold {
        /// The supported unit's space.
        target: ProvinceId,
    },
    /// `to_coast` is 0 unless the support named a coast, which must then match
    /// (DATC 6.B.9).
    SupportMove {
        /// The supported unit's space.
        target: ProvinceId,
        /// The space it moves to.
        to: ProvinceId,
        /// The coast the support named, 0 for none.
        to_coast: u8,
    },
    /// Convoys the army in `from` to `to`.
    Convoy {
        /// The army's space.
        from: ProvinceId,
        /// The army's destination.
        to: ProvinceId,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Unresolved,
    Visited,
    Resolved,
}

/// What the resolver needs to know about a unit beyond its command, for the Original
/// 1958 rules; the default is an ordinary unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extra {
    /// The move joins units of its own power in a stack (`stacking::Arrival::Joins`):
    /// it does not fight them, and two such moves into one space do not bounce.
    pub joins: bool,
    /// The boarding partner of a boarding order (`boarding::pair_boarders`): a moving
    /// boarder does not fight its partner nor bounce against it.
    pub partner: Option<usize>,
    /// A boarding move whose partner did not order B: it fails as a standoff (rule 7)
    /// but still keeps others out like any failed move.
    pub unmatched_board: bool,
}

/// What the backup rule decided, for the reasons shown to players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backup {
    /// The decision was reached without the backup rule.
    None,
    /// A ring of moves with no other answer: every move succeeds (DATC 5.B.9, the backup
    /// rule, 6.C.1).
    CircularMovement,
    /// A cycle with a convoy in it: the convoys fail (the Szykman rule, DATC 4.A.2 and
    /// 6.F.14 to 6.F.24).
    ConvoyParadox,
    /// Any other cycle, which only variants can make: its decisions fail.
    OtherParadox,
}

/// Reusable movement resolver. Call `load`, then `run`, then read the results.
#[derive(Default)]
pub struct Resolver {
    n: usize,
    // Per unit.
    cmd: Vec<Command>,
    origin: Vec<ProvinceId>,
    /// Whom each unit fights for (`GameState::side`).
    side: Vec<Side>,
    kind: Vec<UnitKind>,
    location: Vec<Location>,
    /// The move goes by sea (DATC 4.A.3: ordered via convoy, not adjacent, or a fleet
    /// of its own power ordered to convoy it).
    by_convoy: Vec<bool>,
    /// Index of the opposing unit in a head-to-head battle, or NONE.
    opponent: Vec<u16>,
    /// The move is a minor power's sortie: it fights as a move but the unit never
    /// leaves, and a successful sortie dislodges nobody and closes its target.
    sortie: Vec<bool>,
    /// Supports: whether the supported unit's order matches.
    support_matches: Vec<bool>,
    status: Vec<Status>,
    resolution: Vec<bool>,
    in_cycle: Vec<bool>,
    backup: Vec<Backup>,
    /// Stack and boarding information (all default outside Original 1958).
    joins: Vec<bool>,
    partner: Vec<u16>,
    unmatched_board: Vec<bool>,
    /// For each support, the unit it supports (NONE when unmatched).
    support_target: Vec<u16>,
    // Per province.
    /// The unit that stands for the space: its only unit, or in a stack the first unit
    /// not ordered to move (the first mover when all move).
    occupant: Vec<u16>,
    /// Every unit in each space at the start of the turn (several in a stack).
    here_start: Vec<u32>,
    here: Vec<u16>,
    // Compressed lists: moves into each province, supports for each unit, convoys for
    // each move.
    moves_into_start: Vec<u32>,
    moves_into: Vec<u16>,
    supports_start: Vec<u32>,
    supports: Vec<u16>,
    convoys_start: Vec<u32>,
    convoys: Vec<u16>,
    scratch: Vec<u16>,
    // Guess algorithm state.
    cycle: Vec<u16>,
    guess_based: bool,
    recursion_hits: u32,
}

fn build_lists(
    start: &mut Vec<u32>,
    items: &mut Vec<u16>,
    buckets: usize,
    pairs: impl DoubleEndedIterator<Item = (usize, u16)> + Clone,
) {
    start.clear();
    start.resize(buckets + 1, 0);
    for (b, _) in pairs.clone() {
        start[b] += 1;
    }
    // Running totals: start[b] becomes the end of bucket b.
    let mut total = 0;
    for s in start.iter_mut().take(buckets) {
        total += *s;
        *s = total;
    }
    start[buckets] = total;
    items.clear();
    items.resize(total as usize, 0);
    // Filled from the back with start[b] as the cursor of bucket b, which leaves each
    // start[b] at the beginning of its bucket and the items in their order: two passes
    // over the buckets, not three.
    for (b, item) in pairs.rev() {
        start[b] -= 1;
        items[start[b] as usize] = item;
    }
}

fn list(start: &[u32], b: usize) -> std::ops::Range<usize> {
    start[b] as usize..start[b + 1] as usize
}

impl Resolver {
    /// An empty resolver; its buffers grow on the first [`Resolver::load`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets up a phase. `commands[i]` is the order of `units[i]`, already validated;
    /// invalid orders must be given as `Hold`.
    pub fn load(&mut self, v: &Variant, state: &GameState, commands: &[Command]) {
        self.load_with(v, state, commands, &[]);
    }

    /// As `load`, with the stack and boarding facts of each unit (`extras[i]` for
    /// `units[i]`; missing entries are ordinary units).
    pub fn load_with(&mut self, v: &Variant, state: &GameState, commands: &[Command], extras: &[Extra]) {
        let units = &state.units;
        let n = units.len();
        self.n = n;
        self.cmd.clear();
        self.cmd.extend_from_slice(commands);
        self.origin.clear();
        self.origin.extend(units.iter().map(|u| u.location.province));
        self.side.clear();
        self.side.extend(units.iter().map(|u| state.side(v, u)));
        self.kind.clear();
        self.kind.extend(units.iter().map(|u| u.kind));
        self.location.clear();
        self.location.extend(units.iter().map(|u| u.location));
        self.status.clear();
        self.status.resize(n, Status::Unresolved);
        self.resolution.clear();
        self.resolution.resize(n, false);
        self.in_cycle.clear();
        self.in_cycle.resize(n, false);
        self.backup.clear();
        self.backup.resize(n, Backup::None);
        self.joins.clear();
        self.partner.clear();
        self.unmatched_board.clear();
        for i in 0..n {
            let e = extras.get(i).copied().unwrap_or_default();
            self.joins.push(e.joins);
            self.partner.push(e.partner.map_or(NONE, |p| p as u16));
            self.unmatched_board.push(e.unmatched_board);
        }
        self.occupant.clear();
        self.occupant.resize(v.provinces.len(), NONE);
        for (i, u) in units.iter().enumerate() {
            let p = u.location.province as usize;
            let o = self.occupant[p];
            let stays = !matches!(commands[i], Command::Move { .. });
            if o == NONE || (stays && matches!(commands[o as usize], Command::Move { .. })) {
                self.occupant[p] = i as u16;
            }
        }
        build_lists(
            &mut self.here_start,
            &mut self.here,
            v.provinces.len(),
            units
                .iter()
                .enumerate()
                .map(|(i, u)| (u.location.province as usize, i as u16)),
        );
        self.cycle.clear();
        self.guess_based = false;
        self.recursion_hits = 0;

        // Moves into each province.
        let cmd = &self.cmd;
        let moves = cmd.iter().enumerate().filter_map(|(i, c)| match c {
            Command::Move { to, .. } => Some((to.province as usize, i as u16)),
            _ => None,
        });
        build_lists(
            &mut self.moves_into_start,
            &mut self.moves_into,
            v.provinces.len(),
            moves,
        );

        // Convoy orders matching each army move (before deciding the route, since an
        // own-power convoy order decides it: DATC 4.A.3).
        let origin = &self.origin;
        let occupant = &self.occupant;
        let kind = &self.kind;
        let convoys = cmd.iter().enumerate().filter_map(|(i, c)| match *c {
            Command::Convoy { from, to } => {
                let a = occupant[from as usize];
                if a == NONE || kind[a as usize] != UnitKind::Army {
                    return None;
                }
                match cmd[a as usize] {
                    Command::Move { to: t, .. } if t.province == to && origin[a as usize] == from => {
                        Some((a as usize, i as u16))
                    }
                    _ => None,
                }
            }
            _ => None,
        });
        build_lists(&mut self.convoys_start, &mut self.convoys, n, convoys);

        self.by_convoy.clear();
        for i in 0..n {
            let by_sea = match self.cmd[i] {
                Command::Move { to, via_convoy } if self.kind[i] == UnitKind::Army => {
                    via_convoy
                        || !v.can_move(UnitKind::Army, self.location[i], to)
                        || list(&self.convoys_start, i).any(|k| self.side[self.convoys[k] as usize] == self.side[i])
                }
                _ => false,
            };
            self.by_convoy.push(by_sea);
        }

        self.sortie.clear();
        for i in 0..n {
            self.sortie
                .push(self.side[i].is_minor() && matches!(self.cmd[i], Command::Move { .. }));
        }
        // Head-to-head battles: two units moving into each other's space over land.
        // With `rule swaps different-coasts` two fleets pass each other when their
        // moves use different coasts of a split-coast space (Original 1958 rule 8).
        let coast_swaps = v.rule_on(crate::rules::Rule::CoastSwaps);
        self.opponent.clear();
        for i in 0..n {
            let mut opp = NONE;
            if let Command::Move { to, .. } = self.cmd[i] {
                for k in list(&self.here_start, to.province as usize) {
                    let o = self.here[k];
                    if self.by_convoy[i] || self.by_convoy[o as usize] {
                        continue;
                    }
                    if let Command::Move { to: back, .. } = self.cmd[o as usize] {
                        let passes = coast_swaps && (back != self.location[i] || to != self.location[o as usize]);
                        if back.province == self.origin[i] && !passes {
                            opp = o;
                            break;
                        }
                    }
                }
            }
            self.opponent.push(opp);
        }

        // Supports and whether they match the supported unit's order. In a stack the
        // support goes to a unit whose order it matches.
        self.support_matches.clear();
        self.support_target.clear();
        for i in 0..n {
            let (here_start, here, cmd) = (&self.here_start, &self.here, &self.cmd);
            let in_space = |p: ProvinceId| list(here_start, p as usize).map(|k| here[k] as usize);
            let t = match cmd[i] {
                Command::SupportHold { target } => in_space(target).find(|&t| !matches!(cmd[t], Command::Move { .. })),
                Command::SupportMove { target, to, to_coast } => in_space(target).find(|&t| {
                    matches!(cmd[t], Command::Move { to: d, .. }
                        if d.province == to && (to_coast == 0 || d.coast == to_coast))
                }),
                _ => None,
            };
            self.support_matches.push(t.is_some());
            self.support_target.push(t.map_or(NONE, |t| t as u16));
        }
        let target = &self.support_target;
        let supports = (0..n)
            .filter(|&i| target[i] != NONE)
            .map(|i| (target[i] as usize, i as u16));
        build_lists(&mut self.supports_start, &mut self.supports, n, supports);

        // Orders that cannot succeed are settled at once: holds (nothing to decide),
        // supports of an order that was not given, convoys that carry no army.
        for i in 0..n {
            if matches!(self.cmd[i], Command::Convoy { .. }) {
                self.status[i] = Status::Resolved;
                self.resolution[i] = false;
            }
        }
        for a in 0..n {
            if self.by_convoy[a] {
                for k in list(&self.convoys_start, a) {
                    let f = self.convoys[k] as usize;
                    self.status[f] = Status::Unresolved;
                }
            }
        }
        for i in 0..n {
            match self.cmd[i] {
                Command::Hold => {
                    self.status[i] = Status::Resolved;
                    self.resolution[i] = true;
                }
                Command::SupportHold { .. } | Command::SupportMove { .. } if !self.support_matches[i] => {
                    self.status[i] = Status::Resolved;
                    self.resolution[i] = false;
                }
                Command::Convoy { .. } if v.province(self.origin[i]).terrain != Terrain::Sea => {
                    self.status[i] = Status::Resolved;
                    self.resolution[i] = false;
                }
                _ => {}
            }
        }
    }

    /// Resolves every order.
    pub fn run(&mut self, v: &Variant) {
        for i in 0..self.n {
            self.resolve(v, i);
        }
    }

    /// The decision on unit `i`'s order after [`Resolver::run`]: for a move, it
    /// succeeded; for a support, it was given (not cut); for a convoy, the fleet was not
    /// dislodged and no paradox voided it; a hold is always true.
    pub fn succeeded(&self, i: usize) -> bool {
        self.resolution[i]
    }

    /// Whether, and how, the backup rule decided unit `i`'s order.
    pub fn backup(&self, i: usize) -> Backup {
        self.backup[i]
    }

    /// The space unit `i` stood in at the start of the turn.
    pub fn origin_of(&self, i: usize) -> ProvinceId {
        self.origin[i]
    }

    /// Unit `i`'s command as loaded.
    pub fn command(&self, i: usize) -> Command {
        self.cmd[i]
    }

    /// Whether unit `i`'s move goes by sea: ordered via convoy, not adjacent, or
    /// convoyed by a fleet of its own power (DATC 4.A.3).
    pub fn uses_convoy(&self, i: usize) -> bool {
        self.by_convoy[i]
    }

    /// Whether support `i` is for an order its supported unit really gave; an unmatched
    /// support adds nothing.
    pub fn support_matches(&self, i: usize) -> bool {
        self.support_matches[i]
    }

    /// The unit standing for space `p` at the start of the turn: its only unit, or in a
    /// 1958 stack the first not ordered to move.
    pub fn occupant(&self, p: ProvinceId) -> Option<usize> {
        let o = self.occupant[p as usize];
        (o != NONE).then_some(o as usize)
    }

    /// The units ordered to move into `p`.
    pub fn moves_into(&self, p: ProvinceId) -> impl Iterator<Item = usize> + '_ {
        list(&self.moves_into_start, p as usize).map(|k| self.moves_into[k] as usize)
    }

    /// The units whose matching supports are for unit `i`'s order.
    pub fn supports_of(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        list(&self.supports_start, i).map(|k| self.supports[k] as usize)
    }

    /// The unit moving head to head against unit `i` (each into the other's space, by
    /// land), which the decision model treats apart (DATC 5.B's head-to-head battle).
    pub fn opponent(&self, i: usize) -> Option<usize> {
        let o = self.opponent[i];
        (o != NONE).then_some(o as usize)
    }

    /// The unit that dislodged unit `i`, if any.
    pub fn dislodged_by(&self, i: usize) -> Option<usize> {
        if matches!(self.cmd[i], Command::Move { .. }) && self.resolution[i] && !self.sortie[i] {
            return None;
        }
        // A unit joining a stack or boarding a partner never dislodges anyone.
        self.moves_into(self.origin[i])
            .find(|&m| self.resolution[m] && !self.sortie[m] && !self.friendly(m))
    }

    /// Whether the move enters its space without fighting the units there.
    fn friendly(&self, m: usize) -> bool {
        self.joins[m] || self.partner[m] != NONE
    }

    /// Whether every unit of the space moves away successfully.
    fn all_leave(&mut self, v: &Variant, p: ProvinceId) -> bool {
        let (start, end) = (
            self.here_start[p as usize] as usize,
            self.here_start[p as usize + 1] as usize,
        );
        for k in start..end {
            let u = self.here[k] as usize;
            if !matches!(self.cmd[u], Command::Move { .. }) || self.sortie[u] || !self.resolve(v, u) {
                return false;
            }
        }
        true
    }

    /// Whether unit `i`'s move is a sortie (a minor power's move that never leaves).
    pub fn is_sortie(&self, i: usize) -> bool {
        self.sortie[i]
    }

    /// Whether the move of unit `i` had a route (always, unless it went by sea).
    /// Only valid after `run`.
    pub fn route_ok(&mut self, v: &Variant, i: usize) -> bool {
        self.path(v, i)
    }

    // ---- strengths, read after `run` for the reasons ----

    /// Unit `i`'s attack strength (DATC 5.B), read after [`Resolver::run`] to say why
    /// a move failed.
    pub fn final_attack_strength(&mut self, v: &Variant, i: usize) -> u32 {
        self.attack_strength(v, i)
    }

    /// Space `p`'s hold strength (DATC 5.B), after [`Resolver::run`].
    pub fn final_hold_strength(&mut self, v: &Variant, p: ProvinceId) -> u32 {
        self.hold_strength(v, p)
    }

    /// Unit `i`'s defend strength in a head-to-head battle (DATC 5.B), after
    /// [`Resolver::run`].
    pub fn final_defend_strength(&mut self, v: &Variant, i: usize) -> u32 {
        self.defend_strength(v, i)
    }

    /// Unit `i`'s prevent strength: how hard its move keeps others out of its target
    /// (DATC 5.B), after [`Resolver::run`].
    pub fn final_prevent_strength(&mut self, v: &Variant, i: usize) -> u32 {
        self.prevent_strength(v, i)
    }

    // ---- the guess algorithm (DATC 5.F, second version) ----

    fn resolve(&mut self, v: &Variant, o: usize) -> bool {
        if self.status[o] == Status::Resolved {
            return self.resolution[o];
        }
        if self.in_cycle[o] {
            self.guess_based = true;
            return self.resolution[o];
        }
        if self.status[o] == Status::Visited {
            self.in_cycle[o] = true;
            self.cycle.push(o as u16);
            self.guess_based = true;
            self.recursion_hits += 1;
            return self.resolution[o];
        }
        self.status[o] = Status::Visited;
        let old_cycle_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_recursion_hits = self.recursion_hits;
        self.resolution[o] = false;
        let first = self.adjudicate(v, o);

        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.resolution[o] = first;
            self.status[o] = Status::Resolved;
            return first;
        }
        if self.in_cycle[o] {
            self.recursion_hits -= 1;
        }
        if self.recursion_hits == old_recursion_hits {
            // This order is the ancestor of the whole cycle: try the other guess.
            self.clear_cycle(old_cycle_len);
            self.resolution[o] = true;
            let second = self.adjudicate(v, o);
            if first == second {
                self.clear_cycle(old_cycle_len);
                self.guess_based = old_guess_based;
                self.resolution[o] = first;
                self.status[o] = Status::Resolved;
                return first;
            }
            self.backup_rule(old_cycle_len);
            self.clear_cycle(old_cycle_len);
            self.guess_based = old_guess_based;
            if self.status[o] != Status::Resolved {
                self.status[o] = Status::Unresolved;
            }
            return self.resolve(v, o);
        }
        if !self.in_cycle[o] {
            self.in_cycle[o] = true;
            self.cycle.push(o as u16);
        }
        self.resolution[o] = first;
        self.status[o] = Status::Unresolved;
        first
    }

    fn clear_cycle(&mut self, from: usize) {
        for k in from..self.cycle.len() {
            let o = self.cycle[k] as usize;
            self.in_cycle[o] = false;
        }
        self.cycle.truncate(from);
    }

    /// DATC 5.B.9: a cycle of moves only is circular movement and all succeed; a cycle
    /// with a convoy is a paradox and, by the Szykman rule, its convoys fail; any other
    /// cycle (possible only in variants) fails whole.
    fn backup_rule(&mut self, from: usize) {
        let members = from..self.cycle.len();
        let has_convoy = members
            .clone()
            .any(|k| matches!(self.cmd[self.cycle[k] as usize], Command::Convoy { .. }));
        let all_moves = members
            .clone()
            .all(|k| matches!(self.cmd[self.cycle[k] as usize], Command::Move { .. }));
        for k in members {
            let o = self.cycle[k] as usize;
            if has_convoy {
                if matches!(self.cmd[o], Command::Convoy { .. }) {
                    self.resolution[o] = false;
                    self.status[o] = Status::Resolved;
                    self.backup[o] = Backup::ConvoyParadox;
                }
            } else if all_moves {
                self.resolution[o] = true;
                self.status[o] = Status::Resolved;
                self.backup[o] = Backup::CircularMovement;
            } else {
                self.resolution[o] = false;
                self.status[o] = Status::Resolved;
                self.backup[o] = Backup::OtherParadox;
            }
        }
    }

    fn adjudicate(&mut self, v: &Variant, o: usize) -> bool {
        match self.cmd[o] {
            Command::Hold => true,
            Command::Move { .. } => self.adjudicate_move(v, o),
            Command::SupportHold { .. } | Command::SupportMove { .. } => self.adjudicate_support(v, o),
            Command::Convoy { .. } => self.adjudicate_convoy(v, o),
        }
    }

    fn dest(&self, o: usize) -> ProvinceId {
        match self.cmd[o] {
            Command::Move { to, .. } => to.province,
            _ => self.origin[o],
        }
    }

    fn adjudicate_move(&mut self, v: &Variant, o: usize) -> bool {
        if self.unmatched_board[o] || !self.path(v, o) {
            return false;
        }
        let attack = self.attack_strength(v, o);
        let to = self.dest(o);
        let opp = self.opponent[o];
        if self.friendly(o) {
            // Joining its own stack or boarding: the units there do not resist.
        } else if opp != NONE {
            if attack <= self.defend_strength(v, opp as usize) {
                return false;
            }
        } else if attack <= self.hold_strength(v, to) {
            return false;
        }
        for k in list(&self.moves_into_start, to as usize) {
            let m = self.moves_into[k] as usize;
            let allied =
                m as u16 == self.partner[o] || (self.joins[o] && self.joins[m] && self.side[m] == self.side[o]);
            if m != o && !allied && attack <= self.prevent_strength(v, m) {
                return false;
            }
        }
        // A successful sortie closes its target to every other move this turn.
        for k in list(&self.moves_into_start, to as usize) {
            let m = self.moves_into[k] as usize;
            if m != o && self.sortie[m] && self.resolve(v, m) {
                return false;
            }
        }
        true
    }

    fn adjudicate_support(&mut self, v: &Variant, o: usize) -> bool {
        let here = self.origin[o];
        let into = match self.cmd[o] {
            Command::SupportMove { to, .. } => to,
            _ => ProvinceId::MAX,
        };
        for k in list(&self.moves_into_start, here as usize) {
            let m = self.moves_into[k] as usize;
            if self.side[m] == self.side[o] {
                continue;
            }
            if self.origin[m] == into {
                // An attack from where the support goes cuts only by dislodging, which
                // a sortie never does.
                if !self.sortie[m] && self.resolve(v, m) {
                    return false;
                }
            } else if self.path(v, m) {
                return false;
            }
        }
        true
    }

    fn adjudicate_convoy(&mut self, v: &Variant, o: usize) -> bool {
        let here = self.origin[o];
        // DATC 5.D: adjudicate (not resolve) the attackers, so that paradox cycles stay
        // clean single cycles.
        let (start, end) = (
            self.moves_into_start[here as usize] as usize,
            self.moves_into_start[here as usize + 1] as usize,
        );
        for k in start..end {
            let m = self.moves_into[k] as usize;
            if self.side[m] != self.side[o] && self.adjudicate_move(v, m) {
                return false;
            }
        }
        true
    }

    fn path(&mut self, v: &Variant, o: usize) -> bool {
        if !self.by_convoy[o] {
            return true;
        }
        let from = self.origin[o];
        let to = self.dest(o);
        let base = self.scratch.len();
        let (start, end) = (self.convoys_start[o] as usize, self.convoys_start[o + 1] as usize);
        for k in start..end {
            let f = self.convoys[k] as usize;
            if self.resolve(v, f) {
                self.scratch.push(f as u16);
            }
        }
        // Breadth-first over the fleets whose convoys succeed: [base, reached) is the
        // set reached so far.
        let mut reached = base;
        for i in base..self.scratch.len() {
            let f = self.scratch[i] as usize;
            if touches(v, self.location[f], from) {
                self.scratch.swap(i, reached);
                reached += 1;
            }
        }
        let mut found = false;
        let mut next = base;
        while next < reached {
            let f = self.scratch[next] as usize;
            if touches(v, self.location[f], to) {
                found = true;
                break;
            }
            // Elements in [reached, j) were checked and do not touch f; a swap only
            // moves one of them behind j.
            let mut j = reached;
            while j < self.scratch.len() {
                let g = self.scratch[j] as usize;
                if touches(v, self.location[f], self.origin[g]) {
                    self.scratch.swap(j, reached);
                    reached += 1;
                }
                j += 1;
            }
            next += 1;
        }
        self.scratch.truncate(base);
        found
    }

    fn support_count(&mut self, v: &Variant, o: usize, not_side: Option<Side>) -> u32 {
        let (start, end) = (self.supports_start[o] as usize, self.supports_start[o + 1] as usize);
        let mut count = 0;
        for k in start..end {
            let s = self.supports[k] as usize;
            if not_side == Some(self.side[s]) {
                continue;
            }
            if self.resolve(v, s) {
                count += 1;
            }
        }
        count
    }

    fn attack_strength(&mut self, v: &Variant, o: usize) -> u32 {
        if !self.path(v, o) {
            return 0;
        }
        let to = self.dest(o);
        let occ = self.occupant[to as usize];
        let vacated = occ == NONE || self.friendly(o) || (self.opponent[o] == NONE && self.all_leave(v, to));
        if vacated {
            return 1 + self.support_count(v, o, None);
        }
        let defender = self.side[occ as usize];
        if defender == self.side[o] {
            return 0;
        }
        1 + self.support_count(v, o, Some(defender))
    }

    fn hold_strength(&mut self, v: &Variant, p: ProvinceId) -> u32 {
        let occ = self.occupant[p as usize];
        if occ == NONE {
            return 0;
        }
        let occ = occ as usize;
        if self.sortie[occ] {
            // A sortieing unit stays, but like any unit ordered to move it gets no
            // support to hold.
            return 1;
        }
        if matches!(self.cmd[occ], Command::Move { .. }) {
            // Every unit of the space moves (the occupant is a stayer when there is
            // one): it holds with 1 if any of them stays behind.
            return if self.all_leave(v, p) { 0 } else { 1 };
        }
        // A stack defends as one unit (Original 1958 rule 3).
        1 + self.support_count(v, occ, None)
    }

    fn defend_strength(&mut self, v: &Variant, o: usize) -> u32 {
        1 + self.support_count(v, o, None)
    }

    fn prevent_strength(&mut self, v: &Variant, o: usize) -> u32 {
        if !self.path(v, o) {
            return 0;
        }
        let opp = self.opponent[o];
        if opp != NONE && self.resolve(v, opp as usize) {
            return 0;
        }
        1 + self.support_count(v, o, None)
    }
}

/// Whether a fleet at `fleet` borders any part of `province`.
fn touches(v: &Variant, fleet: Location, province: ProvinceId) -> bool {
    v.fleet_neighbours(fleet).iter().any(|l| l.province == province)
}
