"""Card effects in the table's words, never in notation.

The catalogue keeps an effect as data (``rules.catalogue.effects``); a family
reads "Draw 2 random tokens", and chooses an effect it is teaching from the
same words. A primitive without words here is not offered for teaching.
"""

from firmware_app.words.table_text import tokens_of
from rules.catalogue import NO_EFFECT, Effect
from rules.colours import TYPES

# What each primitive does, with its parameters filled in.
WORDS = {
    "remove_marker": "Remove an X marker",
    "move": "Move past any blockade",
    "acquire": "Acquire a face-up card",
    "bonus_with": "+{points} with {card}",
    "bonus_per_type": "+{points} for each other {type}",
    "immune": "Safe from the actions of {cards}",
    "no_penalty": "No penalty points",
    "extra_mission": "One more mission once done",
}
# Those that count tokens, in the form the number wants ("1 token", "2 żetony").
COUNTED_ONE = {
    "draw": "Draw {n} random token",
    "give": "Give {n} token to a penguin",
    "steal": "Take {n} random token from a penguin",
    "steal_choice": "Take {n} token of your choice from a penguin",
    "others_discard": "Every other penguin discards {n} random token",
}
COUNTED_MANY = {
    "draw": "Draw {n} random tokens",
    "give": "Give {n} tokens to a penguin",
    "steal": "Take {n} random tokens from a penguin",
    "steal_choice": "Take {n} tokens of your choice from a penguin",
    "others_discard": "Every other penguin discards {n} random tokens",
}
# Those that count tokens of one colour: the colour is declined with the number.
COLOURED = {
    "draw_colour": "Take {tokens} from the bag",
    "take": "Take {tokens} from the board",
    "grey": "Take {tokens}",
}

# The same, as a choice before its parameters are known.
CHOICES = {
    "draw": "Draw random tokens",
    "draw_colour": "A colour from the bag",
    "take": "A colour from the board",
    "give": "Give tokens to a penguin",
    "steal": "Take tokens from a penguin",
    "remove_marker": "Remove an X marker",
    "move": "Move past any blockade",
    "grey": "Take grey tokens",
    "steal_choice": "Pick a penguin's tokens",
    "others_discard": "The others lose tokens",
    "acquire": "Acquire a face-up card",
    "bonus_with": "Points with another card",
    "bonus_per_type": "Points for each of a type",
    "immune": "Safe from card actions",
    "no_penalty": "No penalty points",
    "extra_mission": "One more mission once done",
}
# What the screen asks for each kind of parameter.
PROMPTS = {
    "count": "How many tokens?",
    "points": "How many points?",
    "colour": "Which colour?",
    "type": "Which type?",
    "card": "Which card?",
    "cards": "Which card?",
}


def effect_text(t, effect: Effect | None, card_name=lambda card: card) -> str:
    """``Draw 2 random tokens``; ``card_name`` turns a card id into its name."""
    if effect is None:
        return t("not known yet")
    if effect == NO_EFFECT:
        return t("No effect")
    params = dict(effect.params)
    if effect.do in COUNTED_ONE:
        n = params["count"]
        return t.plural(COUNTED_ONE[effect.do], COUNTED_MANY[effect.do], n)
    if effect.do in COLOURED:
        tokens = tokens_of(t, params.get("colour", "grey"), params["count"])
        return t(COLOURED[effect.do], tokens=tokens)
    types = {kind: t(kind) for kind in TYPES}
    values = {}
    for name, value in effect.params:
        if name == "type":
            value = types.get(value, value)
        elif name == "card":
            value = card_name(value)
        elif name == "cards":
            value = ", ".join(card_name(card) for card in value)
        values[name] = value
    return t(WORDS[effect.do], **values)
