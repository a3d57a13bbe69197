"""A profile's rules in words, as ``bezique rules PROFILE`` prints them: play, melds, scores, penalties, options.

Generated from the profile's data (:class:`~replayer.profile.RuleProfile`), so that it says what the rules core plays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .profile import RuleProfile

__all__ = ["configurations", "describe", "seed_lines", "table_line", "value_text"]

_TABLE_KEYS = frozenset({"players", "seats", "sides", "packs", "sit_out"})
"""The profile keys that make another configuration of the table: who plays, with how many packs."""


def configurations(profile: RuleProfile) -> list[tuple[str, RuleProfile]]:
    """The profile's other tables: each option value that changes the players or the packs (``players=3``), with
    the profile as it then plays (the defaults that value implies, such as a target, taken in)."""
    found = []
    for option in profile.options.values():
        for value, change in option.sets.items():
            if _TABLE_KEYS & set(change):
                chosen = profile.resolve_options({option.name: value})
                found.append((f"{option.name}={value}", profile.with_options(chosen)))
    return found


_CITE = re.compile(r"(\d{3}):(L\d+(?:[-–]L?\d+)?)((?:,\s*L\d+(?:[-–]L?\d+)?)*)")


def _unplayable(profile: RuleProfile) -> list[tuple[str, str]]:
    """The pairs of table options that together describe no playable deal, with the reason (three players with
    four packs of no-trump: 104 stock cards do not divide between three), so that ``bezique rules`` names the
    refusal instead of leaving it to a record (issue 25 item 4)."""
    tables = [
        (option.name, value)
        for option in profile.options.values()
        for value, change in option.sets.items()
        if _TABLE_KEYS & set(change)
    ]
    found = []
    for i, (name, value) in enumerate(tables):
        for other, other_value in tables[i + 1 :]:
            if other == name:
                continue
            try:
                profile.resolve_options({name: value, other: other_value})
            except ValueError as exc:
                # (the reason's last clause is the reader's words; what precedes it names the options and a key)
                found.append((f"{name}={value} with {other}={other_value}", str(exc).rsplit(": ", 1)[-1]))
    return found


def seed_lines(text: str) -> list[str]:
    """The seed lines a text cites, in order and once each: ``004:L41, L95`` gives ``004:L41`` and ``004:L95``."""
    found: list[str] = []
    for seed, first, more in _CITE.findall(text):
        for line in [first, *re.findall(r"L\d+(?:[-–]L?\d+)?", more)]:
            cite = f"{seed}:{line}"
            if cite not in found:
                found.append(cite)
    return found


def value_text(doc: str, values: Sequence[str], value: str) -> str:
    """The part of an option's text that tells ``value``: the text before the first value it names, and the text
    from ``value`` (written ``"3"``, ``3:`` or ``3,``) to the next value it names; the whole text when it names no
    value. So that ``players=3`` is shown with the seed lines of three players, not of four (issue 25 item 9)."""
    starts: dict[str, int] = {}
    for v in values:
        found = re.search(rf'(?<![\w"])"?{re.escape(v)}"?(?=[,:;)])', doc)
        if found is not None:
            starts[v] = found.start()
    if value not in starts:
        return doc
    first = min(starts.values())
    begin = starts[value]
    end = min((at for at in starts.values() if at > begin), default=len(doc))
    return doc[:first] + doc[begin:end]


def _kinds(profile: RuleProfile) -> list[str]:
    return [m.kind for m in profile.melds]


def table_line(profile: RuleProfile) -> str:
    """Who plays with what: ``3 players (N E S), 3 packs (96 cards), 8 cards each, 32 tricks (24 while the stock
    lasts)``, with the sides or the dealer sitting out."""
    seats = f" ({' '.join(profile.seats)})"
    if profile.sides:
        seats = f" ({', '.join(profile.scorers)}, partners)"
    out = "; the dealer deals to the others and sits the hand out" if profile.sit_out == "dealer" else ""
    return (
        f"{profile.players} players{seats}, {profile.packs} packs ({profile.deck_size} cards), {profile.hand_size} "
        f"cards each, {profile.total_tricks} tricks ({profile.phase1_tricks} while the stock lasts){out}"
    )


def describe(profile: RuleProfile, sources: bool = True) -> str:
    """The text of ``bezique rules`` for a profile (its lines, joined, without a final newline).

    With ``sources`` (``bezique rules --source``) the profile's texts keep their exact citations (``000:L207``,
    ``RULES.md §2.a rule 20``), for whoever checks a rule against its source; without, each source is named as a
    reader knows it and each rule by the rules page that shows it (replayer/lesson/citations.py).
    """
    lines: list[str] = []
    out = lines.append
    out(f"{profile.name}: {profile.title}")
    out(f"  {profile.description}")
    out(f"  source: {profile.source}")
    out(
        f"  {profile.players} players, {profile.packs} packs ({profile.deck_size} cards), {profile.hand_size} "
        f"cards each, {profile.total_tricks} tricks ({profile.phase1_tricks} while the stock lasts)"
    )
    packs = profile.options.get("packs")
    if packs is not None and packs.default == "by_players":
        out("  (the number of packs goes with the number of players: inferred, see option packs)")
    tables = configurations(profile)
    if tables:
        out(
            f"\nOther tables, as options ({'with their seed lines; ' if sources else ''}the option's text below tells "
            f"them; play one with "
            f"`bezique generate --profile {profile.name} --option NAME=VALUE`):"
        )
        for chosen, effective in tables:
            out(f"  {chosen}: {table_line(effective)}")
            more = [
                f"adds {k.replace('_', ' ')}" for k in sorted({m.kind for m in effective.melds} - set(_kinds(profile)))
            ]
            target = dict(effective.option_defaults).get("target")
            if target is not None:
                more.append(f"game {target}")
            name, value = chosen.split("=", 1)
            cited = seed_lines(value_text(profile.options[name].doc, profile.options[name].values, value))
            if cited and sources:
                more.append(f"seeds {', '.join(cited)}")
            if more:
                out(f"      {'; '.join(more)}")
        for chosen, reason in _unplayable(profile):
            out(f"  {chosen}: not played: {reason}")
    lines.extend(_rules_body(profile))
    out("\nOptions (NAME = default (values), as an `options:` header or --option sets them; under each value, the")
    out("rules above as that value makes them read):")
    # What a user types (an option's name and values, such as base = 004) stays as he types it, before the text put
    # in a reader's words: (typed part, text) pairs.
    typed: list[tuple[str, str]] = [("", line) for line in lines]
    for opt in profile.options.values():
        values = f" ({' | '.join(opt.values)})" if opt.values else ""
        typed.append((f"  {opt.name} = {opt.default}{values}", ""))
        if opt.doc:
            typed.append(("", f"      {opt.doc}"))
        for value, change in opt.sets.items():
            typed.append((f"      {value}: ", _describe_change(profile, opt.name, value, change)))
    if not sources:
        from .lesson.citations import learner_text

        return "\n".join(kept + learner_text(text, "en") for kept, text in typed)
    return "\n".join(kept + text for kept, text in typed)


def _rules_body(profile: RuleProfile) -> list[str]:
    """The lines of ``bezique rules`` from the play to the conduct: what an option's value changes is told by the
    lines of it that the value changes (:func:`_describe_change`)."""
    lines: list[str] = []
    out = lines.append
    out("\nPlay:")
    for line in _play_lines(profile):
        out(f"  {line}")
    out("\nMelds (name, then the word a record writes: N declares royal_marriage KC QC; a new declaration needs a")
    out("card not yet scored in a combination of its re-use group):")
    for meld in profile.melds:
        more = []
        if meld.repeats:
            more.append(f"declared again: {', '.join(str(p) for p in meld.repeats)}, then doubling")
        if meld.extends:
            more.append(f"adds a card to a {meld.extends.replace('_', ' ')}")
        extra = f"; {'; '.join(more)}" if more else ""
        group = _GROUPS.get(meld.klass, meld.klass)
        out(f"  {meld.label:<22} {meld.kind:<22} {meld.points:>5}  (re-use group: {group}{extra})")
    if profile.repeat_rule == "multiply":
        out("  (another kind declared again in a hand: n times its value the n-th time)")
    if profile.extra_cards:
        extra_cards = ", ".join(f"{n} × {c}" for c, n in profile.extra_cards)
        out(f"\nCards added to the packs: {extra_cards}")
    out("\nOther scores (claimed as N scores seven_played, last_trick or turnup_seven):")
    if profile.seven_rank.symbol != "7":
        who = "after a won trick" if profile.seven_exchange_when == "won_trick" else "by its holder, between tricks"
        name = f"trump {profile.seven_rank.english} exchanged"
        out(f"  {name:<24} {profile.seven_exchange}  ({who})")
    if profile.seven_turnup:
        out(f"  turn-up seven (dealer)   {profile.seven_turnup}")
    if profile.seven_exchange:
        who = "by its holder, between tricks" if profile.seven_exchange_when == "any_time" else "after a won trick"
        if profile.seven_gained == "later":
            who += "; the card it gains is declared only after a later trick"
        out(f"  seven exchanged          {profile.seven_exchange}  ({who})")
    if profile.seven_exchange_players:
        counts = " or ".join(str(n) for n in profile.seven_exchange_players)
        out(f"  the exchange             only when {counts} play")
    if profile.seven_second:
        each = "; each other trump seven, inferred (001:L7)" if profile.seven_second_each else ""
        out(f"  other seven shown        {profile.seven_second}  (once the turn-up is a seven{each})")
    if profile.seven_played:
        phases = " and ".join(str(p) for p in profile.seven_played_phases)
        how = "winning a trick with it" if profile.seven_played_must_win else "played, won or lost"
        out(f"  seven played             {profile.seven_played}  ({how}, phase {phases})")
    if profile.last_trick_points:
        out(f"  last trick               {profile.last_trick_points}  ({last_trick_words(profile)})")
    if profile.brisque_points:
        ranks = " and ".join(r.english + "s" for r in profile.brisque_ranks)
        out(f"  brisques ({ranks})  {profile.brisque_points} each")
    if profile.card_points:
        table = ", ".join(f"{rank.symbol} {points}" for rank, points in profile.card_points)
        when = "as each trick is won" if profile.card_points_when == "trick" else "at the end of the hand"
        seven = f"; trump seven {profile.card_points_trump_seven}" if profile.card_points_trump_seven else ""
        out(f"  card points in won tricks  {table}{seven} ({when}; other cards 0)")
    if profile.brisques_when == "tie_or_rubicon":
        out("  brisques count only      to break a tie or to escape the rubicon")
    guess, lift, count = profile.cut_bonus
    if count:
        out(f"  cut                      {guess} for the exact guess, {lift} for lifting exactly {count}")
    game = profile.game_scoring
    if game is not None:
        normal = "bonus + the difference" if game.difference else "bonus added to the winner's score"
        low = f", +{game.low_bonus} below {game.low_score}" if game.low_bonus else ""
        out(
            f"  game (one hand)          bonus {game.game_bonus} ({normal}); rubicon below {game.rubicon}: "
            f"both scores + {game.rubicon_bonus}{low}"
        )
    if profile.hand_target:
        rows = "; else ".join(f"{p} if the loser has {low} or more" for low, p in profile.game_points)
        out(f"  hand                     ends when a player reaches {profile.hand_target} ('goes out')")
        out(f"  game points              {rows}")
    if "target" in profile.options and profile.game_points:
        out(f"  game                     {profile.options['target'].default} game points")
    elif "target" in profile.options:
        tie = _TIE_WORDS.get(profile.tie_rule, profile.tie_rule)
        out(f"  game                     {profile.options['target'].default} (both over it: {tie})")
    if profile.penalties:
        out("\nPenalties (`N penalty KIND = POINTS`, deducted from the offender's score):")
        words = {"all": "every point he has in the game", "unscored": "his shown, unscored combinations"}
        adapted = {
            "revoke_last_eight": f"the last {profile.hand_size} cards",
            "played_before_drawing": f"before drawing the {profile.hand_size}th card",
            "nine_cards": f"a hand of {profile.hand_size + 1}",
        }
        for kind, amount in profile.penalties:
            # 001:L38-L41 were written for 8-card hands; with other hands they read as the profile's size.
            note = (
                f"  ({adapted[kind]}: 001's 8-card wording adapted to {profile.hand_size}-card hands, inferred)"
                if kind in adapted and profile.hand_size != 8
                else ""
            )
            out(f"  {kind:<24} {words.get(str(amount), amount)}{note}")
    if profile.claim != "none" or profile.forfeit or profile.redeal:
        out("\nConduct:")
        if profile.claim != "none":
            when = "once the stock is gone" if profile.claim == "stock_out" else "once the hand is played out"
            false = "loses the game's prize" if profile.false_claim == "loses_game" else "costs nothing stated"
            right = (
                "it ends the hand and wins the game (inferred: the seed says the claimer wins the game, not that "
                "the hand stops)"
                if profile.claim == "stock_out"
                else "it wins the game"
            )
            out(f"  claim of the game        `N claims game`, {when}; right, {right}; false, it {false}")
        if profile.forfeit:
            out("  illegal play             `N forfeits = P`: what it won is not counted; earlier tricks stand")
        if profile.redeal:
            out(
                '  misdeal                  `redeal`: dealt again ("Неправильная сдача нуждается в пересдаче", '
                "002:L18); before the first trick, by the same dealer: inferred"
            )
    return lines


def last_trick_words(profile: RuleProfile) -> str:
    """Which trick earns the last trick's points, in words: "trick 24" (the stock's end) or "trick 32, the final
    one"."""
    if profile.last_trick_at == "stock_end":
        return f"trick {profile.phase1_tricks}"
    return f"trick {profile.total_tricks}, the final one"


def _describe_change(profile: RuleProfile, name: str, value: str, change: dict[str, object]) -> str:
    """What an option's value changes, for people: a new meld table as the kinds it adds, drops or re-prices, and
    every other change as the lines of the rules (:func:`_rules_body`) that read otherwise with it, in their own
    words rather than the profile's setting names."""
    parts = []
    melds = change.get("melds")
    if isinstance(melds, list):
        before = {m.kind: m.points for m in profile.melds}
        after = {m["kind"]: m.get("points") for m in melds if isinstance(m, dict) and "kind" in m}
        added = [f"{k} {p}" for k, p in after.items() if k not in before]
        dropped = [k for k in before if k not in after]
        priced = [f"{k} {before[k]} -> {p}" for k, p in after.items() if k in before and before[k] != p]
        for label, items in (("adds", added), ("drops", dropped), ("re-prices", priced)):
            if items:
                parts.append(f"{label} {', '.join(items)}")
        if not parts:
            parts.append("the same meld table")
    if any(key != "melds" for key in change):
        if _TABLE_KEYS & set(change):
            parts.append("another table (see Other tables above)")
        else:
            try:
                effective = profile.with_options(profile.resolve_options({name: value}))
            except ValueError as exc:  # (a value that plays only with another option's: said as the core says it)
                parts.append(f"not played alone: {str(exc).rsplit(': ', 1)[-1]}")
            else:
                was = set(_rules_body(profile))
                # A meld table's own lines are told above, by kind; the rest as the rules then read.
                table = {f"  {m.label:<22}" for m in effective.melds} if melds is not None else set()
                now = [
                    " ".join(line.split())
                    for line in _rules_body(effective)
                    if line not in was and not line.startswith("\n") and not any(line.startswith(t) for t in table)
                ]
                # (a value whose change the listing's rules do not show, such as how the cards are dealt in
                # packets: the option's text above tells it)
                parts.extend(now or ["as the text above tells (the rules listed here read the same)"])
    return "; ".join(parts)


_GROUPS = {
    "M": "marriages and sequences",
    "B": "beziques",
    "F": "four of a kind",
    "C": "carte blanche",
    "S": "trump sevens",
}
"""The re-use groups of the profiles' meld tables (their ``class``), in words."""


_TIE_WORDS = {
    "last_trick": "the winner of the hand's last trick wins",
    "higher_total": "the higher total wins",
}
"""Who wins a game when both pass its target in one hand (the profile's ``tie_rule``), in words."""


_PLAY_WORDS = {
    "non_dealer": "the dealer's opponent",
    "dealer_left": "the player on the dealer's left",
    "dealer_right": "the player on the dealer's right",
    "winner_first": "the winner draws first",
    "leader_first": "the leader draws first",
    "free": "any card",
    "follow_suit": "follow suit if able, else any card",
    "follow_win_trump": "follow suit and win if able, else trump (over-trump if able), else any card",
    "follow_win_overtrump": "follow suit and win if able, else win by trumping if able, else any card",
    "follow_trump": "follow suit if able, else trump, else any card",
    "follow": "follow suit if able, else any card",
}


_REUSE_WORDS = {
    "text_with_remarriage": "a new card in each re-use group, no card twice in one kind, except a re-marriage",
    "strict_text": "a new card in each re-use group, no card twice in one kind",
    "new_card_refill": "a new card in each re-use group",
    "higher_other_kind": "a declared card serves again only in another kind worth more",
    "refill": (
        "a new card in each re-use group; a card serves in other kinds at will, and in a kind it was scored in only "
        "once every such combination has lost a card to a play, refilled with a card new to the kind "
        "(000:L49, L315, L457; 001:L65)"
    ),
    "refill_swap": "as refill, and two marriages of one suit on the table re-paired, each card once (000:L319)",
}


def _play_lines(profile: RuleProfile) -> list[str]:
    """The play and declaration rules of a profile, one short line each, for ``bezique rules``."""
    until = "before drawing" if profile.declare_until == "draw" else "until his next lead (before or after drawing)"
    if profile.declare_until != "draw" and 2 not in profile.declare_phases:
        # Declarations end with the stock: the winner of the trick that takes its last cards has no later moment
        # (RULES.md §3 D4; the core answers BZ302 to a declaration after that draw).
        until = until[:-1] + "; the winner of the trick that empties the stock declares before he draws)"
    phases = " and ".join(str(p) for p in profile.declare_phases)
    lines = [f"seats in playing order: {' '.join(profile.seats)}"]
    if profile.sides:
        lines.append(f"partnerships (joint score): {', '.join(profile.scorers)}")
    lines += [
        f"first lead: {_PLAY_WORDS.get(profile.first_leader, profile.first_leader)}; after each trick "
        f"{_PLAY_WORDS.get(profile.draw_order, profile.draw_order)}",
        f"while the stock lasts: {_PLAY_WORDS.get(profile.phase1_play, profile.phase1_play)}",
        f"last tricks: {_PLAY_WORDS.get(profile.phase2_play, profile.phase2_play)}",
        f"declare: the winner of a trick, {until}, in phase {phases}",
    ]
    if profile.trump_fixing:
        fixing = ", ".join(f"{kind.replace('_', ' ')} {points}" for kind, points in profile.trump_fixing)
        lines.insert(0, f"trumps: none at the deal; the first of these declared fixes them: {fixing}")
    if profile.declare_by == "winner_or_partner":
        lines.append("the winner declares or lets his partner declare (N passes to S)")
    if profile.declare_joint:
        lines.append("a declaration may join the declarer's and his partner's cards (N declares ... with S ...)")
    if profile.last_trick_to == "halves":
        lines.append("the last trick's bonus is shared out evenly between the sides")
    if profile.declare_after_tricks:
        kinds = ", ".join(k.replace("_", " ") for k in profile.declare_wait_kinds) or "every combination"
        lines.append(f"wait: {kinds} only after winning {profile.declare_after_tricks} tricks")
    per_trick = "one" if profile.declare_per_trick == "one" else "any number, when no card is in two of them"
    lines.append(f"declarations scored per won trick: {per_trick}")
    reuse = profile.reuse
    lines.append(f"re-use of declared cards: {reuse} ({_REUSE_WORDS.get(reuse, 'see the profile')})")
    for kind, earlier in profile.no_reuse:
        lines.append(f"no {kind.replace('_', ' ')} on cards scored in a {earlier.replace('_', ' ')}")
    if profile.declare_lead_from:
        lines.append("a declarer leads one of the declared cards to the next trick")
    if profile.next_dealer != "alternate":
        lines.append(
            f"next dealer: the {profile.next_dealer} of the hand before; after a hand nobody won, the next seat "
            f"(inferred: the seed names only the loser)"
        )
    return lines
