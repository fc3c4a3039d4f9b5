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
    InvalidActionId => "invalid_action_id", "an action id outside the action space, or one that names no move now (docs/action-space.md)";
    // Use of the library (never a rule question).
    Busy => "busy", "the object is in use by another thread";
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An engine error: a stable code, the rule id that applies (if any) and a sentence.
///
/// The sentence is kept twice: as a message id with its arguments (`key`, `args`:
/// what a front end translates, see [`crate::messages`]) and rendered in English
/// (`message`, for Rust users and logs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub rule: Option<&'static str>,
    /// Stable message id, e.g. `"buy.already_passed"`.
    pub key: &'static str,
    /// The values of the template's `{placeholders}`.
    pub args: Vec<(&'static str, Arg)>,
    /// The English rendering of `key` with `args`.
    pub message: String,
}

/// The value of a message placeholder: text that needs no translation (numbers,
/// cards as `A♠`, rule set names, text from other libraries) or a message of its
/// own, translated with the outer one (a reason, a phase, a contract).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    Text(String),
    Message(Message),
}

/// A message id and its arguments: one translatable sentence or phrase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub key: &'static str,
    /// The English template of `key` (from [`crate::messages::TEMPLATES`]).
    pub template: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

/// What a placeholder can be filled with: anything displayable becomes text, a
/// [`Message`] stays a message (so it is translated too).
pub trait IntoArg {
    fn into_arg(self) -> Arg;
}

impl<T: fmt::Display> IntoArg for T {
    fn into_arg(self) -> Arg {
        Arg::Text(self.to_string())
    }
}

impl IntoArg for Message {
    fn into_arg(self) -> Arg {
        Arg::Message(self)
    }
}

/// Build a [`Message`]: `msg!("buy.already_passed", seat = 2)`. The key must be a
/// string literal listed in [`crate::messages::TEMPLATES`]: its template is found at
/// compile time, so an unknown id does not compile.
#[macro_export]
macro_rules! msg {
    ($key:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::error::Message::with_template(
            $key,
            {
                const TEMPLATE: &str = $crate::messages::const_template($key);
                TEMPLATE
            },
            vec![$((stringify!($name), $crate::error::IntoArg::into_arg($value))),*],
        )
    };
}

impl Message {
    /// A message from its id and arguments; debug builds check both against the
    /// template table.
    pub fn new(key: &'static str, args: Vec<(&'static str, Arg)>) -> Message {
        let template = crate::messages::template(key);
        debug_assert!(template.is_some(), "message id {key:?} is not in messages::TEMPLATES");
        Message::with_template(key, template.unwrap_or(key), args)
    }

    /// [`Message::new`] with the template already looked up (what `msg!` does at
    /// compile time).
    pub fn with_template(key: &'static str, template: &'static str, args: Vec<(&'static str, Arg)>) -> Message {
        debug_assert_eq!(
            placeholders(template),
            {
                let mut names: Vec<&str> = args.iter().map(|(n, _)| *n).collect();
                names.sort_unstable();
                names.dedup();
                names
            },
            "the arguments of {key:?} do not match its template's placeholders"
        );
        Message { key, template, args }
    }

    /// Free text that is not translated (kept for messages built outside the
    /// engine, e.g. by the binding).
    pub fn untranslated(text: impl Into<String>) -> Message {
        Message::new("text", vec![("text", Arg::Text(text.into()))])
    }

    /// The English sentence: the template of `key` with every placeholder filled.
    pub fn english(&self) -> String {
        let mut out = String::with_capacity(self.template.len() + 16);
        let mut rest = self.template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                out.push_str(&rest[open..]);
                return out;
            };
            let name = &after[..close];
            match self.args.iter().find(|(n, _)| *n == name) {
                Some((_, Arg::Text(t))) => out.push_str(t),
                Some((_, Arg::Message(m))) => out.push_str(&m.english()),
                None => out.push_str(&rest[open..open + close + 2]),
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }
}

/// Free text becomes an untranslated message (for callers outside the engine).
impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::untranslated(text)
    }
}

impl From<String> for Message {
    fn from(text: String) -> Message {
        Message::untranslated(text)
    }
}

/// The `{name}` placeholders of a template, sorted and without repeats.
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut names = vec![];
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        names.push(&after[..close]);
        rest = &after[close + 1..];
    }
    names.sort_unstable();
    names.dedup();
    names
}

impl Error {
    /// An error whose sentence is `msg` (use [`msg!`] to build it).
    pub fn with(code: ErrorCode, rule: Option<&'static str>, msg: Message) -> Error {
        Error {
            code,
            rule,
            message: msg.english(),
            key: msg.key,
            args: msg.args,
        }
    }
    /// An error refused by `rule`, whose sentence is `msg`.
    pub fn refused(code: ErrorCode, rule: &'static str, msg: Message) -> Error {
        Error::with(code, Some(rule), msg)
    }
    /// An error with an untranslated free-text message (for callers outside the
    /// engine; the engine itself always uses [`Error::with`] / [`Error::refused`]).
    pub fn new(code: ErrorCode, rule: Option<&'static str>, message: impl Into<String>) -> Error {
        Error::with(code, rule, Message::untranslated(message))
    }
    /// [`Error::new`] naming the rule that forbids the action.
    pub fn rule(code: ErrorCode, rule: &'static str, message: impl Into<String>) -> Error {
        Error::new(code, Some(rule), message)
    }
    /// The sentence as a message, e.g. to give it as the reason of another error.
    pub fn to_message(&self) -> Message {
        Message {
            key: self.key,
            template: crate::messages::template(self.key).unwrap_or(self.key),
            args: self.args.clone(),
        }
    }
    /// The same error with another sentence.
    pub fn reworded(self, msg: Message) -> Error {
        Error::with(self.code, self.rule, msg)
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
