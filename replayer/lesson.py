"""View-models for the HTML pages: lessons, rules pages and the glossary, with every text already formatted.

Nothing here knows about HTML or Jinja (``replayer/render.py`` does the writing): a :class:`Lesson` holds strings,
numbers and :class:`CardView` values that a template only has to lay out. The interface wording of both languages
lives in :data:`STRINGS`, the sources' Russian terms in :data:`MELD_TERMS` and the glossary tables; the record's own
words (titles, commentary, questions) are passed through unchanged.

Besides what the record says, each step shows the bookkeeping a player keeps at the table: the cards a seat has
not seen yet, and which combinations are still possible for whom. The page's script works it out from the boards and
the scoring a lesson's data carries; :class:`_Knowledge` and :meth:`_Builder.book` are the same bookkeeping in
Python, made on request (``build_lesson(..., books=True)``), which the tests hold the script's to.
"""

from __future__ import annotations

import functools
import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup, escape

from .cards import Card, Rank, Suit
from .explain import Scoring
from .profile import MeldSpec, RuleProfile
from .record import Comment
from .replay import DealResult, GameResult, Snapshot, TrickResult

__all__ = [
    "GLOSSARY_PAGE",
    "LANGUAGES",
    "MELD_TERMS",
    "STRINGS",
    "Board",
    "Book",
    "CardView",
    "DealView",
    "GlossaryEntry",
    "GlossaryView",
    "Lesson",
    "MeldRule",
    "PlayView",
    "QuestionView",
    "RulesView",
    "ScoreView",
    "ScoringView",
    "SeatView",
    "SheetRow",
    "SourceItem",
    "Step",
    "TargetView",
    "TextView",
    "build_glossary",
    "build_lesson",
    "build_rules",
    "card_view",
    "interface",
    "plural",
    "rules_slug",
    "text_lang",
]

# Every interface string of the site, English and Russian side by side, so that a translator edits one place.
# Keys ending in _one/_few/_many are plural forms (see plural()); English uses the same word for few and many.
STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "site_title": "Bezique lessons",
        "index_intro": "Annotated bezique games, replayed and checked card by card.",
        "no_games": "No games were rendered.",
        "open_lesson": "Open the lesson",
        "back_to_index": "All lessons",
        "rules": "Rules",
        "players": "Players",
        "result": "Result",
        "source": "Source",
        "options": "House rules",
        "steps": "Steps",
        "introduction": "Introduction",
        "prev": "Previous",
        "next": "Next",
        "top": "Top",
        "keys_hint": (
            "Keys: ← and → step back and forth, Home and End go to the first and last step, C to the next comment."
        ),
        "seat_N": "North",
        "seat_S": "South",
        "seat_E": "East",
        "seat_W": "West",
        "deal_title": "Deal {n}",
        "deal_start": "The deal",
        "deal_end": "End of deal {n}",
        "trick_title": "Trick {n}",
        "inferred_forced": "not in the record; the only card the rules allow",
        "inferred_open": "not in the record; chosen, it could also be {cards}",
        "inferred_chosen": "not in the record; chosen",
        "dealer": "Dealer",
        "leads": "{seat} leads",
        "dealer_leader": "{dealer} deals, {leader} leads.",
        "trumps": "Trumps",
        "hand": "Hand",
        "hand_dealt": "Dealt",
        "on_table": "On the table",
        "nothing": "—",
        "trick": "The trick",
        "wins_trick": "{seat} wins the trick",
        "no_winner": "no winner recorded",
        "scoring": "Scores",
        "no_scoring": "No points scored.",
        "draws": "Draws",
        "stock": "Stock",
        "stock_left": "{n} {cards} left, turn-up included",
        "stock_empty": "The stock is exhausted.",
        "turnup": "Turn-up",
        "turnup_taken": "The turn-up has been drawn.",
        "card_one": "card",
        "card_few": "cards",
        "card_many": "cards",
        "score_after": "Score after the trick",
        "score_start": "Score",
        "commentary": "Commentary",
        "question_for": "Question for {seat}",
        "answer": "Answer",
        "show_answer": "Show the answer",
        "phase_1": "While the stock lasts: any card may be played.",
        "phase_2": "The last {n} tricks: follow suit and win the trick if you can; trump if void.",
        "phase_2_short": "End play",
        "brisques": "Brisques",
        "deal_result": "Deal result",
        "game_total": "Game total",
        "game_points_total": "Game points (total)",
        "score_sheet": "Score sheet",
        "sheet_step": "Step",
        "sheet_winner": "Won by",
        "sheet_events": "Points",
        "wins_game": "{seat} wins",
        "wins_game_score": "{seat} wins; game score {scores}",
        "undecided": "No winner yet (the game is played to {target})",
        "undecided_no_target": "No winner",
        "deal_one": "deal",
        "deal_few": "deals",
        "deal_many": "deals",
        "trick_one": "trick",
        "trick_few": "tricks",
        "trick_many": "tricks",
        "card_label": "{rank} of {suit}",
        "suit_of_S": "spades",
        "suit_of_H": "hearts",
        "suit_of_D": "diamonds",
        "suit_of_C": "clubs",
        "rank_A": "ace",
        "rank_10": "ten",
        "rank_K": "king",
        "rank_Q": "queen",
        "rank_J": "jack",
        "rank_9": "nine",
        "rank_*": "wild card",
        "rank_8": "eight",
        "rank_7": "seven",
        "symbol_A": "A",
        "symbol_10": "10",
        "symbol_K": "K",
        "symbol_Q": "Q",
        "symbol_J": "J",
        "header_source": "Source",
        "header_url": "Link",
        "header_page": "Page",
        "header_date": "Date",
        "header_event": "Event",
        "header_site": "Place",
        "header_annotator": "Annotator",
        "header_translator": "Translator",
        "header_note": "Note",
        "header_language": "Language",
        "header_round": "Round",
        "score_declares": "{seat} declares {meld}",
        "score_seven_exchange": "{seat} exchanges the seven of trumps for the turn-up",
        "score_card_exchange": "{seat} exchanges the trump {rank} for the turn-up",
        "score_goes_out": "{seat} has reached {n}: the hand ends",
        "score_seven_played": "{seat} plays the seven of trumps",
        "score_turnup_seven": "{seat}, the dealer, turns up a seven",
        "score_last_trick": "{seat} wins the last trick",
        "score_brisques": "{seat} counts brisques",
        "score_other": "{seat} scores {kind}",
        "meld_sequence": "the sequence",
        "meld_royal_marriage": "the royal marriage",
        "meld_marriage": "a marriage",
        "meld_bezique": "bezique",
        "meld_double_bezique": "double bezique",
        "meld_four_aces": "four aces",
        "meld_four_kings": "four kings",
        "meld_four_queens": "four queens",
        "meld_four_jacks": "four jacks",
        "generated_by": "Made with the bezique replayer.",
        "nav_lessons": "Lessons",
        "nav_glossary": "Glossary",
        "nav_first": "First step",
        "nav_last": "Last step",
        "nav_comment": "Next comment",
        "nav_comment_prev": "Previous comment",
        "nav_play": "Play",
        "nav_pause": "Pause",
        "nav_play_hint": "Play the deal as a film, one step every few seconds",
        "step_of": "Step {n} of {total}",
        "permalink": "Link to this step",
        "view": "View",
        "view_all": "All hands",
        "view_all_hint": "Show every hand",
        "view_only": "Show only {seat_gen} hand; the others are hidden",
        "four_colour": "Four-colour suits",
        "needs_script": (
            "The table before each trick and each seat's bookkeeping are drawn by the page's script; without it the "
            "page shows the hands dealt and every trick, draw, declaration and score."
        ),
        "hidden_cards": "{n} hidden {cards}",
        "before_trick": "Before the trick",
        "score_before": "Score before the trick",
        "turnup_and_stock": "Turn-up and stock",
        "rule_link": "rule",
        "rule_link_title": "The rule that scores it",
        "outcome": "The trick and its consequences",
        "sheet_so_far": "Score sheet so far",
        "sheet_empty": "Nothing scored yet.",
        "quiz_choose": "Choose the card {seat} plays.",
        "quiz_right": "Right: {card}.",
        "quiz_wrong": "Not {card}: try again.",
        "quiz_revealed": "The record plays {card}.",
        "quiz_open": "Think it over, then show the answer.",
        "quiz_hidden": "The rest of the trick is hidden until you answer.",
        "quiz_accepted": "Accepted",
        "book_title": "{seat_gen} bookkeeping",
        "unseen_title": "Cards {seat} has not seen",
        "unseen_text": "{n} unknown {cards}: {stock} in the stock, {hands} in other hands.",
        "unseen_count": "{card}: {n} not seen",
        "known_in_hand": "Known to be in {seat_gen} hand:",
        "melds_title": "Combinations: what is still possible",
        "meld_col": "Combination",
        "meld_possible": "possible",
        "meld_ready": "held",
        "meld_impossible": "impossible",
        "meld_scored": "scored at trick {n}",
        "meld_needs": "needs {cards}",
        "meld_has": "holds {k} of {n}",
        "news_impossible": "{reason}: {meld} is impossible for {seat}.",
        "seen_all_2": "both {card} seen",
        "seen_all": "all {n} {card} seen",
        "seen_only": "{card} seen",
        "seen_some": "{k} of the {n} {card} seen",
        "kind_left": "only {n} {rank_pl} left",
        "no_declarations": "No more declarations: the stock is exhausted.",
        "draws_left": "{k} more {cards} needed, {d} {draws} left",
        "draw_one": "draw",
        "draw_few": "draws",
        "draw_many": "draws",
        "news_meld_form": "meldname",
        "questions_one": "question",
        "questions_few": "questions",
        "questions_many": "questions",
        "pack_one": "pack",
        "pack_few": "packs",
        "pack_many": "packs",
        "seat_gen_N": "North's",
        "seat_gen_S": "South's",
        "seat_gen_E": "East's",
        "seat_gen_W": "West's",
        "rank_pl_A": "aces",
        "rank_pl_10": "tens",
        "rank_pl_K": "kings",
        "rank_pl_Q": "queens",
        "rank_pl_J": "jacks",
        "rank_pl_9": "nines",
        "rank_pl_8": "eights",
        "rank_pl_7": "sevens",
        "meldname_sequence": "sequence",
        "meldname_four_aces": "four aces",
        "meldname_four_kings": "four kings",
        "meldname_four_queens": "four queens",
        "meldname_four_jacks": "four jacks",
        "meldname_royal_marriage": "royal marriage",
        "meldname_marriage": "common marriage",
        "meldname_bezique": "bezique",
        "meldname_double_bezique": "double bezique",
        "meldname_carte_blanche": "carte blanche",
        "meldname_plain_sequence": "plain sequence",
        "meldname_triple_bezique": "triple bezique",
        "meldname_quadruple_bezique": "quadruple bezique",
        "meldname_quintuple_bezique": "quintuple bezique",
        "meldname_sextuple_bezique": "sextuple bezique",
        "meldname_four_tens": "four tens",
        "meldname_double_carte_blanche": "double carte blanche",
        "meldname_four_trump_aces": "four trump aces",
        "meldname_four_trump_tens": "four trump tens",
        "meldname_four_trump_kings": "four trump kings",
        "meldname_four_trump_queens": "four trump queens",
        "meldname_four_trump_jacks": "four trump jacks",
        "meldname_five_trump_aces": "five trump aces",
        "meldname_five_trump_tens": "five trump tens",
        "meldname_five_trump_kings": "five trump kings",
        "meldname_five_trump_queens": "five trump queens",
        "meldname_five_trump_jacks": "five trump jacks",
        "meldname_double_marriage": "double marriage",
        "meldname_double_royal_marriage": "double royal marriage",
        "score_cut_guess": "{seat} guessed exactly how many cards the dealer lifted",
        "score_cut_lift": "{seat}, the dealer, lifted exactly the cards of the two hands",
        "pattern_hand": "a whole hand without a king, queen or jack; again for each such card drawn",
        "pattern_side_hand": "both partners dealt no king, queen or jack; once for the side, before the first trick",
        "pattern_when_trump": "{cards} when {suits} are trumps",
        "fact_no_turnup": (
            "No card is turned up: the first {melds} declared fixes trumps. Until then the highest card of the suit "
            "led wins."
        ),
        "rule_cut": (
            "Before the deal the dealer lifts some cards: {guess} to the other player for guessing how many, {lift} "
            "to the dealer for lifting exactly {count}."
        ),
        "rule_game_one_hand": (
            "One hand is a game. The winner scores {bonus}{difference}; a loser below {rubicon} is rubiconed: the "
            "winner adds both scores and {rubicon_bonus}{low}."
        ),
        "rule_game_difference": " and the difference",
        "rule_game_own": " added to his score",
        "rule_game_low": " ({low_bonus} more when the loser scored below {low_score})",
        "rule_brisques_tie_or_rubicon": "Brisques count only to break a tie or to escape the rubicon.",
        "lang_name_en": "English",
        "lang_name_ru": "Русский",
        "other_languages": "Other languages",
        "rules_title": "Rules: {title}",
        "rules_profile": "Profile",
        "rules_deal": "The deal",
        "rules_play": "Play",
        "rules_melds": "Combinations",
        "rules_melds_intro": (
            "A combination is declared by laying its cards face up on the table after winning a trick. {reuse}"
        ),
        "rules_reuse": (
            "A new declaration needs at least one card not yet scored in its group (M, B or F); a card may serve "
            "again in a combination of another group."
        ),
        "rules_other_points": "Other points",
        "rules_options": "House rules (options)",
        "rules_options_intro": "A record sets them in its options header; the value in bold is the default.",
        "rules_options_lang": "",
        "rules_ranks": "Card order",
        "rules_ranks_intro": (
            "From the highest to the lowest in every suit; the Russian books write the court cards with their own "
            "letters."
        ),
        "rules_suits": "Suits",
        "col_cards": "Cards",
        "col_points": "Points",
        "col_russian": "Russian (sources)",
        "col_group": "Group",
        "col_english": "English",
        "col_meaning": "Meaning",
        "col_where": "Where in the sources",
        "col_rank": "Rank",
        "col_letter": "Letter",
        "col_option": "Option",
        "col_values": "Values",
        "col_what": "What it does",
        "option_int": "a whole number",
        "fact_deck": "{n} {packs} of {size} {cards}: {deck} cards in play.",
        "fact_hand": "Each player is dealt {n} {cards}, in packets of {packets}.",
        "fact_stock": "The other {n} {cards} are the stock.",
        "fact_turnup": "Its top card is turned up beside it: its suit is trumps, and it is the last card drawn.",
        "fact_tricks": "{p1} {tricks} are played while the stock lasts, then the last {p2} from the hands.",
        "rule_first_leader_non_dealer": (
            "The dealer's opponent leads to the first trick; then the winner of each trick leads."
        ),
        "rule_first_leader_dealer_left": (
            "The player on the dealer's left leads to the first trick; then the winner of each trick leads."
        ),
        "rule_draw_order_leader_first": (
            "After each trick the players draw from the stock in turn, the leader of the trick first."
        ),
        "rule_phase1_play_follow_suit": "While the stock lasts a player must follow suit if he can.",
        "rule_phase2_play_follow_trump": (
            "In the last tricks a player must follow suit if he can, and trump if he is void in the suit led."
        ),
        "rule_draw_order_winner_first": "After each trick the winner draws the top card of the stock, then the loser.",
        "rule_draw_order_winner_first_many": (
            "After each trick the winner draws the top card of the stock, then the others in playing order."
        ),
        "rule_first_leader_dealer_right": (
            "The player on the dealer's right leads to the first trick; then the winner of each trick leads."
        ),
        "rule_sides": "Two against two ({sides}): partners sit opposite and keep one score.",
        "rule_declare_by_winner_or_partner": (
            "After winning a trick a player declares himself or lets his partner declare instead."
        ),
        "rule_declare_joint": "A combination may be formed from a player's and his partner's cards together.",
        "rule_last_trick_halves": "The last trick's points are shared out evenly between the sides.",
        "rule_phase1_play_free": (
            "While the stock lasts any card may be played: there is no need to follow suit, trump or win."
        ),
        "rule_phase2_play_follow_win_trump": (
            "In the last tricks a player must follow suit and win the trick if he can; void in the suit led, he must "
            "trump if he can."
        ),
        "rule_phase2_play_follow": "In the last tricks a player must follow suit if he can.",
        "rule_declare_after_won_trick": (
            "Only the player who has just won a trick may declare, and only before he draws."
        ),
        "rule_declare_phase_1": "Declarations end with the stock: none are made in the last tricks.",
        "rule_lead_from": "A player who declares must lead one of the declared cards to the next trick.",
        "rule_card_exchange": "The trump {rank} may be exchanged for the turn-up after a won trick: {n}.",
        "rule_hand_target": (
            "The first player to reach {n} points ends the hand at once (the record says 'goes out'). His game "
            "points: {rows}. The game is played to {target} game points."
        ),
        "rule_game_row": "{points} if the loser has at least {lowest}",
        "rule_table_playable": "Declared cards lie face up on the table and may still be played to tricks.",
        "rule_fallback": "{what}: {value}",
        "rule_seven_turnup": "A seven turned up: the dealer scores {n}.",
        "rule_seven_exchange": "The seven of trumps may be exchanged for the turn-up after a won trick: {n}.",
        "rule_seven_played": (
            "Playing the seven of trumps to a trick while the stock lasts: {n}, whether it wins or not."
        ),
        "rule_seven_played_win": "Winning a trick with the seven of trumps while the stock lasts: {n}.",
        "rule_last_trick": "The last trick: {n} (which trick it is, is the option last_trick).",
        "rule_brisques": "Brisques: every {ranks} in the tricks a player has won scores {n} at the end of the deal.",
        "pattern_trump": "of trumps (shown with ♣ as trumps)",
        "pattern_plain": "of one suit that is not trumps",
        "pattern_any": "of one suit",
        "pattern_kind": "of any suits",
        "pattern_cards": "exactly these cards",
        "pattern_partner": "of trumps and of the other suit of the same colour (shown with clubs trumps)",
        "pattern_distinct": "of four different suits",
        "glossary_title": "Glossary",
        "glossary_intro": (
            "The words of these lessons beside the words of the Russian card books they are transcribed from, with "
            "where the books use them."
        ),
        "glossary_melds": "Combinations",
        "glossary_game": "The game",
        "glossary_cards": "Cards and suits",
        "index_languages": "This site in",
        "lesson_questions": "{n} {questions} to answer",
        "intro_more": "Read on",
    },
    "ru": {
        "site_title": "Уроки безика",
        "index_intro": "Партии в безик с комментариями, проверенные ход за ходом.",
        "no_games": "Нет ни одной партии.",
        "open_lesson": "Открыть урок",
        "back_to_index": "Все уроки",
        "rules": "Правила",
        "players": "Игроки",
        "result": "Итог",
        "source": "Источник",
        "options": "Договорённости",
        "steps": "Ход партии",
        "introduction": "Вступление",
        "prev": "Назад",
        "next": "Далее",
        "top": "Наверх",
        "keys_hint": (
            "Клавиши: ← и → — шаг назад и вперёд, Home и End — первый и последний шаг, C — следующий комментарий."
        ),
        "seat_N": "Север",
        "seat_S": "Юг",
        "seat_E": "Восток",
        "seat_W": "Запад",
        "deal_title": "Сдача {n}",
        "deal_start": "Раздача",
        "deal_end": "Конец сдачи {n}",
        "trick_title": "Взятка {n}",
        "inferred_forced": "нет в записи; единственная карта, которую допускают правила",
        "inferred_open": "нет в записи; выбрана, возможны также {cards}",
        "inferred_chosen": "нет в записи; выбрана",
        "dealer": "Сдаёт",
        "leads": "Ходит {seat}",
        "dealer_leader": "Сдаёт {dealer}, первым ходит {leader}.",
        "trumps": "Козыри",
        "hand": "На руке",
        "hand_dealt": "Роздано",
        "on_table": "На столе",
        "nothing": "—",
        "trick": "Взятка",
        "wins_trick": "Взятку берёт {seat}",
        "no_winner": "взявший не указан",
        "scoring": "Очки",
        "no_scoring": "Очков нет.",
        "draws": "Добор",
        "stock": "Колода",
        "stock_left": "осталось {n} {cards}, включая открытую",
        "stock_empty": "Колода кончилась.",
        "turnup": "Открытая карта",
        "turnup_taken": "Открытая карта взята.",
        "card_one": "карта",
        "card_few": "карты",
        "card_many": "карт",
        "score_after": "Счёт после взятки",
        "score_start": "Счёт",
        "commentary": "Комментарий",
        "question_for": "Вопрос: ходит {seat}",
        "answer": "Ответ",
        "show_answer": "Показать ответ",
        "phase_1": "Пока есть колода, можно ходить любой картой.",
        "phase_2": "Последние {n} взяток: надо отвечать в масть и бить, если можно; без масти — козырять.",
        "phase_2_short": "Конец игры",
        "brisques": "Бриски",
        "deal_result": "Итог сдачи",
        "game_total": "Счёт партии",
        "game_points_total": "Пункты (всего)",
        "score_sheet": "Запись счёта",
        "sheet_step": "Шаг",
        "sheet_winner": "Взял",
        "sheet_events": "Очки",
        "wins_game": "Победитель: {seat}",
        "wins_game_score": "Победитель: {seat}; счёт игры {scores}",
        "undecided": "Победитель не определён (игра до {target})",
        "undecided_no_target": "Победителя нет",
        "deal_one": "сдача",
        "deal_few": "сдачи",
        "deal_many": "сдач",
        "trick_one": "взятка",
        "trick_few": "взятки",
        "trick_many": "взяток",
        "card_label": "{rank} {suit}",
        "suit_of_S": "пик",
        "suit_of_H": "червей",
        "suit_of_D": "бубен",
        "suit_of_C": "треф",
        "rank_A": "туз",
        "rank_10": "десятка",
        "rank_K": "король",
        "rank_Q": "дама",
        "rank_J": "валет",
        "rank_9": "девятка",
        "rank_*": "инфузорка",
        "rank_8": "восьмёрка",
        "rank_7": "семёрка",
        # The Russian books' letters: туз, король, дама, валет.
        "symbol_A": "Т",
        "symbol_10": "10",
        "symbol_K": "К",
        "symbol_Q": "Д",
        "symbol_J": "В",
        "header_source": "Источник",
        "header_url": "Ссылка",
        "header_page": "Страница",
        "header_date": "Дата",
        "header_event": "Событие",
        "header_site": "Место",
        "header_annotator": "Комментатор",
        "header_translator": "Переводчик",
        "header_note": "Примечание",
        "header_language": "Язык",
        "header_round": "Тур",
        "score_declares": "{seat} объявляет {meld}",
        "score_seven_exchange": "{seat} меняет козырную семёрку на открытую карту",
        "score_card_exchange": "{seat} меняет козырную карту ({rank}) на открытую карту",
        "score_goes_out": "{seat} набирает {n}: сдача окончена",
        "score_seven_played": "{seat} играет козырную семёрку",
        "score_turnup_seven": "{seat} сдаёт и открывает семёрку",
        "score_last_trick": "{seat} берёт последнюю взятку",
        "score_brisques": "{seat}: бриски",
        "score_other": "{seat}: {kind}",
        # Accusative forms: they only ever follow "объявляет".
        "meld_sequence": "секвенцию козырей",
        "meld_royal_marriage": "королевский марьяж",
        "meld_marriage": "простой марьяж",
        "meld_bezique": "безик",
        "meld_double_bezique": "двойной безик",
        "meld_four_aces": "четыре туза",
        "meld_four_kings": "четыре короля",
        "meld_four_queens": "четыре дамы",
        "meld_four_jacks": "четыре валета",
        "generated_by": "Сделано программой проверки записей безика.",
        "nav_lessons": "Уроки",
        "nav_glossary": "Словарь",
        "nav_first": "В начало",
        "nav_last": "В конец",
        "nav_comment": "Следующий комментарий",
        "nav_comment_prev": "Предыдущий комментарий",
        "nav_play": "Смотреть",
        "nav_pause": "Пауза",
        "nav_play_hint": "Показать сдачу как фильм, шаг за шагом",
        "step_of": "Шаг {n} из {total}",
        "permalink": "Ссылка на этот шаг",
        "view": "Вид",
        "view_all": "Все руки",
        "view_all_hint": "Показать карты всех игроков",
        "view_only": "Показать только карты {seat_gen}, остальные скрыть",
        "four_colour": "Четыре цвета мастей",
        "needs_script": (
            "Расклад перед каждой взяткой и учёт карт каждого игрока рисует сценарий страницы; без него видны "
            "сданные карты и все взятки, добор, объявления и счёт."
        ),
        "hidden_cards": "скрыто карт: {n}",
        "before_trick": "Перед взяткой",
        "score_before": "Счёт перед взяткой",
        "turnup_and_stock": "Открытая карта и колода",
        "rule_link": "правило",
        "rule_link_title": "Правило, по которому это засчитывается",
        "outcome": "Взятка и её последствия",
        "sheet_so_far": "Запись счёта до этого шага",
        "sheet_empty": "Очков пока нет.",
        "quiz_choose": "Выберите карту, которой ходит {seat}.",
        "quiz_right": "Верно: {card}.",
        "quiz_wrong": "Не {card}: попробуйте ещё раз.",
        "quiz_revealed": "В записи сыграно: {card}.",
        "quiz_open": "Подумайте, затем откройте ответ.",
        "quiz_hidden": "Остаток взятки скрыт, пока вы не ответите.",
        "quiz_accepted": "Верно",
        "book_title": "Учёт карт {seat_gen}",
        "unseen_title": "Карты, которых {seat} ещё не видел",
        "unseen_text": "Неизвестных карт: {n} (в колоде {stock}, на руках у других {hands}).",
        "unseen_count": "{card}: не видно {n}",
        "known_in_hand": "Известно, что на руке у {seat_gen}:",
        "melds_title": "Комбинации: что ещё возможно",
        "meld_col": "Комбинация",
        "meld_possible": "возможна",
        "meld_ready": "на руках",
        "meld_impossible": "невозможна",
        "meld_scored": "объявлена во взятке {n}",
        "meld_needs": "нужны {cards}",
        "meld_has": "есть {k} из {n}",
        "news_impossible": "{reason}: {seat} уже не объявит {meld}.",
        "seen_all_2": "обе карты {card} уже видны",
        "seen_all": "все карты {card} ({n}) уже видны",
        "seen_only": "карта {card} уже видна",
        "seen_some": "видно карт {card}: {k} из {n}",
        "kind_left": "осталось {rank_pl}: {n}",
        "no_declarations": "Колода кончилась: объявлений больше нет.",
        "draws_left": "не хватает карт: {k}, а осталось {d} {draws}",
        "draw_one": "добор",
        "draw_few": "добора",
        "draw_many": "доборов",
        "news_meld_form": "meld",
        "questions_one": "вопрос",
        "questions_few": "вопроса",
        "questions_many": "вопросов",
        "pack_one": "колода",
        "pack_few": "колоды",
        "pack_many": "колод",
        "seat_gen_N": "Севера",
        "seat_gen_S": "Юга",
        "seat_gen_E": "Востока",
        "seat_gen_W": "Запада",
        "rank_pl_A": "тузов",
        "rank_pl_10": "десяток",
        "rank_pl_K": "королей",
        "rank_pl_Q": "дам",
        "rank_pl_J": "валетов",
        "rank_pl_9": "девяток",
        "rank_pl_8": "восьмёрок",
        "rank_pl_7": "семёрок",
        "meldname_sequence": "секвенция козырей",
        "meldname_four_aces": "четыре туза",
        "meldname_four_kings": "четыре короля",
        "meldname_four_queens": "четыре дамы",
        "meldname_four_jacks": "четыре валета",
        "meldname_royal_marriage": "королевский марьяж",
        "meldname_marriage": "простой марьяж",
        "meldname_bezique": "безик",
        "meldname_double_bezique": "двойной безик",
        "meldname_carte_blanche": "карт-бланш",
        "meldname_plain_sequence": "обычная секвенция",
        "meldname_triple_bezique": "тройной безик",
        "meldname_quadruple_bezique": "четверной безик",
        "meldname_quintuple_bezique": "пятерной безик",
        "meldname_sextuple_bezique": "шестерной безик",
        "meldname_four_tens": "четыре десятки",
        "meldname_double_carte_blanche": "двойной карт-бланш",
        "meldname_four_trump_aces": "четыре козырных туза",
        "meldname_four_trump_tens": "четыре козырные десятки",
        "meldname_four_trump_kings": "четыре козырных короля",
        "meldname_four_trump_queens": "четыре козырные дамы",
        "meldname_four_trump_jacks": "четыре козырных валета",
        "meldname_five_trump_aces": "пять козырных тузов",
        "meldname_five_trump_tens": "пять козырных десяток",
        "meldname_five_trump_kings": "пять козырных королей",
        "meldname_five_trump_queens": "пять козырных дам",
        "meldname_five_trump_jacks": "пять козырных валетов",
        "meldname_double_marriage": "двойной простой марьяж",
        "meldname_double_royal_marriage": "двойной королевский марьяж",
        "score_cut_guess": "{seat} угадал, сколько карт снял сдающий",
        "score_cut_lift": "{seat}, сдающий, снял ровно столько карт, сколько сдаётся",
        "pattern_hand": "вся рука без короля, дамы и валета; снова за каждую такую взятую карту",
        "pattern_side_hand": "ни одной фигурной карты у обоих партнёров при сдаче; один раз за пару, до первой взятки",
        "pattern_when_trump": "{cards}, если козыри — {suits}",
        "fact_no_turnup": (
            "Карта не открывается: козыри определяет первый объявленный {melds}. До того взятку берёт старшая карта "
            "масти хода."
        ),
        "rule_cut": (
            "Перед сдачей сдающий снимает часть колоды: {guess} сопернику, если он угадал сколько, {lift} сдающему, "
            "если снято ровно {count}."
        ),
        "rule_game_one_hand": (
            "Одна сдача — одна игра. Победитель получает {bonus}{difference}; проигравший, не набравший {rubicon}, "
            "попадает в рубикон: победитель записывает оба счёта и {rubicon_bonus}{low}."
        ),
        "rule_game_difference": " и разницу",
        "rule_game_own": " к своему счёту",
        "rule_game_low": " (и {low_bonus}, если у проигравшего меньше {low_score})",
        "rule_brisques_tie_or_rubicon": "Бриски считаются только при равном счёте или чтобы выйти из рубикона.",
        "lang_name_en": "English",
        "lang_name_ru": "Русский",
        "other_languages": "Другие языки",
        "rules_title": "Правила: {title}",
        "rules_profile": "Профиль",
        "rules_deal": "Сдача",
        "rules_play": "Игра",
        "rules_melds": "Комбинации",
        "rules_melds_intro": (
            "Комбинацию объявляют, выложив её карты на стол лицом вверх после выигранной взятки. {reuse}"
        ),
        "rules_reuse": (
            "Для нового объявления нужна хотя бы одна карта, ещё не засчитанная в своей группе (M, B или F); в "
            "комбинации другой группы карта может участвовать снова."
        ),
        "rules_other_points": "Другие очки",
        "rules_options": "Договорённости (опции)",
        "rules_options_intro": "Запись задаёт их в заголовке options; жирным выделено значение по умолчанию.",
        "rules_options_lang": "Описания опций взяты из профиля и написаны по-английски.",
        "rules_ranks": "Старшинство карт",
        "rules_ranks_intro": "От старшей к младшей в каждой масти; русские книги обозначают фигуры своими буквами.",
        "rules_suits": "Масти",
        "col_cards": "Карты",
        "col_points": "Очки",
        "col_russian": "По-русски (в источниках)",
        "col_group": "Группа",
        "col_english": "По-английски",
        "col_meaning": "Значение",
        "col_where": "Где в источниках",
        "col_rank": "Карта",
        "col_letter": "Буква",
        "col_option": "Опция",
        "col_values": "Значения",
        "col_what": "Что она меняет",
        "option_int": "целое число",
        "fact_deck": "{n} {packs} по {size} {cards}: всего карт: {deck}.",
        "fact_hand": "Каждому игроку сдаётся {n} {cards}, пачками по {packets}.",
        "fact_stock": "Остальные {n} {cards} — колода (магазин).",
        "fact_turnup": "Её верхняя карта открывается рядом: её масть — козыри, и её берут последней.",
        "fact_tricks": "Пока есть колода, играется {p1} {tricks}, затем последние {p2} — с рук.",
        "rule_first_leader_non_dealer": "Первым ходит противник сдающего; затем ходит тот, кто взял взятку.",
        "rule_first_leader_dealer_left": "Первым ходит игрок слева от сдающего; затем ходит тот, кто взял взятку.",
        "rule_draw_order_leader_first": (
            "После каждой взятки игроки по очереди добирают из колоды, начиная с того, кто ходил."
        ),
        "rule_phase1_play_follow_suit": "Пока есть колода, надо отвечать в масть, если можно.",
        "rule_phase2_play_follow_trump": (
            "В последних взятках надо отвечать в масть, если можно, а без масти — козырять."
        ),
        "rule_draw_order_winner_first": (
            "После каждой взятки взявший её берёт верхнюю карту колоды, затем его противник."
        ),
        "rule_draw_order_winner_first_many": (
            "После каждой взятки первым добирает из колоды взявший её, затем остальные по порядку хода."
        ),
        "rule_first_leader_dealer_right": "Первым ходит игрок справа от сдающего; затем ходит тот, кто взял взятку.",
        "rule_sides": "Двое против двоих ({sides}): партнёры сидят друг против друга, счёт у них общий.",
        "rule_declare_by_winner_or_partner": "Взявший взятку объявляет сам или позволяет объявить партнёру.",
        "rule_declare_joint": "Комбинацию можно составить из своих карт вместе с картами партнёра.",
        "rule_last_trick_halves": "Очки за последнюю взятку делятся поровну между парами.",
        "rule_phase1_play_free": (
            "Пока есть колода, можно класть любую карту: не нужно ни отвечать в масть, ни козырять, ни бить."
        ),
        "rule_phase2_play_follow_win_trump": (
            "В последних взятках надо отвечать в масть и бить, если можно; без масти — козырять, если можно."
        ),
        "rule_phase2_play_follow": "В последних взятках надо отвечать в масть, если можно.",
        "rule_declare_after_won_trick": "Объявлять может только тот, кто сейчас взял взятку, и только до добора.",
        "rule_declare_phase_1": "Объявления кончаются вместе с колодой: в последних взятках их нет.",
        "rule_lead_from": "Объявивший обязан следующим ходом пойти с одной из объявленных карт.",
        "rule_card_exchange": "Козырную карту ({rank}) можно обменять на открытую карту после выигранной взятки: {n}.",
        "rule_hand_target": (
            "Первый, кто наберёт {n} очков, сразу заканчивает сдачу (в записи: «goes out»). Его пункты: {rows}. "
            "Игра идёт до {target} пунктов."
        ),
        "rule_game_row": "{points}, если у проигравшего не меньше {lowest}",
        "rule_table_playable": "Объявленные карты лежат на столе лицом вверх, и ими можно ходить.",
        "rule_fallback": "{what}: {value}",
        "rule_seven_turnup": "Открыта семёрка: сдающий записывает {n}.",
        "rule_seven_exchange": "Козырную семёрку можно обменять на открытую карту после выигранной взятки: {n}.",
        "rule_seven_played": "За козырную семёрку, сыгранную во взятку, пока есть колода: {n}, взята взятка или нет.",
        "rule_seven_played_win": "За взятку, взятую козырной семёркой, пока есть колода: {n}.",
        "rule_last_trick": "Последняя взятка: {n} (какая взятка последняя — опция last_trick).",
        "rule_brisques": "Бриски: каждая карта {ranks} во взятках игрока даёт {n} в конце сдачи.",
        "pattern_trump": "козырной масти (здесь козыри — ♣)",
        "pattern_plain": "одной некозырной масти",
        "pattern_any": "одной масти",
        "pattern_kind": "любых мастей",
        "pattern_cards": "именно эти карты",
        "pattern_partner": "козырной масти и другой масти того же цвета (на примере трефовых козырей)",
        "pattern_distinct": "четырёх разных мастей",
        "glossary_title": "Словарь",
        "glossary_intro": (
            "Слова этих уроков рядом со словами русских книг, из которых записаны партии, и где книги их употребляют."
        ),
        "glossary_melds": "Комбинации",
        "glossary_game": "Игра",
        "glossary_cards": "Карты и масти",
        "index_languages": "Этот сайт на языке",
        "lesson_questions": "Вопросов в уроке: {n}",
        "intro_more": "Читать дальше",
    },
}


LANGUAGES = tuple(STRINGS)

GLOSSARY_PAGE = "glossary.html"
"""The glossary's file name (one per language folder)."""

# Free-text headers shown on the pages, in this order; any other header follows under its own name.
_HEADER_ORDER = (
    "source",
    "page",
    "url",
    "date",
    "event",
    "site",
    "round",
    "annotator",
    "translator",
    "language",
    "note",
)

# The Russian names of 004-C's kinds (infuzorka, RULES.md §2.l rule 9): a four of trumps (or of "bezique jacks") and
# the fifth to eighth card added to it: (four, the added card in the nominative and in the accusative, its gender).
_ORDINALS_RU = {
    "m": (("пятый", "шестой", "седьмой", "восьмой"), ("пятого", "шестого", "седьмого", "восьмого")),
    "f": (("пятая", "шестая", "седьмая", "восьмая"), ("пятую", "шестую", "седьмую", "восьмую")),
}
_FOURS_RU = {
    "trump_queens": ("четыре козырные дамы", "козырная дама", "козырную даму", "f"),
    "trump_kings": ("четыре козырных короля", "козырный король", "козырного короля", "m"),
    "trump_aces": ("четыре козырных туза", "козырный туз", "козырного туза", "m"),
    "trump_jacks": ("четыре козырных валета", "козырный валет", "козырного валета", "m"),
    "bezique_jacks": ("четыре безиковых валета", "безиковый валет", "безикового валета", "m"),
    "trump_tens": ("четыре козырные десятки", "козырная десятка", "козырную десятку", "f"),
}
STRINGS["ru"].update({"meldname_trump_quint": "козырный квинт", "meld_trump_quint": "козырный квинт"})
STRINGS["en"].update({"meldname_trump_quint": "trump quint", "meld_trump_quint": "the trump quint"})
for _name, (_four, _nominative, _accusative, _gender) in _FOURS_RU.items():
    STRINGS["ru"][f"meldname_four_{_name}"] = STRINGS["ru"][f"meld_four_{_name}"] = _four
    for _n, _nom, _acc in zip(("five", "six", "seven", "eight"), *_ORDINALS_RU[_gender], strict=True):
        STRINGS["ru"][f"meldname_{_n}_{_name}"] = f"{_nom} {_nominative}"
        STRINGS["ru"][f"meld_{_n}_{_name}"] = f"{_acc} {_accusative}"
    _english = _name.replace("_", " ")
    STRINGS["en"][f"meldname_four_{_name}"] = STRINGS["en"][f"meld_four_{_name}"] = f"four {_english}"
    for _n, _th in zip(("five", "six", "seven", "eight"), ("fifth", "sixth", "seventh", "eighth"), strict=True):
        STRINGS["en"][f"meldname_{_n}_{_name}"] = f"{_th} {_english[:-1]}"
        STRINGS["en"][f"meld_{_n}_{_name}"] = f"the {_th} {_english[:-1]}"

# The sources' Russian names of the combinations (../shared/RULES.md §1.3, §2.a rule 13 and §4), with the lines of
# the seeds that use them. Kinds of profiles still to come are here too, so that their rules pages need no code.
MELD_TERMS: dict[str, tuple[str, str]] = {
    "sequence": ("секвенция, секвенция козырей", "000:L29, L99"),
    "plain_sequence": ("обычная секвенция, проста секвенция", "000:L293; 001:L61"),
    "four_aces": ("четыре туза, «любые 4 туза»", "000:L33, L141"),
    "four_kings": ("четыре короля", "000:L33, L179"),
    "four_queens": ("четыре дамы", "000:L33, L117"),
    "four_jacks": ("четыре валета", "000:L33"),
    "royal_marriage": ("королевский марьяж, козырный марьяж", "000:L37; 004:L301"),
    "marriage": ("простой марьяж, некозырный марьяж", "000:L41; 004:L299"),
    "double_marriage": ("двойной некозырный марьяж", "004:L303"),
    "bezique": ("безик", "000:L79, L109"),
    "double_bezique": ("двойной безик", "000:L175"),
    "triple_bezique": ("тройной безик", "000:L333, L409"),
    "quadruple_bezique": ("четверной безик", "000:L409, L477"),
    "carte_blanche": ("карт-бланш", "000:L285"),
    "trump_quint": ("козырный квинт", "004:L155"),
    "four_bezique_jacks": ("четыре безиковых валета", "004:L141"),
    "four_trump_queens": ("четыре козырных дамы, 4 козырные дамы", "004:L133; 000:L429"),
    "quintuple_bezique": ("пятерной безик, квінта", "000:L477; 001:L81"),
    "sextuple_bezique": ("шестерной безик", "000:L357"),
    "four_tens": ("любые 4 десятки", "000:L361"),
    "double_carte_blanche": ("двойной карт-бланш", "000:L353"),
    "four_trump_aces": ("4 козырных туза", "000:L417"),
    "four_trump_tens": ("4 козырные десятки", "000:L421"),
    "four_trump_kings": ("4 козырных короля", "000:L425"),
    "four_trump_jacks": ("4 козырных валета", "000:L433"),
    "five_trump_aces": ("5 козырных тузов", "000:L481; 001:L80"),
    "five_trump_tens": ("5 козырных десяток", "000:L485; 001:L79"),
    "five_trump_kings": ("5 козырных королей", "000:L489; 001:L78"),
    "five_trump_queens": ("5 козырных дам", "000:L493; 001:L77"),
    "five_trump_jacks": ("5 козырных валетов", "000:L497; 001:L76"),
}

# (anchor, English term, Russian terms of the sources, meaning in English, meaning in Russian, where).
_GLOSSARY_GAME: tuple[tuple[str, str, str, str, str, str], ...] = (
    (
        "pack",
        "pack",
        "колода",
        "one pack of 32 cards; bezique shuffles two together",
        "одна колода из 32 карт; в безик играют двумя, смешанными вместе",
        "000:L9, L15",
    ),
    (
        "stock",
        "stock, talon",
        "магазин, колода, талон",
        "the face-down cards drawn from after each trick while they last",
        "карты рубашкой вверх, из которых добирают после каждой взятки",
        "000:L19; 003; 004-E",
    ),
    (
        "turn-up",
        "turn-up",
        "открытая карта, открытый козырь",
        "the card turned face up beside the stock: its suit is trumps, and it is drawn last",
        "карта, открытая рядом с колодой: её масть — козыри, её берут последней",
        "000:L83; 004:L11",
    ),
    (
        "trumps",
        "trumps, the trump suit",
        "козыри, козырная масть, козырь",
        "the suit that beats every other suit",
        "масть, которая бьёт все остальные",
        "000:L19",
    ),
    (
        "plain-suit",
        "plain suit",
        "простая масть, некозырная масть",
        "a suit that is not trumps",
        "любая масть, кроме козырной",
        "000; 004-E",
    ),
    (
        "deal",
        "deal, hand",
        "сдача, раздача, партия",
        "one hand dealt and played out",
        "одна сдача, сыгранная до конца",
        "000:L73; 002:L16",
    ),
    (
        "dealer",
        "dealer",
        "сдатчик, сдающий",
        "the player who deals; the other leads to the first trick",
        "игрок, который сдаёт; первым ходит его противник",
        "000:L19, L25",
    ),
    (
        "trick",
        "trick",
        "взятка",
        "one card from each player; the highest trump, or the highest card of the suit led, wins",
        "по карте от каждого игрока; берёт старший козырь или старшая карта масти хода",
        "000:L25; 004:L55",
    ),
    (
        "lead",
        "to lead",
        "ходить, заходить; ход, заход",
        "to play the first card of a trick",
        "класть первую карту взятки",
        "000:L25",
    ),
    (
        "follow",
        "to follow suit",
        "отвечать в масть, играть в масть, следовать масти",
        "to play a card of the suit led (required only in the last tricks)",
        "класть карту масти хода (обязательно только в последних взятках)",
        "000:L61",
    ),
    (
        "to-trump",
        "to trump",
        "бить козырем, крыть козырем",
        "to win a trick of another suit with a trump",
        "взять взятку другой масти козырем",
        "000:L61",
    ),
    (
        "declaration",
        "declaration, meld",
        "объявление, объявить; комбинация",
        "laying a combination face up on the table after winning a trick, to score it",
        "выложить комбинацию на стол лицом вверх после выигранной взятки, чтобы её засчитать",
        "000:L49",
    ),
    (
        "table-cards",
        "cards on the table",
        "открытые карты на столе",
        "declared cards: they lie face up and may still be played",
        "объявленные карты: они лежат открыто, и ими можно ходить",
        "000:L49, L457",
    ),
    (
        "seven",
        "seven of trumps",
        "козырная семёрка",
        "exchanged for the turn-up, or played while the stock lasts, it scores 10",
        "её меняют на открытую карту или играют, пока есть колода: 10 очков",
        "000:L45",
    ),
    (
        "brisque",
        "brisque",
        "бриск, бриски",
        "an ace or a ten won in a trick: 10 at the end of the deal",
        "туз или десятка во взятках: 10 очков в конце сдачи",
        "000:L53, L259",
    ),
    (
        "last-trick",
        "last trick",
        "последняя взятка",
        "the trick that earns a bonus of 10 (which one: a house rule)",
        "взятка, за которую записывают 10 (какая именно — договорённость)",
        "000:L61, L207",
    ),
    (
        "last-tricks",
        "the last eight tricks",
        "последние восемь взяток",
        "played from the hands once the stock is exhausted: follow suit, win if you can",
        "разыгрываются с рук, когда колода кончилась: в масть и бить, если можно",
        "000:L61",
    ),
    ("points", "points", "очки", "the unit of the score", "единица счёта", "000"),
)

# Russian suit words of the sources (RULES.md §1.2).
_SUIT_WORDS_RU = {
    Suit.S: "пики, пиковая",
    Suit.H: "червы, черви, «чирвей»",
    Suit.D: "бубны, бубновая, бубен",
    Suit.C: "трефы, «треф», трефовая",
}


def interface(lang: str) -> dict[str, str]:
    """The interface strings of a language; raises ``ValueError`` for a language the site is not written in."""
    try:
        return STRINGS[lang]
    except KeyError:
        raise ValueError(f"no interface language {lang!r} (choose one of {', '.join(LANGUAGES)})") from None


def plural(strings: Mapping[str, str], key: str, n: int) -> str:
    """The form of ``key`` (``card``, ``trick``, ``deal``) that agrees with the number ``n``.

    The three-way split is the Russian rule (1 карта, 2 карты, 5 карт, 21 карта); English has the same word for
    "few" and "many", so the one rule serves both languages.
    """
    if n % 10 == 1 and n % 100 != 11:
        form = "one"
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        form = "few"
    else:
        form = "many"
    return strings[f"{key}_{form}"]


def rules_slug(name: str) -> str:
    """The file name (without ``.html``) of a profile's rules page: ``rules-classic``."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower(), flags=re.ASCII).strip("-") or "profile"
    return f"rules-{base}"


def text_lang(text: str) -> str:
    """``ru`` for a text written mostly in Cyrillic, else ``en``.

    The record's commentary keeps its own language whatever the interface's; marking it lets a screen reader read
    an English comment on a Russian page with the right voice.
    """
    cyrillic = len(re.findall(r"[А-Яа-яЁё]", text))
    latin = len(re.findall(r"[A-Za-z]", text))
    return "ru" if cyrillic > latin else "en"


@dataclass(frozen=True)
class CardView:
    """One card as a page shows it: rank, suit symbol, colour and an accessible name."""

    code: str
    """Canonical text (``QS``)."""
    rank: str
    """The rank as the interface language writes it (``Q``, or ``Д`` in Russian)."""
    suit: str
    """The suit symbol."""
    red: bool
    label: str
    """What a screen reader says: "queen of spades"."""
    played: bool = False
    """Marked in a hand: this is the card the seat plays to the trick."""
    inferred: str = ""
    """For a card the record left unknown: "forced" (the only possible one), "open" or "chosen"."""
    alternatives: str = ""
    """For an open card: the other cards it could be."""

    @property
    def glyph(self) -> str:
        """Rank and suit symbol: ``Q♠``."""
        return f"{self.rank}{self.suit}"

    @property
    def suit_code(self) -> str:
        """The suit letter (``S``), for the four-colour scheme's CSS class."""
        return self.code[-1]

    @functools.cached_property
    def html(self) -> Markup:
        """The card as a page writes it: styled Unicode text, named for screen readers.

        Written here rather than by a template macro because a lesson writes some ten thousand cards, most of them
        the same few dozen views: each view's markup is made once (see ``_cards.html`` for what it means).
        """
        classes = f"card s-{self.suit_code}"
        if self.red:
            classes += " red"
        if self.played:
            classes += " played"
        if self.inferred:
            classes += f" inferred {self.inferred}"
        label = escape(self.label)
        alternatives = f' data-alternatives="{escape(self.alternatives)}"' if self.alternatives else ""
        return Markup(
            f'<span class="{escape(classes)}" role="img" aria-label="{label}" title="{label}"{alternatives}>'
            f'<span class="rank">{escape(self.rank)}</span><span class="suit">{escape(self.suit)}&#xFE0E;</span></span>'
        )


@dataclass(frozen=True)
class TextView:
    """A text of the record (a comment) with the language it is written in."""

    text: str
    lang: str


@dataclass(frozen=True)
class SourceItem:
    """A header of the record (source, page, url, …) with its interface label; ``href`` only for web links."""

    key: str
    label: str
    text: str
    href: str | None = None


# The values a lesson makes for every step (plays, draws, scores, score sheet rows, boards) are plain dataclasses, not
# frozen ones: a frozen dataclass sets each field through object.__setattr__, five times slower, and a lesson makes
# some three hundred of them. Nothing changes them once made.


@dataclass
class ScoreView:
    """A seat's score: the number and, during a deal, how much the last step added."""

    seat: str
    label: str
    value: int
    delta: int = 0

    @property
    def delta_text(self) -> str:
        """``+40``, or an empty string when nothing was added."""
        return f"{self.delta:+d}" if self.delta else ""


@dataclass(frozen=True)
class SeatView:
    """One seat at the start of a step: its concealed hand and the declared cards lying face up before it."""

    seat: str
    label: str
    player: str
    """The player's name, or an empty string when the record names none."""
    hand: list[CardView]
    table: list[CardView]
    position: str = "top"
    """Where the seat sits on the drawn table: ``top``, ``bottom``, ``left`` or ``right``."""
    hidden_label: str = ""
    """What a screen reader hears for the hand when it is hidden: "8 hidden cards"."""
    scorer: str = ""
    """Whose score the seat adds to: the seat, or its side (``N+S``) in a partnership game."""


@dataclass
class PlayView:
    """A card played to a trick (or drawn from the stock) by a seat."""

    seat: str
    label: str
    card: CardView
    winning: bool = False


@dataclass(frozen=True)
class ScoringView:
    """A scoring event in words: ``text`` is the whole sentence, ``lead`` + ``cards`` + ``points`` its parts."""

    seat: str
    kind: str
    lead: str
    """The sentence without its cards and points: "North declares the royal marriage"."""
    cards: list[CardView]
    points: int
    text: str
    """"North declares the royal marriage K♣ Q♣: 40"."""
    rule_href: str = ""
    """The rules page's section that scores it (``rules-classic.html#meld-royal_marriage``)."""


@dataclass(frozen=True)
class QuestionView:
    """A quiz question asked before a seat's play, with the answers the record accepts."""

    seat: str
    prompt: str
    """"Question for North"."""
    text: str
    answers: list[CardView]
    play_index: int = 0
    """The index, in the trick's plays, of the play the question hides."""
    choices: list[CardView] = field(default_factory=list)
    """Every different card the seat may play at that moment (hand and table), for the learner to pick from."""
    choose: str = ""
    """"Choose the card North plays."."""
    lang: str = "en"
    """The language the record's question is written in."""

    @property
    def answer_codes(self) -> str:
        """The accepted answers as canonical codes separated by spaces (``9C QC``), for the page's script."""
        return " ".join(c.code for c in self.answers)

    @property
    def answers_text(self) -> str:
        """The accepted answers as symbols: ``9♣``, or ``9♣ / Q♣``."""
        return " / ".join(c.glyph for c in self.answers)


@dataclass
class SheetRow:
    """One line of a deal's score sheet."""

    anchor: str
    step: str
    winner: str
    events: list[str]
    scores: list[int]
    now: bool = False
    """In a step's running sheet: the row of the step itself (hidden while its quiz is unanswered)."""


@dataclass(frozen=True)
class TargetView:
    """A combination a book follows (one suit of it, for a marriage): a row of its table of combinations, with what
    the page's script needs to tell its state (see :meth:`_Builder.open_state`, which it follows)."""

    kind: str
    name: str
    pictures: list[int]
    """The cards that picture it, as indices into :attr:`Lesson.cards`."""
    rule_href: str
    suit: str = ""
    """The suit letter of a plain or any-suit pattern (a scored one counts only in its suit); empty otherwise."""
    needed: list[tuple[int, int]] = field(default_factory=list)
    """The exact cards and how many of each, for fixed and same-suit patterns."""
    of_rank: list[int] = field(default_factory=list)
    """An n-of-a-kind pattern: its rank in every suit, of which it needs ``count`` cards."""
    count: int = 0
    rank_plural: str = ""
    """The n-of-a-kind's rank in the plural ("kings"), for "only 3 kings left"."""
    news_name: str = ""
    """Its name in the sentence that says it has become impossible."""


@dataclass(frozen=True)
class Book:
    """The bookkeeping one seat keeps before a trick: the cards it has not seen and the combinations still open.

    The page's script works the books out for itself (``static/lesson.js``); these, made only when
    :func:`build_lesson` is asked for them, are the model its books are tested against. ``unseen`` counts every card
    of :attr:`Lesson.cards`, and ``melds`` gives, for each of the deal's :attr:`DealView.targets` in turn, each
    seat's state as an index into :attr:`Lesson.meld_states`.
    """

    seat: str
    unseen: list[int]
    unseen_count: int
    unseen_text: str
    known: list[int]
    """Cards the seat knows lie in another's concealed hand (a turn-up taken, declared cards taken back)."""
    news: list[str]
    """Combinations that have just become impossible: "both Q♠ seen: double bezique is impossible for North."."""
    melds: list[int]
    declaring: bool
    """False once declarations are over (``melds`` is then empty)."""


@dataclass
class Board:
    """The table before a trick, as the page's script draws it; each list has one entry per seat, in seat order."""

    hands: list[list[int]]
    """The concealed hands, as indices into :attr:`Lesson.cards`."""
    tables: list[list[int]]
    """The declared cards lying face up."""
    played: list[int]
    """The card each seat plays to the trick (-1: none), marked in its hand or, first, on its table."""
    scores: list[int]
    """Each seat's score (its side's, in a partnership game) as the trick begins."""
    turnup: int
    """The turn-up under the stock, or -1."""
    stock: int
    stock_text: str
    trump: str
    trump_red: bool
    sheet: int
    """How many of the deal's scored rows (the rows of :attr:`DealView.sheet` with events) the running score sheet
    shows: those up to this step's own."""


@dataclass
class Step:
    """One position of a lesson: the deal's start or one trick, with everything the page shows about it."""

    id: str
    """``deal-1-trick-4`` (``deal-1-start`` for the deal itself)."""
    anchor: str
    """The ``id`` the page puts on the step: the short ``trick-4`` in a single-deal game, else ``id``."""
    aliases: list[str]
    """Other ids that lead to the step (the long ``id`` when the short anchor is used)."""
    kind: str
    """``start`` or ``trick``."""
    title: str
    number: int
    """The trick number (0 for the deal's start)."""
    phase: int
    phase_note: str
    """Shown once, where a phase begins."""
    seats: list[SeatView]
    """The hands as dealt, for the deal's start (written into the page); a trick's table is its :attr:`board`."""
    leader: str
    """"North leads"."""
    plays: list[PlayView]
    winner: str
    """"North wins the trick", or an empty string."""
    scoring: list[ScoringView]
    draws: list[PlayView]
    stock: int
    """Cards left in the stock after the step, turn-up included."""
    stock_text: str
    turnup: CardView | None
    """The turn-up while it lies under the stock."""
    trump: str
    trump_red: bool
    scores_title: str
    scores: list[ScoreView]
    """Running scores of the deal after the step, with what the step added."""
    comments: list[TextView]
    questions: list[QuestionView]
    before_scores: list[ScoreView] = field(default_factory=list)
    """The scores as the deal begins (the start's table; a trick's are on its :attr:`board`)."""
    before_stock: int = 0
    before_stock_text: str = ""
    before_turnup: CardView | None = None
    sheet: list[SheetRow] = field(default_factory=list)
    """The start's running score sheet (a trick's is drawn from the rows of :attr:`DealView.sheet` that score)."""
    board: Board | None = None
    """A trick's table before it is played, drawn by the page's script."""
    has_books: bool = False
    """The page's script works out and draws each seat's bookkeeping before the trick (a deal's start has it when
    the deal has a trick)."""
    book_events: list[tuple[int, str, list[int]]] = field(default_factory=list)
    """The step's scoring that the books follow: (seat's position, kind, cards) of each combination declared and
    each exchange of the turn-up."""
    turnup_taken: tuple[int, int] | None = None
    """The seat's position and the card, when the stock's last card, the turn-up, is drawn in the step."""
    books: list[Book] = field(default_factory=list)
    """Each seat's bookkeeping before the trick, worked out in Python only when asked for (see
    :func:`build_lesson`): the page's script works them out from the lesson's data."""
    data: int = 0
    """The step's position in the lesson's data (:meth:`Lesson.data`)."""
    prev_anchor: str = ""
    prev_title: str = ""
    next_anchor: str = ""
    next_title: str = ""
    index: int = 0
    """The step's position in the whole lesson, from 1 (deal ends count as steps)."""

    @property
    def has_scoring(self) -> bool:
        """True when points were scored in this step (the step list marks it)."""
        return bool(self.scoring)

    @property
    def quiz_from(self) -> int:
        """The index of the first play a question hides, or -1 when the step asks nothing."""
        return min((q.play_index for q in self.questions), default=-1)


@dataclass
class DealView:
    """One deal of a lesson: its steps and how it ended."""

    number: int
    id: str
    title: str
    summary: str
    """"South deals, North leads."."""
    trump: str
    trump_red: bool
    steps: list[Step]
    end_anchor: str
    end_title: str
    brisques: list[ScoreView]
    result: list[ScoreView]
    totals: list[ScoreView]
    """Game totals after this deal (only filled in when the game has several deals)."""
    totals_label: str
    """What the totals count: the game's points, or its game points (sixty-six)."""
    end_comments: list[TextView]
    seat_labels: list[str]
    sheet: list[SheetRow]
    targets: list[TargetView] = field(default_factory=list)
    """The combinations the books follow in this deal (its trumps decide some)."""
    end_prev_anchor: str = ""
    end_prev_title: str = ""
    end_next_anchor: str = ""
    end_next_title: str = ""
    end_index: int = 0
    """The deal end's position among the lesson's steps."""


@dataclass
class Lesson:
    """A whole game, ready for a template."""

    title: str
    profile: str
    """The rule profile's name (``classic``)."""
    profile_title: str
    players: list[tuple[str, str]]
    """(seat label, player name or an empty string) in seat order."""
    source: list[SourceItem]
    options: list[tuple[str, str]]
    result: str
    summary: str
    comments: list[TextView]
    deals: list[DealView]
    scores: list[ScoreView]
    winner: str
    lang: str = "en"
    slug: str = ""
    """The page's file name without ``.html`` (set by the renderer)."""
    first_anchor: str = ""
    steps_count: int = 0
    rules_href: str = ""
    """The profile's rules page."""
    blurb: str = ""
    """One line about the game: the first sentence of the record's own introduction, if it has one."""
    blurb_lang: str = "en"
    questions: int = 0
    questions_text: str = ""
    """"4 questions to answer", or an empty string."""
    seats: list[tuple[str, str, str]] = field(default_factory=list)
    """(seat, label, "Show only North's hand") for the view switch."""
    cards: list[CardView] = field(default_factory=list)
    """Every card of the pack once: the boards and books name cards by their index here."""
    meld_states: list[tuple[str, str]] = field(default_factory=list)
    """The (state, text) pairs the books' tables of combinations use: ``("impossible", "both Q♠ seen")``."""
    data: dict[str, Any] = field(default_factory=dict)
    """What the page's script draws each step from (its board, and the scoring its books follow), as one JSON block
    (see ``lesson.html``)."""

    @property
    def players_named(self) -> bool:
        """True when the record names at least one player (else the seat names say it all)."""
        return any(name for _, name in self.players)


def card_view(card: Card, strings: Mapping[str, str], played: bool = False) -> CardView:
    """A card for a page, named in the interface language."""
    rank = card.rank.symbol
    if card.is_wild:
        # The wild card of 004-C has no suit: a star where the suit would be.
        return CardView(str(card), rank, "★", False, strings["rank_*"], played)
    label = strings["card_label"].format(rank=strings[f"rank_{rank}"], suit=strings[f"suit_of_{card.suit.value}"])
    return CardView(str(card), strings.get(f"symbol_{rank}", rank), card.suit.glyph, card.suit.red, label, played)


def _position(seat: str) -> str:
    return {"N": "top", "S": "bottom", "E": "right", "W": "left"}.get(seat, "top")


def _first_sentence(text: str, limit: int = 180) -> str:
    """The first sentence of a text, cut at a word near ``limit`` characters: the index's one-line summary."""
    flat = " ".join(text.split())
    match = re.match(r"(.+?[.!?…])(\s|$)", flat)
    sentence = match.group(1) if match else flat
    if len(sentence) > limit:
        sentence = sentence[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return sentence


# --- the player's bookkeeping ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Target:
    """One combination as concrete cards: a pattern of the profile resolved for this deal's trumps (and a suit).

    Cards are indices into the lesson's pack (see :class:`_Pack`): a book asks about every combination, for every
    seat, at every step.
    """

    spec: MeldSpec
    suit: Suit | None
    """The suit of a plain or any-suit pattern (shown in its name); None otherwise."""
    needed: tuple[tuple[int, int], ...]
    """The exact cards and how many of each, in page order, for fixed and same-suit patterns."""
    pictures: tuple[int, ...]
    """The cards that picture the combination in a book."""
    of_rank: tuple[int, ...] = ()
    """An n-of-a-kind pattern: its rank in every suit, of which it needs ``count`` cards."""
    count: int = 0
    rank: Rank | None = None

    @functools.cached_property
    def cards(self) -> tuple[int, ...]:
        """Every card whose count matters to the combination."""
        return self.of_rank if self.count else tuple(k for k, _ in self.needed)

    @functools.cached_property
    def size(self) -> int:
        """How many cards the combination has."""
        return self.count or sum(n for _, n in self.needed)

    @functools.cached_property
    def shape(self) -> tuple[object, ...]:
        """What, besides the counts of its cards, its state depends on: the same for a combination of the same cards
        under other trumps."""
        return (self.needed, self.of_rank, self.count)

    @functools.cached_property
    def pick(self) -> Callable[[Sequence[int]], object]:
        """The counts of its cards out of a count of the whole pack, in one call (a key the books look states up by)."""
        return operator.itemgetter(*self.cards)


_SUIT_AND_RANK = operator.attrgetter("suit", "rank")


class _Pack:
    """The distinct cards of a lesson's pack, numbered in page order (suit by suit, high ranks first, the wild card
    last), so that the books count cards in lists of small ints rather than in dictionaries keyed by Card."""

    def __init__(self, profile: RuleProfile) -> None:
        pack = Counter(profile.pack())
        self.cards = sorted(pack, key=lambda c: c.sort_key)
        self.index = {card: i for i, card in enumerate(self.cards)}
        self.deck = [pack[c] for c in self.cards]
        """How many copies of each card the deck holds."""
        # A lesson numbers some two thousand cards: by their (suit, rank), which is what makes two cards equal, the
        # dictionary hashes and compares in C rather than through Card's own __hash__ and __eq__.
        self._numbers = {(c.suit, c.rank): i for i, c in enumerate(self.cards)}

    def number(self, card: Card) -> int:
        """The card's number."""
        return self._numbers[card.suit, card.rank]

    def ids(self, cards: Iterable[Card]) -> list[int]:
        """The cards' numbers."""
        # A lesson numbers its boards' cards, some twenty a trick: looked up in one C loop.
        return list(map(self._numbers.__getitem__, map(_SUIT_AND_RANK, cards)))

    def counts(self, *groups: Iterable[Card]) -> list[int]:
        """How many of each card the groups hold together."""
        counts = [0] * len(self.cards)
        numbers = self._numbers
        for group in groups:
            for card in group:
                counts[numbers[card.suit, card.rank]] += 1
        return counts

    def target(self, spec: MeldSpec, suit: Suit | None, cards: Iterable[Card]) -> _Target:
        """A combination of exactly these cards."""
        need = Counter(self.ids(cards))
        ordered = sorted(need.items())
        return _Target(spec, suit, tuple(ordered), tuple(sorted(need.elements())))

    def of_kind(self, spec: MeldSpec, rank: Rank, count: int) -> _Target:
        """A combination of ``count`` cards of ``rank`` in any suits."""
        of_rank = tuple(self.index[Card(s, rank)] for s in Suit if Card(s, rank) in self.index)
        return _Target(spec, None, (), of_rank[:count], of_rank, count, rank)


def _targets(profile: RuleProfile, trump: Suit | None, pack: _Pack) -> list[_Target]:
    """Every combination a seat could declare in this deal, one per suit for plain and any-suit patterns."""
    targets: list[_Target] = []
    for spec in profile.melds:
        if spec.cards or spec.trump_ranks or spec.partner_ranks:
            exact = spec.cards_for(trump)
            if exact:
                targets.append(pack.target(spec, None, exact))
        elif spec.distinct and spec.rank is not None:
            targets.append(pack.target(spec, None, (Card(s, spec.rank) for s in list(Suit)[: spec.count])))
        elif spec.ranks and spec.suit:
            if spec.suit == "trump":
                if trump is not None:
                    targets.append(pack.target(spec, None, (Card(trump, r) for r in spec.ranks)))
                continue
            suits = [s for s in Suit if s != trump] if spec.suit == "plain" else list(Suit)
            targets.extend(pack.target(spec, s, (Card(s, r) for r in spec.ranks)) for s in suits)
        elif spec.rank is not None and spec.count:
            targets.append(pack.of_kind(spec, spec.rank, spec.count))
    return targets


class _Kit:
    """What every lesson of one profile in one language shares: the numbered pack, each card's view and each trump
    suit's combinations. Made once for all of a site's lessons of that profile (see :func:`_kit`) rather than once
    per lesson: they cost about as much as a twentieth of a lesson page."""

    def __init__(self, profile: RuleProfile, lang: str) -> None:
        self.profile = profile
        """Kept so that the profile, whose ``id`` names this kit, outlives it."""
        self.strings = interface(lang)
        self.pack = _Pack(profile)
        # A lesson shows the same few dozen cards thousands of times (hands, books, meld pictures): each card's view
        # is made once. The views are frozen, so sharing one between places (and lessons) is safe.
        self.views: dict[tuple[Suit, Rank], CardView] = {}
        self._targets: dict[Suit | None, list[_Target]] = {}
        self.target_views: dict[Suit | None, list[TargetView]] = {}
        """Each trump suit's rows of the tables of combinations (see :meth:`_Builder.target_views`)."""
        self.page_data: dict[str, Any] = {}
        """What every lesson's data block of the profile and language holds alike (see :meth:`_Builder.data`)."""
        self.states: dict[tuple[object, ...], tuple[str, str]] = {}
        """The (state, text) pairs of combinations not yet scored, worked out so far, by the combination's
        :attr:`_Target.shape` and what else they depend on (see :meth:`_Builder.book`): the lessons of a site ask
        much the same."""

    def view(self, card: Card) -> CardView:
        """The card's view (made once per card)."""
        # Keyed by (suit, rank), hashed in C, as _Pack numbers cards: a lesson asks for some two hundred views.
        key = _SUIT_AND_RANK(card)
        found = self.views.get(key)
        if found is None:
            found = self.views[key] = card_view(card, self.strings)
        return found

    def targets(self, trump: Suit | None) -> list[_Target]:
        """The combinations of a deal with these trumps (see :func:`_targets`); the list is shared: not to be
        changed."""
        found = self._targets.get(trump)
        if found is None:
            found = self._targets[trump] = _targets(self.profile, trump, self.pack)
        return found


_KITS: dict[tuple[int, str], _Kit] = {}


def _kit(profile: RuleProfile, lang: str) -> _Kit:
    """The kit of a profile (by identity: profiles are made once per name and options) in a language."""
    found = _KITS.get((id(profile), lang))
    if found is None:
        if len(_KITS) >= 64:  # a caller that makes profiles afresh must not make this grow without end
            _KITS.clear()
        found = _KITS[id(profile), lang] = _Kit(profile, lang)
    return found


def _minus(base: Sequence[int], *parts: Sequence[int]) -> list[int]:
    """``base - parts[0] - parts[1] - …`` card by card, none below zero (a count the viewer cannot place)."""
    if not parts:
        return list(base)
    left: Iterable[int] = base
    for part in parts:
        left = map(operator.sub, left, part)
    return [n if n > 0 else 0 for n in left]


class _Knowledge:
    """What the seats know about each other's cards during one deal, as counts of the lesson's cards.

    A player sees his own cards, every card played to a trick, the turn-up and the cards declared on the table.
    Some cards stay known after they go out of sight: the turn-up taken by the seven's exchange or as the last
    card of the stock, and declared cards taken back into the hand for the last tricks. ``public[seat]`` counts
    the cards everybody knows ``seat`` holds; it is a lower bound (with two packs, seeing one ♠Q played does not
    say which of two was played), so it only shrinks when such a card is played.
    """

    def __init__(self, profile: RuleProfile, seats: Sequence[str], pack: _Pack) -> None:
        self.pack = pack
        self.deck = pack.deck
        self.dead = [0] * len(pack.deck)
        """Cards played to tricks so far."""
        self.left = list(self.deck)
        """``deck - dead``, kept up to date trick by trick rather than subtracted again at every step."""
        self.public: dict[str, list[int]] = {s: [0] * len(pack.deck) for s in seats}
        self.seats = list(seats)
        self.players = profile.players
        self.scored: dict[tuple[str, str], list[tuple[int, Scoring]]] = {}
        """What each seat has scored so far, by (seat, kind), newest first, with the number of the trick (0 for the
        deal): a book asks it for every combination and seat at every step."""
        self.kinds: set[str] = set()
        """The kinds anybody has scored so far (most combinations nobody has)."""

    def add_scoring(self, n: int, events: Iterable[Scoring]) -> None:
        """Take in the points scored at trick ``n`` (0: at the deal)."""
        for event in events:
            self.scored.setdefault((event.seat, event.kind), []).insert(0, (n, event))
            self.kinds.add(event.kind)

    def after_trick(self, trick: TrickResult) -> None:
        """Take in what a trick showed everybody."""
        before, after = trick.before, trick.after
        number = self.pack.number
        for seat, card in trick.plays:
            k = number(card)
            self.dead[k] += 1
            self.left[k] -= 1
            known = self.public[seat]
            if known[k] > 0:
                known[k] -= 1
        for event in trick.scoring:
            if event.kind == "seven_exchange" and before.turnup is not None:
                known = self.public[event.seat]
                for card in event.cards:
                    known[number(card)] -= 1
                known[number(before.turnup)] += 1
        if before.turnup is not None and after.turnup is None and trick.draws:
            # The stock's last card is the turn-up: whoever takes it takes a card everybody has seen.
            seat, card = trick.draws[-1]
            self.public[seat][number(card)] += 1
        for seat, known in self.public.items():
            # Known cards are those known before or lying on the table, but never more than the seat still holds
            # (when nothing was known, that is the table itself).
            table = self.pack.counts(after.tables.get(seat, ()))
            if any(known):
                held = self.pack.counts(after.hands.get(seat, ()), after.tables.get(seat, ()))
                table = [min(k if k > t else t, h) for k, t, h in zip(known, table, held, strict=True)]
            self.public[seat] = table

    def others_known(self, viewer: str, but: str | None = None) -> list[list[int]]:
        """Cards the viewer knows the other seats (except ``but``) hold: one count for each seat known to hold any."""
        return [known for seat, known in self.public.items() if seat != viewer and seat != but and any(known)]

    def draws_left(self, snap: Snapshot) -> int:
        """How many more cards each seat will draw (the stock, turn-up included, is shared out evenly)."""
        return snap.stock // self.players if self.players else 0


_SCRIPT_TEXTS = (
    "hand",
    "on_table",
    "nothing",
    "before_trick",
    "turnup_and_stock",
    "trumps",
    "score_before",
    "sheet_so_far",
    "sheet_step",
    "sheet_events",
    "sheet_empty",
    "melds_title",
    "rules_melds",
    "meld_col",
    "no_declarations",
    # The books' sentences, which the script fills in (see _Builder.state_of and _Builder.book).
    "unseen_text",
    "meld_scored",
    "meld_possible",
    "meld_ready",
    "meld_has",
    "meld_needs",
    "draws_left",
    "kind_left",
    "seen_all_2",
    "seen_all",
    "seen_only",
    "seen_some",
    "news_impossible",
    "card_one",
    "card_few",
    "card_many",
    "draw_one",
    "draw_few",
    "draw_many",
)
"""The interface texts a lesson's script uses."""


class _Builder:
    """Turns one GameResult into a Lesson in one language."""

    def __init__(self, game: GameResult, lang: str, books: bool = False) -> None:
        self.game = game
        self.lang = lang
        self.with_books = books
        """Work out each step's books here too (the page's script works them out itself; see :func:`build_lesson`)."""
        self.t = interface(lang)
        self.seats = list(game.profile.seats)
        self.profile = game.profile.with_options(game.options)
        """The profile as the game's options make it (infuzorka's option packs changes the deck)."""
        self.scorers = list(game.profile.scorers)
        """Who keeps a score: the seats, or the sides (``N+S``) of a partnership game."""
        self.used_ids: set[str] = set()
        self.rules_page = f"{rules_slug(game.profile.name)}.html"
        self.kit = _kit(self.profile, lang)
        self.view: Callable[[Card], CardView] = self.kit.view
        """The card's view in the lesson's language (made once per card and language, see :class:`_Kit`)."""
        self.ranks = sorted(self.profile.ranks, reverse=True)
        self.pack = self.kit.pack
        # The books' states and their texts, each made once per lesson: from one step to the next most do not
        # change, and the page names each by its number.
        self.meld_states: dict[tuple[str, str], int] = {}
        self.state_list: list[tuple[str, str]] = []
        self._texts: dict[tuple[Any, ...], int] = {}
        self._asked: dict[tuple[object, ...], int] = {}
        """The states worked out in the current deal, by what they depend on (see :meth:`book`)."""
        self._shared = self.kit.states
        """The same for all the lessons of the profile and language so far, as (state, text) pairs."""
        self._unseen_texts: dict[tuple[int, int], str] = {}
        self.hidden_labels: list[str] = []
        self._seat_names: dict[str, str] = {}
        self._seat_sentences: dict[tuple[str, str], str] = {}
        self._stock_texts: dict[int, str] = {}
        self._trumps: dict[Suit | None, tuple[str, bool]] = {}
        """What a screen reader hears for a hidden hand of n cards, by n (the page's script draws the hands)."""

    # --- small formatters -------------------------------------------------------------------------------

    def seat(self, seat: str | None) -> str:
        if seat is None:
            return ""
        found = self._seat_names.get(seat)
        if found is None:
            if "+" in seat:  # a side of a partnership game: "North & South"
                found = " & ".join(self.seat(s) for s in seat.split("+"))
            else:
                found = self.t.get(f"seat_{seat}", seat)
            self._seat_names[seat] = found
        return found

    def seat_says(self, key: str, seat: str) -> str:
        """An interface sentence about a seat ("North leads"), made once per lesson: every step says a few."""
        found = self._seat_sentences.get((key, seat))
        if found is None:
            found = self._seat_sentences[key, seat] = self.t[key].format(seat=self.seat(seat))
        return found

    def seat_gen(self, seat: str) -> str:
        return self.t.get(f"seat_gen_{seat}", self.seat(seat))

    def player(self, seat: str) -> str:
        name = self.game.players.get(seat, "").strip()
        # The replay fills in the seat letter for a game without a players header, and a record may "name" the
        # players North and South: neither says more than the seat, so neither is shown twice.
        seat_names = {seat.casefold()} | {STRINGS[lang].get(f"seat_{seat}", seat).casefold() for lang in STRINGS}
        return "" if name.casefold() in seat_names else name

    def cards(self, cards: Iterable[Card]) -> list[CardView]:
        return [self.view(c) for c in cards]

    def scores(self, after: Mapping[str, int], before: Mapping[str, int] | None = None) -> list[ScoreView]:
        return [
            ScoreView(s, self.seat(s), after.get(s, 0), after.get(s, 0) - (before or after).get(s, 0))
            for s in self.scorers
        ]

    def trump(self, suit: Suit | None) -> tuple[str, bool]:
        if suit is None:
            return "", False
        name = suit.english if self.lang == "en" else suit.russian
        return f"{suit.glyph} {name}", suit.red

    def trump_at(self, deal: DealResult, trick: int) -> tuple[str, bool]:
        """:meth:`trump` of the trumps after ``trick`` (see :func:`_trump_at`)."""
        suit = _trump_at(deal, trick)
        found = self._trumps.get(suit)
        if found is None:
            found = self._trumps[suit] = self.trump(suit)
        return found

    def unique(self, wanted: str) -> str:
        # A record that numbers two tricks alike would give two sections one id; the second gets a suffix.
        candidate, n = wanted, 2
        while candidate in self.used_ids:
            candidate, n = f"{wanted}-{n}", n + 1
        self.used_ids.add(candidate)
        return candidate

    def stock_text(self, count: int) -> str:
        found = self._stock_texts.get(count)
        if found is None:
            if count <= 0:
                found = self.t["stock_empty"]
            else:
                found = self.t["stock_left"].format(n=count, cards=plural(self.t, "card", count))
            self._stock_texts[count] = found
        return found

    def rule_href(self, kind: str) -> str:
        if self.game.profile.meld(kind) is not None:
            return f"{self.rules_page}#meld-{kind}"
        anchor = {
            "seven_exchange": "seven",
            "seven_played": "seven",
            "turnup_seven": "seven",
            "last_trick": "last-trick",
            "brisques": "brisques",
            "goes_out": "hand-target",
        }.get(kind)
        return f"{self.rules_page}#{anchor}" if anchor else ""

    def meld_name(self, spec: MeldSpec, suit: Suit | None = None, form: str = "meldname") -> str:
        name = self.t.get(f"{form}_{spec.kind}") or self.t.get(f"meldname_{spec.kind}") or spec.label
        return f"{name} {suit.glyph}" if suit is not None else name

    def scoring(self, event: Scoring) -> ScoringView:
        who = self.seat(event.seat)
        rank = self.profile.seven_rank
        if event.kind == "goes_out":
            lead = self.t["score_goes_out"].format(seat=who, n=self.profile.hand_target)
            return ScoringView(event.seat, event.kind, lead, [], 0, lead, self.rule_href(event.kind))
        if event.kind == "seven_exchange" and rank != Rank.SEVEN:
            lead = self.t["score_card_exchange"].format(seat=who, rank=self.t.get(f"rank_{rank.symbol}", rank.symbol))
        elif event.kind in ("seven_exchange", "seven_played", "turnup_seven", "last_trick", "brisques"):
            lead = self.t[f"score_{event.kind}"].format(seat=who)
        elif self.game.profile.meld(event.kind) is not None or f"meld_{event.kind}" in self.t:
            spec = self.game.profile.meld(event.kind)
            meld = (
                self.t.get(f"meld_{event.kind}")
                or self.t.get(f"meldname_{event.kind}")
                or (spec.label if spec else event.kind.replace("_", " "))
            )
            lead = self.t["score_declares"].format(seat=who, meld=meld)
        elif f"score_{event.kind}" in self.t:
            lead = self.t[f"score_{event.kind}"].format(seat=who)
        else:
            lead = self.t["score_other"].format(seat=who, kind=event.kind.replace("_", " "))
        # Brisques are every ace and ten won: a list of cards would say nothing more than the points.
        cards = [] if event.kind == "brisques" else self.cards(event.cards)
        shown = " ".join(c.glyph for c in cards)
        text = f"{lead}{' ' + shown if shown else ''}: {event.points}"
        return ScoringView(event.seat, event.kind, lead, cards, event.points, text, self.rule_href(event.kind))

    def mark(self, view: CardView, deal: DealResult, where: tuple[int, str, str]) -> CardView:
        """Mark a card the record left unknown (see replayer.infer), with its alternatives when it is open."""
        inference = deal.inference
        if inference is None:
            return view
        for unknown in inference.unknowns:
            if (unknown.trick, unknown.seat, unknown.role) == where:
                status, others = inference.status(unknown)
                alternatives = " ".join(self.view(c).glyph for c in others)
                label = self.t[f"inferred_{status}"].format(cards=alternatives)
                return replace(view, inferred=status, alternatives=alternatives, label=f"{view.label} ({label})")
        return view

    def mark_dealt(self, deal: DealResult, seats: list[SeatView]) -> list[SeatView]:
        """Mark the dealt cards the record left unknown: those every completion deals, and those chosen."""
        inference = deal.inference
        if inference is None or not inference.hands:
            return seats
        marked = []
        for view in seats:
            hand = inference.hands.get(view.seat)
            if hand is None:
                marked.append(view)
                continue
            certain = Counter(hand["certain"])
            cards = []
            for card in view.hand:
                key = Card.parse(card.code)
                status = "forced" if certain[key] > 0 else "open"
                certain[key] -= 1
                label = self.t[f"inferred_{status}"].format(cards="…")
                cards.append(replace(card, inferred=status, label=f"{card.label} ({label})"))
            marked.append(replace(view, hand=cards))
        return marked

    def hidden_label(self, n: int) -> str:
        """What a screen reader hears for a hidden hand of ``n`` cards (every shorter one's is written too, for the
        page's script, which draws the hands of the tricks)."""
        while len(self.hidden_labels) <= n:
            k = len(self.hidden_labels)
            self.hidden_labels.append(self.t["hidden_cards"].format(n=k, cards=plural(self.t, "card", k)))
        return self.hidden_labels[n]

    def dealt(self, hands: Mapping[str, list[Card]]) -> list[SeatView]:
        """The seats with their hands as dealt (nothing lies on the table yet)."""
        views = []
        for s in self.seats:
            hand = self.cards(hands.get(s, []))
            hidden = self.hidden_label(len(hand))
            views.append(
                SeatView(s, self.seat(s), self.player(s), hand, [], _position(s), hidden, self.game.profile.scorer(s))
            )
        return views

    def comments(self, comments: Sequence[Comment]) -> list[TextView]:
        if not comments:
            return []
        return [TextView(text, text_lang(text)) for c in comments if (text := c.text.strip())]

    def question(self, trick: TrickResult, seat: str, text: str, answers: Sequence[Card]) -> QuestionView:
        index = next((i for i, (s, _) in enumerate(trick.plays) if s == seat), 0)
        snap = trick.before
        held = sorted({*snap.hands.get(seat, ()), *snap.tables.get(seat, ())}, key=lambda c: c.sort_key)
        return QuestionView(
            seat,
            self.t["question_for"].format(seat=self.seat(seat)),
            text,
            self.cards(answers),
            play_index=index,
            choices=self.cards(held),
            choose=self.t["quiz_choose"].format(seat=self.seat(seat)),
            lang=text_lang(text),
        )

    # --- bookkeeping -------------------------------------------------------------------------------------

    def seen_reason(self, card: int, available: int, copies: int) -> str:
        glyph = self.view(self.pack.cards[card]).glyph
        seen = copies - available
        if available == 0:
            if copies == 2:
                return self.t["seen_all_2"].format(card=glyph)
            if copies == 1:
                return self.t["seen_only"].format(card=glyph)
            return self.t["seen_all"].format(card=glyph, n=copies)
        return self.t["seen_some"].format(card=glyph, k=seen, n=copies)

    def state(self, state: str, text: str) -> int:
        """The number of a (state, text) pair of the tables of combinations."""
        found = self.meld_states.get((state, text))
        if found is None:
            found = self.meld_states[state, text] = len(self.state_list)
            self.state_list.append((state, text))
        return found

    def state_of(self, key: tuple[Any, ...]) -> int:
        """The state a key names (see :meth:`open_state`), its text written the first time it is asked for."""
        found = self._texts.get(key)
        if found is not None:
            return found
        t = self.t
        what = key[0]
        if what == "scored":
            found = self.state("scored", t["meld_scored"].format(n=key[1]))
        elif what == "possible":
            found = self.state("possible", t["meld_possible"])
        elif what == "ready":
            found = self.state("ready", t["meld_ready"])
        elif what == "has":
            found = self.state("possible", t["meld_has"].format(k=key[1], n=key[2]))
        elif what == "needs":
            cards = " ".join(self.view(self.pack.cards[c]).glyph for c in key[1:])
            found = self.state("possible", t["meld_needs"].format(cards=cards))
        elif what == "draws":
            k, d = key[1], key[2]
            text = t["draws_left"].format(k=k, cards=plural(t, "card", k), d=d, draws=plural(t, "draw", d))
            found = self.state("impossible", text)
        elif what == "kind_left":
            rank = key[2]
            found = self.state("impossible", t["kind_left"].format(n=key[1], rank_pl=t.get(f"rank_pl_{rank}", rank)))
        else:  # "seen": the cards of which too many are seen, with how many are left and the copies
            reasons = [self.seen_reason(*triple) for triple in key[1:]]
            found = self.state("impossible", ", ".join(reasons))
        self._texts[key] = found
        return found

    def scored_state(self, target: _Target, events: Sequence[tuple[int, Scoring]]) -> int:
        """The state of a combination a seat has scored (``events``: what it scored of that kind), or -1."""
        for n, event in events:
            if target.suit is None or all(c.suit == target.suit for c in event.cards):
                return self.state_of(("scored", n))
        return -1

    def open_state(
        self,
        target: _Target,
        own: bool,
        available: Sequence[int],
        held: Sequence[int],
        draws: int,
        deck: Sequence[int],
    ) -> int:
        """The state of a combination not yet scored for a seat, as a viewer can tell (``own``: the viewer's own
        row; ``held`` is the viewer's cards, ``available`` what the seat may still gather)."""
        if target.count:
            left = sum(available[k] for k in target.of_rank)
            if left < target.count:
                return self.state_of(("kind_left", left, target.rank.symbol if target.rank else ""))
        else:
            seen = tuple((k, available[k], deck[k]) for k, need in target.needed if available[k] < need)
            if seen:
                return self.state_of(("seen", *seen))
        if not own:
            return self.state_of(("possible",))
        if target.count:
            has = min(sum(held[k] for k in target.of_rank), target.count)
            missing = target.count - has
            detail: tuple[Any, ...] = ("has", has, target.count)
        else:
            # ``needed`` is in page order already, so the lacking cards come out sorted.
            lacking = [k for k, n in target.needed for _ in range(n - held[k])]
            missing = len(lacking)
            detail = ("needs", *lacking)
        if missing == 0:
            return self.state_of(("ready",))
        if missing > draws:
            return self.state_of(("draws", missing, draws))
        return self.state_of(detail)

    def unseen_text(self, total: int, facedown: int) -> str:
        found = self._unseen_texts.get((total, facedown))
        if found is None:
            found = self._unseen_texts[total, facedown] = self.t["unseen_text"].format(
                n=total,
                cards=plural(self.t, "card", total),
                stock=min(facedown, total),
                hands=max(total - facedown, 0),
            )
        return found

    def book(
        self,
        viewer: str,
        snap: Snapshot,
        phase: int,
        knowledge: _Knowledge,
        targets: Sequence[_Target],
        held_by: Mapping[str, list[int]],
        tables: Mapping[str, list[int]],
        before: set[int] | None,
    ) -> tuple[Book, set[int]]:
        """One seat's bookkeeping before a trick; also returns what it knows to be impossible (positions in its
        ``melds``), for the next step.

        ``held_by`` counts each seat's cards (hand and table), ``tables`` its cards on the table.
        """
        held = held_by[viewer]
        others = knowledge.others_known(viewer)
        unseen = _minus(knowledge.left, held, *others)
        if snap.turnup is not None:
            k = self.pack.number(snap.turnup)
            unseen[k] = max(unseen[k] - 1, 0)
        total = sum(unseen)
        facedown = max(snap.stock - (1 if snap.turnup is not None else 0), 0)
        known: list[int] = []
        for seat in self.seats:
            if seat != viewer and any(knowledge.public[seat]):
                known.extend(k for k, n in enumerate(_minus(knowledge.public[seat], tables[seat])) for _ in range(n))
        known.sort()
        melds: list[int] = []
        news: list[str] = []
        impossible: set[int] = set()
        declaring = phase in self.profile.declare_phases
        if declaring:
            seats = self.seats
            # What each seat may still gather, as the viewer knows it: the same for every combination.
            available = [
                _minus(knowledge.left, *others)
                if s == viewer
                else _minus(knowledge.left, held, *knowledge.others_known(viewer, but=s))
                for s in seats
            ]
            draws = knowledge.draws_left(snap)
            scored, asked, deck = knowledge.scored, self._asked, knowledge.deck
            own = seats.index(viewer)
            for t, target in enumerate(targets):
                # Until it is scored, a combination's state depends only on how many of its cards the seat may
                # still gather, and in the viewer's own row on how many the viewer holds and how many draws are
                # left (no more than the combination has cards can matter): most steps ask again what an earlier
                # step of the deal asked.
                pick, kind = target.pick, target.spec.kind
                anybody = kind in knowledge.kinds
                mine = (pick(held), min(draws, target.size))
                for s, seat in enumerate(seats):
                    state = self.scored_state(target, scored.get((seat, kind), ())) if anybody else -1
                    if state < 0:
                        key = (t, pick(available[s]), mine) if s == own else (t, pick(available[s]))
                        state = asked.get(key, -1)
                        if state < 0:
                            shared = (target.shape, *key[1:])
                            pair = self._shared.get(shared)
                            if pair is None:
                                state = self.open_state(target, s == own, available[s], held, draws, deck)
                                self._shared[shared] = self.state_list[state]
                            else:
                                state = self.state(*pair)
                            asked[key] = state
                    melds.append(state)
            impossible = {i for i, state in enumerate(melds) if self.state_list[state][0] == "impossible"}
            # Said once, where it becomes true: the combinations the step before did not know to be impossible.
            for i in sorted(impossible if before is None else impossible - before):
                target, seat = targets[i // len(seats)], seats[i % len(seats)]
                meld = self.meld_name(target.spec, target.suit, form=self.t["news_meld_form"])
                reason = self.state_list[melds[i]][1]
                news.append(self.t["news_impossible"].format(reason=reason, meld=meld, seat=self.seat(seat)))
        text = self.unseen_text(total, facedown)
        return Book(viewer, unseen, total, text, known, news, melds, declaring), impossible

    def books(
        self,
        snap: Snapshot,
        phase: int,
        knowledge: _Knowledge,
        targets: Sequence[_Target],
        memory: dict[str, set[int]],
        board: Board | None = None,
    ) -> list[Book]:
        """Every seat's book before a trick (``board``, when given, holds the snapshot's cards already numbered)."""
        if board is None:
            hands = {s: self.pack.ids(snap.hands.get(s, ())) for s in self.seats}
            tables = {s: self.pack.ids(snap.tables.get(s, ())) for s in self.seats}
        else:
            hands = dict(zip(self.seats, board.hands, strict=True))
            tables = dict(zip(self.seats, board.tables, strict=True))
        size = len(self.pack.deck)
        held_by: dict[str, list[int]] = {}
        on_table: dict[str, list[int]] = {}
        for seat in self.seats:
            table = [0] * size
            for k in tables[seat]:
                table[k] += 1
            held = list(table)
            for k in hands[seat]:
                held[k] += 1
            held_by[seat], on_table[seat] = held, table
        books = []
        for viewer in self.seats:
            book, impossible = self.book(viewer, snap, phase, knowledge, targets, held_by, on_table, memory.get(viewer))
            memory[viewer] = impossible
            books.append(book)
        return books

    # --- steps ---------------------------------------------------------------------------------------------

    def start_step(self, deal: DealResult, index: int, single: bool) -> Step:
        long_id = f"deal-{index}-start"
        anchor = self.unique("start" if single else long_id)
        trump, red = self.trump(deal.trump)
        first = deal.tricks[0].before if deal.tricks else None
        totals: Counter[str] = Counter()
        for event in deal.scoring:
            totals[self.game.profile.scorer(event.seat)] += event.points
        scores = first.scores if first is not None else {s: totals.get(s, 0) for s in self.scorers}
        stock = first.stock if first is not None else self.profile.stock_size
        turnup = self.view(deal.turnup) if deal.turnup is not None else None
        zero = dict.fromkeys(self.scorers, 0)
        return Step(
            id=long_id,
            anchor=anchor,
            aliases=[long_id] if anchor != long_id else [],
            kind="start",
            # In a game of several deals the previous/next links must say which deal's start they lead to.
            title=self.t["deal_start"] if single else self.t["deal_title"].format(n=deal.number),
            number=0,
            phase=1,
            phase_note="",
            seats=self.mark_dealt(deal, self.dealt(deal.hands)),
            leader=self.t["leads"].format(seat=self.seat(deal.leader)),
            plays=[],
            winner="",
            scoring=[self.scoring(e) for e in deal.scoring],
            draws=[],
            stock=stock,
            stock_text=self.stock_text(stock),
            turnup=turnup,
            trump=trump,
            trump_red=red,
            scores_title=self.t["score_start"],
            scores=self.scores(scores, zero),
            comments=self.comments(deal.comments),
            questions=[],
            before_scores=self.scores(zero),
            before_stock=stock,
            before_stock_text=self.stock_text(stock),
            before_turnup=turnup,
        )

    def trick_step(
        self, deal: DealResult, index: int, trick: TrickResult, single: bool, phase_note: str, scored_rows: int
    ) -> Step:
        """A trick's step; ``scored_rows`` is how many rows of the running score sheet stand before it."""
        long_id = f"deal-{index}-trick-{trick.n}"
        anchor = self.unique(f"trick-{trick.n}" if single else long_id)
        trump, red = self.trump_at(deal, trick.n)
        before: Snapshot = trick.before
        after: Snapshot = trick.after
        view, seat_name = self.view, self.seat
        winner_seen = False
        plays = []
        draws = []
        for seat, card in trick.plays:
            # With two packs the same card can be played twice in a trick; the first one played wins.
            winning = seat == trick.winner and not winner_seen
            winner_seen = winner_seen or winning
            plays.append(PlayView(seat, seat_name(seat), view(card), winning))
        for seat, card in trick.draws:
            draws.append(PlayView(seat, seat_name(seat), view(card)))
        if deal.inference is not None:
            plays = [replace(p, card=self.mark(p.card, deal, (trick.n, p.seat, "card"))) for p in plays]
            draws = [replace(p, card=self.mark(p.card, deal, (trick.n, p.seat, "draw"))) for p in draws]
        questions = [self.question(trick, seat, q.text, q.answers) for seat, q in trick.questions]
        turnup = view(after.turnup) if after.turnup is not None else None
        return Step(
            id=long_id,
            anchor=anchor,
            aliases=[long_id] if anchor != long_id else [],
            kind="trick",
            title=self.t["trick_title"].format(n=trick.n),
            number=trick.n,
            phase=trick.phase,
            phase_note=phase_note,
            seats=[],
            leader=self.seat_says("leads", trick.leader),
            plays=plays,
            winner=self.seat_says("wins_trick", trick.winner) if trick.winner else "",
            scoring=[self.scoring(e) for e in trick.scoring],
            draws=draws,
            stock=after.stock,
            stock_text=self.stock_text(after.stock),
            turnup=turnup,
            trump=trump,
            trump_red=red,
            scores_title=self.t["score_after"],
            scores=self.scores(trick.scores, before.scores),
            comments=self.comments(trick.comments),
            questions=questions,
            board=self.board(trick, trump, red, scored_rows + (1 if trick.scoring else 0)),
        )

    def board(self, trick: TrickResult, trump: str, trump_red: bool, sheet: int) -> Board:
        """The table before a trick, its cards numbered for the page's script."""
        before = trick.before
        hands = [self.pack.ids(before.hands.get(s, ())) for s in self.seats]
        played = dict(trick.plays)
        number = self.pack.number
        self.hidden_label(max(map(len, hands), default=0))
        scorer = self.game.profile.scorer
        return Board(
            hands=hands,
            tables=[self.pack.ids(before.tables.get(s, ())) for s in self.seats],
            played=[number(played[s]) if s in played else -1 for s in self.seats],
            scores=[before.scores.get(scorer(s), 0) for s in self.seats],
            turnup=number(before.turnup) if before.turnup is not None else -1,
            stock=before.stock,
            stock_text=self.stock_text(before.stock),
            trump=trump,
            trump_red=trump_red,
            sheet=sheet,
        )

    def deal(self, deal: DealResult, index: int, single: bool, totals: dict[str, int]) -> DealView:
        profile = self.profile
        knowledge = _Knowledge(profile, self.seats, self.pack)
        targets = self.kit.targets(deal.trump)
        self._asked = {}  # a deal's combinations are numbered anew (its trumps decide some)
        knowledge.add_scoring(0, deal.scoring)
        memory: dict[str, set[int]] = {}
        start = self.start_step(deal, index, single)
        start.has_books = bool(deal.tricks)
        kinds = {g.spec.kind for g in targets}
        start.book_events = self.book_events(deal.scoring, kinds)
        if deal.tricks and self.with_books:
            start.books = self.books(deal.tricks[0].before, 1, knowledge, targets, memory)
        steps = [start]
        sheet = [SheetRow(start.anchor, start.title, "", _sheet_events(start), [v.value for v in start.scores])]
        start.sheet = _running(sheet)
        scored_rows = 1 if sheet[0].events else 0
        seen_phase_2 = False
        for trick in deal.tricks:
            note = ""
            if trick.phase == 2 and not seen_phase_2:
                note = self.t["phase_2"].format(n=profile.total_tricks - profile.phase1_tricks)
                seen_phase_2 = True
            step = self.trick_step(deal, index, trick, single, note, scored_rows)
            step.has_books = True
            step.book_events = self.book_events(trick.scoring, kinds)
            if trick.before.turnup is not None and trick.after.turnup is None and trick.draws:
                # The stock's last card is the turn-up: whoever takes it takes a card everybody has seen.
                seat, card = trick.draws[-1]
                step.turnup_taken = (self.seats.index(seat), self.pack.number(card))
            if self.with_books:
                step.books = self.books(trick.before, trick.phase, knowledge, targets, memory, step.board)
                knowledge.after_trick(trick)
                knowledge.add_scoring(trick.n, trick.scoring)
            steps.append(step)
            events = _sheet_events(step)
            scored_rows += 1 if events else 0
            sheet.append(
                SheetRow(step.anchor, str(trick.n), self.seat(trick.winner), events, [v.value for v in step.scores])
            )
        # Where the profile counts game points (sixty-six), the game's totals add those up.
        for seat, points in (deal.game_points or deal.scores).items():
            totals[seat] = totals.get(seat, 0) + points
        trump, red = self.trump(_trump_at(deal, len(deal.tricks)))
        end_anchor = self.unique("end" if single else f"deal-{index}-end")
        last = deal.tricks[-1].scores if deal.tricks else {}
        return DealView(
            number=deal.number,
            id=f"deal-{index}",
            title=self.t["deal_title"].format(n=deal.number),
            summary=self.t["dealer_leader"].format(dealer=self.seat(deal.dealer), leader=self.seat(deal.leader)),
            trump=trump,
            trump_red=red,
            steps=steps,
            end_anchor=end_anchor,
            end_title=self.t["deal_end"].format(n=deal.number),
            brisques=[ScoreView(s, self.seat(s), deal.brisques.get(s, 0)) for s in self.scorers]
            if deal.brisques
            else [],
            result=self.scores(deal.scores, last or None),
            totals=[ScoreView(s, self.seat(s), totals.get(s, 0)) for s in self.scorers]
            if len(self.game.deals) > 1
            else [],
            totals_label=self.t["game_points_total"] if deal.game_points else self.t["game_total"],
            end_comments=self.comments(deal.end_comments),
            seat_labels=[self.seat(s) for s in self.scorers],
            sheet=sheet,
            targets=self.target_views(deal.trump),
        )

    def target_views(self, trump: Suit | None) -> list[TargetView]:
        """The rows of the tables of combinations of a deal with these trumps (made once per kit and trumps; the list
        is shared: not to be changed)."""
        found = self.kit.target_views.get(trump)
        if found is None:
            found = self.kit.target_views[trump] = [self.target_view(g) for g in self.kit.targets(trump)]
        return found

    def target_view(self, target: _Target) -> TargetView:
        spec = target.spec
        rank = target.rank.symbol if target.rank else ""
        return TargetView(
            spec.kind,
            self.meld_name(spec, target.suit),
            list(target.pictures),
            self.rule_href(spec.kind),
            suit=target.suit.value if target.suit is not None else "",
            needed=list(target.needed),
            of_rank=list(target.of_rank),
            count=target.count,
            rank_plural=self.t.get(f"rank_pl_{rank}", rank) if target.count else "",
            news_name=self.meld_name(spec, target.suit, form=self.t["news_meld_form"]),
        )

    def book_events(self, events: Iterable[Scoring], kinds: set[str]) -> list[tuple[int, str, list[int]]]:
        """The scoring events the books follow (see :attr:`Step.book_events`)."""
        seats = self.seats
        return [
            (seats.index(e.seat), e.kind, self.pack.ids(e.cards))
            for e in events
            if (e.kind in kinds or e.kind == "seven_exchange") and e.seat in seats
        ]

    def data(self, deals: Sequence[DealView]) -> dict[str, Any]:
        """What the page's script needs to draw each step's board and work out each seat's books
        (``static/lesson.js`` reads it).

        Cards are numbers (indices into ``cards``); every text is written here, in the lesson's language (the books'
        as templates the script fills in), so that the script only counts and lays things out.
        """
        t = self.t
        steps: list[dict[str, Any]] = []
        for d, deal in enumerate(deals):
            for step in deal.steps:
                step.data = len(steps)
                board = step.board
                entry: dict[str, Any] = {
                    "deal": d,
                    "anchor": step.anchor,
                    "n": step.number,
                    "phase": step.phase,
                    "books": step.has_books,
                    "board": None
                    if board is None
                    else {
                        "hands": board.hands,
                        "tables": board.tables,
                        "played": board.played,
                        "scores": board.scores,
                        "turnup": board.turnup,
                        "stock": board.stock,
                        "stock_text": board.stock_text,
                        "trump": board.trump,
                        "trump_red": board.trump_red,
                        "sheet": board.sheet,
                    },
                }
                if step.book_events:
                    entry["events"] = step.book_events
                if step.turnup_taken is not None:
                    entry["took"] = step.turnup_taken
                steps.append(entry)
        others = {v: ", ".join(self.seat_gen(s) for s in self.seats if s != v) for v in self.seats}
        return {
            **self.page_data(),
            "seats": [
                {"seat": s, "label": self.seat(s), "player": self.player(s), "position": _position(s)}
                for s in self.seats
            ],
            "hidden": self.hidden_labels,
            "books": [
                {
                    "title": t["book_title"].format(seat_gen=self.seat_gen(v), seat=self.seat(v)),
                    "unseen": t["unseen_title"].format(seat=self.seat(v)),
                    "known": t["known_in_hand"].format(seat_gen=others[v]),
                }
                for v in self.seats
            ],
            "deals": [
                {
                    "labels": deal.seat_labels,
                    "sheet": [[r.anchor, r.step, r.events, r.scores] for r in deal.sheet if r.events],
                    "targets": self.targets_data(deal.targets),
                }
                for deal in deals
            ],
            "steps": steps,
        }

    def page_data(self) -> dict[str, Any]:
        """The part of the data block that depends only on the profile and the language (made once per kit)."""
        found = self.kit.page_data
        if found:
            return found
        t = self.t
        found.update(
            {
                # code, rank, suit symbol, red, label, suit letter (a scored combination counts in its suit only)
                "cards": [
                    [v.code, v.rank, v.suit, v.red, v.label, c.suit.value]
                    for c, v in zip(self.pack.cards, map(self.view, self.pack.cards), strict=True)
                ],
                "deck": self.pack.deck,
                "players": self.profile.players,
                "declare": list(self.profile.declare_phases),
                "ranks": [self.view(Card(Suit.S, r)).rank for r in self.ranks],
                # The table of unseen cards, suit by suit: the profile's ranks (not the extra cards of some packs).
                "grid": [[self.pack.index[Card(s, r)] for r in self.ranks] for s in Suit],
                "suits": [[s.value, s.glyph, s.red, s.english if self.lang == "en" else s.russian] for s in Suit],
                "rules": self.rules_page,
                "text": {key: t[key] for key in _SCRIPT_TEXTS},
            }
        )
        return found

    @staticmethod
    def targets_data(targets: Sequence[TargetView]) -> list[dict[str, Any]]:
        return [
            {
                "name": g.name,
                "pictures": g.pictures,
                "rule": g.rule_href,
                "kind": g.kind,
                "suit": g.suit,
                "needed": g.needed,
                "of_rank": g.of_rank,
                "count": g.count,
                "rank_pl": g.rank_plural,
                "news": g.news_name,
            }
            for g in targets
        ]

    # --- the lesson ----------------------------------------------------------------------------------------

    def source(self) -> list[SourceItem]:
        headers = {k: v for k, v in self.game.headers.items() if k != "title" and v.strip()}
        keys = [k for k in _HEADER_ORDER if k in headers] + sorted(k for k in headers if k not in _HEADER_ORDER)
        items = []
        for key in keys:
            text = headers[key].strip()
            # Only web addresses become links: a javascript: or data: "url" header must stay inert text.
            href = text if key == "url" and text.lower().startswith(("http://", "https://")) else None
            items.append(SourceItem(key, self.t.get(f"header_{key}", key.capitalize()), text, href))
        return items

    def result(self) -> tuple[str, str]:
        game = self.game
        scored = game.deals[-1].game_scores if game.deals else {}
        if game.winner and scored:
            # A one-hand game (Rubicon, six- and eight-pack): the game score, not only the hand's, decides.
            scores = ", ".join(f"{self.seat(s)} {v}" for s, v in scored.items())
            return self.t["wins_game_score"].format(seat=self.seat(game.winner), scores=scores), self.seat(game.winner)
        if game.winner:
            return self.t["wins_game"].format(seat=self.seat(game.winner)), self.seat(game.winner)
        target = game.options.get("target")
        if target is not None:
            return self.t["undecided"].format(target=target), ""
        return self.t["undecided_no_target"], ""

    def blurb(self) -> str:
        game = self.game
        for comment in [*game.comments, *(c for d in game.deals for c in d.comments)]:
            if comment.text.strip():
                return _first_sentence(comment.text)
        return ""

    def questions_text(self, n: int) -> str:
        if not n:
            return ""
        return self.t["lesson_questions"].format(n=n, questions=plural(self.t, "questions", n))

    def build(self) -> Lesson:
        game = self.game
        single = len(game.deals) == 1
        totals: dict[str, int] = {}
        deals = [self.deal(d, i + 1, single, totals) for i, d in enumerate(game.deals)]
        _link_steps(deals)
        data = self.data(deals)
        result, winner = self.result()
        tricks = sum(len(d.tricks) for d in game.deals)
        scores = self.scores(game.scores or totals)
        count = len(game.deals)
        summary = " · ".join(
            [
                f"{count} {plural(self.t, 'deal', count)}, {tricks} {plural(self.t, 'trick', tricks)}",
                ", ".join(f"{s.label} {s.value}" for s in scores),
                result,
            ]
        )
        defaults = game.profile.default_options()
        options = [(k, str(v)) for k, v in game.options.items() if defaults.get(k) != v]
        questions = sum(len(s.questions) for d in deals for s in d.steps)
        return Lesson(
            title=game.title,
            profile=game.profile.name,
            profile_title=game.profile.title,
            players=[(self.seat(s), self.player(s)) for s in self.seats],
            source=self.source(),
            options=options,
            result=result,
            summary=summary,
            comments=self.comments(game.comments),
            deals=deals,
            scores=scores,
            winner=winner,
            lang=self.lang,
            first_anchor=deals[0].steps[0].anchor if deals else "",
            steps_count=sum(len(d.steps) + 1 for d in deals),
            rules_href=self.rules_page,
            blurb=(blurb := self.blurb()),
            blurb_lang=text_lang(blurb),
            questions=questions,
            questions_text=self.questions_text(questions),
            seats=[(s, self.seat(s), self.t["view_only"].format(seat_gen=self.seat_gen(s))) for s in self.seats],
            cards=[self.view(c) for c in self.pack.cards],
            meld_states=self.state_list,
            data=data,
        )


def _sheet_events(step: Step) -> list[str]:
    """The step's scores in the score sheet's short form: "North declares bezique Q♠ J♦ +40"."""
    return [
        " ".join([e.lead, *(c.glyph for c in e.cards), *([f"{e.points:+d}"] if e.kind != "goes_out" else [])])
        for e in step.scoring
    ]


def _running(sheet: Sequence[SheetRow]) -> list[SheetRow]:
    """A step's running score sheet: the rows so far where something was scored, the step's own row marked."""
    rows = [row for row in sheet[:-1] if row.events]
    if sheet and sheet[-1].events:
        rows.append(replace(sheet[-1], now=True))
    return rows


def _link_steps(deals: Sequence[DealView]) -> None:
    """Fill in the previous/next links and positions: every step in order, each deal's end after its last trick."""
    chain: list[tuple[str, str, object]] = []
    for deal in deals:
        chain.extend((s.anchor, s.title, s) for s in deal.steps)
        chain.append((deal.end_anchor, deal.end_title, deal))
    for i, (_, _, item) in enumerate(chain):
        prev_anchor, prev_title = chain[i - 1][:2] if i > 0 else ("", "")
        next_anchor, next_title = chain[i + 1][:2] if i + 1 < len(chain) else ("", "")
        if isinstance(item, Step):
            item.prev_anchor, item.prev_title = prev_anchor, prev_title
            item.next_anchor, item.next_title = next_anchor, next_title
            item.index = i + 1
        elif isinstance(item, DealView):
            item.end_prev_anchor, item.end_prev_title = prev_anchor, prev_title
            item.end_next_anchor, item.end_next_title = next_anchor, next_title
            item.end_index = i + 1


def build_lesson(game: GameResult, lang: str = "en", slug: str = "", books: bool = False) -> Lesson:
    """The lesson view of a replayed game, with the interface text in ``lang`` (``en`` or ``ru``).

    The page's script works out each seat's books (``static/lesson.js``) from the boards and the scoring in the
    lesson's data; with ``books`` they are worked out here too, into :attr:`Step.books` and
    :attr:`Lesson.meld_states`: the model the tests hold the script's books to.
    """
    lesson = _Builder(game, lang, books).build()
    lesson.slug = slug
    return lesson


# --- rules pages and the glossary ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MeldRule:
    """One line of a rules page's combination table."""

    kind: str
    anchor: str
    name: str
    russian: str
    """The sources' Russian names (an empty string for a kind the glossary does not know)."""
    where: str
    cards: list[CardView]
    pattern: str
    """"of trumps (shown with ♣ as trumps)", "of any suits", …"""
    points: int
    group: str


@dataclass(frozen=True)
class OptionRule:
    """A house rule of a profile."""

    name: str
    anchor: str
    default: str
    values: list[tuple[str, bool]]
    """(value, is the default)."""
    doc: str


@dataclass(frozen=True)
class RankRule:
    """One rank in the card order, in both languages."""

    card: CardView
    name: str
    english: str
    russian: str
    letter_ru: str


@dataclass(frozen=True)
class SuitRule:
    """A suit with its names."""

    glyph: str
    code: str
    red: bool
    name: str
    english: str
    russian: str


@dataclass
class RulesView:
    """A profile's rules page, generated from the profile object."""

    name: str
    slug: str
    title: str
    description: str
    source: str
    deal: list[str]
    play: list[str]
    melds: list[MeldRule]
    melds_intro: str
    other: list[tuple[str, str]]
    """(anchor, sentence) for the seven, the last trick and the brisques."""
    options: list[OptionRule]
    ranks: list[RankRule]
    suits: list[SuitRule]


@dataclass(frozen=True)
class GlossaryEntry:
    """A term of the glossary: English, the sources' Russian words, what it means and where the books use it."""

    anchor: str
    english: str
    russian: str
    meaning: str
    where: str
    cards: list[CardView] = field(default_factory=list)
    href: str = ""


@dataclass
class GlossaryView:
    """The glossary page: sections of entries."""

    sections: list[tuple[str, list[GlossaryEntry]]]


# Trumps assumed when a rules page draws a trump combination: the worked deal's clubs.
_EXAMPLE_TRUMP = Suit.C


def _trump_at(deal: DealResult, trick: int) -> Suit | None:
    """Trumps after ``trick``: the turn-up's, or the suit a declaration fixed (RULES.md §2.e rule 4), or none yet."""
    if deal.trump is None and deal.trump_fixed is not None and trick >= deal.trump_fixed[0]:
        return deal.trump_fixed[1]
    return deal.trump


def _meld_pictures(spec: MeldSpec) -> list[Card]:
    if spec.cards or spec.trump_ranks or spec.partner_ranks:
        return sorted(spec.cards_for(_EXAMPLE_TRUMP), key=lambda c: c.sort_key)
    if spec.ranks:
        suit = {"trump": _EXAMPLE_TRUMP, "plain": Suit.H}.get(spec.suit or "", Suit.S)
        return [Card(suit, r) for r in spec.ranks]
    if spec.rank is not None:
        suits = list(Suit) * (spec.count // 4 + 1)
        return [Card(s, spec.rank) for s in suits[: spec.count]]
    return []


def _meld_pattern(spec: MeldSpec, t: Mapping[str, str]) -> str:
    if spec.whole_hand:
        return t["pattern_side_hand"] if spec.hand == "no_court_side" else t["pattern_hand"]
    if spec.cards and spec.when_trump:
        # The six-pack bezique (RULES.md §2.h rule 10): other cards under some trump suits.
        other = spec.when_trump[0][1]
        suits = ", ".join(s.glyph for s, c in spec.when_trump if c == other)
        shown = " ".join(str(c) for c in sorted(set(other), key=lambda c: c.sort_key))
        return f"{t['pattern_cards']}; {t['pattern_when_trump'].format(cards=shown, suits=suits)}"
    if spec.trump_ranks or spec.partner_ranks:
        return t["pattern_partner"]
    if spec.cards:
        return t["pattern_cards"]
    if spec.ranks:
        return t.get(f"pattern_{spec.suit}", "")
    return t["pattern_distinct"] if spec.distinct else t["pattern_kind"]


def _choice_sentence(t: Mapping[str, str], key: str, value: str, what: str) -> str:
    return t.get(f"rule_{key}_{value}") or t["rule_fallback"].format(what=what, value=value)


def build_rules(profile: RuleProfile, lang: str = "en") -> RulesView:
    """The rules page of a profile in ``lang``: every number and switch comes from the profile itself."""
    t = interface(lang)
    n_cards = len(profile.ranks) * 4
    deal = [
        t["fact_deck"].format(
            n=profile.packs,
            packs=plural(t, "pack", profile.packs),
            size=n_cards,
            cards=plural(t, "card", n_cards),
            deck=profile.deck_size,
        ),
        t["fact_hand"].format(
            n=profile.hand_size,
            cards=plural(t, "card", profile.hand_size),
            packets=", ".join(str(p) for p in profile.deal_packets) or str(profile.hand_size),
        ),
        t["fact_stock"].format(n=profile.stock_size, cards=plural(t, "card", profile.stock_size)),
    ]
    if profile.turnup:
        deal.append(t["fact_turnup"])
    elif profile.trump_fixing:
        fixing = [t.get(f"meldname_{kind}") or kind.replace("_", " ") for kind, _ in profile.trump_fixing]
        deal.append(t["fact_no_turnup"].format(melds=" / ".join(fixing)))
    guess, lift, count = profile.cut_bonus
    if count:
        deal.append(t["rule_cut"].format(guess=guess, lift=lift, count=count))
    phase2 = profile.total_tricks - profile.phase1_tricks
    deal.append(
        t["fact_tricks"].format(p1=profile.phase1_tricks, tricks=plural(t, "trick", profile.phase1_tricks), p2=phase2)
    )
    # With three or four players the winner is followed by the others, not by "the loser".
    draw = f"{profile.draw_order}_many" if profile.players > 2 and profile.draw_order == "winner_first" else None
    play = [
        _choice_sentence(t, "first_leader", profile.first_leader, "first_leader"),
        _choice_sentence(t, "draw_order", draw or profile.draw_order, "draw_order"),
        _choice_sentence(t, "phase1_play", profile.phase1_play, "phase1_play"),
        _choice_sentence(t, "phase2_play", profile.phase2_play, "phase2_play"),
        _choice_sentence(t, "declare_after", profile.declare_after, "declare"),
    ]
    if profile.sides:
        sides = ", ".join(" + ".join(t.get(f"seat_{seat}", seat) for seat in side) for side in profile.sides)
        play.insert(0, t["rule_sides"].format(sides=sides))
    if profile.declare_by == "winner_or_partner":
        play.append(t["rule_declare_by_winner_or_partner"])
    if profile.declare_joint:
        play.append(t["rule_declare_joint"])
    if profile.last_trick_to == "halves":
        play.append(t["rule_last_trick_halves"])
    if tuple(profile.declare_phases) == (1,):
        play.append(t["rule_declare_phase_1"])
    if profile.declare_lead_from:
        play.append(t["rule_lead_from"])
    if profile.table_cards_playable:
        play.append(t["rule_table_playable"])
    melds = []
    for spec in profile.melds:
        russian, where = MELD_TERMS.get(spec.kind, ("", ""))
        melds.append(
            MeldRule(
                kind=spec.kind,
                anchor=f"meld-{spec.kind}",
                name=t.get(f"meldname_{spec.kind}") or spec.label,
                russian=russian,
                where=where,
                cards=[card_view(c, t) for c in _meld_pictures(spec)],
                pattern=_meld_pattern(spec, t),
                points=spec.points,
                group=spec.klass,
            )
        )
    other: list[tuple[str, str]] = []
    sevens = []
    if profile.seven_turnup:
        sevens.append(t["rule_seven_turnup"].format(n=profile.seven_turnup))
    if profile.seven_exchange:
        sevens.append(t["rule_seven_exchange"].format(n=profile.seven_exchange))
    if profile.seven_played:
        key = "rule_seven_played_win" if profile.seven_played_must_win else "rule_seven_played"
        sevens.append(t[key].format(n=profile.seven_played))
    if profile.seven_rank != Rank.SEVEN:
        rank = t.get(f"rank_{profile.seven_rank.symbol}", profile.seven_rank.symbol)
        sevens.append(t["rule_card_exchange"].format(rank=rank, n=profile.seven_exchange))
    if sevens:
        other.append(("seven", " ".join(sevens)))
    if profile.hand_target:
        rows = "; ".join(t["rule_game_row"].format(points=p, lowest=low) for low, p in profile.game_points)
        target = profile.options["target"].default if "target" in profile.options else ""
        other.append(("hand-target", t["rule_hand_target"].format(n=profile.hand_target, rows=rows, target=target)))
    if profile.last_trick_points:
        other.append(("last-trick", t["rule_last_trick"].format(n=profile.last_trick_points)))
    if profile.brisque_points:
        ranks = ", ".join(t.get(f"rank_{r.symbol}", r.symbol) for r in profile.brisque_ranks)
        text = t["rule_brisques"].format(ranks=ranks, n=profile.brisque_points)
        if profile.brisques_when == "tie_or_rubicon":
            text += " " + t["rule_brisques_tie_or_rubicon"]
        other.append(("brisques", text))
    game = profile.game_scoring
    if game is not None:
        low = t["rule_game_low"].format(low_bonus=game.low_bonus, low_score=game.low_score) if game.low_bonus else ""
        other.append(
            (
                "game",
                t["rule_game_one_hand"].format(
                    bonus=game.game_bonus,
                    difference=t["rule_game_difference" if game.difference else "rule_game_own"],
                    rubicon=game.rubicon,
                    rubicon_bonus=game.rubicon_bonus,
                    low=low,
                ),
            )
        )
    options = []
    for name, option in profile.options.items():
        values = [(v, v == str(option.default)) for v in option.values] or [
            (f"{option.default} ({t['option_int']})", True)
        ]
        options.append(OptionRule(name, f"option-{name}", str(option.default), values, " ".join(option.doc.split())))
    ru = STRINGS["ru"]
    ranks_view = [
        RankRule(
            card=card_view(Card(Suit.S, r), t),
            name=t.get(f"rank_{r.symbol}", r.symbol),
            english=r.english,
            russian=r.russian,
            letter_ru=ru.get(f"symbol_{r.symbol}", r.symbol),
        )
        for r in sorted(profile.ranks, reverse=True)
    ]
    suits = [
        SuitRule(
            s.glyph,
            s.value,
            s.red,
            s.english if lang == "en" else s.russian,
            s.english,
            _SUIT_WORDS_RU.get(s, s.russian),
        )
        for s in Suit
    ]
    return RulesView(
        name=profile.name,
        slug=rules_slug(profile.name),
        title=profile.title,
        description=profile.description,
        source=profile.source,
        deal=deal,
        play=play,
        melds=melds,
        melds_intro=t["rules_melds_intro"].format(reuse=t["rules_reuse"]),
        other=other,
        options=options,
        ranks=ranks_view,
        suits=suits,
    )


def build_glossary(lang: str, profiles: Sequence[RuleProfile]) -> GlossaryView:
    """The glossary in ``lang``: the combinations of ``profiles`` (linked to the first profile that has each), the
    game's terms, and the ranks and suits, each beside the sources' Russian words."""
    t = interface(lang)
    melds: list[GlossaryEntry] = []
    seen: set[str] = set()
    for profile in profiles:
        for spec in profile.melds:
            if spec.kind in seen:
                continue
            seen.add(spec.kind)
            russian, where = MELD_TERMS.get(spec.kind, ("", ""))
            english = STRINGS["en"].get(f"meldname_{spec.kind}") or spec.label
            meaning = f"{_meld_pattern(spec, t)}: {spec.points}"
            melds.append(
                GlossaryEntry(
                    anchor=f"meld-{spec.kind}",
                    english=english,
                    russian=russian,
                    meaning=meaning,
                    where=where,
                    cards=[card_view(c, t) for c in _meld_pictures(spec)],
                    href=f"{rules_slug(profile.name)}.html#meld-{spec.kind}",
                )
            )
    game = [
        GlossaryEntry(anchor, english, russian, meaning_en if lang == "en" else meaning_ru, where)
        for anchor, english, russian, meaning_en, meaning_ru, where in _GLOSSARY_GAME
    ]
    ru = STRINGS["ru"]
    cards = [
        GlossaryEntry(
            anchor=f"rank-{r.symbol}",
            english=r.english,
            russian=f"{r.russian} ({letter})"
            if (letter := ru.get(f"symbol_{r.symbol}", r.symbol)) != r.symbol
            else r.russian,
            meaning=t.get(f"rank_{r.symbol}", r.english),
            where="000:L15",
            cards=[card_view(Card(Suit.S, r), t)],
        )
        for r in sorted(Rank, reverse=True)
    ]
    cards.extend(
        GlossaryEntry(
            anchor=f"suit-{s.value}",
            english=s.english,
            russian=_SUIT_WORDS_RU[s],
            meaning=s.english if lang == "en" else s.russian,
            where="000:L79, L83, L91",
            cards=[card_view(Card(s, Rank.ACE), t)],
        )
        for s in Suit
    )
    return GlossaryView([(t["glossary_melds"], melds), (t["glossary_game"], game), (t["glossary_cards"], cards)])
