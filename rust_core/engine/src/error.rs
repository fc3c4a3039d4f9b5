//! One error type for the whole engine, carrying a stable machine-readable code
//! (the codes of CONFORMANCE.md plus a few for malformed input) and, where a rule
//! forbids the action, the RULES.md id that does.

use std::fmt;

macro_rules! error_codes {
    ($($variant:ident => $code:literal, $doc:literal;)*) => {
        /// Stable error codes. The string form never changes once released.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode { $( #[doc = $doc] $variant, )* }

        impl ErrorCode {
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),*];

            /// The stable string code, e.g. `"adjacent_runs"`.
            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$variant => $code,)* }
            }

            /// The code for a stable string, e.g. `"adjacent_runs"`.
            pub fn from_code(s: &str) -> Option<ErrorCode> {
                match s { $($code => Some(ErrorCode::$variant),)* _ => None }
            }

            /// One sentence on what the code means.
            pub fn describe(self) -> &'static str {
                match self { $(ErrorCode::$variant => $doc,)* }
            }
        }
    };
}

error_codes! {
    // Refused actions (CONFORMANCE.md "Error codes").
    NotYourTurn => "not_your_turn", "this seat may not act now";
    WrongPhase => "wrong_phase", "this action is not available in the current phase";
    CardNotInHand => "card_not_in_hand", "a named card is not in the acting player's hand";
    InvalidMeld => "invalid_meld", "a card group is not a legal set or run";
    ContractNotMet => "contract_not_met", "the melds are not the round's contract";
    MeldSize => "meld_size", "an opening meld is longer than the profile allows";
    AdjacentRuns => "adjacent_runs", "two same-suit runs of one contract neither overlap nor leave a gap";
    AlreadyDown => "already_down", "the player has already gone down this round";
    NotDown => "not_down", "lay-off or swap by a player who has not gone down";
    SameTurnAsGoDown => "same_turn_as_go_down", "lay-off or swap on the turn the player went down";
    InvalidLayOff => "invalid_lay_off", "the card does not fit that meld or that end";
    MustKeepDiscard => "must_keep_discard", "the action would leave no card for the required discard";
    JokerLocked => "joker_locked", "a set's joker can never be taken or moved";
    SwapMismatch => "swap_mismatch", "the card is not exactly the card the joker stands for, or the meld holds no joker";
    JokerUnplaced => "joker_unplaced", "the freed joker cannot legally go where to_meld says";
    BuyNotAllowed => "buy_not_allowed", "this buy is not allowed";
    WholeHandRequired => "whole_hand_required", "a round-7 go-down must be the whole hand as exactly three runs";
    RoundOver => "round_over", "the round has ended";
    BadCut => "bad_cut", "the cut size is out of range";
    DiscardTakenCard => "discard_taken_card", "the card taken from the discard pile may not be discarded this turn";
    CallNotAllowed => "call_not_allowed", "this W-7 call is not allowed now (no fitting discard, not down, the discard took its player out, or the chance has passed)";
    OwnJoker => "own_joker", "a player may swap only another player's joker (W-4)";
    NotAllowed => "not_allowed", "the rule set does not allow this action";
    GameOver => "game_over", "the game has ended";
    // Malformed input (never a rule question).
    MalformedCard => "malformed_card", "a card string or id is not a card";
    TooManyCopies => "too_many_copies", "more copies of a card than the profile's deck holds";
    NoJokersInProfile => "no_jokers_in_profile", "a joker where the profile's deck has none";
    InvalidRules => "invalid_rules", "a rule set is inconsistent";
    InvalidRound => "invalid_round", "a round number outside the rule set's rounds";
    InvalidArgument => "invalid_argument", "an argument is out of range or malformed";
    BadPosition => "bad_position", "a position is inconsistent or malformed";
    BadScenario => "bad_scenario", "a scenario file is not valid scenario JSON";
    BatchTooLarge => "batch_too_large", "a batch is too large to allocate";
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An engine error: a stable code, the rule id that applies (if any) and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub rule: Option<&'static str>,
    pub message: String,
}

impl Error {
    pub fn new(code: ErrorCode, rule: Option<&'static str>, message: impl Into<String>) -> Error {
        Error {
            code,
            rule,
            message: message.into(),
        }
    }
    /// An error whose message names the rule that forbids the action.
    pub fn rule(code: ErrorCode, rule: &'static str, message: impl Into<String>) -> Error {
        Error {
            code,
            rule: Some(rule),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            Some(r) => write!(f, "[{}] {} ({})", self.code, self.message, r),
            None => write!(f, "[{}] {}", self.code, self.message),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
