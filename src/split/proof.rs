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
/// The thresholds of a root: searched until proved.
pub const UNBOUNDED: Numbers = Numbers { pn: INF, dn: INF };

impl Numbers {
    /// Whether the node is proved one way or the other.
    pub fn proved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// Whether the node's numbers reached its thresholds `within`: its search stops.
    pub fn reached(self, within: Numbers) -> bool {
        self.pn >= within.pn || self.dn >= within.dn
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
/// its dn below the node's pn threshold and (by 1) the next best option's.
pub fn option_within(within: Numbers, node: Numbers, option: Numbers, second: u32) -> Numbers {
    let pn = if within.dn == INF {
        INF // a threshold never reached stays so
    } else {
        (u64::from(within.dn) - u64::from(node.dn) + u64::from(option.pn)).min(u64::from(INF - 1))
            as u32
    };
    Numbers {
        pn,
        dn: within.pn.min(second.saturating_add(1)),
    }
}

/// The thresholds of the land searched next (the first) of a sum of lands whose
/// numbers are `sum` (both the sum of the lands' least numbers) and thresholds
/// `within`, the land's numbers `land`: its least number must keep the sum's below
/// the least threshold. The land's least number is held to that bound through the
/// number now least, so each search of the land moves it on.
pub fn land_within(within: Numbers, sum: Numbers, land: Numbers) -> Numbers {
    let least = within.pn.min(within.dn);
    if least == INF {
        return UNBOUNDED;
    }
    let bound = least - (sum.pn - land.pn.min(land.dn));
    if land.pn <= land.dn {
        Numbers { pn: bound, dn: INF }
    } else {
        Numbers { pn: INF, dn: bound }
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
        let within = Numbers { pn: 10, dn: 9 };
        let node = Numbers { pn: 2, dn: 6 };
        let option = Numbers { pn: 3, dn: 2 };
        assert_eq!(
            option_within(within, node, option, 4),
            Numbers { pn: 6, dn: 5 }
        );
        assert_eq!(option_within(UNBOUNDED, node, option, INF).pn, INF);
    }

    #[test]
    fn a_lands_thresholds_keep_its_sum_below_the_least_of_its_own() {
        let within = Numbers { pn: 12, dn: 10 };
        let sum = Numbers { pn: 7, dn: 7 };
        // The land's least number, 3, may grow to 6 before the sum reaches 10.
        let land = Numbers { pn: 3, dn: 5 };
        assert_eq!(land_within(within, sum, land), Numbers { pn: 6, dn: INF });
        let land = Numbers { pn: 5, dn: 3 };
        assert_eq!(land_within(within, sum, land), Numbers { pn: INF, dn: 6 });
        assert_eq!(land_within(UNBOUNDED, sum, land), UNBOUNDED);
    }
}
