"""Why the engine refused something, in English and Polish, by message key.

The engine raises errors carrying a key and parameters; this table turns
them into a sentence in the player's language. Colour and location
parameters are ids and are named in the same language. Polish sentences are
phrased ("w kolorze: …") so that a name never needs declining.
"""

NAMES = {
    "en": {
        "red": "red",
        "blue": "blue",
        "green": "green",
        "yellow": "yellow",
        "grey": "grey",
        "white": "white",
        "black": "black",
        "chimp": "Chimp enclosure",
        "gorilla": "Gorilla enclosure",
        "shop": "Souvenir shop",
        "storehouse": "Zoo storehouse",
        "otter": "Otter enclosure",
        "lemur": "Lemur enclosure",
        "gate": "Zoo gate",
        "gastro": "Gastro zone",
        "hq": "Headquarters",
    },
    "pl": {
        "red": "czerwony",
        "blue": "niebieski",
        "green": "zielony",
        "yellow": "żółty",
        "grey": "szary",
        "white": "biały",
        "black": "czarny",
        "chimp": "Wybieg szympansów",
        "gorilla": "Wybieg goryli",
        "shop": "Sklep z pamiątkami",
        "storehouse": "Magazyn ZOO",
        "otter": "Wybieg wydr",
        "lemur": "Wybieg lemurów",
        "gate": "Brama ZOO",
        "gastro": "Strefa gastro",
        "hq": "Kwatera Główna",
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
        "en": "'{word}' does not say what the grey tokens stand for (e.g. grey=red).",
        "pl": "„{word}” nie mówi, co zastępują szare żetony (np. grey=red).",
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
        "pl": "Masz za mało żetonów w kolorze: {colour}.",
    },
    "illegal.cannot_receive": {
        "en": "No {colour} token is left to receive, on its location or in the bag.",
        "pl": "Brak żetonu w kolorze: {colour} — ani na jego miejscu, ani w worku.",
    },
    "illegal.card_not_faceup": {
        "en": "Card '{card}' is not lying beneath the board.",
        "pl": "Karta „{card}” nie leży pod planszą.",
    },
    "illegal.joker_not_needed": {
        "en": "The card does not ask for {colour}: a grey token cannot stand in for it.",
        "pl": "Karta nie wymaga koloru: {colour}. Szary żeton go nie zastąpi.",
    },
    "illegal.cannot_afford": {
        "en": "Not enough {colour} tokens to acquire '{card}'.",
        "pl": "Za mało żetonów w kolorze: {colour}, by zwerbować „{card}”.",
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
        "en": "There is no {thing} at {place} to move.",
        "pl": "W miejscu {place} nie ma: {thing}.",
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
        "en": "Player {player} already holds a mission.",
        "pl": "Gracz {player} ma już misję.",
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
    "setup.catalogue_incomplete": {
        "en": "The catalogue does not yet know enough to play: {missing}.",
        "pl": "Katalog nie zna jeszcze wszystkiego, co potrzebne do gry: {missing}.",
    },
}

TRANSLATED_PARAMS = ("colour", "location")


def text(key: str, language: str, **params: object) -> str:
    """The sentence for ``key`` in ``language``; unknown keys show themselves."""
    templates = MESSAGES.get(key)
    if templates is None:
        return key
    names = NAMES[language]
    for name in TRANSLATED_PARAMS:
        if name in params:
            params[name] = names.get(str(params[name]), params[name])
    return templates[language].format(**params)
