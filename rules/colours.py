"""Token colours and figurant types of Pingwiny z Madagaskaru.

Colours are indexed by their position in ``COLOURS`` everywhere in the
engine: a bag, a location's supply or a player's hand is a tuple of seven
counts in this order, which keeps states small and cheap to copy.
"""

COLOURS = ("red", "blue", "green", "yellow", "grey", "white", "black")
RED, BLUE, GREEN, YELLOW, GREY, WHITE, BLACK = range(7)
INDEX = {name: i for i, name in enumerate(COLOURS)}

# A figurant's cost: the seven colours, then the rulebook's rainbow "any token" symbol,
# paid with a token of any colour. Costs are tuples of eight counts in this order.
COST_COLOURS = (*COLOURS, "any")
ANY = 7

# The four colours that have a supply on the board, and where it lies.
SUPPLY_OF = {RED: "gorilla", BLUE: "chimp", GREEN: "storehouse", YELLOW: "shop"}

# The seven figurant types printed on the cards (Game Components, Figurant Cards).
TYPES = ("bird", "human", "mammal", "enemy", "reptile", "amphibian", "insect")

# A mission counts the cards of one type, of any of several types, or (Idealny Dzień's
# kind) the different types among the cards: then it names this instead of a type.
DIFFERENT = "different"
