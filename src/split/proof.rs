//! Proof and disproof numbers, as the depth-first proof-number searches
//! (`dfpn` in normal play, `misere::proofs` in misère play) combine them (Nagai
//! 2002). Every node asks whether the player to move wins: it wins if an option
//! loses, and loses if every option wins.

/// A proof or disproof number past every count: proved.
pub const INF: u32 = u32::MAX;

/// How hard it looks to prove that the player to move wins (`pn`), and that they
/// lose (`dn`): 0 is proved, `INF` refuted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    pub pn: u32,
    pub dn: u32,
}

pub const WIN: Numbers = Numbers { pn: 0, dn: INF };
pub const LOSS: Numbers = Numbers { pn: INF, dn: 0 };
pub const FRESH: Numbers = Numbers { pn: 1, dn: 1 };

/// How far a node is searched: until its pn or dn reaches its threshold, or the less
/// of pn + `p_shift` and dn + `d_shift` reaches `least` (the bound a sum of lands
/// sets on a land's least number, carried down as SPOTS carries it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Within {
    pub pn: u32,
    pub dn: u32,
    pub p_shift: u32,
    pub d_shift: u32,
    pub least: u32,
}

/// The thresholds of a root: searched until proved.
pub const UNBOUNDED: Within = Within {
    pn: INF,
    dn: INF,
    p_shift: 0,
    d_shift: 0,
    least: INF,
};

impl Numbers {
    /// Whether the node is proved one way or the other.
    pub fn proved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Whether the node's numbers reached its thresholds `within`: its search stops.
    pub fn reached(self, within: Within) -> bool {
        self.pn >= within.pn
            || self.dn >= within.dn
            || (self.pn.saturating_add(within.p_shift)).min(self.dn.saturating_add(within.d_shift))
                >= within.least
    }
}

/// A node's numbers from its options': it wins if one loses, and loses if all win.
pub fn of_options(options: impl Iterator<Item = Numbers>) -> Numbers {
    let mut pn = INF;
    let mut dn: u32 = 0;
    for n in options {
        if n.dn == 0 {
            return WIN;
        }
        pn = pn.min(n.dn);
        dn = dn.saturating_add(n.pn);
    }
    if dn == 0 {
        return LOSS;
    }
    Numbers {
        pn,
        dn: dn.min(INF - 1),
    }
}

/// The option whose loss looks cheapest to prove (the first of equals), and the least
/// dn of the others.
pub fn best_two(options: impl Iterator<Item = Numbers>) -> (usize, u32) {
    let (mut best, mut least) = (0, INF);
    let mut second = INF;
    for (i, n) in options.enumerate() {
        if i == 0 || n.dn < least {
            if i > 0 {
                second = least;
            }
            (best, least) = (i, n.dn);
        } else {
            second = second.min(n.dn);
        }
    }
    (best, second)
}

/// The thresholds of the option searched next, whose numbers are `option`, of a node
/// whose numbers are `node` and thresholds `within`, `second` the least dn of its
/// other options: the option's pn must keep the node's dn below its threshold, and
/// its dn below the node's pn threshold and (by 1) the next best option's; the
/// node's pn is the option's dn, and its dn the option's pn with the others'.
pub fn option_within(within: Within, node: Numbers, option: Numbers, second: u32) -> Within {
    let others = node.dn - option.pn;
    let pn = if within.dn == INF {
        INF // a threshold never reached stays so
    } else {
        (u64::from(within.dn) - u64::from(others)).min(u64::from(INF - 1)) as u32
    };
    Within {
        pn,
        dn: within.pn.min(second.saturating_add(1)),
        p_shift: within.d_shift.saturating_add(others),
        d_shift: within.p_shift,
        least: within.least,
    }
}

/// The thresholds of the land searched next (the first) of a sum of lands whose
/// numbers are `sum` (both the sum of the lands' least numbers) and thresholds
/// `within`, the land's numbers `land`: its least number must keep the sum's below
/// every threshold of the sum.
pub fn land_within(within: Within, sum: Numbers, land: Numbers) -> Within {
    let least = if within.least == INF {
        INF
    } else {
        within.least - within.p_shift.min(within.d_shift).min(within.least)
    };
    let bound = within.pn.min(within.dn).min(least);
    if bound == INF {
        return UNBOUNDED;
    }
    Within {
        least: bound - (sum.pn - land.pn.min(land.dn)),
        ..UNBOUNDED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_wins_by_one_lost_option_and_loses_when_all_win() {
        assert_eq!(of_options([FRESH, LOSS, FRESH].into_iter()), WIN);
        assert_eq!(of_options([WIN, WIN].into_iter()), LOSS);
        assert_eq!(of_options(std::iter::empty()), LOSS);
        let n = of_options([Numbers { pn: 3, dn: 2 }, Numbers { pn: 4, dn: 5 }].into_iter());
        assert_eq!(n, Numbers { pn: 2, dn: 7 });
    }

    #[test]
    fn the_best_option_is_the_first_least_dn() {
        let options = [
            Numbers { pn: 1, dn: 4 },
            Numbers { pn: 1, dn: 2 },
            Numbers { pn: 1, dn: 2 },
            Numbers { pn: 1, dn: 7 },
        ];
        assert_eq!(best_two(options.into_iter()), (1, 2));
        assert_eq!(best_two([FRESH].into_iter()), (0, INF));
    }

    #[test]
    fn an_options_thresholds_keep_its_node_within_its_own() {
        let within = Within {
            pn: 10,
            dn: 9,
            p_shift: 1,
            d_shift: 2,
            least: 9,
        };
        let node = Numbers { pn: 2, dn: 6 };
        let option = Numbers { pn: 3, dn: 2 };
        let found = option_within(within, node, option, 20);
        assert_eq!(
            found,
            Within {
                pn: 6,
                dn: 10,
                p_shift: 5,
                d_shift: 1,
                least: 9
            }
        );
        // The option reaches its thresholds exactly where the node would reach its own.
        for (pn, dn) in [(5, 2), (6, 2), (3, 4), (3, 10), (5, 7), (5, 8)] {
            let node = Numbers { pn: dn, dn: pn + 3 };
            assert_eq!(
                Numbers { pn, dn }.reached(found),
                node.reached(within),
                "{pn} {dn}"
            );
        }
        assert_eq!(option_within(UNBOUNDED, node, option, INF).pn, INF);
    }

    #[test]
    fn a_lands_thresholds_keep_its_sum_below_its_own() {
        let within = Within {
            pn: 12,
            dn: 10,
            ..UNBOUNDED
        };
        let sum = Numbers { pn: 7, dn: 7 };
        // The land's least number, 3, may grow to 5 before the sum reaches 10.
        let land = Numbers { pn: 3, dn: 5 };
        let found = land_within(within, sum, land);
        assert_eq!(
            found,
            Within {
                least: 6,
                ..UNBOUNDED
            }
        );
        assert!(!Numbers { pn: 5, dn: 9 }.reached(found));
        assert!(Numbers { pn: 6, dn: 9 }.reached(found));
        let shifted = Within {
            least: 9,
            p_shift: 2,
            d_shift: 1,
            ..within
        };
        assert_eq!(land_within(shifted, sum, land).least, 4);
        assert_eq!(land_within(UNBOUNDED, sum, land), UNBOUNDED);
    }
}
