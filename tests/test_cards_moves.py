import re

import numpy as np
import pytest

from lcanalysis.game.cards import Card, CardError, color_name, full_deck
from lcanalysis.game.moves import Move, MoveError


@pytest.mark.parametrize("text,canon", [("R7", "R7"), ("r7", "R7"), ("b10", "B10"), ("gW", "Gw"), ("Yw", "Yw"),
                                        ("P2", "P2")])
def test_card_notation_round_trips_case_insensitively(text, canon):
    card = Card.parse(text)
    assert str(card) == canon
    assert Card.parse(canon) == card
    assert eval(repr(card)) == card


def test_a_colours_letter_has_one_name_and_other_text_comes_back_as_given():
    """Six places looked a letter's name up by hand (two of them with a fallback for text that is no
    letter); ``color_name`` is that one look-up. The spec's order: Y B W G R P."""
    assert [color_name(c) for c in "YBWGRP"] == ["yellow", "blue", "white", "green", "red", "purple"]
    # no letter: a message shows what it met ("" and "YB" are inside "YBWGRP" as text, yet no letter)
    assert [color_name(t) for t in ("?", "D", "", "YB", "r")] == ["?", "D", "", "YB", "r"]


@pytest.mark.parametrize("text", ["R1", "R11", "X7", "R", "", "R07", "Rx", "7R", "R 7"])
def test_unknown_cards_are_refused_with_the_text_in_the_message(text):
    with pytest.raises(CardError) as err:
        Card.parse(text)
    assert repr(text) in str(err.value) or "must be" in str(err.value)


def test_purple_is_refused_in_the_five_colour_game():
    with pytest.raises(CardError, match="colour"):
        Card.parse("P5", colors=5)


@pytest.mark.parametrize(("colors", "letters"), [(5, "Y B W G R"), (6, "Y B W G R P")])
def test_an_unknown_colour_is_refused_naming_the_game_s_colours_only(colors, letters):
    """Every parser that lists the colours lists this game's: no P in the 5-colour game (a card, a
    colour letter, a move's card and a move's source pile, which named no colours at all)."""
    from lcanalysis.game.cards import color_index

    listed = re.compile(r"(?:one of|colour letter of this game \() ?([A-Z](?: [A-Z])*)")
    calls = [lambda: Card.parse("X9", colors), lambda: Card.parse("Xw", colors), lambda: color_index("X", colors),
             lambda: Move.parse("+X9/D", colors), lambda: Move.parse("-B3/X", colors)]
    for call in calls:
        with pytest.raises((CardError, MoveError)) as err:
            call()
        assert [m.group(1) for m in listed.finditer(str(err.value))] == [letters], str(err.value)


def test_deck_sizes_and_number_sums():
    for colors, size in ((5, 60), (6, 72)):
        deck = [Card.from_type(t) for t in full_deck(colors)]
        assert len(deck) == size
        for c in range(colors):
            numbers = [card.number for card in deck if card.color == c and not card.is_wager]
            assert sorted(numbers) == list(range(2, 11)) and sum(numbers) == 54
            assert sum(1 for card in deck if card.color == c and card.is_wager) == 3


@pytest.mark.parametrize("text", ["+R7/D", "-Bw/G", "/D", "/G", "+P10/P", "-Y2/R"])
def test_move_notation_round_trips_through_text_and_code(text):
    move = Move.parse(text, colors=6)
    assert str(move) == text
    assert Move.from_code(move.code(6), 6) == move
    assert Move.parse(text.lower(), colors=6) == move


@pytest.mark.parametrize("colors", [7, 4, 5.0, "5", None, True])
def test_a_moves_code_is_only_for_a_game_of_5_or_6_colours(colors):
    """``code(7)`` gave 736, the code of no game; ``code(5.0)`` the float 552.0; ``code("5")`` and
    ``code(None)`` Python's TypeErrors."""
    with pytest.raises(MoveError, match=f"colors must be 5 or 6, got {colors!r}"):
        Move.parse("+R7/D").code(colors)
    assert Move.parse("+R7/D").code(np.int64(5)) == Move.parse("+R7/D").code(5) == 552


@pytest.mark.parametrize("text", ["R7/D", "+R7", "+R7/X", "*R7/D", "+R1/D", 7])
def test_bad_moves_are_refused(text):
    with pytest.raises(MoveError):
        Move.parse(text)


@pytest.mark.parametrize("text,written", [("red 7", "R7"), ("Red7", "R7"), ("green w", "Gw"), ("white 10", "W10"),
                                          ("yellow 11", "Y7")])
def test_a_card_written_with_its_colour_s_name_is_refused_showing_the_letter_form(text, written):
    """'red 7' was refused as "value 'ed 7' is not 2..10 or w": the colour's first letter was read
    as the colour and the rest of its name as the value."""
    with pytest.raises(CardError) as err:
        Card.parse(text)
    message = str(err.value)
    assert repr(text) in message and f"like {written!r}" in message and "value" not in message


def test_a_colour_written_as_its_name_is_refused_naming_its_letter():
    from lcanalysis.game.cards import color_index
    from lcanalysis.wagers import wager
    from lcanalysis.wagers.canonical import UnknownColorError

    with pytest.raises(CardError, match="a colour is written as its letter: G for green"):
        color_index("green", 5)
    with pytest.raises(UnknownColorError, match="this game has Y B W G R; a colour is written as its letter: G "):
        wager("example:midround", "Green", 10)


def test_a_colour_letter_is_read_as_a_card_is_spaces_around_it_and_either_case():
    """Card.parse(" b10 ") is B10, but color_index(" g ") was refused: a colour letter is now read as
    tolerantly (interchange.md: reading is case-insensitive, spaces around a card allowed)."""
    from lcanalysis.game.cards import color_index
    from lcanalysis.wagers import wager
    from lcanalysis.wagers.canonical import UnknownColorError

    assert Card.parse(" b10 ") == Card.parse("B10")
    assert [color_index(t, 5) for t in (" y", "b ", " W ", "\tg\n", "r")] == [0, 1, 2, 3, 4]
    assert wager("example:midround", " g ", 10).color == "G"
    assert wager("example:midround", " g ", 10).to_json() == wager("example:midround", "G", 10).to_json()
    for bad in (" ", "", " x ", "g g"):
        with pytest.raises(CardError, match="unknown colour"):
            color_index(bad, 5)
    with pytest.raises(UnknownColorError, match="unknown colour ' p ': this game has Y B W G R"):
        wager("example:midround", " p ", 10)


@pytest.mark.parametrize("text,mended", [("+R7", "+R7"), ("-bw", "-Bw"), (" +g10 ", "+G10")])
def test_a_placement_without_its_draw_is_refused_showing_the_turn_mended(text, mended):
    """'+R7' (the draw left out, the common slip at 'lcanalysis play') was answered with the
    example '+R7/D' whatever the card; it now shows the player's own turn with its draw."""
    with pytest.raises(MoveError) as err:
        Move.parse(text)
    assert f"write '{mended}/D' (the draw pile) or '{mended}/' and a discard pile's colour letter" in str(err.value)


@pytest.mark.parametrize("text,card", [("R7", "R7"), ("bw", "Bw"), (" g10 ", "G10")])
def test_a_card_typed_alone_is_refused_showing_the_two_turns_it_could_be(text, card):
    """'R7' typed at 'lcanalysis play' (the card one means to play or discard) was answered with
    the example "write e.g. '+R7/D' or '-Bw/G'"; it now names the player's card in both turns."""
    with pytest.raises(MoveError) as err:
        Move.parse(text)
    assert f"is a card, not a turn: write '+{card}/D' to play it or '-{card}/D' to discard it" in str(err.value)
    for turn in (f"+{card}/D", f"-{card}/D"):  # and both read
        assert str(Move.parse(turn)) == turn


def test_a_move_equals_its_own_notation_so_a_list_of_legal_moves_can_be_asked_with_text():
    """``Move.parse('+R7/D') == '+R7/D'`` was False, so ``'+Yw/D' in pos.legal_moves()`` was False for
    a legal turn and ``legal_moves().index('+Yw/D')`` raised ValueError."""
    from lcanalysis.game.position import Position

    pos = Position.deal(seed=7)
    legal = pos.legal_moves()
    texts = [str(m) for m in legal]
    assert "+Yw/D" in texts  # (the first turn of seed 7, README's first session)
    assert "+Yw/D" in legal and legal.index("+Yw/D") == texts.index("+Yw/D")
    assert "+R7/G" not in legal and pos.why_illegal("+R7/G") is not None
    move = Move.parse("-bw/g")
    assert move == "-Bw/G" and "-Bw/G" == move  # noqa: SIM300 (the text on the left asks the Move too)
    assert (move != "-Bw/G") is False
    # hashing agrees: a Move finds its text in a set or a dict, and the text finds the Move
    assert hash(move) == hash("-Bw/G")
    assert "-Bw/G" in {move} and move in {"-Bw/G"} and {move: 1}["-Bw/G"] == 1 and {"-Bw/G": 2}[move] == 2
    assert len({move, "-Bw/G", Move.parse("-Bw/G")}) == 1
    assert Move.parse("/d") == "/D" and hash(Move.parse("/d")) == hash("/D")


@pytest.mark.parametrize("text", ["+r7/d", " +R7/D", "+R7/D ", "+R7 /D", "+R7/d"])
def test_a_move_is_not_equal_to_another_spelling_of_itself_which_could_not_hash_alike(text):
    """Only the canonical text compares equal: the other spellings ``Move.parse`` reads hash
    differently, and a set or dict holding one would then disagree with ``==``. They are compared
    after reading them, ``Move.parse(text) == move``."""
    move = Move.parse("+R7/D")
    assert Move.parse(text) == move
    assert move != text and text != move and text not in {move} and move not in {text}


def test_no_move_equals_the_text_of_another_move_or_anything_else():
    """Every move of the six-colour game (every code) equals its own text and no other move's."""
    moves = [Move.from_code(code, 6) for code in range((2 * 10 * 6 + 1) * 7)]
    texts = [str(m) for m in moves]
    assert len(set(texts)) == len(moves) == len(set(moves))
    by_text = dict(zip(texts, moves, strict=True))
    for move in moves:
        assert by_text[move] is move  # the dict keyed by text is found by the Move: one equal text
        assert [t for t in texts if t == move] == [str(move)]
    r7 = Move.parse("+R7/D")
    assert r7 != "R7" and r7 != Card.parse("R7") and r7 != r7.code(6) and r7 != ("+R7/D",) and r7 != None  # noqa: E711


def test_a_move_code_gives_one_shared_move_so_a_long_history_holds_a_pointer_a_turn():
    """``Position.push`` made a new ``Move`` every turn (about 100 bytes each): a 10,000-turn replay
    held 10,000 of them (``benchmarks/bench_move_memory.py``). Moves are immutable; each code now
    gives one shared object, and its checks still refuse what is not a move."""
    import numpy as np

    from lcanalysis.game.position import Position
    from lcanalysis.game.rules import Rules

    assert Move.from_code(7, 5) is Move.from_code(7, 5) is Move.from_code(np.int64(7), np.int32(5))
    assert (str(Move.from_code(7, 5)), str(Move.from_code(7, 6))) == ("-Yw/Y", "-Yw/D")  # the colours count
    for code, colors in ((True, 5), (7, True), (7.0, 5), (606, 5), (-1, 5), (7, 4)):
        with pytest.raises(MoveError):
            Move.from_code(code, colors)
    pos = Position.deal(seed=5, rules=Rules(no_redraw=False, turn_cap=400))
    while not pos.is_over():  # a stalling round: the same few turns again and again
        legal = pos.legal_moves()
        pos.push(next((m for m in legal if not m.draws_from_deck), legal[0]))
    assert len(pos.history) == 400
    assert len({id(m) for m in pos.history}) == len(set(pos.history)) < 100
    assert [str(m) for m in pos.history] == [str(Move.parse(str(m))) for m in pos.history]


def test_a_card_equals_its_own_notation_so_a_hand_can_be_asked_with_text():
    """``'Yw' in pos.hand(0)`` was False for a card in the hand (a Card never equalled a string), and
    ``pos.hand(0).index('B3')`` raised ValueError; a Move already equalled its notation."""
    from lcanalysis.game.position import Position

    hand = Position.deal(seed=7).hand(0)  # Yw Bw B3 B6 Gw Gw R4 R5 (README's first session)
    assert [str(c) for c in hand] == ["Yw", "Bw", "B3", "B6", "Gw", "Gw", "R4", "R5"]
    assert "Yw" in hand and hand.index("B3") == 2 and hand.count("Gw") == 2 and "R7" not in hand
    card = Card.parse("g10")
    assert card == "G10" and "G10" == card  # noqa: SIM300 (the text on the left asks the Card too)
    assert hash(card) == hash("G10") and "G10" in {card} and {card: 1}["G10"] == 1 and {"G10": 2}[card] == 2
    assert len({card, "G10", Card.parse("G10")}) == 1


@pytest.mark.parametrize("text", ["g10", " G10", "G10 ", " g10"])
def test_a_card_is_not_equal_to_another_spelling_of_itself_which_could_not_hash_alike(text):
    card = Card.parse("G10")
    assert Card.parse(text) == card
    assert card != text and text not in {card}


def test_no_card_equals_the_text_of_another_card_or_anything_else():
    """Every card of the six-colour game equals its own text and no other card's, nor its type code;
    cards still sort by colour, then rank."""
    cards = [Card.from_type(t) for t in range(60)]
    texts = [str(c) for c in cards]
    assert len(set(texts)) == len(cards) == len(set(cards))
    for card in cards:
        assert [t for t in texts if t == card] == [str(card)]
        assert card != card.type and card != (card.color, card.rank)
    shuffled = cards[7:] + cards[:7]
    assert sorted(shuffled) == cards
    assert Card.parse("R7") == Card(Card.parse("R7").color, Card.parse("R7").rank)


def test_the_decks_numbers_are_written_once_in_core_constants_and_agree_with_the_rules():
    """The ranks per colour and the cards per colour were written both in the compiled kernel
    (``RANKS = 10``, ``PILE_CAP = 12``) and in ``game.cards``, and the three wagers as a bare 3 in
    compiled code: now ``core.constants`` alone writes them as numbers, and the rules, counted by
    hand, agree with it."""
    import ast
    from pathlib import Path

    from lcanalysis.core import constants as C
    from lcanalysis.core import kernel as K
    from lcanalysis.game import cards

    # by hand: a wager and the numbers 2..10; three wagers and nine numbers; six colours at most
    assert (C.RANKS_PER_COLOR, C.WAGER, C.WAGER_COPIES, C.CARDS_PER_COLOR, C.MAX_COLORS) == (10, 0, 3, 12, 6)
    assert (K.RANKS, K.PILE_CAP) == (C.RANKS_PER_COLOR, C.CARDS_PER_COLOR)
    assert (cards.RANKS_PER_COLOR, cards.WAGER, cards.WAGER_COPIES, cards.CARDS_PER_COLOR) == (10, 0, 3, 12)
    assert len(cards.COLOR_LETTERS) == len(cards.COLOR_NAMES) == C.MAX_COLORS
    names = {"RANKS", "RANKS_PER_COLOR", "PILE_CAP", "CARDS_PER_COLOR", "WAGER", "WAGER_COPIES", "MAX_COLORS"}
    package = Path(C.__file__).parent.parent
    written = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                written += [f"{path.relative_to(package)}:{t.id}" for t in node.targets
                            if isinstance(t, ast.Name) and t.id in names]
    assert sorted(written) == ["core/constants.py:MAX_COLORS", "core/constants.py:RANKS_PER_COLOR",
                               "core/constants.py:WAGER", "core/constants.py:WAGER_COPIES"]


def _literal_ints(path) -> list[tuple[int, int]]:
    """``(line, value)`` of every whole-number literal in the code of ``path`` (strings and a function's
    default arguments, where a caller may give another, left out)."""
    import ast

    tree = ast.parse(path.read_text())
    defaults = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    defaults.update(id(n) for n in ast.walk(default))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and type(node.value) is int and id(node) not in defaults]


def test_the_wager_models_write_none_of_the_decks_or_the_rules_numbers():
    """The wager models wrote the deck's numbers again as bare numbers (``MIN_VALUE, MAX_VALUE = 2, 10``,
    ``START_UNSEEN = 52``, the compiled simulation's ``range(10)``, ``np.empty(9)``, ``c * 10 + r``,
    ``hist[sc + 80]``, an opponent's hand of ``8``): now they take them from ``core.constants``, the
    card layer and the rules (``Rules``, the kernel's scoring), and the names they derive agree with
    the deck counted by hand and the rules' own scoring."""
    from pathlib import Path

    from lcanalysis.core.kernel import expedition_points
    from lcanalysis.wagers import canonical, models, simulation

    banned = {5, 6, 8, 9, 10, 12, 20, 44, 52, 60, 72, 80, 156, 237}  # the deck's counts and the rules' scores
    folder = Path(models.__file__).parent
    found = {f"{path.name}:{line}: {value}" for path in sorted(folder.glob("*.py"))
             for line, value in _literal_ints(path) if value in banned}
    assert not found, sorted(found)
    # by hand: numbers 2..10; 60 cards less a hand of 8; six colours of 12; a colour's nine numbers
    assert (canonical.MIN_VALUE, canonical.MAX_VALUE, canonical.START_UNSEEN, canonical.MAX_DECK) == (2, 10, 52, 72)
    assert models.NUMBERS_PER_COLOR == 9 and simulation.COLORS == 5 and models.OpponentInfo().hidden == 8
    # the score slots hold every score the rules give an expedition, from the lowest to the highest
    scores = {int(expedition_points(w, sum(numbers), len(numbers)))
              for w in range(4) for mask in range(1 << 9)
              for numbers in [[v for v in range(2, 11) if mask >> (v - 2) & 1]]}
    assert -models.SCORE_OFFSET == min(scores) == -80 and max(scores) == models.SCORE_SLOTS - models.SCORE_OFFSET - 1
