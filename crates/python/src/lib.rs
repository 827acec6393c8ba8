//! `chancery` for Python: the engine and the bots behind the names the `diplomacy`
//! package made familiar (`Game`, `set_orders`, `process`, `get_state`,
//! `get_all_possible_orders`, the saved-game format), for every built-in variant and
//! any `.var` file. Judging happens without the interpreter's lock, so threads and
//! `process_many` use every core.

mod saved;
mod text;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use chancery_bot::{decide, Decision, Level, Settings};
use chancery_engine::adjudicate::Judge;
use chancery_engine::adjust::surplus;
use chancery_engine::builtin::builtin;
use chancery_engine::dp::{budget, check_bids, parse_bid, Bid};
use chancery_engine::options::{orderable_units, Lister, Scope};
use chancery_engine::order::{Order, OrderKind};
use chancery_engine::phase::judge_phase_with;
use chancery_engine::state::PhaseKind;
use chancery_engine::variant_file::load_variant;
use chancery_engine::{GameState, Location, Phase, PhaseResult, PowerId, Season, Variant};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

create_exception!(
    chancery,
    ChanceryError,
    PyValueError,
    "Base of the errors the engine reports."
);
create_exception!(
    chancery,
    VariantError,
    ChanceryError,
    "A variant name or file that cannot be loaded."
);
create_exception!(
    chancery,
    OrderError,
    ChanceryError,
    "An order the engine refuses, with its reason."
);
create_exception!(
    chancery,
    BidError,
    ChanceryError,
    "Diplomacy Point bids the rules refuse (DP rule 3)."
);

/// A loaded variant with the strings Python asks for again and again made once.
pub(crate) struct Loaded {
    pub v: Variant,
    pub name: String,
    /// Every location's name (`PAR`, `STP/SC`), by location index.
    pub places: Vec<Py<PyString>>,
    pub texts: text::Places,
}

fn builtins() -> &'static Mutex<HashMap<String, Arc<Loaded>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Loaded>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn loaded(py: Python<'_>, v: Variant, name: String) -> Arc<Loaded> {
    let mut places = Vec::with_capacity(v.location_count());
    for p in 0..v.provinces.len() as u16 {
        places.push(PyString::new(py, &text::place(&v, Location::province(p))).unbind());
        for c in 1..=v.province(p).coasts.len() as u8 {
            places.push(PyString::new(py, &text::place(&v, Location::new(p, c))).unbind());
        }
    }
    let texts = text::Places::new(&v);
    Arc::new(Loaded { v, name, places, texts })
}

pub(crate) fn load(py: Python<'_>, name: &str) -> PyResult<Arc<Loaded>> {
    if let Some(l) = builtins().lock().expect("cache").get(name) {
        return Ok(l.clone());
    }
    let (v, builtin_name) = match builtin(name) {
        Some(r) => (r.map_err(|e| VariantError::new_err(e.to_string()))?, true),
        None => {
            let text = std::fs::read_to_string(name).map_err(|e| {
                VariantError::new_err(format!(
                    "`{name}` is neither a built-in variant (standard, 1936, 1648, original-1958) nor a readable file: {e}"
                ))
            })?;
            (
                load_variant(name, &text).map_err(|e| VariantError::new_err(e.to_string()))?,
                false,
            )
        }
    };
    let l = loaded(py, v, name.to_string());
    if builtin_name {
        builtins().lock().expect("cache").insert(name.to_string(), l.clone());
    }
    Ok(l)
}

/// A game: the position, the orders and bids given for the phase, and every phase
/// judged so far.
#[pyclass(module = "chancery")]
pub struct Game {
    pub(crate) l: Arc<Loaded>,
    pub(crate) state: GameState,
    /// Orders given for the current phase, each tagged with its power.
    pub(crate) orders: Vec<Order>,
    pub(crate) bids: Vec<Bid>,
    /// Every phase judged, oldest first, with the orders and bids as given.
    pub(crate) history: Vec<(PhaseResult, Vec<Order>, Vec<Bid>)>,
}

/// A copy keeps room in its history for the phases it will judge. A vector cloned
/// exactly full reallocates at its next push, copying every phase before it; in
/// `process_many` that push runs on a worker thread while the copy's memory belongs to
/// the allocator arena of the thread that copied it, whose lock is held for the whole
/// copy, so copied games judged together waited on one another there (two threads
/// judged no faster than one).
impl Clone for Game {
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(self.history.len() + HISTORY_ROOM);
        history.extend(self.history.iter().cloned());
        Game {
            l: Arc::clone(&self.l),
            state: self.state.clone(),
            orders: self.orders.clone(),
            bids: self.bids.clone(),
            history,
        }
    }
}

/// Phases a copied game may judge before its history grows again: four years or so.
const HISTORY_ROOM: usize = 16;

impl Game {
    pub(crate) fn new_from(l: Arc<Loaded>) -> Game {
        let state = GameState::initial(&l.v);
        Game {
            l,
            state,
            orders: Vec::new(),
            bids: Vec::new(),
            history: Vec::new(),
        }
    }

    fn v(&self) -> &Variant {
        &self.l.v
    }

    pub(crate) fn power_id(&self, name: &str) -> PyResult<PowerId> {
        self.v()
            .find_power(name)
            .or_else(|| {
                (0..self.v().powers.len() as PowerId).find(|&p| self.v().power(p).name.eq_ignore_ascii_case(name))
            })
            .ok_or_else(|| {
                let names: Vec<String> = self.player_powers().map(|p| text::power(self.v(), p)).collect();
                ChanceryError::new_err(format!("no power `{name}` in {}: {}", self.l.name, names.join(", ")))
            })
    }

    /// Great powers and factions: the powers that give orders.
    fn player_powers(&self) -> impl Iterator<Item = PowerId> + '_ {
        (0..self.v().powers.len() as PowerId).filter(|&p| !self.v().is_minor(p))
    }

    fn done(&self) -> bool {
        self.winner().is_some()
    }

    fn winner(&self) -> Option<PowerId> {
        self.history.last().and_then(|(r, _, _)| r.winner())
    }

    /// Judges the phase with the orders and bids given; callers hold no interpreter lock.
    /// The judge's buffers are kept per thread, so a thread judging game after game
    /// allocates only what the result keeps.
    pub(crate) fn judge(l: &Loaded, state: &GameState, orders: &[Order], bids: &[Bid]) -> PhaseResult {
        thread_local! {
            static JUDGE: std::cell::RefCell<Judge> = std::cell::RefCell::new(Judge::new());
        }
        JUDGE.with(|j| judge_phase_with(&l.v, state, orders, bids, &mut j.borrow_mut()))
    }

    /// Moves the game past a judged phase; like [`Game::judge`], called without the
    /// interpreter's lock (the history's vector reallocates as it grows).
    pub(crate) fn record(&mut self, result: PhaseResult) {
        self.state = result.next().clone();
        let orders = std::mem::take(&mut self.orders);
        let bids = std::mem::take(&mut self.bids);
        self.history.push((result, orders, bids));
    }

    pub(crate) fn set_orders_checked(
        &mut self,
        power: PowerId,
        texts: &[String],
        strict: bool,
    ) -> PyResult<Vec<String>> {
        let mut accepted = Vec::new();
        let mut refused = Vec::new();
        let mut lister_state = None;
        for t in texts {
            let t = t.trim();
            if t.is_empty() {
                continue;
            }
            let parsed = text::read_order(self.v(), &self.state, power, t);
            let checked = parsed.and_then(|o| {
                let validator = lister_state.get_or_insert_with(|| {
                    let mut x = chancery_engine::validate::Validator::new();
                    x.index(self.v(), &self.state);
                    x
                });
                validator.validate(self.v(), &self.state, &o).map(|_| o)
            });
            match checked {
                Ok(o) => accepted.push(o),
                Err(e) if strict => return Err(OrderError::new_err(format!("`{t}`: {e}"))),
                Err(e) => refused.push(format!("`{t}`: {e}")),
            }
        }
        self.orders.retain(|o| o.power != power);
        self.orders.extend(accepted);
        Ok(refused)
    }
}

impl Game {
    /// The `diplomacy` package's two forms of a per-power answer: the list of the power
    /// named, or a dict of every power in `all` when none is.
    fn per_power<'py>(
        &self,
        py: Python<'py>,
        power: Option<&str>,
        all: Vec<PowerId>,
        of: impl Fn(PowerId) -> Vec<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match power {
            Some(name) => Ok(of(self.power_id(name)?).into_pyobject(py)?.into_any()),
            None => {
                let d = PyDict::new(py);
                for p in all {
                    d.set_item(text::power(self.v(), p), of(p))?;
                }
                Ok(d.into_any())
            }
        }
    }

    fn every_power(&self) -> Vec<PowerId> {
        (0..self.v().powers.len() as PowerId).collect()
    }
}

fn phase_from_code(code: &str) -> Option<Phase> {
    let c = code.trim().to_ascii_uppercase();
    if c.len() < 3 {
        return None;
    }
    let (first, rest) = c.split_at(1);
    let (year, last) = rest.split_at(rest.len() - 1);
    let year: i32 = year.parse().ok()?;
    let kind = match last {
        "M" => PhaseKind::Movement,
        "R" => PhaseKind::Retreat,
        "A" => PhaseKind::Adjustment,
        _ => return None,
    };
    let season = match (first, kind) {
        ("S", PhaseKind::Movement | PhaseKind::Retreat) => Season::Spring,
        ("F", PhaseKind::Movement | PhaseKind::Retreat) => Season::Fall,
        ("W", PhaseKind::Adjustment) => Season::Fall,
        _ => return None,
    };
    Some(Phase::new(season, year, kind))
}

fn strings(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = obj.extract::<String>() {
        return Ok(vec![s]);
    }
    obj.extract::<Vec<String>>()
}

#[pymethods]
impl Game {
    /// A new game of `variant` at its starting position: `"standard"`, `"1936"`,
    /// `"1648"`, `"original-1958"`, or the path of a `.var` file.
    #[new]
    #[pyo3(signature = (variant = "standard"))]
    fn py_new(py: Python<'_>, variant: &str) -> PyResult<Game> {
        Ok(Game::new_from(load(py, variant)?))
    }

    /// The variant's name as given when the game was made.
    #[getter]
    fn map_name(&self) -> String {
        self.l.name.clone()
    }

    /// The current phase's short name: `S1901M`, `F1901R`, `W1901A`.
    #[getter]
    fn phase(&self) -> String {
        self.state.phase.code()
    }

    /// The current phase's short name (the `diplomacy` package's spelling).
    fn get_current_phase(&self) -> String {
        self.phase()
    }

    /// Moves the game to another phase, keeping the units (for set-ups such as test
    /// cases). Orders given so far are dropped.
    fn set_current_phase(&mut self, code: &str) -> PyResult<()> {
        let phase = phase_from_code(code).ok_or_else(|| {
            ChanceryError::new_err(format!("`{code}` is not a phase: write S1901M, F1901R or W1901A"))
        })?;
        self.state.phase = phase;
        self.orders.clear();
        self.bids.clear();
        Ok(())
    }

    /// The powers that give orders (great powers and factions), upper case.
    #[getter]
    fn powers(&self) -> Vec<String> {
        self.player_powers().map(|p| text::power(self.v(), p)).collect()
    }

    /// Every power of the variant, minor powers included.
    #[getter]
    fn all_powers(&self) -> Vec<String> {
        (0..self.v().powers.len() as PowerId)
            .map(|p| text::power(self.v(), p))
            .collect()
    }

    /// Whether someone has won.
    #[getter]
    fn is_game_done(&self) -> bool {
        self.done()
    }

    /// `[phase, winner]` once a power has won (the phase it won in), else `[]`.
    #[getter]
    fn outcome(&self) -> Vec<String> {
        match (self.winner(), self.history.last()) {
            (Some(w), Some((r, _, _))) => vec![r.phase().code(), text::power(self.v(), w)],
            _ => Vec::new(),
        }
    }

    /// The units of `power` (`["A PAR", "F BRE"]`; a dislodged unit is `"*A MUN"`), or of
    /// every power as a dict when no power is given.
    #[pyo3(signature = (power = None))]
    fn get_units<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let units_of = |p: PowerId| -> Vec<String> {
            let v = self.v();
            let mut out: Vec<String> = self
                .state
                .units
                .iter()
                .filter(|u| u.power == p)
                .map(|u| text::unit(v, u))
                .collect();
            out.extend(
                self.state
                    .carried
                    .iter()
                    .filter(|c| c.army == p && !c.carrier_dislodged)
                    .map(|c| text::unit(v, &c.army_unit())),
            );
            out.extend(
                self.state
                    .dislodged
                    .iter()
                    .filter(|d| d.unit.power == p)
                    .map(|d| format!("*{}", text::unit(v, &d.unit))),
            );
            out
        };
        self.per_power(py, power, self.every_power(), units_of)
    }

    /// The supply centres `power` owns (`["PAR", "BRE"]`), or every power's as a dict.
    #[pyo3(signature = (power = None))]
    fn get_centers<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let centres_of = |p: PowerId| -> Vec<String> {
            (0..self.v().provinces.len())
                .filter(|&i| self.state.owners[i] == Some(p))
                .map(|i| text::space(self.v(), i as u16))
                .collect()
        };
        self.per_power(py, power, self.every_power(), centres_of)
    }

    /// Replaces the units of `power` (the `diplomacy` package's `set_units`, for set-ups):
    /// `game.set_units("FRANCE", ["A PAR", "F BRE"])`. With `reset=False` the units are
    /// added to those it has.
    #[pyo3(signature = (power, units, reset = true))]
    fn set_units(&mut self, power: &str, units: &Bound<'_, PyAny>, reset: bool) -> PyResult<()> {
        let p = self.power_id(power)?;
        let mut new = Vec::new();
        for t in strings(units)? {
            let u = text::read_unit(self.v(), p, &t).map_err(|e| OrderError::new_err(format!("`{t}`: {e}")))?;
            new.push(u);
        }
        if reset {
            self.state.units.retain(|u| u.power != p);
        }
        // Several units share a space only where the variant stacks them (1958).
        let stacking = self.v().rule_on(chancery_engine::rules::Rule::Stacking);
        for u in new {
            self.state
                .units
                .retain(|x| stacking || x.location.province != u.location.province);
            self.state.units.push(u);
        }
        self.orders.clear();
        Ok(())
    }

    /// Takes every unit off the board.
    fn clear_units(&mut self) {
        self.state.units.clear();
        self.state.dislodged.clear();
        self.state.carried.clear();
        self.orders.clear();
    }

    /// Gives `power` the supply centres listed (`["PAR", "BEL"]`); with `reset=True` it
    /// loses those it had.
    #[pyo3(signature = (power, centers, reset = true))]
    fn set_centers(&mut self, power: &str, centers: &Bound<'_, PyAny>, reset: bool) -> PyResult<()> {
        let p = self.power_id(power)?;
        let mut spaces = Vec::new();
        for t in strings(centers)? {
            let name = t.trim().trim_start_matches(['A', 'F']).trim();
            let at = self
                .v()
                .find_province(name.split('/').next().unwrap_or(name))
                .ok_or_else(|| ChanceryError::new_err(format!("no space `{t}` in {}", self.l.name)))?;
            if !self.v().province(at).sc {
                return Err(ChanceryError::new_err(format!("`{t}` is not a supply centre")));
            }
            spaces.push(at);
        }
        if reset {
            for o in self.state.owners.iter_mut().filter(|o| **o == Some(p)) {
                *o = None;
            }
        }
        for at in spaces {
            self.state.owners[at as usize] = Some(p);
        }
        Ok(())
    }

    /// Leaves every supply centre unowned.
    fn clear_centers(&mut self) {
        for o in &mut self.state.owners {
            *o = None;
        }
    }

    /// The locations where `power` has something to order this phase: its units'
    /// spaces in movement, its dislodged units' in retreats, its build sites or units
    /// in a Winter. A dict for every power when none is given.
    #[pyo3(signature = (power = None))]
    fn get_orderable_locations<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let of = |p: PowerId| -> Vec<String> {
            let mut out: Vec<String> = match self.state.phase.kind {
                PhaseKind::Adjustment => {
                    let mut l = Lister::new(self.v(), &self.state, Scope::Plausible);
                    l.adjustments(p)
                        .iter()
                        .filter(|o| !matches!(o.kind, OrderKind::Waive))
                        .map(|o| text::space(self.v(), o.unit.location.province))
                        .collect()
                }
                _ => orderable_units(self.v(), &self.state, p)
                    .iter()
                    .map(|u| text::space(self.v(), u.location.province))
                    .collect(),
            };
            out.sort();
            out.dedup();
            out
        };
        self.per_power(py, power, self.player_powers().collect(), of)
    }

    /// Every legal order of the phase by location (`{"PAR": ["A PAR H", "A PAR - BUR",
    /// …], "STP/SC": […], …}`), every location of the map a key, from the engine's
    /// options module: exactly the orders `set_orders` accepts. Winter builds sit under
    /// their site with `WAIVE`; removals under the unit.
    fn get_all_possible_orders<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let v = self.v();
        let groups = possible_orders(v, &self.state);
        let mut lists: Vec<Option<Bound<'py, PyList>>> = vec![None; v.location_count()];
        // One buffer for every order's text: each becomes a Python string straight away.
        let mut buf = String::with_capacity(32);
        for (loc, orders, waive) in groups {
            let list = match &lists[loc] {
                Some(l) => l.clone(),
                None => {
                    let l = PyList::empty(py);
                    lists[loc] = Some(l.clone());
                    l
                }
            };
            for o in &orders {
                buf.clear();
                self.l.texts.write_order(v, o, &mut buf);
                list.append(PyString::new(py, &buf))?;
            }
            if waive {
                list.append(PyString::new(py, "WAIVE"))?;
            }
        }
        let d = PyDict::new(py);
        for (i, list) in lists.into_iter().enumerate() {
            match list {
                Some(l) => d.set_item(self.l.places[i].bind(py), l)?,
                None => d.set_item(self.l.places[i].bind(py), PyList::empty(py))?,
            }
        }
        Ok(d)
    }

    /// Gives `power`'s orders for the phase, replacing any it gave before. Reads the
    /// `diplomacy` package's notation (`A PAR - BUR`, `F BRE S A PAR - BUR`,
    /// `A LON - BEL VIA`, `A PAR B`, `A PAR D`, `WAIVE`) and Chancery's (`Build A par`,
    /// full names, coasts in any spelling). With `strict` (the default) a refused order
    /// raises `OrderError` with the engine's reason and nothing is changed; otherwise
    /// the refused orders are left out, as the package does, and their reasons returned.
    #[pyo3(signature = (power, orders, strict = true))]
    fn set_orders(&mut self, power: &str, orders: &Bound<'_, PyAny>, strict: bool) -> PyResult<Vec<String>> {
        let p = self.power_id(power)?;
        if self.v().is_minor(p) {
            return Err(OrderError::new_err(format!(
                "{} is a minor power: its units take their orders from Diplomacy Point bids (set_bids)",
                self.v().power(p).name
            )));
        }
        let texts = strings(orders)?;
        self.set_orders_checked(p, &texts, strict)
    }

    /// The orders given so far this phase by `power` (or every power, as a dict).
    #[pyo3(signature = (power = None))]
    fn get_orders<'py>(&self, py: Python<'py>, power: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let of = |p: PowerId| -> Vec<String> {
            self.orders
                .iter()
                .filter(|o| o.power == p)
                .map(|o| text::order(self.v(), o))
                .collect()
        };
        self.per_power(py, power, self.player_powers().collect(), of)
    }

    /// Forgets every order and bid given this phase.
    fn clear_orders(&mut self) {
        self.orders.clear();
        self.bids.clear();
    }

    /// Gives a great power's Diplomacy Point bids for this movement phase (1936, 1648),
    /// replacing any it gave: `["2 A Austria S A Munich - Bohemia", "A Rome H"]` (a bid
    /// without a number is 1 DP). Checked against DP rule 3 with the power's orders
    /// given so far: budget, one bid per unit, at most one 2-DP bid, no bid on a minor
    /// its own orders attack; a refusal raises `BidError` with the rule's words.
    fn set_bids(&mut self, power: &str, bids: &Bound<'_, PyAny>) -> PyResult<()> {
        let p = self.power_id(power)?;
        let mut mine = Vec::new();
        for t in strings(bids)? {
            mine.push(parse_bid(self.v(), p, &t).map_err(BidError::new_err)?);
        }
        check_bids(self.v(), &self.state, p, &self.orders, &mine).map_err(|e| BidError::new_err(e.to_string()))?;
        self.bids.retain(|b| b.power != p);
        self.bids.extend(mine);
        Ok(())
    }

    /// The Diplomacy Points `power` may bid this phase, with every deduction in words.
    fn get_budget<'py>(&self, py: Python<'py>, power: &str) -> PyResult<Bound<'py, PyDict>> {
        let p = self.power_id(power)?;
        let b = budget(self.v(), &self.state, p);
        let d = PyDict::new(py);
        d.set_item("total", b.total)?;
        d.set_item("base", b.base)?;
        d.set_item("lines", b.lines)?;
        Ok(d)
    }

    /// Judges the phase with the orders and bids given (units without an order hold;
    /// in a Winter, missing builds are waived and missing removals chosen by the rules)
    /// and moves the game to the next phase. Returns each order's result with its
    /// reason: `[{"power", "unit", "order", "result", "reason"}]`.
    fn process<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        if self.done() {
            return Err(ChanceryError::new_err("the game is over: a power has won"));
        }
        py.detach(|| {
            let result = Game::judge(&self.l, &self.state, &self.orders, &self.bids);
            self.record(result);
        });
        self.get_results(py)
    }

    /// The results of the last phase judged, as `process` returned them.
    fn get_results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        match self.history.last() {
            Some((r, _, _)) => results_list(py, self.v(), r),
            None => Ok(PyList::empty(py)),
        }
    }

    /// The names of the phases judged so far, oldest first.
    fn get_phase_history(&self) -> Vec<String> {
        self.history.iter().map(|(r, _, _)| r.phase().code()).collect()
    }

    /// The position in the `diplomacy` package's form: `name`, `units`, `centers`,
    /// `homes`, `retreats` (`{"FRANCE": {"A MUN": ["BOH", "TYR"]}}`), `builds`
    /// (`{"FRANCE": {"count": 1, "homes": ["PAR"]}}`) and `civil_disorder`.
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        saved::state_dict(py, self)
    }

    /// An independent copy of the game (for search: try orders on the copy).
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }

    /// The game in the `diplomacy` package's saved-game format: `{"id", "map", "rules",
    /// "phases": [{"name", "state", "orders", "results", "messages"}]}`.
    fn to_saved_game_format<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        saved::to_saved(py, self)
    }

    /// A game replayed from a saved game in the `diplomacy` package's format (as its
    /// `to_saved_game_format` writes it): each phase's orders given and judged in turn.
    /// Raises if a phase's name or a unit's position disagrees with the replay.
    #[staticmethod]
    fn from_saved_game_format(py: Python<'_>, saved: &Bound<'_, PyDict>) -> PyResult<Game> {
        saved::from_saved(py, saved)
    }

    fn __repr__(&self) -> String {
        format!("<chancery.Game {} {}>", self.l.name, self.state.phase.code())
    }
}

/// Every listed order of the position, by location index; in a Winter each build or
/// removal under its site, with whether `WAIVE` goes beside it.
fn possible_orders(v: &Variant, state: &GameState) -> Vec<(usize, Vec<Order>, bool)> {
    let mut lister = Lister::new(v, state, Scope::All);
    let mut out = Vec::new();
    let players = (0..v.powers.len() as PowerId).filter(|&p| !v.is_minor(p));
    match state.phase.kind {
        PhaseKind::Adjustment => {
            for p in players {
                let orders = lister.adjustments(p);
                let waive = surplus(state, p) > 0 && orders.iter().any(|o| matches!(o.kind, OrderKind::Waive));
                for o in orders.iter().filter(|o| !matches!(o.kind, OrderKind::Waive)) {
                    out.push((v.location_index(o.unit.location), vec![*o], waive));
                }
            }
        }
        _ => {
            for p in players {
                for u in orderable_units(v, state, p).into_iter().filter(|u| u.power == p) {
                    out.push((v.location_index(u.location), lister.unit_orders(p, &u), false));
                }
            }
        }
    }
    out
}

fn result_code(r: &chancery_engine::OrderResult) -> &'static str {
    use chancery_engine::Outcome::*;
    if r.dislodged_by.is_some() {
        return "dislodged";
    }
    match r.outcome {
        Held | Moved | CircularMove | Supported | Convoyed | Boarded | Landed | Retreated | Built | Removed
        | Waived => "",
        Bounced { .. } | OwnUnit { .. } | BoardUnmatched | LandingStuck | SortieSucceeded { .. } => "bounce",
        NoConvoy => "no convoy",
        SupportCut { .. } => "cut",
        SupportUnmatched | ConvoyUnmatched | Void(_) => "void",
        ConvoyParadox => "disrupted",
        Disbanded { .. } | RemovedInDisorder => "disband",
    }
}

pub(crate) fn results_list<'py>(py: Python<'py>, v: &Variant, r: &PhaseResult) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for res in &r.adjudication.results {
        let d = PyDict::new(py);
        d.set_item("power", text::power(v, res.power()))?;
        d.set_item("unit", res.unit.map(|u| text::unit(v, &u)))?;
        d.set_item("order", res.order.map(|o| text::order(v, &o)))?;
        d.set_item("result", result_code(res))?;
        d.set_item("reason", res.reason(v))?;
        list.append(d)?;
    }
    Ok(list)
}

pub(crate) fn result_codes(r: &chancery_engine::OrderResult) -> Vec<&'static str> {
    match result_code(r) {
        "" => Vec::new(),
        c => vec![c],
    }
}

/// Judges the current phase of every game, on all cores, with the interpreter's lock
/// released; each game moves to its next phase as `process` would move it. Returns
/// nothing: ask a game for `get_results()`. Games already won are left alone.
#[pyfunction]
#[pyo3(signature = (games, threads = None))]
fn process_many(py: Python<'_>, games: Vec<Bound<'_, Game>>, threads: Option<usize>) -> PyResult<()> {
    let mut borrowed: Vec<PyRefMut<'_, Game>> = Vec::with_capacity(games.len());
    for g in &games {
        borrowed.push(g.try_borrow_mut()?);
    }
    let n = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    // Games are handed out one at a time from a shared counter rather than in fixed
    // chunks: phases differ in cost (a Winter is a tenth of a crowded Spring), and a
    // thread that drew the cheap ones would otherwise wait idle for the others. Each
    // thread also records what it judged (the history grows, its vector reallocating),
    // so that nothing but the borrowing is left for the interpreter's lock. The locks
    // are never contended: the counter gives each game to one thread.
    let jobs: Vec<Mutex<&mut Game>> = borrowed.iter_mut().map(|g| Mutex::new(&mut **g)).collect();
    let next = AtomicUsize::new(0);
    py.detach(|| {
        std::thread::scope(|s| {
            for _ in 0..n.min(jobs.len()) {
                let (jobs, next) = (&jobs, &next);
                s.spawn(move || {
                    while let Some(job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let mut g = job.lock().unwrap_or_else(|e| e.into_inner());
                        if !g.done() {
                            let result = Game::judge(&g.l, &g.state, &g.orders, &g.bids);
                            g.record(result);
                        }
                    }
                });
            }
        })
    });
    Ok(())
}

fn bot_decide(
    py: Python<'_>,
    game: &Game,
    power: &str,
    seed: u64,
    level: &str,
    judgements: Option<u32>,
) -> PyResult<Decision> {
    let p = game.power_id(power)?;
    let level = Level::parse(level)
        .ok_or_else(|| ChanceryError::new_err(format!("no bot level `{level}`: random, baseline or strong")))?;
    let mut settings = Settings::new(level, seed);
    if let Some(j) = judgements {
        settings.judgements = j;
    }
    Ok(py.detach(|| decide(game.v(), &game.state, p, &settings)))
}

/// A bot's orders for `power` in the game's current phase, in the package's notation
/// (`set_orders` takes them as they are). Deterministic for a seed and a level.
#[pyfunction]
#[pyo3(signature = (game, power, seed = 0, level = "strong", judgements = None))]
fn bot_orders(
    py: Python<'_>,
    game: &Game,
    power: &str,
    seed: u64,
    level: &str,
    judgements: Option<u32>,
) -> PyResult<Vec<String>> {
    let d = bot_decide(py, game, power, seed, level, judgements)?;
    Ok(d.orders.iter().map(|o| text::order(game.v(), o)).collect())
}

/// A bot's whole decision: `{"orders": […], "bids": […]}`, the bids in Chancery's bid
/// notation (`set_bids` takes them).
#[pyfunction]
#[pyo3(signature = (game, power, seed = 0, level = "strong", judgements = None))]
fn bot_decision<'py>(
    py: Python<'py>,
    game: &Game,
    power: &str,
    seed: u64,
    level: &str,
    judgements: Option<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = bot_decide(py, game, power, seed, level, judgements)?;
    let out = PyDict::new(py);
    let orders: Vec<String> = d.orders.iter().map(|o| text::order(game.v(), o)).collect();
    let bids: Vec<String> = d.bids.iter().map(|b| text::bid(game.v(), b)).collect();
    out.set_item("orders", orders)?;
    out.set_item("bids", bids)?;
    Ok(out)
}

/// The built-in variants' names.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    chancery_engine::builtin::builtin_names().collect()
}

#[pymodule]
fn _chancery(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(process_many, m)?)?;
    m.add_function(wrap_pyfunction!(bot_orders, m)?)?;
    m.add_function(wrap_pyfunction!(bot_decision, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add("ChanceryError", py.get_type::<ChanceryError>())?;
    m.add("VariantError", py.get_type::<VariantError>())?;
    m.add("OrderError", py.get_type::<OrderError>())?;
    m.add("BidError", py.get_type::<BidError>())?;
    Ok(())
}
