//! What the DP numbers of a variant mean: a power's budget, the client bonus of a
//! season. `rules::dp` reads them from the variant's `rule` lines:
//!
//! ```text
//! rule dp-budget France 5                       # a power's DPs each Spring and Fall
//! rule dp-budget default 3                      # every other great power
//! rule dp-penalty lost-original-centre 1        # per centre held at the start, now another's
//! rule dp-penalty excused France Leb Ank Irq Sue  # losing Leb costs France nothing while it owns Ank, Irq or Sue
//! rule dp-penalty faction-behind 1              # a sponsor whose faction is behind in its home centres
//! rule client-bonus 1 rises 1 every 2 years from Spring 1651
//! rule sortie client patron-or-others 2         # 1648 rule for a client's move orders
//! ```

use crate::variant::{PowerId, Season};

// The types live with the variant that holds them (`Variant::rules.dp`), so that the
// variant needs nothing from the modules that read it; their behaviour is here.
pub use crate::variant::{BonusSchedule, DpRules, Excuse};

impl BonusSchedule {
    /// The bonus in force in `season` of `year`.
    pub fn at(&self, season: Season, year: i32) -> u32 {
        let now = (year, season);
        let (from_season, from_year) = self.from;
        if now < (from_year, from_season) {
            return self.base;
        }
        // Steps reached: the first at `from`, then one each `every` years at the same season.
        let mut steps = (year - from_year) / self.every;
        if season < from_season && (year - from_year) % self.every == 0 {
            steps -= 1;
        }
        self.base + self.rise * (steps as u32 + 1)
    }
}

impl DpRules {
    /// `power`'s DPs before deductions (DP rule 2): its own `dp-budget` line, else the
    /// `default` one (0 without either), and whether it was the default.
    pub fn base_budget(&self, power: PowerId) -> (u32, bool) {
        if let Some((_, n)) = self.budgets.iter().find(|(p, _)| *p == Some(power)) {
            return (*n, false);
        }
        let default = self.budgets.iter().find(|(p, _)| p.is_none()).map_or(0, |(_, n)| *n);
        (default, true)
    }

    /// The client bonus in force in `season` of `year` (0 without one).
    pub fn bonus_at(&self, season: Season, year: i32) -> u32 {
        self.bonus.map_or(0, |b| b.at(season, year))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &BonusSchedule, season: Season, year: i32) -> u32 {
        b.at(season, year)
    }

    /// 1648 Clients: "the DP bonus rises to 2 for the Spring 1651 season, to 3 for the
    /// Spring 1653 season"; 1936 Client States: "+2 during the Spring 1938 season, to +3
    /// in Spring 1940".
    #[test]
    fn bonus_schedule_follows_the_pages() {
        let b = BonusSchedule {
            base: 1,
            rise: 1,
            every: 2,
            from: (Season::Spring, 1651),
        };
        assert_eq!(at(&b, Season::Spring, 1649), 1);
        assert_eq!(at(&b, Season::Fall, 1650), 1);
        assert_eq!(at(&b, Season::Spring, 1651), 2);
        assert_eq!(at(&b, Season::Fall, 1652), 2);
        assert_eq!(at(&b, Season::Spring, 1653), 3);
        assert_eq!(at(&b, Season::Spring, 1655), 4);
        let fall = BonusSchedule {
            from: (Season::Fall, 1937),
            ..b
        };
        assert_eq!(at(&fall, Season::Spring, 1937), 1);
        assert_eq!(at(&fall, Season::Fall, 1937), 2);
        assert_eq!(at(&fall, Season::Spring, 1939), 2);
        assert_eq!(at(&fall, Season::Fall, 1939), 3);
    }
}
