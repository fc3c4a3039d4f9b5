//! How many go-downs a hand has, and the k-th of them in id order, without building
//! them all: what the action mask and the VecEnv need (the go-down ids are 0..k-1,
//! docs/action-space.md), where [`super::all_go_downs`] also names every go-down's melds.

use super::cands::{Cand, Pool};
use super::dfs::{melds_cmp, multiset_cmp, search_go_down, Found, GoDownSearch, Goal, Node};
use super::{all_go_downs, collect_go_downs, go_down_of, joker_form, with_scratch, GoDown};
use crate::card::CardCounts;
use crate::meld::Meld;
use crate::rules::{Contract, RuleSet};
use std::cell::RefCell;
use std::cmp::Ordering;

/// Every complete go-down's points in melds and cards left, nothing else.
struct Leaves<'a> {
    found: &'a mut Vec<(u32, Pool)>,
}

impl Goal for Leaves<'_> {
    const BOUNDED: bool = false;
    fn worth(&self, _ub: u32) -> bool {
        true
    }
    fn leaf(&mut self, _search: &GoDownSearch, node: &Node) -> bool {
        self.found.push((node.used, node.pool));
        false
    }
}

thread_local! {
    static LEAVES: RefCell<Vec<(u32, Pool)>> = const { RefCell::new(Vec::new()) };
}

/// Can the search meet one go-down twice? Only when two melds of one kind have
/// different length ranges (C-8), so that two melds can trade places.
fn may_repeat(contract: &Contract, rules: &RuleSet) -> bool {
    let specs = contract.melds();
    specs.iter().any(|a| {
        specs.iter().any(|b| {
            a.kind == b.kind && rules.meld_range(a, contract.whole_hand) != rules.meld_range(b, contract.whole_hand)
        })
    })
}

/// `all_go_downs(hand, contract, rules, limit)` counted, keeping only the go-downs
/// whose cards left in hand pass `keep`: the same go-downs (the `limit` best, without
/// repeats) are judged, so the count is exactly that of the filtered list.
pub fn count_go_downs(
    hand: &CardCounts,
    contract: &Contract,
    rules: &RuleSet,
    limit: usize,
    mut keep: impl FnMut(&CardCounts) -> bool,
) -> usize {
    if rules.wild_rank.is_some() || may_repeat(contract, rules) {
        // C-8: which wild cards stay in hand is decided while naming the melds, so
        // the cards left are only known from the built go-downs (and repeats are
        // only told apart by their melds).
        return all_go_downs(hand, contract, rules, limit)
            .iter()
            .filter(|gd| keep(&gd.left))
            .count();
    }
    if limit == 0 {
        return 0;
    }
    LEAVES.with(|cell| {
        let mut own = Vec::new();
        let mut borrowed = cell.try_borrow_mut();
        let found = match borrowed.as_mut() {
            Ok(v) => &mut **v,
            Err(_) => &mut own,
        };
        found.clear();
        // Without wild cards the joker form is the hand itself, so a go-down's pool
        // left is its cards left.
        with_scratch(|scratch| {
            search_go_down(
                &joker_form(hand, rules),
                contract,
                rules,
                scratch,
                &mut Leaves { found: &mut *found },
            )
        });
        if found.len() > limit {
            // The `limit` best by points left then cards left: go-downs tied on both
            // leave the same cards, so `keep` judges them alike wherever the cut falls.
            found.select_nth_unstable_by(limit - 1, |a, b| b.0.cmp(&a.0).then_with(|| multiset_cmp(&a.1, &b.1)));
            found.truncate(limit);
        }
        found.iter().filter(|(_, left)| keep(&CardCounts(*left))).count()
    })
}

/// Has the hand a go-down whose cards left pass `keep`? The search stops at the
/// first one: the action mask's one `go_down` id (docs/action-space.md) needs no
/// more. Unlike [`count_go_downs`] it judges every go-down, not only the `limit`
/// best (the two agree whenever a hand has at most `limit` go-downs).
pub fn any_go_down(
    hand: &CardCounts,
    contract: &Contract,
    rules: &RuleSet,
    limit: usize,
    mut keep: impl FnMut(&CardCounts) -> bool,
) -> bool {
    if rules.wild_rank.is_some() || may_repeat(contract, rules) {
        return all_go_downs(hand, contract, rules, limit)
            .iter()
            .any(|gd| keep(&gd.left));
    }
    struct First<F> {
        keep: F,
        found: bool,
    }
    impl<F: FnMut(&CardCounts) -> bool> Goal for First<F> {
        const BOUNDED: bool = false;
        const ORDER_FREE: bool = true;
        fn worth(&self, _ub: u32) -> bool {
            !self.found
        }
        fn leaf(&mut self, _search: &GoDownSearch, node: &Node) -> bool {
            // Without wild cards a go-down's pool left is its cards left.
            self.found = (self.keep)(&CardCounts(node.pool));
            self.found
        }
    }
    let mut goal = First {
        keep: &mut keep,
        found: false,
    };
    with_scratch(|scratch| search_go_down(&joker_form(hand, rules), contract, rules, scratch, &mut goal));
    goal.found
}

/// The go-down `k` (from 0) in id order (`Action`'s order: the melds' card ids) of
/// the go-downs [`count_go_downs`] counts with the same `keep`; `None` beyond them.
pub fn nth_go_down(
    hand: &CardCounts,
    contract: &Contract,
    rules: &RuleSet,
    limit: usize,
    mut keep: impl FnMut(&CardCounts) -> bool,
    k: usize,
) -> Option<GoDown> {
    if limit == 0 {
        return None;
    }
    if rules.wild_rank.is_some() {
        let mut list: Vec<GoDown> = all_go_downs(hand, contract, rules, limit)
            .into_iter()
            .filter(|gd| keep(&gd.left))
            .collect();
        if k >= list.len() {
            return None;
        }
        list.select_nth_unstable_by(k, |a, b| named_cmp(&a.melds, &b.melds));
        return Some(list.swap_remove(k));
    }
    if may_repeat(contract, rules) {
        return with_scratch(|scratch| {
            let goal = collect_go_downs(hand, contract, rules, limit, scratch);
            let mut kept: Vec<&Found> = goal.found.iter().filter(|f| keep(&CardCounts(f.left))).collect();
            if k >= kept.len() {
                return None;
            }
            kept.select_nth_unstable_by(k, |a, b| cand_cmp(&a.melds, &b.melds));
            Some(go_down_of(kept[k], hand, rules, &scratch.points_tables(rules).by_id))
        });
    }
    // No repeats: every go-down once, its melds side by side in one buffer (no
    // allocation per go-down).
    let mut goal = FlatLeaves {
        leaves: Vec::new(),
        melds: Vec::new(),
        canonical: Vec::new(),
    };
    with_scratch(|scratch| search_go_down(&joker_form(hand, rules), contract, rules, scratch, &mut goal));
    let FlatLeaves { mut leaves, melds, .. } = goal;
    let melds_of = |leaf: &FlatLeaf| &melds[leaf.melds.0 as usize..leaf.melds.1 as usize];
    if leaves.len() > limit {
        // The `limit` best in `found_cmp` order.
        leaves.select_nth_unstable_by(limit - 1, |a, b| {
            b.used
                .cmp(&a.used)
                .then_with(|| multiset_cmp(&a.left, &b.left))
                .then_with(|| melds_cmp(melds_of(a), melds_of(b)))
        });
        leaves.truncate(limit);
    }
    let mut kept: Vec<&FlatLeaf> = leaves.iter().filter(|l| keep(&CardCounts(l.left))).collect();
    if k >= kept.len() {
        return None;
    }
    // Only that one is named: without wild cards the melds' cards are the
    // candidates' canonical ids.
    kept.select_nth_unstable_by(k, |a, b| cand_cmp(melds_of(a), melds_of(b)));
    let leaf = kept[k];
    let found = Found {
        used: leaf.used,
        left: leaf.left,
        melds: melds_of(leaf).to_vec(),
    };
    Some(go_down_of(&found, hand, rules, &rules.points_by_id()))
}

/// One go-down of [`FlatLeaves`]: its melds are `melds.0..melds.1` of the buffer.
struct FlatLeaf {
    used: u32,
    left: Pool,
    melds: (u32, u32),
}

/// Every complete go-down with its canonical melds, in one buffer.
struct FlatLeaves {
    leaves: Vec<FlatLeaf>,
    melds: Vec<Cand>,
    canonical: Vec<Cand>,
}

impl Goal for FlatLeaves {
    const BOUNDED: bool = false;
    fn worth(&self, _ub: u32) -> bool {
        true
    }
    fn leaf(&mut self, search: &GoDownSearch, node: &Node) -> bool {
        search.canonical(&node.chosen, &mut self.canonical);
        let start = self.melds.len() as u32;
        self.melds.extend_from_slice(&self.canonical);
        self.leaves.push(FlatLeaf {
            used: node.used,
            left: node.pool,
            melds: (start, self.melds.len() as u32),
        });
        false
    }
}

/// Id order of two go-downs: meld by meld by card ids, a shorter list first.
fn named_cmp(a: &[Meld], b: &[Meld]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.cards().cmp(y.cards()))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.len().cmp(&b.len()))
}

/// [`named_cmp`] on the search's candidates.
fn cand_cmp(a: &[Cand], b: &[Cand]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.tuple_cmp(y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.len().cmp(&b.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;
    use crate::rng::Rng;
    use proptest::prelude::*;

    /// A hand of `size` cards from a few ranks of two suits and the jokers, so that
    /// most hands hold several go-downs.
    fn dense_hand(rng: &mut Rng, size: usize) -> CardCounts {
        let mut hand = CardCounts::default();
        let low = rng.below(8) as usize;
        for _ in 0..size {
            let pick = rng.below(15) as usize;
            let id = if pick >= 14 {
                52
            } else {
                (pick % 2) * 13 + low + pick / 2
            };
            if hand.0[id] < 2 {
                hand.0[id] += 1;
            }
        }
        hand
    }

    /// The go-downs in id order, as `legal_actions` lists them.
    fn id_order(list: &[GoDown]) -> Vec<Vec<Vec<Card>>> {
        let mut out: Vec<Vec<Vec<Card>>> = list
            .iter()
            .map(|gd| gd.melds.iter().map(|m| m.cards().to_vec()).collect())
            .collect();
        out.sort();
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The count is the length of the filtered `all_go_downs` list and the k-th
        /// go-down is the k-th of that list in id order, for every preset's
        /// contracts (wild cards included), limits that cut the list and a filter
        /// on the cards left.
        #[test]
        fn count_and_nth_agree_with_the_filtered_list(seed in any::<u64>(), size in 6usize..19, limit in 1usize..60) {
            let mut rng = Rng::from_seed(seed);
            let names = RuleSet::preset_names();
            let rules = RuleSet::preset(names[rng.below(names.len() as u32) as usize]).unwrap();
            let contract = rules.contracts[rng.below(rules.contracts.len() as u32) as usize];
            let hand = dense_hand(&mut rng, size);
            let keep = |left: &CardCounts| left.total() % 3 != 1;
            let list: Vec<GoDown> =
                all_go_downs(&hand, &contract, &rules, limit).into_iter().filter(|gd| keep(&gd.left)).collect();
            prop_assert_eq!(count_go_downs(&hand, &contract, &rules, limit, keep), list.len());
            let ordered = id_order(&list);
            for (k, melds) in ordered.iter().enumerate() {
                let nth = nth_go_down(&hand, &contract, &rules, limit, keep, k).expect("k < count");
                let named: Vec<Vec<Card>> = nth.melds.iter().map(|m| m.cards().to_vec()).collect();
                prop_assert_eq!(&named, melds);
            }
            prop_assert!(nth_go_down(&hand, &contract, &rules, limit, keep, list.len()).is_none());
        }
    }

    #[test]
    fn a_dense_hand_has_go_downs_to_count() {
        // The property above is only worth something if its hands hold go-downs.
        let rules = RuleSet::liverpool_classic();
        let mut rng = Rng::from_seed(1);
        let with = (0..200)
            .filter(|_| count_go_downs(&dense_hand(&mut rng, 14), &rules.contracts[0], &rules, 512, |_| true) > 1)
            .count();
        assert!(with > 50, "only {with} of 200 dense hands hold two go-downs");
    }
}
