"""Pictures and text drawings of cards, hands, positions, views and analyses (lcanalysis.show.render)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from lcanalysis.analysis import Analysis, MoveValue
from lcanalysis.game.cards import Card
from lcanalysis.game.notation import from_json
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.show import render

SVG_NS = "http://www.w3.org/2000/svg"


def parse(svg: str) -> ET.Element:
    """Parse and check the document is a self-contained SVG."""
    root = ET.fromstring(svg)
    assert root.tag == f"{{{SVG_NS}}}svg"
    assert svg.count("http") == 1 and f'xmlns="{SVG_NS}"' in svg, "no links besides the SVG namespace"
    for banned in ("href", "url(", "@import", "<image", "<script", "<foreignObject"):
        assert banned not in svg
    return root


def texts(root: ET.Element) -> list[str]:
    """Every <text> and <title> string in the picture."""
    return [
        "".join(el.itertext()).strip()
        for el in root.iter()
        if el.tag in (f"{{{SVG_NS}}}text", f"{{{SVG_NS}}}title")
    ]


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in (el.get("class") or "").split()]


def card_names(root: ET.Element) -> list[str]:
    """The notation of every face-up card drawn (each card group carries it as a class)."""
    out = []
    for el in with_class(root, "card"):
        names = [c for c in el.get("class", "").split() if re.fullmatch(r"[YBWGRP](w|10|[2-9])", c)]
        out.extend(names)
    return out


def played(seed: int, plies: int, colors: int = 5) -> Position:
    pos = Position.deal(seed=seed, rules=Rules(colors=colors))
    rng = random.Random(seed)
    for _ in range(plies):
        if pos.is_over():
            break
        pos.push(rng.choice(pos.legal_moves()))
    return pos


def in_draw_step(pos: Position) -> Position:
    """The same table with the player to move having just discarded the first card of their hand."""
    data = pos.to_json()
    hand = data["hands"][pos.to_move]
    card = hand.pop(0)
    data["discards"].setdefault(card[0], []).append(card)
    data["phase"] = "draw"
    data["blocked"] = card[0]
    out = from_json(data)
    assert isinstance(out, Position) and out.phase == "draw"
    return out


POSITIONS = [
    (seed, plies, colors) for colors in (5, 6) for seed, plies in ((1, 0), (2, 7), (3, 30), (4, 400))
]
# every position, and every one that is not over once more in the draw step
TABLES = [(*p, False) for p in POSITIONS] + [(*p, True) for p in POSITIONS if p[1] < 400]


def make(seed: int, plies: int, colors: int, draw_step: bool) -> Position:
    pos = played(seed, plies, colors)
    if plies >= 400:
        assert pos.is_over()
    return in_draw_step(pos) if draw_step else pos


# --- small pictures ------------------------------------------------------------------------


def test_card_svg_is_a_str_that_jupyter_renders():
    svg = render.card_svg(Card.parse("R7"))
    assert isinstance(svg, str)
    assert svg._repr_svg_() == svg
    root = parse(svg)
    assert "R7" in texts(root)
    assert card_names(root) == ["R7"]


def test_a_card_or_hand_drawing_refuses_what_is_no_card_or_list_of_cards_naming_it():
    """``card_svg(None)`` was a bare AssertionError, ``hand_svg(None)`` or ``hand_svg(3)`` Python's "not
    iterable", and ``hand_svg("R7 B4")`` read the text letter by letter ("unknown card 'R'")."""
    from lcanalysis.game.cards import CardError

    with pytest.raises(CardError, match=r"card_svg draws a card like 'R7', got None \(hand_svg draws None as a"):
        render.card_svg(None)
    for bad in (None, 3, "R7 B4"):
        said = f"hand_svg draws a list of cards like ['R7', 'Gw'], got {bad!r}"
        with pytest.raises(CardError, match=re.escape(said)):
            render.hand_svg(bad)
    assert render.hand_svg(("R7", None)) == render.hand_svg([Card.parse("R7"), None])


def test_card_repr_svg_draws_the_card_and_wagers_get_a_mark():
    svg = Card.parse("Gw")._repr_svg_()
    root = parse(svg)
    assert card_names(root) == ["Gw"]
    assert with_class(root, "handshake")
    assert "W" in texts(root)


@pytest.mark.parametrize("text", ["Y2", "B10", "Ww", "G9", "Rw", "P5"])
def test_every_colour_and_value_draws(text):
    root = parse(render.card_svg(text))
    assert card_names(root) == [text]


def test_hand_svg_takes_cards_strings_and_backs():
    pos = Position.deal(seed=11)
    hand = pos.hand(0)
    root = parse(render.hand_svg(hand))
    assert sorted(card_names(root)) == sorted(str(c) for c in hand)
    root = parse(render.hand_svg(["R7", "Bw", None, None]))
    assert card_names(root) == ["R7", "Bw"]
    assert len(with_class(root, "back")) == 2
    parse(render.hand_svg([]))


def test_expedition_svg_shows_cards_in_order_and_score():
    root = parse(render.expedition_svg(["Rw", "R3", "R5"]))
    assert card_names(root) == ["Rw", "R3", "R5"]
    # (3 + 5 - 20) * 2 = -24
    assert [el.text for el in with_class(root, "score")] == ["-24"]
    parse(render.expedition_svg([]))


def test_size_sets_the_width_and_keeps_the_view_box():
    svg = render.position_svg(Position.deal(seed=1), size=300)
    root = parse(svg)
    assert root.get("width") == "300"
    assert root.get("viewBox", "").startswith("0 0 ")


# --- the table --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed,plies,colors,draw_step", TABLES)
def test_position_svg_shows_every_card_on_the_table(seed, plies, colors, draw_step):
    pos = make(seed, plies, colors, draw_step)
    svg = render.position_svg(pos)
    assert pos._repr_svg_() == svg
    root = parse(svg)
    assert root.find(f"{{{SVG_NS}}}title").text == pos.to_string()
    drawn = card_names(root)
    expected = [str(c) for p in range(2) for c in pos.hand(p)]
    expected += [str(c) for p in range(2) for col in range(colors) for c in pos.expedition(p, col)]
    expected += [str(pos.discard_pile(col)[-1]) for col in range(colors) if pos.discard_pile(col)]
    assert sorted(drawn) == sorted(expected)
    assert not with_class(root, "back")
    assert [el.text for el in with_class(root, "deck-count")] == [str(pos.deck_count)]
    all_text = texts(root)
    for p in range(2):
        assert f"score {render._signed(pos.score(p))}" in all_text
    # pile sizes are printed on the piles
    counts = sorted(el.find(f"{{{SVG_NS}}}text").text for el in with_class(root, "pile-count"))
    assert counts == sorted(str(len(pos.discard_pile(c))) for c in range(colors) if pos.discard_pile(c))
    if draw_step:
        assert len(with_class(root, "blocked")) == 1
        assert "to draw" in all_text
    else:
        assert not with_class(root, "blocked")


@pytest.mark.parametrize("seed,plies,colors,draw_step", TABLES)
def test_view_svg_hides_exactly_the_unknown_cards(seed, plies, colors, draw_step):
    pos = make(seed, plies, colors, draw_step)
    for viewer in (0, 1):
        view = pos.view(viewer)
        svg = render.view_svg(view)
        assert view._repr_svg_() == svg
        root = parse(svg)
        assert root.find(f"{{{SVG_NS}}}title").text == view.to_string()
        assert len(with_class(root, "back")) == view.opponent_count - len(view.opponent_known)
        drawn = card_names(root)
        expected = [str(c) for c in view.hand] + [str(c) for c in view.opponent_known]
        expected += [str(c) for p in range(2) for col in view.expeditions[p] for c in col]
        expected += [str(pile[-1]) for pile in view.discards if pile]
        assert sorted(drawn) == sorted(expected)
        assert [el.text for el in with_class(root, "deck-count")] == [str(view.deck_count)]


def test_views_with_known_opponent_cards_show_them_face_up():
    found = 0
    for seed in range(20):
        pos = played(seed, 40)
        for viewer in (0, 1):
            view = pos.view(viewer)
            if not view.opponent_known:
                continue
            found += 1
            root = parse(render.view_svg(view))
            backs = with_class(root, "back")
            assert len(backs) == view.opponent_count - len(view.opponent_known)
            hand_cards = [
                n
                for el in with_class(root, "hand")
                for n in el.get("class").split()
                if n in {str(c) for c in view.opponent_known}
            ]
            assert len(hand_cards) >= len(view.opponent_known)
    assert found, "random games should leave some opponent cards known"


def test_bottom_chooses_whose_side_is_drawn_below():
    pos = played(5, 12)
    a = parse(render.position_svg(pos, bottom=0))
    b = parse(render.position_svg(pos, bottom=1))
    assert sorted(card_names(a)) == sorted(card_names(b))
    assert render.position_svg(pos, bottom=0) != render.position_svg(pos, bottom=1)


@pytest.mark.parametrize(("draw", "given", "said"), [
    ("position_svg", {"bottom": 2}, "bottom must be 0 or 1, got 2"),
    ("view_text", {"bottom": -1}, "bottom must be 0 or 1, got -1"),
    ("view_svg", {"bottom": "x"}, "bottom must be 0 or 1, got 'x'"),
    ("position_text", {"view": True}, "position_svg and position_text draw a Position, got View: a view is drawn by "
                                      "view_svg or view_text"),
    ("view_svg", {"full": True}, "view_svg and view_text draw a View, got Position: a position is drawn by"),
    ("view_svg", {"text": True}, "view_svg and view_text draw a View, got str: read one with read_position"),
])
def test_a_table_drawing_refuses_what_it_cannot_draw_naming_it(draw, given, said):
    """``bottom=2`` was an IndexError, ``position_text(view)`` Python's "'list' object is not callable"
    and ``view_svg("example:midround")`` "'str' object has no attribute 'colors'"."""
    from lcanalysis.game.position import PositionError

    pos = played(5, 12)
    a_view = given.get("view") or (draw.startswith("view") and not given.get("full"))
    shown = pos.view(pos.to_move) if a_view else pos
    shown = "example:midround" if given.get("text") else shown
    with pytest.raises(PositionError, match=re.escape(said)):
        getattr(render, draw)(shown, bottom=given.get("bottom"))
    assert render.view_text(pos.view(1), bottom=0) != render.view_text(pos.view(1))


# --- text -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed,plies,colors,draw_step", TABLES)
def test_position_text_has_scores_cards_and_the_one_line_string(seed, plies, colors, draw_step):
    pos = make(seed, plies, colors, draw_step)
    text = render.position_text(pos)
    assert pos.to_text() == text
    lines = text.splitlines()
    assert lines[-1] == pos.to_string()
    s0, s1 = pos.score(0), pos.score(1)
    assert f"round score: player 0 {render._signed(s0)}, player 1 {render._signed(s1)}" in lines
    score_row = next(line for line in lines if line.startswith("score"))
    assert re.findall(r"[-+]?\d+", score_row) == [
        render._signed(pos.score(pos.to_move)),
        render._signed(pos.score(1 - pos.to_move)),
    ]
    for p in range(2):
        assert f"hand of player {p}: " + " ".join(str(c) for c in pos.hand(p)) in text
    for c in range(colors):
        row = next(line for line in lines if line.startswith("YBWGRP"[c] + " "))
        for p in range(2):
            cards = " ".join(str(x) for x in pos.expedition(p, c))
            assert cards in row
        pile = pos.discard_pile(c)
        assert " ".join(str(x) for x in pile) in row
    assert f"draw pile: {pos.deck_count} card(s)" in text
    if pos.is_over():
        assert "round over" in lines[0]
    else:
        assert f"player {pos.to_move} to move" in lines[0]
        assert ("draw a card" in lines[0]) == draw_step


def test_expedition_scores_in_text_match_the_rules():
    # docs/spec/rules.md: 2 wagers, 4, 5, 6, 7, 8, 10 -> 80; a wager alone -> -40
    hands = [
        ["Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"],
        ["B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"],
    ]
    expeditions = [["Rw", "Rw", "R4", "R5", "R6", "R7", "R8", "R10"], ["Gw"]]
    rest = [str(Card.from_type(t)) for t in range(50) for _ in range(3 if t % 10 == 0 else 1)]
    for card in [c for group in hands + expeditions for c in group]:
        rest.remove(card)
    pos = Position.from_parts(hands=hands, expeditions=expeditions, deck=rest)
    assert pos.scores() == (80, -40)
    text = render.position_text(pos, bottom=0)
    red = next(line for line in text.splitlines() if line.startswith("R "))
    green = next(line for line in text.splitlines() if line.startswith("G "))
    assert "+80" in red and "-40" in green
    assert "round score: player 0 +80, player 1 -40" in text
    root = parse(render.position_svg(pos))
    assert {"+80", "-40"} <= {el.text for el in with_class(root, "exp-score")}


@pytest.mark.parametrize("you", [0, 1])
def test_a_position_drawn_for_a_seat_names_you_and_the_opponent_and_shows_both_hands(you):
    """The board ``lcanalysis play`` prints once a round is over: the full position, every card face up,
    its seats named as the player's view names them, the player at the bottom."""
    pos = Position.deal(seed=3)
    while pos.legal_moves():
        pos = pos.play([pos.legal_moves()[0]])
    text = render.position_text(pos, you=you)
    for p, name in ((you, "you"), (1 - you, "opponent")):
        assert f"hand of {name} (player {p}): {' '.join(str(c) for c in pos.hand(p))} (" in text
    assert text.splitlines()[1].split("|")[0].split()[0] == "you"  # the bottom seat's column first
    assert "??" not in text and ": round over" in text.splitlines()[0]
    with pytest.raises(ValueError, match="you must be 0 or 1, got 2"):
        render.position_text(pos, you=2)


@pytest.mark.parametrize("seed,plies,colors", POSITIONS)
def test_view_text_hides_the_unknown_cards(seed, plies, colors):
    pos = played(seed, plies, colors)
    for viewer in (0, 1):
        view = pos.view(viewer)
        text = render.view_text(view)
        assert view.to_text() == text
        lines = text.splitlines()
        assert lines[-1] == view.to_string()
        opp = next(line for line in lines if line.startswith("hand of opponent"))
        assert opp.count("??") == view.opponent_count - len(view.opponent_known)
        mine = next(line for line in lines if line.startswith("hand of you"))
        assert " ".join(str(c) for c in view.hand) in mine
        assert f"you (player {viewer}) {render._signed(pos.score(viewer))}" in text
        assert f"draw pile: {view.deck_count} card(s)" in text


@pytest.mark.parametrize("cap", [1, 4])
def test_a_view_of_a_round_stopped_by_the_turn_cap_says_the_round_is_over(cap):
    """Found by a helper: a view whose history has reached the turn cap (cards still in the draw pile)
    read "opponent (player 0) to move: place a card" in text and showed a player to move in its picture,
    as if the round went on, where the full position said "round over (turn cap)"; every view now says
    what the position says, and a view one turn short of its cap still names the player to move."""
    pos = Position.deal(seed=2, rules=Rules(turn_cap=cap))
    for _ in range(cap - 1):
        pos.push(pos.legal_moves()[0])
    short = pos.view(1 - pos.to_move)  # one turn left: the round goes on
    assert f"opponent (player {pos.to_move}) to move: place a card" in render.view_text(short).splitlines()[0]
    pos.push(pos.legal_moves()[0])
    assert pos.deck_count > 0 and not pos.legal_moves()  # over by the cap alone: no turn is left
    head = f"turn {cap}: round over (turn cap)"
    assert render.position_text(pos).splitlines()[0].endswith(head)
    for viewer in (0, 1):
        text = render.view_text(pos.view(viewer))
        assert text.splitlines()[0].endswith(head) and "to move" not in text, text
        words = texts(parse(render.view_svg(pos.view(viewer))))
        assert "round over" in words and not any("to move" in w for w in words), words


# --- analyses ------------------------------------------------------------------------------------


def test_analysis_svg_draws_a_bar_per_move_with_error_bars():
    analysis = Analysis(
        [
            MoveValue("+R7/D", 3.2, 1.1, False),
            MoveValue("-Bw/G", -2.5, 0.7, False),
            MoveValue("+G4/D", 0.4, 0.0, True),
        ],
        kind="view value (averaged over splits)",
        exact=False,
        bounds={"max_stalls": 1},
    )
    root = parse(render.analysis_svg(analysis))
    moves = with_class(root, "move")
    assert len(moves) == 3
    all_text = texts(root)
    assert all(m in all_text for m in ("+R7/D", "-Bw/G", "+G4/D"))
    assert len(with_class(root, "errorbar")) == 2
    parse(render.analysis_svg(Analysis([], kind="perfect-information value", exact=True)))
    exact = Analysis(
        [MoveValue("/D", 0.0), MoveValue("/R", 0.0)], kind="perfect-information value", exact=True
    )
    parse(render.analysis_svg(exact))


def test_the_card_placed_by_the_last_turn_is_outlined():
    pos = Position.deal(seed=8)
    assert not with_class(parse(render.position_svg(pos)), "last-move")
    for wanted in (True, False):  # a play onto an expedition, then a discard
        move = next(m for m in pos.legal_moves() if m.play == wanted and m.source == "D")
        pos.push(move)
        for svg in (render.position_svg(pos), render.view_svg(pos.view(0)), render.view_svg(pos.view(1))):
            marks = with_class(parse(svg), "last-move")
            assert len(marks) == 1
            assert str(move) in "".join(marks[0].itertext())


def test_a_position_typed_without_its_history_says_its_turn_is_unknown():
    """Without ``hist`` the turn counter is 0, and the table with cards on it was drawn as "turn 0";
    a fresh deal is still turn 0, and a position with its history says its turn."""
    from lcanalysis.game.notation import read_position
    from lcanalysis.show.render import position_text, view_svg, view_text

    full = read_position("example:midround")  # the mover's view, with its history
    typed = read_position(";".join(f for f in full.to_string().split(";") if not f.startswith("hist=")))
    assert view_text(typed).splitlines()[0].startswith("Lost Cities, 5 colours, turn unknown (no history given):")
    assert "turn unknown (no history given)" in view_svg(typed)
    assert view_text(full).splitlines()[0].startswith(f"Lost Cities, 5 colours, turn {len(full.history)}:")
    assert ", turn 0:" in position_text(Position.deal(seed=1)).splitlines()[0]


@pytest.mark.parametrize("draw, said", [
    (lambda: render.card_svg("R7", size=0), r"size must be a whole number of pixels, 1 or more \(None: the "
                                             r"picture's own size\), got 0"),
    (lambda: render.hand_svg(["R7"], size=-5), "size must be a whole number of pixels, 1 or more .*, got -5"),
    (lambda: render.view_svg(Position.deal(seed=1).view(), size="big"), "size must be .*, got 'big'"),
    (lambda: render.position_svg(Position.deal(seed=1), size=300.5), "size must be .*, got 300.5"),
    (lambda: render.expedition_svg(None), r"expedition_svg draws a list of cards like \['R2', 'R7'\], got None"),
    (lambda: render.expedition_svg("R7"), r"expedition_svg draws a list of cards .*, got 'R7'"),
    (lambda: render.analysis_svg(None), r"analysis_svg draws an Analysis \(what solve and advise answer\), got None"),
    (lambda: render.analysis_svg(_ranked(), limit=0), r"limit must be a whole number of turns, 1 or more "
                                                       r"\(None: all\), got 0"),
    (lambda: render.analysis_svg(_ranked(), limit="a"), "limit must be .*, got 'a'"),
])
def test_a_pictures_size_and_an_analysis_charts_limit_are_refused_naming_them(draw, said):
    """size=0 or -5 drew an SVG of no or negative width, size='big' met "unsupported operand type";
    analysis_svg(limit=0) drew every turn where to_text(limit=0) is refused, limit='a' met "slice
    indices must be integers", and expedition_svg(None) Python's "'NoneType' object is not iterable"."""
    from lcanalysis.game.cards import CardError

    with pytest.raises((ValueError, CardError), match=said):
        draw()


def _ranked() -> Analysis:
    return Analysis([MoveValue("+R7/D", 3.0, 1.0), MoveValue("-B4/D", 1.0, 1.0)], kind="advisor estimate", exact=False)


def test_a_pictures_size_is_its_width_in_pixels_and_a_limit_keeps_the_first_turns():
    root = parse(render.card_svg("R7", size=120))
    assert root.get("width") == "120"
    one = parse(render.analysis_svg(_ranked(), limit=1))
    assert "+R7/D" in texts(one) and "-B4/D" not in texts(one)
