"""The advanced variant played through the screens by button events on the fakes."""

import pytest
from screen_helpers import choose, recorded_play

from firmware_app.flows.pingwiny.advanced_table import SPOT_NAMES, TILE_CODES, board_lines
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.ui.screens import Notice
from rules.colours import COLOURS
from rules.pingwiny.advanced import SUPPLY
from rules.pingwiny.board import EDGE_TOWARDS, HQ_SQUARE
from rules.record import replay

SETUP_TITLES = [
    "[Cards]",
    "[Board]",
    "[Penguins]",
    "[First player]",
    "[Figurants]",
    "[Missions above board]",
    "[Tokens]",
    "[Grey tokens]",
]


@pytest.fixture
def sim(tmp_path):
    sim = Headless(tmp_path / "state", language="en", seed=3)
    yield sim
    sim.close()


def start_advanced(sim, players=2, table=False) -> None:
    """From the start screen through the wizard: the app or the table is random."""
    answer = "press down" if table else ""
    sim.command("press ok")  # New game
    sim.command("press down 2")
    assert sim.app.top.items[sim.app.top.cursor].label == sim.app.t("Penguins: advanced")
    sim.press("ok")
    sim.press("down", players - 2)
    sim.press("ok")
    sim.press("ok")  # normal game
    for question in ("Token bag", "Figurant deck", "Officer X's die"):
        assert sim.screen.startswith(f"[{sim.app.t(question)}]")
        sim.command(answer)
        sim.press("ok")
    sim.press("down")  # the demo deck
    sim.press("ok")
    sim.press("ok", 4)  # the seats: no names, the app deals, the app draws, no virtual players


def read_setup(sim) -> list[str]:
    """The setup notices' titles, each once, read page by page."""
    titles = []
    while sim.screen.split("]")[0] + "]" in (*SETUP_TITLES, "[Missions]"):  # or the table's deck
        title = sim.screen.split("]")[0] + "]"
        if title not in titles[-1:]:
            titles.append(title)
        sim.press("ok")
    return titles


def first_move(sim) -> str:
    """Choose the turn menu's first move (to the middle); the tile it goes to."""
    if sim.screen.startswith("[Bag to "):  # the hand-off before the turn
        sim.press("ok")
    label = next(item.label for item in sim.app.top.items if item.label.startswith("Move: "))
    choose(sim, label)
    return label.removeprefix("Move: ").removesuffix(" …")


def read_notice(sim) -> str:
    """The whole text of the notice on top, closed with OK; or what the turn menu on top
    says above its choices (lines short enough to need no notice), with nothing pressed."""
    if not isinstance(sim.app.top, Notice):
        return " ".join(sim.app.top.header)
    text = " ".join(sim.app.top.lines)
    sim.press("ok")
    return text


def test_the_wizard_starts_an_advanced_game_and_lays_out_the_table(sim):
    start_advanced(sim, players=3)
    session = sim.app.session
    assert session.game.variant == "advanced" and session.game.n == 3
    assert read_setup(sim) == SETUP_TITLES
    assert sim.screen.startswith(f"[Player {session.state.first + 1}: ")
    assert sim.screen.splitlines()[0].endswith("] 4 left")
    # a card one can pay puts Headquarters first; the moves follow
    assert sim.screen.splitlines()[1] == "> Headquarters …"
    assert "  Move: " in sim.screen


def test_the_board_page_names_the_tiles_row_by_row(sim):
    start_advanced(sim)
    sim.press("ok")  # the demo deck's label
    text = " ".join(sim.app.top.lines)
    names = [sim.app.t.name(tile) for tile in sim.app.session.state.layout]
    assert text.startswith("Lay the tiles, Headquarters in the middle:")
    for row in range(3):
        tiles = ", ".join(names[row * 3 : row * 3 + 3])
        assert f"Row {row + 1}: {tiles}" in text


@pytest.mark.whole_game
@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_game_through_the_buttons_ends_with_the_score_sheet(tmp_path, language):
    sim = Headless(tmp_path, language=language, seed=5)
    start_advanced(sim, players=3)
    Autopilot(sim, seed=11).play()
    session = sim.app.session
    assert session.over
    assert sim.screen.splitlines()[0] in ("[Game over]", "[Koniec gry]")
    sim.press("ok")
    text = "\n".join(sim.app.top.lines)
    sheet = session.game.score(session.state)
    t = sim.app.t
    for line in sheet.lines:
        assert f"{t('Player {n}', n=line.player + 1)}: {line.total}" in text
        assert t("missions +{n}", n=line.mission) in text
        assert t("card bonuses +{n}", n=line.bonus) in text
    record = sim.journal.record(session.game_id)
    assert replay(record).final == session.state
    sim.close()


@pytest.mark.whole_game
def test_a_table_random_game_names_cards_colours_and_rolls_on_the_screens(sim):
    start_advanced(sim, players=2, table=True)
    Autopilot(sim, seed=4).play()
    session = sim.app.session
    assert session.over
    actions = sim.journal.record(session.game_id)["actions"]
    verbs = {action.split()[0] for action in actions}
    assert {"reveal", "reveal-mission", "draw", "roll", "hq", "block"} <= verbs
    assert any(action.startswith("draw ") for action in actions), "colours entered"
    titles = {frame.splitlines()[0] for frame in sim.frames}
    assert {"[Lay out space 1]", "[Lay out mission 1]", "[Tokens drawn] 0/5"} <= titles
    assert any(title.startswith("[Officer X: the die]") for title in titles)
    assert replay(sim.journal.record(session.game_id)).final == session.state


def test_officer_x_with_the_table_die_unmasks_and_takes_a_token(sim):
    start_advanced(sim, players=2, table=True)
    read_setup(sim)
    game = sim.app.session.game
    while sim.app.session.state.pending or sim.app.session.state.pending_missions:
        sim.press("ok")  # name the first possible card for each space
        if sim.screen.startswith("[At the table]"):
            sim.press("ok")
    s = sim.app.session.state
    mover, buyer = s.first, 1 - s.first
    card = min(
        (c for c in s.faceup if not game.cards.figurants[c].cost[COLOURS.index("grey")]),
        key=lambda c: sum(game.cards.figurants[c].cost[:7]),
    )
    cost = [COLOURS[c] for c, n in enumerate(game.cards.figurants[card].cost[:7]) for _ in range(n)]
    hands = {mover: ["red", "red", "blue", "white", "black"], buyer: (cost + ["white"] * 5)[:5]}
    for player in (mover, buyer):
        if sim.screen.startswith("[Bag to "):  # every turn that passes is handed off
            sim.press("ok")
        assert sim.screen.startswith(f"[Player {player + 1}: ") and "] draw 5" in sim.screen
        choose(sim, "Enter the tokens drawn")
        for colour in hands[player]:
            sim.press(colour)
    # The first player leaves Headquarters and stays on a tile for the whole turn.
    tile = first_move(sim)
    # the player has just said where the penguin went: no notice repeats it
    assert sim.screen.splitlines()[0].endswith("] 3 left")
    for colour in ("white", "black", "red"):
        choose(sim, "Rummage in the bag")
        sim.press(colour)
    assert "] draw 2" in sim.screen
    choose(sim, "Enter the tokens drawn")
    sim.press("white")
    sim.press("black")
    # The second player acquires at Headquarters; the table rolls the die.
    if sim.screen.startswith("[Bag to "):
        sim.press("ok")
    assert sim.screen.startswith(f"[Player {buyer + 1}: ")
    choose(sim, "Headquarters")
    if sim.screen.startswith("[Headquarters]"):
        choose(sim, game.cards.figurants[card].name)
    assert f"Take {game.cards.figurants[card].name}; return " in read_notice(sim)
    assert sim.screen.startswith("[Lay out space ")  # the table's deck: name the new card
    sim.press("ok")
    low, high = game.cards.figurants[card].officer_x
    assert sim.screen.splitlines()[0] == f"[Officer X: the die] {low}–{high}"
    choose(sim, str(high))
    assert f"Die {high} ({low}–{high}): Officer X comes!" in read_notice(sim)
    assert sim.screen.startswith("[Officer X marker]")
    labels = [item.label for item in sim.app.top.items]
    assert sim.app.t.name("hq") not in " ".join(labels)
    details = {item.label: item.detail for item in sim.app.top.items}
    assert details[tile] == f"Here: Player {mover + 1}"  # who stands there, by name
    choose(sim, tile)
    text = read_notice(sim)
    assert f"Officer X marker on the {tile}." in text
    assert f"Unmasked: Player {mover + 1}." in text
    assert sim.screen.startswith(f"[Lost token: Player {mover + 1}]")
    choose(sim, "Enter the token lost")
    held = sim.app.session.state.players[mover].tokens
    assert list(sim.app.top.allowed) == [COLOURS[c] for c in range(7) if held[c]]
    sim.press("grey")  # not in the hand: ignored
    assert sim.screen.startswith("[Token lost] 0/1")
    sim.press("red")
    text = read_notice(sim)
    assert f"Player {mover + 1} loses red." in text
    assert "Return red to Gorillas." in text
    state = sim.app.session.state
    assert state.players[mover].tokens[0] == held[0] - 1
    assert state.phase == "act" and state.current == buyer
    square = [sim.app.t.name(location) for location in state.layout].index(tile)
    assert state.markers == (square,)
    assert f"{TILE_CODES[state.layout[square]]}*{mover + 1}" in "  ".join(board_lines(sim.app))


def test_a_refused_action_shows_why_and_changes_nothing(sim):
    start_advanced(sim)
    read_setup(sim)
    before = recorded_play(sim)
    sim.app.act("rummage")  # Headquarters has no bag symbol
    shown = " ".join(sim.app.render().text().split())
    assert shown.startswith("[Not allowed]")
    assert "Rummaging needs an uncovered bag symbol" in shown
    assert recorded_play(sim) == before
    sim.press("ok")
    assert sim.screen.splitlines()[0].endswith("] 4 left")


def test_a_push_costs_two_and_the_menu_says_so(sim):
    start_advanced(sim)
    read_setup(sim)
    first, layout = sim.app.session.state.first, sim.app.session.state.layout
    tile = first_move(sim)
    square = [sim.app.t.name(location) for location in layout].index(tile)
    choose(sim, f"Block: {SPOT_NAMES[EDGE_TOWARDS[square, HQ_SQUARE]]}")  # the way in from HQ
    for _ in range(2):
        choose(sim, "Rummage in the bag")
        read_notice(sim)  # what came out of the bag
    while not sim.screen.startswith(f"[Player {2 - first}: "):
        sim.press("ok")
    choose(sim, f"Push: {tile}")
    assert f"Push Player {first + 1}'s penguin to the middle." in read_notice(sim)
    assert sim.screen.splitlines()[0].endswith("] 2 left")


def test_a_tapped_card_is_named_played_or_refused(sim):
    start_advanced(sim, table=True)
    read_setup(sim)
    session = sim.app.session
    candidate = session.game.legal_actions(session.state)[-1][1]
    sim.app.set_setting("tags", {"04A1B2C3D4E5F6": candidate})
    sim.tag("04A1B2C3D4E5F6")
    assert session.state.faceup[0] == candidate, "the tapped card was laid in space 1"
    assert sim.screen.startswith("[Lay out space 2]")
    sim.tag("04A1B2C3D4E5F6")
    assert "That card cannot be played now." in " ".join(sim.screen.split())


def test_a_supply_tiles_colour_button_moves_there_and_its_tokens_come_first(sim):
    start_advanced(sim)
    read_setup(sim)
    session = sim.app.session
    legal = session.game.legal_actions(session.state)
    supply = [a[1] for a in legal if a.verb == "move" and a[1] in SUPPLY]
    if not supply:
        pytest.skip("no supply tile next to Headquarters in this layout")
    colour = COLOURS[SUPPLY[supply[0]]]
    played = len(session.states)
    sim.press(colour)  # the turn menu: straight onto that tile
    assert len(session.states) == played + 1
    assert session.journal.record(session.game_id)["actions"][-1] == f"move {supply[0]}"
    s = session.state.copy()  # two tokens of its colour on the tile (the screens read it)
    s.board = tuple(2 if c == SUPPLY[supply[0]] else n for c, n in enumerate(s.board))
    session.states[-1] = s
    sim.app.show_game()
    labels = [item.label for item in sim.app.top.items]
    # what the tile offers, the most first: one action takes one token or two
    assert labels[:2] == [f"Take 2× {colour}", f"Take {colour}"]
    moves = 3 if labels[2] == "Rummage in the bag" else 2  # the tile's bag symbol, if any
    assert labels[moves].startswith("Move")  # then the moves away


def test_each_block_is_a_line_of_its_own_last_among_the_turns_choices(sim):
    """A Block names its spot on the turn menu, so one OK blocks there; the lines that
    spend the turn come last, next to the extras, and the tile's own actions first."""
    from firmware_app.flows.pingwiny.advanced import AdvancedTurn

    start_advanced(sim)
    read_setup(sim)
    menu = sim.app.top
    assert isinstance(menu, AdvancedTurn)
    labels = [item.label for item in menu.items[: menu.moves]]
    blocks = [label for label in labels if label.startswith("Block: ")]
    spots = [
        SPOT_NAMES[a[1]]
        for a in sim.app.session.game.legal_actions(sim.app.session.state)
        if a.verb == "block"
    ]
    assert blocks == [f"Block: {spot}" for spot in spots]
    assert labels[-len(blocks) :] == blocks  # the spending lines last
    before = len(sim.app.session.states)
    choose(sim, blocks[-1])
    assert len(sim.app.session.states) == before + 1  # one OK on the line: blocked
    assert sim.app.journal.record(sim.app.session.game_id)["actions"][-1].startswith("block ")
