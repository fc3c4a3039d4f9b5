//! Every sentence the engine can say, as data: a stable message id and its English
//! template with `{placeholders}` (the `str.format` syntax, no other braces).
//!
//! Errors carry the id and the placeholder values (see [`crate::error::Message`]), so
//! a front end can show them in another language: the Python package keeps one
//! catalogue per language (`python/liverpool/i18n/catalogues/<lang>/engine.json`)
//! with exactly these ids and placeholders, and its English catalogue equals this
//! table. To add a message: add a line here, build it with `msg!("id", name = value)`,
//! and add its translation to each catalogue (the tests list what is missing).

macro_rules! templates {
    ($($key:literal => $template:literal,)*) => {
        /// `(id, English template)` for every message, sorted by id.
        pub const TEMPLATES: &[(&str, &str)] = &[$(($key, $template)),*];

        /// The English template of a message id, looked up at compile time (`msg!`
        /// uses it in a constant): an id missing from the table does not compile.
        pub const fn const_template(key: &str) -> &'static str {
            let mut i = 0;
            while i < TEMPLATES.len() {
                if same_text(TEMPLATES[i].0, key) {
                    return TEMPLATES[i].1;
                }
                i += 1;
            }
            panic!("unknown message id: add it to messages::TEMPLATES");
        }

        /// The English template of a message id.
        pub fn template(key: &str) -> Option<&'static str> {
            match key {
                $($key => Some($template),)*
                _ => None,
            }
        }
    };
}

const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

templates! {
    "action.bad_json" => "not an action: {error}",
    "action_id.no_id" => "{action} has no id in the action space",
    "action_id.not_legal" => "action id {id} names no {block} move now",
    "action_id.out_of_range" => "action id {id} is outside the action space, whose ids are 0 to {last}",
    "action_id.partial" => "the action ids {ids} are not one whole move",
    "action_id.several" => "{action} takes {count} action ids: use action_ids",
    "arg.action_dict" => "an action dict is a dict, not {kind}",
    "arg.action_id" => "an action id is a non-negative integer, not {value}",
    "arg.array_kind" => "a {ndim}-D array of {dtype}",
    "arg.bot_name" => "a bot name must be a string, not {item}",
    "arg.bots" => "bots must be a sequence of bot names, not {bots}",
    "arg.budget" => "budget must be an integer from 1 to {max} (samples of the hidden cards per decision), not {budget}",
    "arg.budget_kind" => "only the expert bot takes a budget; '{kind}' does not",
    "arg.card_id_range" => "card id {id} is out of range 0..=52",
    "arg.card_not_unicode" => "{text} is not a card: the text is not valid Unicode",
    "arg.cards" => "{what} must be cards (a string, or an iterable of cards, strings or ids), not {value}",
    "arg.cut" => "cut must be an integer, not {cut}",
    "arg.cut_size" => "cut size must be an integer (1..deck size - 1), not {size}",
    "arg.dealer" => "dealer seat {dealer} does not exist: seats are 0..={last}",
    "arg.end" => "end must be 'low' or 'high', not '{end}'",
    "arg.game_over" => "the game is over: no seat has a decision to make",
    "arg.go_down_string" => "go_down takes a list of card lists, one per meld, not one string",
    "arg.hands_array" => "hands must be a 2-D numpy array of uint8 card ids (0..=52, 255 pads short hands), not {what}",
    "arg.index" => "index must be a non-negative integer, not {index}",
    "arg.internal" => "internal error: {error}",
    "arg.limit" => "limit must be a non-negative integer, not {limit}",
    "arg.meld_number" => "{what} must be a table meld number (an integer >= 0), not {meld}",
    "arg.n" => "n must be an integer in 0..2**63, not {n}",
    "arg.not_a_card" => "expected a Card, a card string such as '7♦' or a card id, got {kind}",
    "arg.not_an_action" => "expected an Action or an action dict such as dict(do='discard', card='8♦'), got {kind}",
    "arg.not_cards" => "expected cards (a string, or an iterable of cards, strings or ids), got {kind}",
    "arg.not_iterable" => "{what} must be an iterable, not {kind}",
    "arg.not_json" => "{what} is not JSON data: {error}",
    "arg.not_text" => "{what} must be a str, not {kind}",
    "arg.not_to_act" => "seat {seat} has no decision to make: seat {to_act} is to act",
    "arg.object_kind" => "a {kind}",
    "arg.path" => "{what} must be a file path (a str or os.PathLike of text), not {kind}",
    "arg.players" => "{players} players: the '{rules}' rules allow {min} to {max}",
    "arg.players_max" => "{players} players: at most {max}",
    "arg.progress" => "progress must be a callable progress(done, total)",
    "arg.replay_pair" => "action {index}: expected a (seat, action) pair, not {item}",
    "arg.replay_seat" => "action {index}: seat {seat} does not exist",
    "arg.round" => "round must be an integer, not {round}",
    "arg.rules" => "rules must be a RuleSet or None, not {kind}",
    "arg.seat" => "seat {seat} does not exist: seats are 0..{players}",
    "arg.threads" => "threads must be a positive integer or None, not {threads}",
    "arg.u64" => "{what} must be an integer in 0..2**64, not {value}",
    "batch.bad_card_id" => "hand {hand}, position {position}: card id {id} is not 0..=52 (or 255 for padding)",
    "batch.exceeds_address_space" => "exceed this platform's address space",
    "batch.exceeds_limit" => "exceed the batch limit",
    "batch.hand_width" => "hand_width must be positive",
    "batch.not_allocated" => "could not be allocated",
    "batch.row_split" => "{ids} card ids do not split into rows of {width}",
    "batch.too_large" => "{n} decks of {deck_len} cards {why} (the limit is {limit} bytes)",
    "bot.unknown" => "unknown bot '{name}': the native bots are {known}",
    "busy.native_bot" => "this NativeBot is choosing for another thread: use one bot per thread, or wait for its choice",
    "busy.vec_env" => "this VecEnv is working for another thread: use one environment per thread, or wait for its call to return",
    "buy.active_player" => "seat {seat} is the active player: it may not buy",
    "buy.active_player_takes_or_draws" => "seat {seat} is the active player: it takes the discard or draws",
    "buy.already_passed" => "seat {seat} has passed on this card",
    "buy.asked_first" => "seat {first} is asked first: seat {seat} may buy only when its turn to answer comes",
    "buy.before_decline" => "a discard can only be bought after the active player declines it",
    "buy.bought_previous" => "seat {seat} bought the previous card: nobody buys two cards in succession",
    "buy.calls_first" => "the {call} call on the discard is offered first; the card can be bought once the next player declines it",
    "buy.limit_reached" => "seat {seat} has made its {limit} buys this round",
    "buy.no_penalty_card" => "no penalty card can be drawn, even after recycling the discard pile",
    "buy.off_in_rules" => "buying is off in these rules",
    "buy.window_closed" => "the buying window has closed for this turn",
    "call.after_going_out" => "the last discard took its player out: the calls do not apply to it",
    "call.already_passed" => "seat {seat} has passed on this {call} call",
    "call.asked_first" => "seat {first} is asked first about the {call} call: seat {seat} answers when its turn comes",
    "call.caller_floating" => "seat {seat} holds no card (floating, W-8): a Liverpool caller discards after laying the card off",
    "call.caller_not_down" => "seat {seat} has not gone down: only a player who is down calls Liverpool",
    "call.discarder_not_down" => "seat {seat} (the discarder) has not gone down: rummy is called only on a player who is down",
    "call.discards_now" => "seat {seat} called Liverpool and discards now",
    "call.none_now" => "no {call} call now: {why}",
    "call.not_asked" => "seat {seat} is not asked about the {call} call",
    "call.own_discard_liverpool" => "seat {seat} discarded this card: it cannot call Liverpool on it",
    "call.own_discard_rummy" => "seat {seat} discarded this card: another player calls rummy",
    "call.rummy_first" => "the rummy call is offered first (seat {first} is asked now); the Liverpool offer follows",
    "call.rummy_not_in_rules" => "these rules have no rummy call",
    "call.rummy_passed_before_liverpool" => "the chance has passed: everyone passed on the rummy call before the Liverpool offer",
    "call.why_chance_passed" => "the chance has passed: the next player drew or a buy happened",
    "call.why_everyone_passed" => "the calls on {card} were offered and everyone passed",
    "call.why_no_discard" => "there is no discard to call",
    "call.why_no_fit" => "the discard {card} fits no table meld",
    "call.why_no_penalty_card" => "no penalty card can be drawn, even after recycling the discard pile, so rummy was not offered and nobody was asked",
    "call.why_up_card" => "the top card is the round's up-card, which nobody discarded",
    "card.id_out_of_range" => "card id {id} is out of range 0..=52",
    "card.malformed" => "'{text}' is not a card: expected a rank (A 2-10 J Q K, T for 10) and a suit (♠♥♦♣ or S H D C), or JK for a joker",
    "contract.no_melds" => "no melds",
    "contract.one_run" => "1 run",
    "contract.one_run_exactly" => "1 run of exactly {min}",
    "contract.one_run_of" => "1 run of at least {min}",
    "contract.one_set" => "1 set",
    "contract.one_set_exactly" => "1 set of exactly {min}",
    "contract.one_set_of" => "1 set of at least {min}",
    "contract.plus" => "{first} + {second}",
    "contract.runs" => "{n} runs",
    "contract.runs_exactly" => "{n} runs of exactly {min}",
    "contract.runs_of" => "{n} runs of at least {min}",
    "contract.sets" => "{n} sets",
    "contract.sets_exactly" => "{n} sets of exactly {min}",
    "contract.sets_of" => "{n} sets of at least {min}",
    "contract.whole_hand" => "{melds} (whole hand, no discard)",
    "cut.already_dealt" => "cannot cut now: round {round} has already been cut and dealt (a cut starts a round)",
    "cut.not_the_cutter" => "the dealer's right neighbour, seat {cutter}, cuts (not seat {seat})",
    "cut.out_of_range" => "a cut of {cut} cards is out of range: the cutter lifts 1 to {max} cards of a {deck_len}-card deck",
    "deal.deck_too_small" => "a {deck_len}-card deck cannot deal {hand_size} cards to {players} players and turn up a card",
    "deal.no_such_dealer" => "dealer seat {dealer} does not exist: seats are 0..={last}",
    "deck.too_many_copies" => "{what} holds {count} copies of {card} but the deck has {copies}",
    "deck.too_many_jokers" => "{what} holds {count} jokers but the '{rules}' deck has {jokers}",
    "discard.already_declined" => "the top discard was already declined this turn",
    "discard.declined" => "the top discard was declined this turn",
    "discard.must_keep" => "a card must be kept for the discard",
    "discard.must_keep_lay_taken_first" => "a card the player may discard must be kept: the card taken from the pile may not be discarded this turn (W-8), so lay it off first or keep another card",
    "discard.pile_empty" => "the discard pile is empty",
    "discard.taken_this_turn" => "{card} was taken from the discard pile this turn",
    "doing.decline_discard" => "decline the discard",
    "doing.discard" => "discard",
    "doing.draw_stock" => "draw from the stock",
    "doing.go_down" => "go down",
    "doing.joker_swap" => "joker swap",
    "doing.lay_off" => "lay-off",
    "doing.take_discard" => "take the discard",
    "draw.window_open" => "the buying window is open: seat {asked} is asked now; seat {active} draws when it closes",
    "draw.window_open_pending" => "the buying window is open: seat {asked} is asked now; the stock card is seat {active}'s when it closes",
    "file.cannot_read" => "cannot read {path}: {error}",
    "file.cannot_write" => "cannot write {path}: {error}",
    "game.over" => "the last round has ended: the game is over",
    "game.over_no_next_round" => "the game is over: there is no next round",
    "game.players_out_of_range" => "{players} players: the '{rules}' rules allow {min}..={max}",
    "go_down.adjacent_runs" => "same-suit runs {first} and {second} are adjacent: in one contract they must overlap or leave a gap",
    "go_down.already_down" => "seat {seat} has already gone down this round",
    "go_down.failed_penalty" => "{reason}; W-9: a failed go-down costs {points} points, added to seat {seat}'s round score",
    "go_down.meld_count" => "the contract is {contract}: {want} melds, not {got}",
    "go_down.meld_too_short" => "{meld} is shorter than {min} cards",
    "go_down.no_cards" => "the contract is {contract}",
    "go_down.not_the_contract" => "the contract is {contract}; these melds are not",
    "go_down.run_above_contract" => "{meld} has {len} cards: this contract's run has at most {max}",
    "go_down.run_below_contract" => "the contract is {contract}: {meld} has {len} cards, the run it would fill needs at least {min}",
    "go_down.run_below_exact" => "the contract is {contract}: {meld} has {len} cards, the run it would fill has exactly {min}",
    "go_down.run_size" => "{meld} has {len} cards: at go-down a run has exactly {max} in this profile",
    "go_down.set_above_contract" => "{meld} has {len} cards: this contract's set has at most {max}",
    "go_down.set_below_contract" => "the contract is {contract}: {meld} has {len} cards, the set it would fill needs at least {min}",
    "go_down.set_below_exact" => "the contract is {contract}: {meld} has {len} cards, the set it would fill has exactly {min}",
    "go_down.set_size" => "{meld} has {len} cards: at go-down a set has exactly {max} in this profile",
    "go_down.whole_hand" => "in this round a go-down lays the whole hand: {left} cards would be left",
    "go_down.whole_hand_one_left" => "in this round a go-down lays the whole hand: 1 card would be left",
    "hand.card_not_held" => "seat {seat} does not hold {card}",
    "hand.card_not_held_times" => "seat {seat} does not hold {card} {times} times (it holds {held})",
    "hint.buy" => "Buy the {card}: over {samples} simulated deals, buying ends the round {gain} points better for you against the others than passing.",
    "hint.call" => "Call {call}: over {samples} simulated deals, calling ends the round {gain} points better for you against the others than passing (W-7).",
    "hint.cut_any" => "Cut {size} cards: no cut earns a bonus here, and the cut does not change the deal.",
    "hint.cut_exact" => "Cut exactly {size} cards: the exact cut earns you a bonus of {bonus} points (L-2.3).",
    "hint.discard" => "Discard the {card}: over {samples} simulated deals, it ends the round {gain} points better for you against the others than discarding the {other}.",
    "hint.discard_only" => "Discard the {card}: over {samples} simulated deals, it ends the round {gain} points better for you against the others than the other moves.",
    "hint.draw_stock" => "Draw from the stock: over {samples} simulated deals, taking the {card} would end the round {gain} points worse for you against the others.",
    "hint.go_down" => "Go down now: over {samples} simulated deals, it ends the round {gain} points better for you against the others than waiting.",
    "hint.lay_off" => "Lay off the {card}: every card you lay off is a card that cannot count against you (L-5.3).",
    "hint.not_your_turn" => "It is not seat {seat}'s turn to decide.",
    "hint.only_move" => "This is the only move.",
    "hint.pass_buy" => "Pass: over {samples} simulated deals, buying the {card} would end the round {gain} points worse for you against the others.",
    "hint.pass_call" => "Pass: over {samples} simulated deals, calling would end the round {gain} points worse for you against the others.",
    "hint.rule_of_thumb" => "No other move was worth simulating here: this one follows the greedy player's rules.",
    "hint.swap_joker" => "Put the {card} in place of the joker: the joker goes onto another meld and your hand loses a card (L-7.2).",
    "hint.take_discard" => "Take the {card}: over {samples} simulated deals, it ends the round {gain} points better for you against the others than drawing from the stock.",
    "hint.wait" => "Do not go down yet; discard the {card}: over {samples} simulated deals, waiting ends the round {gain} points better for you against the others.",
    "input.too_large" => "the input has {bytes} bytes, more than the limit of {max}",
    "lay_off.joker_no_room" => "the joker has no free position at that end (positions 1..14)",
    "lay_off.leaves_gap" => "it leaves a gap in the run",
    "lay_off.no_cards" => "a lay-off needs at least one card",
    "lay_off.no_extension" => "it does not extend the run at either end",
    "lay_off.no_such_meld" => "there is no table meld {meld} ({count} on the table)",
    "lay_off.position_clash" => "two cards claim one position",
    "lay_off.position_taken" => "position {position} ({card}) is already in the run",
    "lay_off.refused" => "{cards} cannot be laid off on {meld}: {why}",
    "lay_off.same_turn" => "lay-offs are only allowed on a turn after the go-down turn",
    "lay_off.wrong_rank" => "{card} is not of the set's rank {rank}",
    "lay_off.wrong_suit" => "{card} is not of the run's suit",
    "liverpool_call.not_in_rules" => "these rules have no Liverpool call",
    "meld.no_natural" => "it holds no natural card",
    "meld.not_a_run" => "{cards} is not a run: {why}",
    "meld.not_a_set" => "{cards} is not a set: {why}",
    "meld.not_consecutive" => "its cards are not consecutive positions low to high (ace low or high, never wrapping K-A-2)",
    "meld.not_one_rank" => "its cards are not all of one rank",
    "meld.not_one_suit" => "its cards are not all of one suit",
    "meld.run_few_naturals" => "{cards} has too few natural cards: a run needs {min}",
    "meld.run_min_size" => "a run has at least {min} cards",
    "meld.run_too_long" => "a run spans at most the 14 positions A..K..A",
    "meld.set_few_naturals" => "{cards} has too few natural cards: a set needs {min}",
    "meld.set_min_size" => "a set has at least {min} cards",
    "pass.asked_first" => "seat {first} is asked first: seat {seat} answers only when its turn comes",
    "pass.no_window" => "there is no open buying window (or call offer) to pass in",
    "pass.not_asked" => "seat {seat} is not asked: {reason}",
    "phase.already_drawn" => "the active player has already drawn",
    "phase.buying_open" => "the buying window is open",
    "phase.call_discard" => "seat {seat} owes its discard after a Liverpool call (W-7.2)",
    "phase.calling" => "the {call} call on the discard is being offered (W-7)",
    "phase.declined_not_drawn" => "the active player declined the discard and has not drawn from the stock yet",
    "phase.not_dealt" => "the round has not been cut and dealt yet",
    "phase.not_drawn" => "the active player has not drawn yet",
    "phase.round_over" => "the round is over",
    "phase.wrong" => "cannot {what} now: {now}",
    "players.out_of_range" => "{players} players: the '{rules}' rules allow {min} to {max}",
    "position.bad_active" => "active {active} is not a seat (0..{players})",
    "position.bad_dealer" => "dealer {dealer} is not a seat (0..{players})",
    "position.bad_json" => "position JSON: {error}",
    "position.bad_rng" => "rng state '{state}' is not a 128-bit hex number",
    "position.buying" => "'buying' only applies in phase buying",
    "position.buying_off" => "phase buying, but these rules have no buying",
    "position.buys_range" => "seat {seat} has made {buys} buys this round, more than the {max} possible",
    "position.call_discard" => "call_discard: the Liverpool caller must be a seat that is down and holds a card (W-7.2)",
    "position.caller" => "'caller' only applies in phase call_discard",
    "position.caller_missing" => "phase call_discard needs 'caller', a seat",
    "position.calling" => "'calling' only applies in phase calling",
    "position.calling_discarder" => "calling.discarder is not a seat",
    "position.calling_missing" => "phase calling needs 'calling' with kind, discarder and passed",
    "position.calling_no_fit" => "phase calling, but the top discard fits no table meld (W-7)",
    "position.calling_nobody" => "phase calling, but no seat is left to ask (W-7)",
    "position.calling_not_allowed" => "phase calling: these rules (or this discarder) allow no {call} call (W-7)",
    "position.calling_passed_seat" => "calling.passed names seat {seat}, which does not exist",
    "position.calling_seats" => "the call offer names seats that do not exist",
    "position.cut_bonus_off" => "seat {seat} cannot have earned a cut bonus: this rule set gives none (L-2.3)",
    "position.cut_bonus_seat" => "seat {seat} cannot have earned this round's cut bonus: only the cutter, seat {cutter}, can (L-2.3)",
    "position.cut_bonus_winner" => "cut_bonus and winner must be seats 0..{players}",
    "position.cut_bonus_winner_seats" => "cut_bonus and winner must be seats",
    "position.cut_not_empty" => "in phase cut, hands, discard pile and table are empty (the stock is the whole deck)",
    "position.cut_stock_short" => "in phase cut the stock holds {stock} cards but the deal needs {needed}",
    "position.dead_end" => "after {action} by seat {seat} nobody would have a legal move and the game would not be over, so this position cannot arise",
    "position.dealer_active" => "dealer {dealer} and active {active} must be seats 0..{players}",
    "position.declined" => "'declined' only applies in phase draw",
    "position.down_this_turn" => "down_this_turn: the active player must be down, in phase play",
    "position.down_without_meld" => "seat {seat} is down but owns no table meld",
    "position.empty_hand" => "seat {seat} holds no cards where play would leave it without a legal move (it must keep a card for the discard, L-5.5, and may not discard the card it takes, W-8), so this position cannot arise",
    "position.empty_hand_not_down" => "seat {seat} holds no cards but is not down: only a player who is down may float, playing on with no cards (W-8), so this position cannot arise",
    "position.field_error" => "{field}: {reason}",
    "position.game_over_early" => "phase game_over in round {round}, but the game has {rounds} rounds: it is over only after the last one",
    "position.hand_copies" => "hand {hand} holds more copies of a card than any deck",
    "position.hand_count" => "{hands} hands for {players} players",
    "position.last_buyer" => "buying.last_buyer is not a seat",
    "position.meld_owner_missing" => "table meld {index} ({meld}) is owned by seat {seat}, which does not exist",
    "position.meld_owner_not_down" => "table meld {index} ({meld}) belongs to seat {seat}, who is not down",
    "position.no_legal_move" => "nobody has a legal move and the game is not over, so this position cannot arise",
    "position.only_taken_card" => "seat {seat} holds only {card}, the card it took this turn, which it may not discard (W-8): play keeps a discardable card (L-5.5), so this position cannot arise",
    "position.passed_seat" => "buying.passed names seat {seat}, which does not exist",
    "position.penalty_profile" => "seat {seat} has {penalty} penalty points, but this rule set charges nothing for a failed go-down (W-9)",
    "position.penalty_value" => "seat {seat} has {penalty} penalty points: each failed go-down costs {size}, so penalties are a whole number of attempts and never negative (W-9)",
    "position.play_empty_hand" => "in phase play the active player holds a card (a player left with none ends the turn at once, W-8)",
    "position.players" => "{players} players: a game has 2..={max} seats",
    "position.round_over_last" => "phase round_over in round {round}, the last of {rounds}: after the last round the game is over (L-10.3)",
    "position.score_range" => "seat {seat}: totals, round scores and W-9 penalties must lie within ±{max}",
    "position.seat_list_length" => "'{field}' has {count} entries for {players} players",
    "position.table_meld_error" => "table meld {index}: {reason}",
    "position.taken_discard" => "taken_discard only exists in phase play",
    "position.taken_discard_profile" => "taken_discard only exists where the card taken from the discard pile may not be discarded (W-8); this rule set allows it",
    "position.turn_range" => "turn {turn} is out of range: a live round has played fewer than {max} turns (L-9.3), a round waiting for the cut none",
    "position.unknown_phase" => "phase '{phase}' is not one of cut, draw, play, buying, calling, call_discard, round_over, game_over",
    "position.unset_field" => "'{field}' must be empty in phase {phase}: buys, penalties and the cut bonus come after the deal, round scores and the winner once the round is over",
    "position.window_nobody" => "phase buying, but no seat may buy the top discard",
    "position.window_seats" => "the buying window names seats that do not exist",
    "position.winner_holds_cards" => "seat {seat} went out this round but still holds cards: going out empties the hand (L-5.6)",
    "replay.refused" => "action {index} ({action} by seat {seat}): {reason}",
    "round.next_dealer_starts" => "seat {seat}, the next dealer, starts the next round",
    "round.no_joker_swap" => "there is no joker swap in round {round}",
    "round.no_lay_off" => "there is no lay-off in round {round}",
    "round.no_such_round" => "round {round} does not exist: rounds are 1..={rounds}",
    "round.not_over" => "the round is not over",
    "round.over_only_next_round" => "the round has ended: only next_round is possible",
    "rules.bad_json" => "rule set JSON is not valid: {error}",
    "rules.bad_toml" => "rule set TOML is not valid: {error}",
    "rules.bad_value" => "wrong value: {error}",
    "rules.base_not_name" => "{value} is not a preset name",
    "rules.base_unknown" => "'{name}' is not a preset: {presets}",
    "rules.buy_limit_zero" => "0 allows no buy at all: set buying = \"off\" instead",
    "rules.call_order" => "seat {value} is listed twice or is not below max_players ({max})",
    "rules.contract_melds" => "round {round}: a contract asks for 1 to {max} melds",
    "rules.cut_bonus_range" => "{value} is out of range: the cut bonus lies within ±{max}",
    "rules.cut_range" => "({low}, {high}) must satisfy 1 <= low <= high",
    "rules.cut_range_beyond_deck" => "({low}, {high}) goes beyond the deck: the smallest deck of this rule set has {deck} cards, so a cut is 1 to {last}",
    "rules.deal_below_contract" => "round {round}: {deal} cards dealt, {holds} after drawing, cannot lay the contract {contract} ({needed} cards) and keep one to discard",
    "rules.deal_below_whole_hand" => "round {round}: {deal} cards dealt, {holds} after drawing, cannot hold the contract {contract} ({needed} cards)",
    "rules.deal_beyond_runs" => "round {round}: {holds} cards after drawing cannot all go in {runs} runs of at most 14",
    "rules.deal_sizes_mismatch" => "{deal_sizes} deal sizes but contracts has {contracts} rounds: give one deal size per round",
    "rules.deal_zero" => "round {round}: deal at least one card",
    "rules.deck_count" => "{value}: 1 to 4 decks",
    "rules.deck_tiers_cover" => "the tiers stop at {last} players but max_players is {max}",
    "rules.deck_tiers_order" => "{value} is not above the previous tier's {previous}: tiers are sorted by max_players",
    "rules.deck_too_small" => "round {round}: {players} players x {deal} cards, the up-card and one card to draw need {need} cards but the deck of deck_tiers[{tier}] ({decks} decks + {jokers} jokers) has {deck}",
    "rules.default_players" => "{value} is outside min_players..=max_players ({min}..={max})",
    "rules.in_file" => "{path}: {reason}",
    "rules.invalid_option" => "{key}: {reason}",
    "rules.joker_count" => "{value}: at most 16 jokers",
    "rules.max_below_min" => "{value} is below {min_key} ({min})",
    "rules.max_players_high" => "{value}: at most 16 players",
    "rules.max_turns" => "0: the safeguard must be positive",
    "rules.max_turns_range" => "{value} is too large: at most {max} turns per round",
    "rules.meld_min_size" => "{value}: a meld has at least 3 cards",
    "rules.min_above_max" => "{value} is more than max_players ({max})",
    "rules.min_players_low" => "{value}: a game needs at least 2 players",
    "rules.missing_key" => "missing: a rule set without base gives every option (start from a preset with base = \"liverpool\" to change only some)",
    "rules.name_empty" => "a rule set needs a name",
    "rules.naturals_range" => "{value}: between 1 (every meld holds a natural card) and {size_key} ({size})",
    "rules.naturals_window" => "{value}: the naturals are counted among the first {value} cards, which must hold min_naturals_run ({min}) and fit a run (at most 14)",
    "rules.no_deck_tiers" => "at least one deck tier is needed",
    "rules.no_rounds" => "a rule set needs at least one round",
    "rules.not_a_table" => "a rule set is a table of options (base, name, deal_sizes, …)",
    "rules.not_finite" => "{value} is not a number a rule set can use (inf and nan are refused)",
    "rules.not_finite_json" => "{value} (line {line}, column {column}) is not a number a rule set can use (infinities, NaN and numbers out of range are refused)",
    "rules.not_preset_or_file" => "'{spec}' is neither a preset ({presets}) nor a rule set file",
    "rules.run_below_floor" => "{value} is below {floor_key} ({floor}): a shorter run is not a meld",
    "rules.run_too_long" => "{value}: a run spans at most the 14 positions A..K..A",
    "rules.set_below_floor" => "{value} is below {floor_key} ({floor}): a shorter set is not a meld",
    "rules.set_beyond_deck" => "a set of {value}: the smallest deck holds only {cards} cards that can form one",
    "rules.too_large" => "the rule set has {bytes} bytes, more than the limit of {max}",
    "rules.too_many_rounds" => "{rounds} rounds: a game has at most {max}",
    "rules.unknown_key" => "unknown key; the keys here are {keys}",
    "rules.unknown_key_hint" => "unknown key (did you mean '{nearest}'?); the keys here are {keys}",
    "rules.unknown_preset" => "unknown rule set '{name}': the presets are {presets}",
    "rules.unknown_rank_key" => "unknown key: the ranks are joker, A, 2 … 10, J, Q, K",
    "rules.whole_hand_run_below_run" => "{value} is below run_size_min ({min}): a run of a whole-hand go-down is still a run",
    "rules.wild_joker_swap" => "a joker swap with wild {rank}s is not supported: set joker_swap = \"off\" or wild_rank = \"none\"",
    "rules.wild_points" => "{value} but {rank} is wild: a wild card scores as a joker ({joker})",
    "rules.wild_rank_not_rank" => "{value} is not a rank (A, 2..10, J, Q, K)",
    "seat.no_such_seat" => "seat {seat} does not exist: seats are 0..{players}",
    "seat.not_down" => "seat {seat} has not gone down this round",
    "sim.bot_refused" => "game {game}: the {bot} bot of seat {seat} chose {action}, which the engine refused: {reason}",
    "sim.bots_per_seat" => "{players} players but {bots} bots: give one bot per seat",
    "sim.concat_empty" => "SimulationResult.concat needs at least one part",
    "sim.concat_part" => "part {index} (seed {seed}, first game {first}, bots {bots}, {rounds} rounds) does not follow the parts before it (seed {expected_seed}, next game {expected_first}, bots {expected_bots}, {expected_rounds} rounds)",
    "sim.no_bots" => "a simulation needs one bot per seat",
    "sim.too_many_games" => "{games} games: at most {max} per call",
    "snapshot.bad_json" => "game state JSON: {error}",
    "snapshot.format" => "game state format {format} is not supported (this engine reads {supported})",
    "snapshot.history_step" => "history step {index} is out of range",
    "swap.joker_unplaced" => "the freed joker cannot go on meld {meld}: {reason}",
    "swap.mismatch" => "cannot swap {card} into {meld}: {why}",
    "swap.no_joker" => "the run holds no joker",
    "swap.no_such_meld" => "there is no table meld {meld}",
    "swap.no_target_meld" => "there is no table meld {meld} for the joker",
    "swap.off_in_rules" => "these rules have no joker swap",
    "swap.only_go_down_turn" => "a joker swap is only allowed on the turn the player goes down",
    "swap.own_joker" => "table meld {meld} is seat {seat}'s own: a player may swap only another player's joker",
    "swap.same_meld" => "the freed joker must go to a different meld than the one it came from",
    "swap.same_turn" => "a joker swap is only allowed on a turn after the go-down turn",
    "swap.set_joker_locked" => "a joker in a set is locked and can never be swapped",
    "swap.stands_for" => "its joker stands for {stands}, not {card}",
    "take.floating_no_move" => "seat {seat} holds no card: it could neither discard {card} this turn nor lay it off on a table meld, so it draws from the stock",
    "text" => "{text}",
    "threads.cannot_start" => "cannot start {threads} threads: {error}",
    "threads.out_of_range" => "threads must be 1..=1024, not {threads}",
    "turn.not_your_turn" => "it is seat {active}'s turn, not seat {seat}'s",
    "vec_env.actions_kind" => "actions must be a 1-D array of integer action ids, not {kind}",
    "vec_env.actions_len" => "one action id per environment: {n} expected, {given} given",
    "vec_env.buffers" => "the output buffers do not fit {n} environments",
    "vec_env.illegal_action" => "environment {env}: {reason}",
    "vec_env.no_such_env" => "no game {index}: this VecEnv holds {n}",
    "vec_env.size" => "a VecEnv holds 1 to {max} games, not {n}",
    "what.hand" => "hand {index}",
    "what.seen_cards" => "the seen cards",
    "what.the_action_dict" => "the action dict",
    "what.the_deck" => "the deck",
    "what.the_go_down" => "the go-down",
    "what.the_hand" => "the hand",
    "what.the_meld" => "the meld",
    "what.the_position" => "the position",
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::placeholders;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// The engine's non-test code, as (path, code): test modules and comments left out.
    fn sources() -> Vec<(String, String)> {
        fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).expect("src is readable") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    walk(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    let code = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or("");
                    let code: Vec<&str> = code.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
                    out.push((path.display().to_string(), code.join("\n")));
                }
            }
        }
        let mut out = vec![];
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
        assert!(out.len() > 10, "found the engine sources");
        // The binding builds its argument errors with the same table (`arg.*`).
        let binding = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/src");
        if binding.is_dir() {
            walk(&binding, &mut out);
        }
        out
    }

    /// The ids of every `msg!("id", ...)` in the sources (the macro only takes a literal).
    fn used_keys() -> BTreeSet<String> {
        let mut keys = BTreeSet::new();
        for (path, code) in sources() {
            for piece in code.split("msg!(").skip(1) {
                let piece = piece.trim_start();
                assert!(
                    piece.starts_with('"'),
                    "{path}: msg! without a literal id: {}",
                    &piece[..40.min(piece.len())]
                );
                let end = piece[1..].find('"').expect("a closed literal");
                keys.insert(piece[1..1 + end].to_string());
            }
        }
        keys
    }

    #[test]
    fn every_template_is_used_and_every_used_id_has_a_template() {
        let table: BTreeSet<String> = TEMPLATES.iter().map(|(k, _)| k.to_string()).collect();
        let mut used = used_keys();
        // Free text from outside the engine (the binding's own messages).
        used.insert("text".into());
        let unused: Vec<_> = table.difference(&used).collect();
        let missing: Vec<_> = used.difference(&table).collect();
        assert!(
            unused.is_empty() && missing.is_empty(),
            "unused: {unused:?}, missing: {missing:?}"
        );
    }

    #[test]
    fn table_is_sorted_unique_and_well_formed() {
        for pair in TEMPLATES.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} then {}", pair[0].0, pair[1].0);
        }
        for (key, text) in TEMPLATES {
            assert_eq!(text.matches('{').count(), text.matches('}').count(), "{key}");
            for name in placeholders(text) {
                assert!(
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                    "{key}: {{{name}}}"
                );
            }
            assert_eq!(template(key), Some(*text));
        }
    }

    #[test]
    fn engine_code_builds_no_free_text_errors() {
        for (path, code) in sources() {
            // error.rs defines them; the binding's errors.rs keeps a text someone
            // reworded by hand (never built by the binding itself).
            if path.ends_with("error.rs") || path.ends_with("errors.rs") {
                continue;
            }
            for bad in ["Error::new(", "Error::rule(", "Message::untranslated(", "Error { code"] {
                assert!(!code.contains(bad), "{path} builds an error with free text: {bad}");
            }
        }
    }
}
