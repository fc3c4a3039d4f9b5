//! The options of a rule set, for users: each key with the RULES.md ids it models
//! and one sentence (`RULE_OPTIONS`, from which `docs/rule-options.md` is generated).

/// One option of a rule set, for users: its key, the rules it models and a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    pub key: &'static str,
    /// The RULES.md ids it models.
    pub rules: &'static str,
    pub doc: &'static str,
    /// May be "none" (null in JSON); left out of a complete rule set, it is none.
    pub optional: bool,
}

const fn opt(key: &'static str, rules: &'static str, doc: &'static str) -> RuleOption {
    RuleOption {
        key,
        rules,
        doc,
        optional: false,
    }
}

const fn opt_none(key: &'static str, rules: &'static str, doc: &'static str) -> RuleOption {
    RuleOption {
        key,
        rules,
        doc,
        optional: true,
    }
}

/// Every option of a rule set, in the order files list them. A test keeps it equal
/// to the fields of [`RuleSet`]; `docs/rule-options.md` is generated from it.
pub const RULE_OPTIONS: &[RuleOption] = &[
    opt("name", "", "the rule set's name (a preset's name for a preset)"),
    opt(
        "profile",
        "",
        "the RULES.md profile whose rule ids refusals cite: \"L\", \"C\" or \"W\" (a file with base inherits its base's; a complete file without it: the profile of the preset it is named after, else L)",
    ),
    opt("min_players", "L-1.1, C-1", "fewest players"),
    opt("max_players", "L-1.1, C-1", "most players"),
    opt("default_players", "L-1.1", "players when none is given"),
    opt(
        "deck_tiers",
        "L-1.2, C-1, W-1",
        "the deck by player count: up to max_players players, decks x 52 cards plus jokers",
    ),
    opt("deal_sizes", "L-2.5, C-3, W-3, C-8", "cards dealt to each player, one number per round"),
    opt(
        "contracts",
        "L-3, L-8, C-8",
        "each round's contract: { sets = N, runs = M }, or meld by meld { melds = [{ kind = \"run\", min = 7 }] }; whole_hand = true lays the whole hand with no discard",
    ),
    opt_none(
        "wild_rank",
        "C-8",
        "a rank whose every card is wild, exactly as a joker (California: \"Q\"); none = only jokers",
    ),
    opt("set_size_min", "L-4.1, C-4", "fewest cards in a set"),
    opt_none(
        "set_size_max",
        "L-4.1, C-4",
        "most cards in a set at go-down (never below a meld's own minimum); none = no limit",
    ),
    opt("run_size_min", "L-4.2, C-4", "fewest cards in a run"),
    opt_none(
        "run_size_max",
        "L-4.2, C-4",
        "most cards in a run at go-down (never below a meld's own minimum); none = no limit",
    ),
    opt("whole_hand_run_min", "L-8.2", "fewest cards in a run of a whole-hand go-down"),
    opt("min_naturals_set", "L-4.5, W-4", "fewest natural (not wild) cards in a set"),
    opt("min_naturals_run", "L-4.5, W-4", "fewest natural (not wild) cards in a run"),
    opt_none(
        "run_naturals_window",
        "W-4",
        "count a run's naturals among its first this-many cards; none = anywhere",
    ),
    opt(
        "same_suit_runs_need_gap",
        "L-4.4",
        "same-suit runs of one contract must overlap or leave a gap",
    ),
    opt(
        "points",
        "L-10.1, C-7, W-10",
        "points a card scores left in hand, by rank: joker, A, 2 … 10, J, Q, K",
    ),
    opt(
        "buying",
        "L-6, C-5, W-6, C-8",
        "buying a declined discard: \"off\", \"chain\" (L-6.4) or \"single\" (one buy per discard)",
    ),
    opt_none("buy_limit_per_round", "C-5", "most buys per player per round; none = no limit"),
    opt(
        "joker_swap",
        "L-7, W-4",
        "swapping a run's joker: \"off\", \"after_go_down_turn\" (L-7.2) or \"on_go_down_turn\" (W-4)",
    ),
    opt(
        "lay_off_on_go_down_turn",
        "L-5.3, W-5",
        "lay-offs allowed on the turn a player goes down",
    ),
    opt_none(
        "cut_range",
        "L-2.4",
        "[low, high]: the range an undrawn cut is drawn from; none = 1 .. deck size - 1",
    ),
    opt(
        "cut_bonus",
        "L-2.3, C-2, W-3",
        "score change for an exact cut (negative is a bonus); 0 = no cut bonus",
    ),
    opt(
        "tie_break",
        "L-10.3, C-7",
        "equal lowest totals: \"share\" or \"lower_last_round\"",
    ),
    opt("liverpool_call", "W-7", "the \"Liverpool\" call on a discard that fits a meld"),
    opt(
        "no_discard_of_taken_card",
        "W-8",
        "the card taken from the discard pile may not be discarded in the same turn",
    ),
    opt(
        "failed_go_down_penalty",
        "W-9",
        "points added for a refused go-down attempt; 0 = off",
    ),
    opt(
        "max_turns_per_round",
        "L-9.3",
        "engine safeguard: a round ends with no winner after this many turns",
    ),
    // Profile W options (issue 7 part 2).
    opt(
        "rummy_call",
        "W-7.1",
        "the \"rummy\" call on a player who is down and discards a card that fits a table meld: it takes the card back plus a penalty card",
    ),
    opt(
        "floating",
        "W-8",
        "a play may empty the hand: the player floats (no cards, not out) and its turn ends",
    ),
    opt(
        "swap_own_jokers",
        "L-7.2, W-4",
        "a player may swap the jokers of its own melds too (false: only another player's)",
    ),
    opt(
        "buy_priority",
        "L-6.3, W-6",
        "who wins a wanted discard: \"nearest\" (clockwise from the active player; only the seat asked answers) or \"first_caller\" (the Yo variation)",
    ),
    opt(
        "call_order",
        "W-6",
        "with buy_priority = \"first_caller\": the seats asked first, fastest first; [] = clockwise",
    ),
];

/// The option with this key.
pub fn rule_option(key: &str) -> Option<&'static RuleOption> {
    RULE_OPTIONS.iter().find(|o| o.key == key)
}
