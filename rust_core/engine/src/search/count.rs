//! How many go-downs a hand has, without building them: what the action mask needs
//! (the go-down ids are 0..k-1, docs/action-space.md), where [`super::all_go_downs`]
//! would also name every go-down's melds.

use super::dfs::{search_go_down, Collect};
use super::{all_go_downs, joker_form, with_scratch};
use crate::card::CardCounts;
use crate::rules::{Contract, RuleSet};

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
    if rules.wild_rank.is_some() {
        // C-8: which wild cards stay in hand is decided while naming the melds, so
        // the cards left are only known from the built go-downs.
        return all_go_downs(hand, contract, rules, limit)
            .iter()
            .filter(|gd| keep(&gd.left))
            .count();
    }
    if limit == 0 {
        return 0;
    }
    with_scratch(|scratch| {
        let mut goal = Collect {
            found: Vec::new(),
            limit,
            truncated: false,
        };
        // Without wild cards the joker form is the hand itself, so each go-down's
        // pool left is its cards left.
        search_go_down(&joker_form(hand, rules), contract, rules, scratch, &mut goal);
        goal.trim();
        goal.found.iter().filter(|f| keep(&CardCounts(f.left))).count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The count is the length of the filtered `all_go_downs` list, for every
        /// preset's contracts (wild cards included) and a filter on the cards left.
        #[test]
        fn the_count_is_the_filtered_list_length(seed in any::<u64>(), size in 8usize..20, limit in 1usize..40) {
            let mut rng = Rng::from_seed(seed);
            let names = RuleSet::preset_names();
            let rules = RuleSet::preset(names[rng.below(names.len() as u32) as usize]).unwrap();
            let contract = rules.contracts[rng.below(rules.contracts.len() as u32) as usize].clone();
            let mut hand = CardCounts::default();
            for _ in 0..size {
                let id = rng.below(53) as usize;
                if hand.0[id] < 2 {
                    hand.0[id] += 1;
                }
            }
            let keep = |left: &CardCounts| left.total() % 2 == 1;
            let expected = all_go_downs(&hand, &contract, &rules, limit).iter().filter(|gd| keep(&gd.left)).count();
            prop_assert_eq!(count_go_downs(&hand, &contract, &rules, limit, keep), expected);
        }
    }
}
