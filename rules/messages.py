"""Why the engine refused something, in English and Polish, by message key.

The engine raises errors carrying a key and parameters; this table turns
them into a sentence in the player's language. Colour and location
parameters are ids and are named in the same language. Polish declines a colour
or a place where the sentence needs it (``DECLINED``); a card's or a player's name
is never declined, so a sentence is phrased to leave it as it is ("kartę „X”").
"""

from rules.numbers import seat

NAMES = {
    "en": {
        "red": "red",
        "blue": "blue",
        "green": "green",
        "yellow": "yellow",
        "grey": "grey",
        "white": "white",
        "black": "black",
        "any": "any colour",
        "chimp": "Chimp enclosure",
        "gorilla": "Gorilla enclosure",
        "shop": "Souvenir shop",
        "storehouse": "Zoo storehouse",
        "otter": "Otter enclosure",
        "lemur": "Lemur enclosure",
        "gate": "Zoo gate",
        "gastro": "Gastro zone",
        "hq": "Headquarters",
        "bag": "the bag",
        "board": "the board",
        "box": "the box",
    },
    "pl": {
        "red": "czerwony",
        "blue": "niebieski",
        "green": "zielony",
        "yellow": "żółty",
        "grey": "szary",
        "white": "biały",
        "black": "czarny",
        "any": "dowolny",
        "chimp": "Wybieg szympansów",
        "gorilla": "Wybieg goryli",
        "shop": "Sklep z pamiątkami",
        "storehouse": "Magazyn ZOO",
        "otter": "Wybieg wydr",
        "lemur": "Wybieg lemurów",
        "gate": "Brama ZOO",
        "gastro": "Strefa gastro",
        "hq": "Kwatera Główna",
        "bag": "worek",
        "board": "plansza",
        "box": "pudełko",
    },
}

MESSAGES = {
    "action.not_text": {
        "en": "Not an action: {given}.",
        "pl": "To nie jest akcja: {given}.",
    },
    "action.empty": {"en": "The action is empty.", "pl": "Akcja jest pusta."},
    "action.unknown_verb": {
        "en": "Unknown action '{verb}'.",
        "pl": "Nieznana akcja „{verb}”.",
    },
    "action.bad_arguments": {
        "en": "Wrong words for this action: '{action}'.",
        "pl": "Niewłaściwe słowa akcji: „{action}”.",
    },
    "action.unknown_colour": {
        "en": "'{colour}' is not a token colour.",
        "pl": "„{colour}” to nie kolor żetonu.",
    },
    "action.unknown_location": {
        "en": "'{location}' is not a location of the zoo.",
        "pl": "„{location}” to nie miejsce w zoo.",
    },
    "action.bad_exchange": {
        "en": "'{exchange}' is not an exchange (write e.g. white+white>yellow).",
        "pl": "„{exchange}” to nie wymiana (np. white+white>yellow).",
    },
    "action.bad_jokers": {
        "en": "'{word}' does not say what greys stand for, or what pays 'any' "
        "(grey=red, any=white).",
        "pl": "„{word}” nie mówi, co zastępują szare ani co płaci za „dowolny” "
        "(grey=red, any=white).",
    },
    "action.bad_correction": {
        "en": "Unknown correction: '{action}'.",
        "pl": "Nieznana korekta: „{action}”.",
    },
    "action.unknown_place": {
        "en": "'{place}' is not a place on the table.",
        "pl": "„{place}” to nie miejsce na stole.",
    },
    "illegal.game_over": {"en": "The game is over.", "pl": "Gra się skończyła."},
    "illegal.reveal_first": {
        "en": "First name the card laid from the deck.",
        "pl": "Najpierw wskaż kartę wyłożoną z talii.",
    },
    "illegal.already_drew": {
        "en": "The tokens for this turn are already drawn.",
        "pl": "Żetony na tę turę są już dobrane.",
    },
    "illegal.draw_first": {
        "en": "First draw 2 tokens from the bag.",
        "pl": "Najpierw dobierz 2 żetony z worka.",
    },
    "illegal.app_draws": {
        "en": "In this game the app draws from the bag.",
        "pl": "W tej grze żetony z worka losuje aplikacja.",
    },
    "illegal.draw_count": {
        "en": "Enter exactly {expected} token(s) drawn.",
        "pl": "Podaj dokładnie tyle dobranych żetonów: {expected}.",
    },
    "illegal.not_in_bag": {
        "en": "There is no {colour} token left in the bag.",
        "pl": "W worku nie ma już żetonu w kolorze: {colour}.",
    },
    "illegal.bag_empty": {"en": "The bag is empty.", "pl": "Worek jest pusty."},
    "illegal.no_token_at": {
        "en": "No {colour} token lies on the {location}: you cannot visit it.",
        "pl": "Miejsce {location} nie ma żetonu w kolorze: {colour}. Nie można go odwiedzić.",
    },
    "illegal.mission_not_available": {
        "en": "Mission '{mission}' is not above the board.",
        "pl": "Misji „{mission}” nie ma nad planszą.",
    },
    "illegal.exchange_for_grey": {
        "en": "You may not exchange tokens for a grey token.",
        "pl": "Nie można wymieniać żetonów na szary żeton.",
    },
    "illegal.exchange_not_in_table": {
        "en": "'{exchange}' is not in the exchange table.",
        "pl": "Wymiany „{exchange}” nie ma w tabeli wymian.",
    },
    "illegal.not_held": {
        "en": "You do not hold enough tokens in {colour}.",
        "pl": "Masz za mało {colour} żetonów.",
    },
    "illegal.cannot_receive": {
        "en": "No {colour} token is left to receive, on its location or in the bag.",
        "pl": "Brak żetonu w kolorze: {colour} — ani na jego miejscu, ani w worku.",
    },
    "illegal.card_not_faceup": {
        "en": "Card '{card}' is not lying beneath the board.",
        "pl": "Karta „{card}” nie leży pod planszą.",
    },
    "illegal.cost_unknown": {
        "en": "The cost of card '{card}' is not known yet: teach it first.",
        "pl": "Koszt karty „{card}” nie jest jeszcze znany: najpierw go podaj.",
    },
    "illegal.mission_unknown": {
        "en": "Mission '{mission}' is not known yet: teach it first.",
        "pl": "Misja „{mission}” nie jest jeszcze znana: najpierw ją podaj.",
    },
    "illegal.values_unknown": {
        "en": "The score needs values not known yet: {cards}.",
        "pl": "Do wyniku brakuje jeszcze wartości kart: {cards}.",
    },
    "illegal.joker_not_needed": {
        "en": "The card does not ask for {colour}: a grey token cannot stand in for it.",
        "pl": "Karta nie wymaga koloru: {colour}. Szary żeton go nie zastąpi.",
    },
    "illegal.any_tokens": {
        "en": "{card} asks for {n} tokens of any colour: name them (any=...).",
        "pl": "{card}: dowolne żetony do podania: {n} (any=...).",
    },
    "illegal.cannot_afford": {
        "en": "Not enough {colour} tokens to acquire '{card}'.",
        "pl": "Za mało {colour} żetonów, by zwerbować kartę „{card}”.",
    },
    "illegal.no_reveal_expected": {
        "en": "No card is waiting to be laid out.",
        "pl": "Żadna karta nie czeka na wyłożenie.",
    },
    "illegal.card_not_next": {
        "en": "Card '{card}' cannot be the next card of the deck.",
        "pl": "Karta „{card}” nie może być następną kartą talii.",
    },
    "illegal.correct_nothing_there": {
        "en": "There is no {colour} token in {place} to move.",
        "pl": "Brak żetonu w kolorze: {colour} (miejsce: {place}).",
    },
    "illegal.correct_not_in_deck": {
        "en": "Card '{card}' is not in the deck.",
        "pl": "Karty „{card}” nie ma w talii.",
    },
    "illegal.correct_not_owned": {
        "en": "Nobody holds card '{card}'.",
        "pl": "Nikt nie ma karty „{card}”.",
    },
    "illegal.correct_not_in_play": {
        "en": "Card '{card}' is not in this game.",
        "pl": "Karty „{card}” nie ma w tej grze.",
    },
    "illegal.correct_mission_held": {
        "en": "{player} already holds a mission.",
        "pl": "{player}: ma już misję.",
    },
    "illegal.phase_draw": {
        "en": "First enter the tokens drawn.",
        "pl": "Najpierw podaj dobrane żetony.",
    },
    "illegal.phase_end_draw": {
        "en": "First draw the 2 tokens that end the turn.",
        "pl": "Najpierw dobierz 2 żetony na koniec tury.",
    },
    "illegal.phase_act": {
        "en": "That is not possible now: choose one of the turn's actions.",
        "pl": "Teraz to niemożliwe: wybierz jedną z akcji tury.",
    },
    "illegal.phase_gastro": {
        "en": "First finish the exchanges (done).",
        "pl": "Najpierw zakończ wymiany (gotowe).",
    },
    "illegal.phase_roll": {
        "en": "First roll the die for Officer X.",
        "pl": "Najpierw rzuć kością za Oficera X.",
    },
    "illegal.phase_officer": {
        "en": "First place the Officer X marker.",
        "pl": "Najpierw połóż znacznik Oficera X.",
    },
    "illegal.phase_lose": {
        "en": "First say which token the unmasked player loses.",
        "pl": "Najpierw podaj, który żeton traci zdemaskowany gracz.",
    },
    "illegal.phase_final": {
        "en": "Only a last figurant action, or a pass, is possible now.",
        "pl": "Teraz można tylko wykonać ostatnią akcję statysty albo spasować.",
    },
    "illegal.stay_at_hq": {
        "en": "After recruiting at Headquarters you stay there until the turn ends.",
        "pl": "Po werbunku w Kwaterze Głównej zostajesz tam do końca tury.",
    },
    "illegal.not_adjacent": {
        "en": "The {location} is not next to your penguin.",
        "pl": "Miejsce {location} nie sąsiaduje z twoim pingwinem.",
    },
    "illegal.already_there": {
        "en": "Your penguin is already on the {location}.",
        "pl": "Twój pingwin już stoi {location}.",
    },
    "illegal.push_needs_two": {
        "en": "Pushing a penguin aside takes 2 actions; not enough are left.",
        "pl": "Odepchnięcie pingwina kosztuje 2 akcje; zostało za mało.",
    },
    "illegal.spot_taken": {
        "en": "That place on the tile ({spot}) is not free.",
        "pl": "To miejsce na kafelku ({spot}) nie jest wolne.",
    },
    "illegal.already_on_spot": {
        "en": "Your penguin already stands there ({spot}).",
        "pl": "Twój pingwin już tam stoi ({spot}).",
    },
    "illegal.no_bag_symbol": {
        "en": "Rummaging needs an uncovered bag symbol (and tokens in the bag).",
        "pl": "Grzebanie w worku wymaga odkrytego symbolu worka (i żetonów w worku).",
    },
    "illegal.not_here": {
        "en": "Your penguin is not on {action}.",
        "pl": "Twój pingwin nie stoi {action}.",
    },
    "illegal.missions_full": {
        "en": "You already hold as many missions as allowed.",
        "pl": "Masz już tyle misji, ile wolno.",
    },
    "illegal.nothing_to_cycle": {
        "en": "No face-up cards to exchange.",
        "pl": "Brak odkrytych kart do wymiany.",
    },
    "illegal.no_exchange": {
        "en": "No exchange is possible.",
        "pl": "Żadna wymiana nie jest możliwa.",
    },
    "illegal.not_held_before": {
        "en": "Not enough {colour} tokens held from before this action.",
        "pl": "Za mało {colour} żetonów sprzed tej akcji.",
    },
    "action.bad_roll": {
        "en": "'{roll}' is not a die roll (1 to 6).",
        "pl": "„{roll}” to nie wynik rzutu kością (1–6).",
    },
    "illegal.marker_not_there": {
        "en": "Officer X cannot go on the {location}.",
        "pl": "Oficer X nie może stanąć w miejscu {location}.",
    },
    "illegal.card_not_held": {
        "en": "You do not hold the card '{card}'.",
        "pl": "Nie masz karty „{card}”.",
    },
    "illegal.no_card_action": {
        "en": "The card '{card}' has no action to use.",
        "pl": "Karta „{card}” nie ma akcji do użycia.",
    },
    "illegal.penguin_used": {
        "en": "Your penguin card's action is already used.",
        "pl": "Akcja karty pingwina została już użyta.",
    },
    "illegal.pass_while_able": {
        "en": "You must use all 4 actions while one is possible.",
        "pl": "Trzeba wykonać 4 akcje, dopóki któraś jest możliwa.",
    },
    "illegal.effect_impossible": {
        "en": "The action of '{card}' cannot be used now.",
        "pl": "Akcji karty „{card}” nie można teraz użyć.",
    },
    "illegal.effect_choice": {
        "en": "'{choice}' is not a possible choice for '{card}'.",
        "pl": "„{choice}” to nie dozwolony wybór dla „{card}”.",
    },
    "illegal.correct_mission_advanced": {
        "en": "Missions cannot be corrected in the advanced variant yet.",
        "pl": "W wariancie zaawansowanym nie można jeszcze poprawiać misji.",
    },
    "setup.layout": {
        "en": "The layout must list the nine tiles row by row, Headquarters in the middle.",
        "pl": "Układ musi wymieniać dziewięć kafelków rzędami, Kwatera Główna w środku.",
    },
    "setup.popiel_players": {
        "en": "Król Popiel is for 2 to 5 players, each with their own mouse ({players} given).",
        "pl": "W Króla Popiela gra od 2 do 5 graczy, każdy swoją myszą (podano: {players}).",
    },
    "setup.popiel_side": {
        "en": "The board has no side '{side}'.",
        "pl": "Plansza nie ma strony „{side}”.",
    },
    "setup.popiel_windows": {
        "en": "How many window spaces does side {side} have? Count them on the board.",
        "pl": "Ile pól okien ma strona {side}? Policz je na planszy.",
    },
    "setup.popiel_reward_mix": {
        "en": "The mix of the reward tokens is not known: draw them at the table.",
        "pl": "Skład żetonów nagród jest nieznany: losujcie je przy stole.",
    },
    "illegal.popiel_reward_first": {
        "en": "First say which reward token was drawn.",
        "pl": "Najpierw podaj, jaki żeton nagrody wylosowano.",
    },
    "illegal.popiel_no_reward": {
        "en": "No reward token is being drawn now.",
        "pl": "Teraz nie losuje się żetonu nagrody.",
    },
    "illegal.popiel_dots": {
        "en": "{dots} dots is more than one tile can complete.",
        "pl": "{dots} kropek to więcej, niż może domknąć jeden kafelek.",
    },
    "illegal.popiel_negative": {
        "en": "A score cannot go below zero.",
        "pl": "Wynik nie może spaść poniżej zera.",
    },
    "action.popiel_kind": {
        "en": "'{kind}' is not a reward token (plus2, plus3, extra, double).",
        "pl": "„{kind}” to nie żeton nagrody (plus2, plus3, extra, double).",
    },
    "setup.popiel_overlay": {
        "en": "The box data contradicts the printed value of {key}.",
        "pl": "Dane pudełka przeczą wydrukowanej wartości {key}.",
    },
    "setup.players": {
        "en": "This game is for 2 to 4 players, not {players}.",
        "pl": "W tę grę gra od 2 do 4 graczy, nie {players}.",
    },
    "setup.source": {
        "en": "Option '{option}' must be 'app' or 'table', not '{value}'.",
        "pl": "Opcja „{option}” musi mieć wartość „app” lub „table”, nie „{value}”.",
    },
    "setup.first": {
        "en": "There is no player {first} to start.",
        "pl": "Nie ma gracza {first}, który mógłby zacząć.",
    },
    "setup.names": {
        "en": "Give exactly {players} player names.",
        "pl": "Podaj dokładnie tyle imion graczy: {players}.",
    },
    "setup.virtual": {
        "en": "Give {players} seats, each a person or a level: easy, normal or strong.",
        "pl": "Podaj {players} miejsca, każde: osoba albo poziom easy, normal lub strong.",
    },
    "setup.unknown_option": {
        "en": "Unknown option '{option}'.",
        "pl": "Nieznana opcja „{option}”.",
    },
    "setup.penguins": {
        "en": "Penguins must be different penguin cards, one per player: {penguins}.",
        "pl": "Pingwiny muszą być różnymi kartami pingwinów, po jednej na gracza: {penguins}.",
    },
    "setup.deck_order": {
        "en": "The deck order must list every figurant of this game exactly once.",
        "pl": "Kolejność talii musi wymieniać każdą kartę statysty tej gry dokładnie raz.",
    },
    "setup.deck_order_table": {
        "en": "A deck order can only be given when the app shuffles the deck.",
        "pl": "Kolejność talii można podać tylko, gdy talię tasuje aplikacja.",
    },
    "setup.token_mix_unknown": {
        "en": "The app draws only from a bag whose colour mix it knows: draw from your own bag.",
        "pl": "Aplikacja losuje tylko, gdy zna kolory żetonów: losujcie z własnego worka.",
    },
    "setup.catalogue_incomplete": {
        "en": "The catalogue does not yet know enough to play: {missing}.",
        "pl": "Katalog nie zna jeszcze wszystkiego, co potrzebne do gry: {missing}.",
    },
}

# A colour's short mark in a card's cost: a letter for the four colours, a disc for the
# three plain tokens (black filled, white hollow, grey half), so that no mark begins
# another ("C" and "Cz" were told apart by one letter). "any" is the rulebook's rainbow
# symbol, paid with a token of any colour.
INITIALS = {
    "en": {
        "red": "R",
        "blue": "B",
        "green": "G",
        "yellow": "Y",
        "grey": "◐",
        "white": "○",
        "black": "●",
        "any": "A",
    },
    "pl": {
        "red": "C",
        "blue": "N",
        "green": "Z",
        "yellow": "Ż",
        "grey": "◐",
        "white": "○",
        "black": "●",
        "any": "D",
    },
}
SEAT_WORD = {"en": "Player {n}", "pl": "Gracz {n}"}
# Where an advanced action is played, for "Your penguin is not on …".
HERE = {
    "en": {"take": "a tile whose tokens it could take", "*": "the {place}"},
    "pl": {"take": "na polu z żetonami do wzięcia", "*": "{place}"},
}
# Polish declines what English leaves alone: "Za mało zielonych żetonów" (genitive plural
# of the colour), "nie stoi w Strefie gastro" (where, in the locative).
OF_MANY = {
    "red": "czerwonych",
    "blue": "niebieskich",
    "green": "zielonych",
    "yellow": "żółtych",
    "grey": "szarych",
    "white": "białych",
    "black": "czarnych",
}
IN_PLACE = {
    "chimp": "w Wybiegu szympansów",
    "gorilla": "w Wybiegu goryli",
    "shop": "w Sklepie z pamiątkami",
    "storehouse": "w Magazynie ZOO",
    "otter": "w Wybiegu wydr",
    "lemur": "w Wybiegu lemurów",
    "gate": "przy Bramie ZOO",
    "gastro": "w Strefie gastro",
    "hq": "w Kwaterze Głównej",
}
DECLINED = {  # key -> parameter -> its Polish form
    "illegal.cannot_afford": {"colour": OF_MANY},
    "illegal.not_held": {"colour": OF_MANY},
    "illegal.not_held_before": {"colour": OF_MANY},
    "illegal.already_there": {"location": IN_PLACE},
}
TRANSLATED_PARAMS = ("colour", "location", "place", "source", "target")


def text(key: str, language: str, /, things=None, **params: object) -> str:
    """The sentence for ``key`` in ``language``; unknown keys show themselves.

    Colours and places are named in the language; a seat id (``p2``) becomes
    "Player 2", and ``things`` (ids of cards, missions, seats) names the rest
    as the table knows them.
    """
    templates = MESSAGES.get(key)
    if templates is None:
        return key
    names = NAMES[language]
    if key == "illegal.not_here":
        here = HERE[language]
        place = str(params["action"])
        named = (IN_PLACE if language == "pl" else names).get(place, place)
        params["action"] = here.get(place) or here["*"].format(place=named)
        return templates[language].format(**params)
    if language == "pl":
        for name, forms in DECLINED.get(key, {}).items():
            params[name] = forms.get(str(params[name]), params[name])
    for name, value in params.items():
        word = str(value)
        if things and word in things:
            params[name] = things[word]
        elif name in TRANSLATED_PARAMS and word in names:
            params[name] = names[word]
        elif (n := seat(word)) is not None:
            params[name] = SEAT_WORD[language].format(n=n)
    return templates[language].format(**params)
