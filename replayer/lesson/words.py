"""The lessons' interface words in every language: the message table, its gettext catalogues and their plurals.

Every text a page shows that is not the record's own is a message of :data:`MESSAGES`, written in English under a
key (its gettext context): ``M(key, text)``, or ``P(key, singular, plural)`` for a text that agrees with a number.
The other languages' wording lives in gettext catalogues, ``locale/<lang>/LC_MESSAGES/bezique.po`` beside this file,
which a translator opens in Poedit or Weblate. ``python -m replayer.lesson.catalogue`` extracts the messages with
Babel (and the profiles' titles, descriptions and option texts, see :func:`profile_text`), updates each catalogue and
compiles the ``.mo`` files that :func:`interface` reads at run time with the standard library's :mod:`gettext`: no
network and no Babel are needed to render. A catalogue's plural forms are the ones Babel writes from CLDR's plural
rules (Russian: 1 карта, 2 карты, 5 карт, 21 карта); English has the singular for 1 only.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "MESSAGES",
    "Words",
    "interface",
    "profile_text",
]

DOMAIN = "bezique"
"""The catalogues' gettext domain."""

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogues live: ``LOCALE_DIR/ru/LC_MESSAGES/bezique.mo``."""

LANGUAGES = ("en", "ru")
"""The interface languages: English, the messages' own, and those with a catalogue."""

Message = tuple[str, str, str | None]
"""(key, the English text, its plural or None)."""


def M(key: str, text: str) -> Message:
    """A message (marks it for Babel's extraction: the key is its context, the text its id)."""
    return key, text, None


def P(key: str, singular: str, plural: str) -> Message:
    """A message that agrees with the number ``{n}`` it holds."""
    return key, singular, plural


# The keys are the code's names for the messages and each message's gettext context, which tells a translator where
# it is used. Placeholders in braces are filled in by the code (str.format) and stay as they are in a translation.
MESSAGES: tuple[Message, ...] = (
    M("site_title", "Bezique lessons"),
    M("index_intro", "Annotated bezique games, replayed and checked card by card."),
    M("no_games", "No games were rendered."),
    M("open_lesson", "Open the lesson"),
    M("back_to_index", "All lessons"),
    M("rules", "Rules"),
    M("players", "Players"),
    M("result", "Result"),
    M("source", "Source"),
    M("options", "House rules"),
    M("steps", "Steps"),
    M("introduction", "Introduction"),
    M("prev", "Previous"),
    M("next", "Next"),
    M("top", "Top"),
    M(
        "keys_hint",
        "Keys: ← and → step back and forth, Home and End go to the first and last step, C to the next comment.",
    ),
    M("seat_N", "North"),
    M("seat_S", "South"),
    M("seat_E", "East"),
    M("seat_W", "West"),
    M("deal_title", "Deal {n}"),
    M("deal_start", "The deal"),
    M("deal_end", "End of deal {n}"),
    M("trick_title", "Trick {n}"),
    M("inferred_forced", "not in the record; the only card the rules allow"),
    M("inferred_open", "not in the record; chosen, it could also be {cards}"),
    M("inferred_chosen", "not in the record; chosen"),
    M("dealer", "Dealer"),
    M("leads", "{seat} leads"),
    M("dealer_leader", "{dealer} deals, {leader} leads."),
    M("trumps", "Trumps"),
    M("hand", "Hand"),
    M("hand_dealt", "Dealt"),
    M("on_table", "On the table"),
    M("nothing", "—"),
    M("trick", "The trick"),
    M("wins_trick", "{seat} wins the trick"),
    M("no_winner", "no winner recorded"),
    M("scoring", "Scores"),
    M("no_scoring", "No points scored."),
    M("draws", "Draws"),
    M("stock", "Stock"),
    P("stock_left", "{n} card left, turn-up included", "{n} cards left, turn-up included"),
    P("stock_count", "{n} card in the stock", "{n} cards in the stock"),
    M("stock_empty", "The stock is exhausted."),
    M("turnup", "Turn-up"),
    M("turnup_taken", "The turn-up has been drawn."),
    M("score_after", "Score after the trick"),
    M("score_start", "Score"),
    M("commentary", "Commentary"),
    M("question_for", "Question for {seat}"),
    M("answer", "Answer"),
    M("show_answer", "Show the answer"),
    M("phase_1", "While the stock lasts: any card may be played."),
    M("phase_2", "The last {n} tricks: follow suit and win the trick if you can; trump if void."),
    M("phase_2_short", "End play"),
    M("brisques", "Brisques"),
    M("deal_result", "Deal result"),
    M("game_total", "Game total"),
    M("game_points_total", "Game points (total)"),
    M("score_sheet", "Score sheet"),
    M("sheet_step", "Step"),
    M("sheet_winner", "Won by"),
    M("sheet_events", "Points"),
    M("wins_game", "{seat} wins"),
    M("wins_game_score", "{seat} wins; game score {scores}"),
    M("undecided", "No winner yet (the game is played to {target})"),
    M("undecided_no_target", "No winner"),
    M("card_label", "{rank} of {suit}"),
    M("suit_of_S", "spades"),
    M("suit_of_H", "hearts"),
    M("suit_of_D", "diamonds"),
    M("suit_of_C", "clubs"),
    M("rank_A", "ace"),
    M("rank_10", "ten"),
    M("rank_K", "king"),
    M("rank_Q", "queen"),
    M("rank_J", "jack"),
    M("rank_9", "nine"),
    M("rank_*", "wild card"),
    M("rank_8", "eight"),
    M("rank_7", "seven"),
    M("symbol_A", "A"),
    M("symbol_10", "10"),
    M("symbol_K", "K"),
    M("symbol_Q", "Q"),
    M("symbol_J", "J"),
    M("header_source", "Source"),
    M("header_url", "Link"),
    M("header_page", "Page"),
    M("header_date", "Date"),
    M("header_event", "Event"),
    M("header_site", "Place"),
    M("header_annotator", "Annotator"),
    M("header_translator", "Translator"),
    M("header_note", "Note"),
    M("header_language", "Original language"),
    M("header_round", "Round"),
    M("score_declares", "{seat} declares {meld}"),
    M("score_seven_exchange", "{seat} exchanges the {card} for the turn-up {turnup}"),
    M("score_seven_shown", "{seat} shows the {card}"),
    M("score_goes_out", "{seat} has reached {n}: the hand ends"),
    M("score_seven_played", "{seat} plays the seven of trumps"),
    M("score_turnup_seven", "{seat}, the dealer, turns up a seven"),
    M("score_last_trick", "{seat} wins the last trick"),
    M("score_brisques", "{seat} counts brisques"),
    M("score_other", "{seat} scores {kind}"),
    M("score_claim_game", "{seat} claims the game, rightly: the game is his"),
    M("score_false_claim", "{seat} claims the game, falsely"),
    M("score_forfeit", "{seat} forfeits what the illegal play won"),
    M("meld_sequence", "the sequence"),
    M("meld_royal_marriage", "the royal marriage"),
    M("meld_marriage", "a marriage"),
    M("meld_bezique", "bezique"),
    M("meld_double_bezique", "double bezique"),
    M("meld_four_aces", "four aces"),
    M("meld_four_kings", "four kings"),
    M("meld_four_queens", "four queens"),
    M("meld_four_jacks", "four jacks"),
    M("generated_by", "Made with the bezique replayer."),
    M("nav_lessons", "Lessons"),
    M("nav_glossary", "Glossary"),
    M("nav_first", "First step"),
    M("nav_last", "Last step"),
    M("nav_comment", "Next comment"),
    M("nav_comment_prev", "Previous comment"),
    M("nav_play", "Play"),
    M("nav_pause", "Pause"),
    M("nav_play_hint", "Play the deal as a film, one step every few seconds"),
    M("step_of", "Step {n} of {total}"),
    M("permalink", "Link to this step"),
    M("view", "View"),
    M("view_all", "All hands"),
    M("view_all_hint", "Show every hand"),
    M("view_only", "Show only {seat_gen} hand; the others are hidden"),
    M("four_colour", "Four-colour suits"),
    M(
        "needs_script",
        "The table before each trick and each seat's bookkeeping are drawn by the page's script; without it the "
        "page shows the hands dealt and every trick, draw, declaration and score.",
    ),
    P("hidden_cards", "{n} hidden card", "{n} hidden cards"),
    M("before_trick", "Before the trick"),
    M("score_before", "Score before the trick"),
    M("turnup_and_stock", "Turn-up and stock"),
    M("rule_link", "rule"),
    M("rule_link_title", "The rule that scores it"),
    M("outcome", "The trick and its consequences"),
    M("sheet_so_far", "Score sheet so far"),
    M("sheet_empty", "Nothing scored yet."),
    M("chart_title", "The scores trick by trick"),
    M("chart_axis", "trick (0: the deal)"),
    M("chart_final", "Final score: {scores} ({tricks})."),
    M("chart_declared", "Declarations: {items}."),
    M("chart_none", "No declarations."),
    M("chart_at", "trick {n}: {text}"),
    M("chart_margin", "{seat}: expected margin"),
    M("quiz_choose", "Choose the card {seat} plays."),
    M("quiz_right", "Right: {card}."),
    M("quiz_wrong", "Not {card}: try again."),
    M("quiz_revealed", "The record plays {card}."),
    M("quiz_open", "Think it over, then show the answer."),
    M("quiz_hidden", "The rest of the trick is hidden until you answer."),
    M("quiz_accepted", "Accepted"),
    M("book_title", "{seat_gen} bookkeeping"),
    M("unseen_title", "Cards {seat} has not seen"),
    P(
        "unseen_text",
        "{n} unknown card: {stock} in the stock, {hands} in other hands.",
        "{n} unknown cards: {stock} in the stock, {hands} in other hands.",
    ),
    M("unseen_count", "{card}: {n} not seen"),
    M("known_in_hand", "Known to be in {seat_gen} hand:"),
    M("melds_title", "Combinations: what is still possible"),
    M("meld_col", "Combination"),
    M("meld_possible", "possible"),
    M("meld_ready", "held"),
    M("meld_impossible", "impossible"),
    M("meld_scored", "scored at trick {n}"),
    M("meld_needs", "needs {cards}"),
    M("meld_has", "holds {k} of {n}"),
    M("news_impossible", "{reason}: {meld} is impossible for {seat}."),
    M("seen_all_2", "both {card} seen"),
    M("seen_all", "all {n} {card} seen"),
    M("seen_only", "{card} seen"),
    M("seen_some", "{k} of the {n} {card} seen"),
    P("kind_left_A", "only {n} ace left", "only {n} aces left"),
    P("kind_left_10", "only {n} ten left", "only {n} tens left"),
    P("kind_left_K", "only {n} king left", "only {n} kings left"),
    P("kind_left_Q", "only {n} queen left", "only {n} queens left"),
    P("kind_left_J", "only {n} jack left", "only {n} jacks left"),
    P("kind_left_9", "only {n} nine left", "only {n} nines left"),
    P("kind_left_8", "only {n} eight left", "only {n} eights left"),
    P("kind_left_7", "only {n} seven left", "only {n} sevens left"),
    M("no_declarations", "No more declarations: the stock is exhausted."),
    M("draws_left", "{missing}, {left}"),
    P("missing_cards", "{n} more card needed", "{n} more cards needed"),
    P("draws_remaining", "{n} draw left", "{n} draws left"),
    M("news_meld_form", "meldname"),
    M("seat_gen_N", "North's"),
    M("seat_gen_S", "South's"),
    M("seat_gen_E", "East's"),
    M("seat_gen_W", "West's"),
    M("meldname_sequence", "sequence"),
    M("meldname_four_aces", "four aces"),
    M("meldname_four_kings", "four kings"),
    M("meldname_four_queens", "four queens"),
    M("meldname_four_jacks", "four jacks"),
    M("meldname_royal_marriage", "royal marriage"),
    M("meldname_marriage", "common marriage"),
    M("meldname_bezique", "bezique"),
    M("meldname_double_bezique", "double bezique"),
    M("meldname_carte_blanche", "carte blanche"),
    M("meldname_plain_sequence", "plain sequence"),
    M("meldname_triple_bezique", "triple bezique"),
    M("meldname_quadruple_bezique", "quadruple bezique"),
    M("meldname_quintuple_bezique", "quintuple bezique"),
    M("meldname_sextuple_bezique", "sextuple bezique"),
    M("meldname_four_tens", "four tens"),
    M("meldname_double_carte_blanche", "double carte blanche"),
    M("meldname_four_trump_aces", "four trump aces"),
    M("meldname_four_trump_tens", "four trump tens"),
    M("meldname_four_trump_kings", "four trump kings"),
    M("meldname_four_trump_queens", "four trump queens"),
    M("meldname_four_trump_jacks", "four trump jacks"),
    M("meldname_five_trump_aces", "fifth trump ace"),
    M("meldname_five_trump_tens", "fifth trump ten"),
    M("meldname_five_trump_kings", "fifth trump king"),
    M("meldname_five_trump_queens", "fifth trump queen"),
    M("meldname_five_trump_jacks", "fifth trump jack"),
    M("meldname_double_marriage", "double marriage"),
    M("meldname_double_royal_marriage", "double royal marriage"),
    M("score_cut_guess", "{seat} guessed exactly how many cards the dealer lifted"),
    M("score_cut_lift", "{seat}, the dealer, lifted exactly the cards of the two hands"),
    M("pattern_hand", "a whole hand without a king, queen or jack; again for each such card drawn"),
    M("pattern_side_hand", "both partners dealt no king, queen or jack; once for the side, before the first trick"),
    M("pattern_when_trump", "{cards} when {suits} are trumps"),
    M(
        "fact_no_turnup",
        "No card is turned up: the first {melds} declared fixes trumps. Until then the highest card of the suit "
        "led wins.",
    ),
    M(
        "rule_cut",
        "Before the deal the dealer lifts some cards: {guess} to the other player for guessing how many, {lift} "
        "to the dealer for lifting exactly {count}.",
    ),
    M(
        "rule_game_one_hand",
        "One hand is a game. The winner scores {bonus}{difference}; a loser below {rubicon} is rubiconed: the "
        "winner adds both scores and {rubicon_bonus}{low}.",
    ),
    M("rule_game_difference", " and the difference"),
    M("rule_game_own", " added to his score"),
    M("rule_game_low", " ({low_bonus} more when the loser scored below {low_score})"),
    M("rule_brisques_tie_or_rubicon", "Brisques count only to break a tie or to escape the rubicon."),
    M("lang_name_en", "English"),
    M("lang_name_ru", "Русский"),
    M("other_languages", "Other languages"),
    M("rules_title", "Rules: {title}"),
    M("rules_profile", "Profile"),
    M("rules_deal", "The deal"),
    M("rules_play", "Play"),
    M("rules_melds", "Combinations"),
    M(
        "rules_melds_intro",
        "A combination is declared by laying its cards face up on the table after winning a trick. {reuse}",
    ),
    M(
        "rules_reuse",
        "A new declaration needs at least one card not yet scored in its group (the last column: marriages and "
        "sequences, beziques, four of a kind); a card may serve again in a combination of another group.",
    ),
    # The re-use groups of the meld tables (a profile's ``class``: M, B, F, C, S), in words.
    M("group_M", "marriages and sequences"),
    M("group_B", "beziques"),
    M("group_F", "four of a kind"),
    M("group_C", "carte blanche"),
    M("group_S", "trump sevens"),
    M("rules_other_points", "Other points"),
    M("rules_options", "House rules (options)"),
    M("rules_options_intro", "A record sets them in its options header; the value in bold is the default."),
    M("rules_ranks", "Card order"),
    M(
        "rules_ranks_intro",
        "From the highest to the lowest in every suit; the Russian books write the court cards with their own letters.",
    ),
    M("rules_suits", "Suits"),
    M("col_cards", "Cards"),
    M("col_points", "Points"),
    M("col_russian", "Russian (sources)"),
    M("col_group", "Group"),
    M("col_english", "English"),
    M("col_meaning", "Meaning"),
    M("col_where", "Where in the sources"),
    M("col_rank", "Rank"),
    M("col_letter", "Letter"),
    M("col_option", "Option"),
    M("col_values", "Values"),
    M("col_what", "What it does"),
    M("option_int", "a whole number"),
    M("fact_deck", "{packs} of {cards}: {deck} in play."),
    P("n_packs", "{n} pack", "{n} packs"),
    P("n_cards", "{n} card", "{n} cards"),
    P("n_tricks", "{n} trick", "{n} tricks"),
    P("n_deals", "{n} deal", "{n} deals"),
    M("fact_hand", "Each player is dealt {cards}, in packets of {packets}."),
    M("fact_stock", "The other {cards} are the stock."),
    M("fact_turnup", "Its top card is turned up beside it: its suit is trumps, and it is the last card drawn."),
    M("fact_tricks", "{tricks} are played while the stock lasts, then the last {p2} from the hands."),
    M(
        "rule_first_leader_non_dealer",
        "The dealer's opponent leads to the first trick; then the winner of each trick leads.",
    ),
    M(
        "rule_first_leader_dealer_left",
        "The player on the dealer's left leads to the first trick; then the winner of each trick leads.",
    ),
    M(
        "rule_draw_order_leader_first",
        "After each trick the players draw from the stock in turn, the leader of the trick first.",
    ),
    M("rule_phase1_play_follow_suit", "While the stock lasts a player must follow suit if he can."),
    M(
        "rule_phase2_play_follow_trump",
        "In the last tricks a player must follow suit if he can, and trump if he is void in the suit led.",
    ),
    M("rule_draw_order_winner_first", "After each trick the winner draws the top card of the stock, then the loser."),
    M(
        "rule_draw_order_winner_first_many",
        "After each trick the winner draws the top card of the stock, then the others in playing order.",
    ),
    M(
        "rule_first_leader_dealer_right",
        "The player on the dealer's right leads to the first trick; then the winner of each trick leads.",
    ),
    M("rule_sides", "Two against two ({sides}): partners sit opposite and keep one score."),
    M(
        "rule_declare_by_winner_or_partner",
        "After winning a trick a player declares himself or lets his partner declare instead.",
    ),
    M("rule_declare_joint", "A combination may be formed from a player's and his partner's cards together."),
    M("rule_last_trick_halves", "The last trick's points are shared out evenly between the sides."),
    M(
        "rule_phase1_play_free",
        "While the stock lasts any card may be played: there is no need to follow suit, trump or win.",
    ),
    M(
        "rule_phase2_play_follow_win_trump",
        "In the last tricks a player must follow suit and win the trick if he can; void in the suit led, he must "
        "trump if he can.",
    ),
    M(
        "rule_phase2_play_follow_win_overtrump",
        "In the last tricks a player must follow suit and win the trick if he can; void in the suit led, he must win "
        "it by trumping if he can, and may otherwise play any card.",
    ),
    M("rule_phase2_play_follow", "In the last tricks a player must follow suit if he can."),
    M(
        "rule_declare_after_won_trick",
        "Only the player who has just won a trick may declare, and only before he draws.",
    ),
    M("rule_declare_phase_1", "Declarations end with the stock: none are made in the last tricks."),
    M("rule_lead_from", "A player who declares must lead one of the declared cards to the next trick."),
    M("rule_card_exchange", "The trump {rank} may be exchanged for the turn-up after a won trick: {n}."),
    M(
        "rule_hand_target",
        "The first player to reach {n} points ends the hand at once (the record says 'goes out'). His game "
        "points: {rows}. The game is played to {target} game points.",
    ),
    M("rule_game_row", "{points} if the loser has at least {lowest}"),
    M("rule_table_playable", "Declared cards lie face up on the table and may still be played to tricks."),
    M("rule_fallback", "{what}: {value}"),
    M("rule_seven_turnup", "A seven turned up: the dealer scores {n}."),
    M("rule_seven_exchange", "The seven of trumps may be exchanged for the turn-up after a won trick: {n}."),
    M(
        "rule_seven_played",
        "Playing the seven of trumps to a trick while the stock lasts: {n}, whether it wins or not.",
    ),
    M("rule_seven_played_win", "Winning a trick with the seven of trumps while the stock lasts: {n}."),
    M("rule_last_trick", "The last trick: {n} (which trick it is, is the option last_trick)."),
    M("rule_brisques", "Brisques: every {ranks} in the tricks a player has won scores {n} at the end of the deal."),
    M("pattern_trump", "of trumps (shown with ♣ as trumps)"),
    M("pattern_plain", "of one suit that is not trumps"),
    M("pattern_any", "of one suit"),
    M("pattern_kind", "of any suits"),
    M("pattern_cards", "exactly these cards"),
    M("pattern_partner", "of trumps and of the other suit of the same colour (shown with clubs trumps)"),
    M("pattern_distinct", "of four different suits"),
    M("glossary_title", "Glossary"),
    M(
        "glossary_intro",
        "The words of these lessons beside the words of the Russian card books they are transcribed from, with "
        "where the books use them.",
    ),
    M("glossary_melds", "Combinations"),
    M("glossary_game", "The game"),
    M("glossary_cards", "Cards and suits"),
    M("index_languages", "This site in"),
    P("lesson_questions", "{n} question to answer", "{n} questions to answer"),
    M("intro_more", "Read on"),
    M("meldname_trump_quint", "trump quint"),
    M("meld_trump_quint", "the trump quint"),
    M("meld_four_trump_queens", "four trump queens"),
    M("meld_five_trump_queens", "the fifth trump queen"),
    M("meldname_six_trump_queens", "sixth trump queen"),
    M("meld_six_trump_queens", "the sixth trump queen"),
    M("meldname_seven_trump_queens", "seventh trump queen"),
    M("meld_seven_trump_queens", "the seventh trump queen"),
    M("meldname_eight_trump_queens", "eighth trump queen"),
    M("meld_eight_trump_queens", "the eighth trump queen"),
    M("meld_four_trump_kings", "four trump kings"),
    M("meld_five_trump_kings", "the fifth trump king"),
    M("meldname_six_trump_kings", "sixth trump king"),
    M("meld_six_trump_kings", "the sixth trump king"),
    M("meldname_seven_trump_kings", "seventh trump king"),
    M("meld_seven_trump_kings", "the seventh trump king"),
    M("meldname_eight_trump_kings", "eighth trump king"),
    M("meld_eight_trump_kings", "the eighth trump king"),
    M("meld_four_trump_aces", "four trump aces"),
    M("meld_five_trump_aces", "the fifth trump ace"),
    M("meldname_six_trump_aces", "sixth trump ace"),
    M("meld_six_trump_aces", "the sixth trump ace"),
    M("meldname_seven_trump_aces", "seventh trump ace"),
    M("meld_seven_trump_aces", "the seventh trump ace"),
    M("meldname_eight_trump_aces", "eighth trump ace"),
    M("meld_eight_trump_aces", "the eighth trump ace"),
    M("meld_four_trump_jacks", "four trump jacks"),
    M("meld_five_trump_jacks", "the fifth trump jack"),
    M("meldname_six_trump_jacks", "sixth trump jack"),
    M("meld_six_trump_jacks", "the sixth trump jack"),
    M("meldname_seven_trump_jacks", "seventh trump jack"),
    M("meld_seven_trump_jacks", "the seventh trump jack"),
    M("meldname_eight_trump_jacks", "eighth trump jack"),
    M("meld_eight_trump_jacks", "the eighth trump jack"),
    M("meldname_four_bezique_jacks", "four bezique jacks"),
    M("meld_four_bezique_jacks", "four bezique jacks"),
    M("meldname_five_bezique_jacks", "fifth bezique jack"),
    M("meld_five_bezique_jacks", "the fifth bezique jack"),
    M("meldname_six_bezique_jacks", "sixth bezique jack"),
    M("meld_six_bezique_jacks", "the sixth bezique jack"),
    M("meldname_seven_bezique_jacks", "seventh bezique jack"),
    M("meld_seven_bezique_jacks", "the seventh bezique jack"),
    M("meldname_eight_bezique_jacks", "eighth bezique jack"),
    M("meld_eight_bezique_jacks", "the eighth bezique jack"),
    M("meld_four_trump_tens", "four trump tens"),
    M("meld_five_trump_tens", "the fifth trump ten"),
    M("meldname_six_trump_tens", "sixth trump ten"),
    M("meld_six_trump_tens", "the sixth trump ten"),
    M("meldname_seven_trump_tens", "seventh trump ten"),
    M("meld_seven_trump_tens", "the seventh trump ten"),
    M("meldname_eight_trump_tens", "eighth trump ten"),
    M("meld_eight_trump_tens", "the eighth trump ten"),
    M("gloss_pack", "one pack of 32 cards; bezique shuffles two together"),
    M("gloss_stock", "the face-down cards drawn from after each trick while they last"),
    M("gloss_turn-up", "the card turned face up beside the stock: its suit is trumps, and it is drawn last"),
    M("gloss_trumps", "the suit that beats every other suit"),
    M("gloss_plain-suit", "a suit that is not trumps"),
    M("gloss_deal", "one hand dealt and played out"),
    M("gloss_dealer", "the player who deals; the other leads to the first trick"),
    M("gloss_trick", "one card from each player; the highest trump, or the highest card of the suit led, wins"),
    M("gloss_lead", "to play the first card of a trick"),
    M("gloss_follow", "to play a card of the suit led (required only in the last tricks)"),
    M("gloss_to-trump", "to win a trick of another suit with a trump"),
    M("gloss_declaration", "laying a combination face up on the table after winning a trick, to score it"),
    M("gloss_table-cards", "declared cards: they lie face up and may still be played"),
    M("gloss_seven", "exchanged for the turn-up, or played while the stock lasts, it scores 10"),
    M("gloss_brisque", "an ace or a ten won in a trick: 10 at the end of the deal"),
    M("gloss_last-trick", "the trick that earns a bonus of 10 (which one: a house rule)"),
    M("gloss_last-tricks", "played from the hands once the stock is exhausted: follow suit, win if you can"),
    M("gloss_points", "the unit of the score"),
    M("fallback_en", "shown in English: no translation yet"),
    M("fallback_ru", "shown in Russian: no translation yet"),
    M("fallback_tag_en", "EN"),
    M("fallback_tag_ru", "RU"),
    M("notes_title", "Transcriber's notes"),
    M("note_label", "Transcriber's note"),
    M(
        "notes_intro",
        "The transcriber's own reasoning (choices, reconstructions, sources), kept apart from the book's commentary.",
    ),
    M("text_original", "The commentary is the record's original text."),
    M("text_translated_from_ru", "The commentary is translated from Russian; the original is on the Russian page."),
    M("text_translated_from_en", "The commentary is translated from English; the original is on the English page."),
    M("language_en", "English"),
    M("language_ru", "Russian"),
    M("quiz_better", "The record plays {card}; {answers} is the better play."),
    M("quiz_better_tag", "Better play"),
    M("film_quiz", "Answer the question first: the film goes on after it."),
    M("legend_title", "Key"),
    M("legend_scored", "points scored"),
    M("legend_noted", "commentary"),
    M("legend_quiz", "a question"),
    M("legend_phase_2", "the last tricks"),
    M("legend_current", "the step on show"),
    M("index_published", "Published games"),
    M("index_published_intro", "Deals printed in the source books, transcribed and checked."),
    M("index_constructed", "Constructed games"),
    M("index_constructed_intro", "Deals made for this project to show each set of rules in play; not published games."),
    M("badge_published", "published"),
    M("badge_constructed", "constructed"),
    M("rules_menu", "Rules"),
    M("rules_menu_hint", "The rules of every variant"),
    M("score_card_points", "{seat} takes the cards' points"),
    M("meldname_two_trump_sevens", "two trump sevens"),
    M("meld_two_trump_sevens", "the two trump sevens"),
    M("meld_plain_sequence", "a plain sequence"),
    M("score_penalty", "{seat} pays a penalty: {penalty}"),
    M("penalty_declared_before_trick", "declaring before winning a trick"),
    M("penalty_revoke_last_eight", "not following suit or trumping in the last eight tricks"),
    M("penalty_played_before_drawing", "playing before drawing after a trick"),
    M("penalty_extra_card", "taking an extra card from the stock"),
    M("penalty_nine_cards", "playing on with nine cards"),
    M(
        "penalty_revoke_last_eight_adapted",
        "not following suit or trumping in the last {n} tricks (the source's eight, read for {n}-card hands: inferred)",
    ),
    M(
        "penalty_played_before_drawing_adapted",
        "playing before drawing back to {n} cards after a trick (the source's eighth card, read for {n}-card hands: "
        "inferred)",
    ),
    M(
        "penalty_nine_cards_adapted",
        "playing on with {more} cards (the source's nine, one over an 8-card hand, read for {n}-card hands: inferred)",
    ),
    M("penalty_false_declaration", "declaring a combination not held"),
    M("penalty_all", "all the offender's points"),
    M("rules_penalties", "Penalties"),
    M(
        "rules_penalties_intro",
        "A record states a penalty the players applied (penalty); its points are deducted from the offender's score.",
    ),
    # The sources as a learner knows them (replayer/lesson/citations.py): each source text's title, a description,
    # and the words of a citation; the sources page lists the lines the pages cite.
    M("source_000_name", "the book with the worked deal"),
    M(
        "source_000_about",
        "A Russian chapter on bezique, translated from an English book of card games: the two-handed game with a "
        "whole deal between North and South played and explained card by card (the deal of these lessons), then "
        "Rubicon, three- and four-handed, six-pack (“Chinese”) and eight-pack bezique.",
    ),
    M("source_001_name", "the Ukrainian rules"),
    M(
        "source_001_about",
        "A Ukrainian page of rules: the two-handed game with extra combinations and a list of penalties, then the "
        "games for three and four, without trumps, Rubicon, six and eight packs.",
    ),
    M("source_002_name", "the 19th-century Russian rules"),
    M(
        "source_002_about",
        "Russian rules of the 19th century, kept on a web page of card games: the cards' points, the combinations "
        "and the penalties.",
    ),
    M("source_003_name", "the sixty-six rules"),
    M("source_003_about", "A Russian text on simple bezique, or sixty-six, played with one 24-card pack."),
    M("source_004_name", "the Russian collection of articles"),
    M(
        "source_004_about",
        "Five Russian texts on bezique put together in one file: short rules (part A), an encyclopaedia-style "
        "article (part B), the many-pack game with the wild card “инфузорка” (part C), a translation of an English "
        "encyclopaedia article (part D) and a chapter of an old Russian manual (part E).",
    ),
    M("source_004A_name", "the short rules of the Russian collection"),
    M("source_004B_name", "the encyclopaedia-style article of the Russian collection"),
    M("source_004C_name", "the wild-card game of the Russian collection"),
    M("source_004D_name", "the translated article of the Russian collection"),
    M("source_004E_name", "the old manual of the Russian collection"),
    # The pages in English the project's notes use where the sources are silent, as a citation names them.
    M("source_tag_EW", "an old English household book (Enquire Within)"),
    M("source_tag_PW", "the English original of the book with the worked deal"),
    M("source_tag_FO", "Foster's Complete Hoyle"),
    M("source_tag_HO", "Hoffmann's Hoyle's Games Modernized"),
    M("source_tag_BI", "the Bicycle playing-card rules"),
    M("source_tag_CM", "an English games guide on the web"),
    M("source_tag_SP", "an 1887 review in The Spectator"),
    M("source_tag_WK", "an English rules page on Rubicon bezique"),
    M("source_tag_WT", "Wiktionary"),
    M("source_tag_CH", "Chambers's Encyclopaedia"),
    M("source_tag_BR", "the Encyclopaedia Britannica, 9th edition"),
    M("source_tag_SA", "the standard rules of sixty-six (santase)"),
    M("source_tag_DE", "a German encyclopaedia of 1895 (Meyers)"),
    P("cite_lines", "{source}, line {lines}", "{source}, lines {lines}"),
    M("cite_source_title", "{source}: what the source is"),
    M("cite_rules", "the rules of {title}"),
    M("cite_rules_part", "{rules}: {part}"),
    M("cite_digest", "the project's notes on the sources"),
    M("cite_record", "“{title}”"),
    M("cite_and", "{first} and {last}"),
    M("sources", "Sources"),
    M("sources_title", "The sources of these lessons"),
    M(
        "sources_intro",
        "The rules and the worked deal come from five texts in Russian and Ukrainian. Each is named here as the "
        "pages name it, with what it is; under it, the lines of the text that the pages cite (the text's own line "
        "numbers, counted from its first line), so that a reader with the text can check each rule.",
    ),
    M("sources_cited", "Lines cited"),
    M("sources_none", "No line of this text is cited on these pages."),
    P("sources_line", "line {lines}", "lines {lines}"),
    # The endgame analysis (replayer/analysis.py) under the cards of the last tricks.
    M("dd_best", "best"),
    M(
        "dd_value_title",
        "What the program works out this card is worth: best, or how many points less than the best card it scores, "
        "with the best play afterwards",
    ),
    M(
        "dd_note",
        "Under each card of the last tricks, what it is worth, worked out by the program with both sides playing their "
        "best afterwards: “best” is one of the best cards, “−20” scores 20 points less than the best card.",
    ),
    M(
        "dd_note_double",
        "Under each card of the last tricks, what it is worth, worked out by the program as if every hand lay face up "
        "(each side playing for its own points): “best” is one of the best cards, “−20” scores 20 points less than "
        "the best card.",
    ),
    M("dd_best_line", "{seat} loses {cost} here: the best line plays {card} ({points} from here)"),
    M("dd_lost", "Points lost in the last tricks against the best play: {points}"),
    M("sideline", "Side line"),
    # The sampled analysis of every play (a record's sidecar, replayer/lesson/sidecar.py; docs/analysis.md).
    M("value_best", "best"),
    M("value_best_exact", "best (exact)"),
    M("value_cost", "cost {cost} ± {err}"),
    M("value_cost_exact", "cost {cost} (exact)"),
    M(
        "value_sampled_title",
        "What the analysis finds this card costs against the best card, in points of the difference between the "
        "sides from here to the end of the deal: the mean over the sampled deals, ± its standard error (exact where "
        "every card is known)",
    ),
    P("sure_sampled", "sampled over {n} deal, ± one standard error", "sampled over {n} deals, ± one standard error"),
    M("sure_exact", "exact: every card is known"),
    M(
        "mistake_why",
        "Mistake: {seat}'s {card} costs {cost} ± {err}; {best} was better. With {best}, {own} could expect {own_best} "
        "points from here and {other} {other_best}; with {card}, {own_played} and {other_played} ({sure}).",
    ),
    M("judged_book", "The book: “{says}”. {verdict}: {found}"),
    M("verdict_agree", "The analysis agrees"),
    M("verdict_partly", "The analysis agrees in part"),
    M("verdict_disagree", "The analysis disagrees"),
    M("verdict_unsettled", "The analysis cannot tell"),
    M("judged_agrees", "{card} is the best card it finds ({sure})."),
    M("judged_disagrees", "it finds {best} better than {card}, by {cost} ± {err} ({sure})."),
    M(
        "judged_unsettled",
        "it puts {best} first and {card} {cost} ± {err} behind, within the noise ({sure}).",
    ),
    M("judged_against_confirmed", "It confirms that {other} is worse than {card}, by {diff} ± {err}."),
    M(
        "judged_against_refuted",
        "It finds {other} better than {card}, by {diff} ± {err}: there it contradicts the book.",
    ),
    M(
        "judged_against_unsettled",
        "Between {card} and {other} it finds no clear difference ({ahead} ahead by {diff} ± {err}).",
    ),
    M(
        "sampled_note",
        "Under each card, what the analysis finds it costs against the best card the player had: the points of the "
        "difference between the sides from that play to the end of the deal, averaged over {samples} deals drawn at "
        "random among those the player could not tell apart, ± the standard error (exact once every card is known). "
        "A play is marked a mistake when it costs at least 10 points and at least twice its error.",
    ),
    M("judged_trumps", "a trump lead ({card}, the best of them)"),
    # The puzzle page of bezique puzzles (replayer/puzzles.py, site_templates/puzzles.html).
    M("puzzle_title", "Bezique puzzles"),
    M(
        "puzzle_intro",
        "Each position comes from the last tricks of a game: exactly one card is best, and every other card the "
        "player may play scores at least {margin} points less, both sides playing their best afterwards (worked out "
        "by the program).",
    ),
    M(
        "puzzle_open_hands",
        "In games of three or four seats the values are worked out as if every hand lay face up, each side playing "
        "for its own points.",
    ),
    M("puzzle_none", "No position met the test: no puzzle was written."),
    M("puzzle_heading", "Puzzle {n}: {seat} to play"),
    M(
        "puzzle_meta",
        "{profile} · trumps: {trumps} · {source}, game {game}, deal {deal}, trick {trick} · score {scores}",
    ),
    M("puzzle_no_trumps", "none"),
    M("puzzle_record", "the record"),
    M("puzzle_open", "values as if every hand lay face up"),
    M("puzzle_house", "Rules of this game: {rules}."),
    M("puzzle_last_trick", "the last trick, trick {n}, scores {points}"),
    M("puzzle_on_table", "On the table, trick {n}:"),
    M("puzzle_question", "Which card should {seat} play?"),
    M("puzzle_right", "Right: {card} is the best card"),
    M("puzzle_loses", "{card} loses {n}"),
    M("puzzle_from_here", "from here"),
    M("puzzle_refutation", "the refutation"),
    M("puzzle_answers", "Answer and refutations"),
    M("puzzle_best_line", "The best line:"),
    M("puzzle_keys", "Keys: ← → the previous and next puzzle, Home and End the first and last, 1 to 9 a card."),
)


class Words(dict[str, str]):
    """The interface words of one language: ``words[key]`` for a message, :meth:`count` for one that agrees with a
    number (its forms are in :attr:`forms`, the language's plural rule in :meth:`plural`)."""

    def __init__(
        self, lang: str, texts: dict[str, str], forms: dict[str, tuple[str, ...]], rule: Callable[[int], int]
    ) -> None:
        super().__init__(texts)
        self.lang = lang
        self.forms = forms
        """Each plural message's forms, in the catalogue's order."""
        self._rule = rule

    def plural(self, n: int) -> int:
        """The index of the form that agrees with ``n``."""
        return min(self._rule(n), len(next(iter(self.forms.values()), ("",))) - 1)

    def count(self, key: str, n: int, **values: object) -> str:
        """The plural message ``key`` in the form that agrees with ``n``, with ``{n}`` and ``values`` filled in."""
        return self.forms[key][self.plural(n)].format(n=n, **values)

    def plural_table(self, limit: int) -> str:
        """The form of every number from 0 to ``limit - 1`` as one digit each: how a page's script, which does not
        know the language's rule, picks a form."""
        return "".join(str(self.plural(n)) for n in range(limit))


def _catalogue(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)


def _english_rule(n: int) -> int:
    return 0 if n == 1 else 1


@functools.cache
def interface(lang: str) -> Words:
    """The interface words of a language; raises ``ValueError`` for a language the site is not written in."""
    if lang not in LANGUAGES:
        raise ValueError(f"no interface language {lang!r} (choose one of {', '.join(LANGUAGES)})")
    catalogue = _catalogue(lang)
    texts: dict[str, str] = {}
    forms: dict[str, tuple[str, ...]] = {}
    if isinstance(catalogue, gettext.GNUTranslations):
        rule: Callable[[int], int] = catalogue.plural  # type: ignore[attr-defined]
    else:
        rule = _english_rule
    # One number for each form, the smallest that takes it: the forms are asked for through them.
    examples: dict[int, int] = {}
    for n in range(200):
        examples.setdefault(rule(n), n)
    for key, text, plural in MESSAGES:
        if plural is None:
            texts[key] = catalogue.pgettext(key, text)
        else:
            forms[key] = tuple(catalogue.npgettext(key, text, plural, examples[i]) for i in sorted(examples))
    return Words(lang, texts, forms, rule)


def profile_text(lang: str, profile: str, field: str, english: str) -> str:
    """A profile's text (``title``, ``description``, ``source``, ``option NAME``) in ``lang``: the catalogue's
    translation of the YAML's English text, or that text itself while it has none (a text edited in the YAML is
    untranslated until the catalogue is updated, see ``python -m replayer.lesson.catalogue``)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no interface language {lang!r}")
    return _catalogue_of(lang).pgettext(f"profile {profile} {field}", english) if english else english


@functools.cache
def _catalogue_of(lang: str) -> gettext.NullTranslations:
    return _catalogue(lang)
