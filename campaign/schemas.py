"""The scenario's CSV files, column by column (documented in ``docs/scenario-format.md``).

A test checks that the document and these schemas agree, so a person editing a scenario in
a spreadsheet can trust the document.
"""

from __future__ import annotations

from .csvdata import MAX_NOTES, Column, TableSchema

UNIT_TYPES = (
    "fleet_carrier",
    "escort_carrier",
    "heavy",
    "light_cruiser",
    "escort",
    "submarine",
    "landing_craft",
)
BASE_KINDS = ("fleet_base", "port", "island")
SIDES = ("allies", "axis", "neutral")
AIR_KINDS = ("land", "strategic")
CARD_TYPES = (
    "radar",
    "codebreaking",
    "deception",
    "doctrine",
    "surprise",
    "technology",
    "logistics",
    "intelligence",
)
UNIT_STATES = ("ready", "damaged")
ADJACENCY_KINDS = ("sea", "strait")
SHIP_TYPES = (
    "battleship",
    "battlecruiser",
    "carrier",
    "light_carrier",
    "escort_carrier",
    "heavy_cruiser",
    "light_cruiser",
    "destroyer",
    "escort",
    "submarine",
    "landing_ship",
)
AIR_GROUP_KINDS = ("fighter", "dive_bomber", "torpedo_bomber", "level_bomber", "patrol")

MAX_TURN = 200
MAX_POINTS = 10_000


def _id(name: str = "id", ref: str | None = None, required: bool = True) -> Column:
    return Column(name, "id", required=required, ref=ref)


def _count(name: str, maximum: float = MAX_POINTS) -> Column:
    return Column(name, "int", minimum=0, maximum=maximum)


def _turn(name: str = "turn", required: bool = True) -> Column:
    return Column(name, "int", required=required, minimum=1, maximum=MAX_TURN)


def _lon() -> Column:
    """A place's longitude: one of the earth's, -180 to 180 (only a sea area's outline may
    run past ±180, to stay continuous across the date line)."""
    return Column("lon", "decimal", minimum=-180, maximum=180)


def _lat() -> Column:
    return Column("lat", "decimal", minimum=-90, maximum=90)


def _notes() -> Column:
    return Column("notes", "text", required=False, max_length=MAX_NOTES, lines=True)


SEA_AREAS = TableSchema(
    "sea_areas.csv",
    (
        _id(),
        Column("name"),
        _lon(),
        _lat(),
        Column("polygon", "text", max_length=20_000, numbers=True),
    ),
    key=("id",),
    optional=True,
    description="the sea areas: the game board",
)

ADJACENCY = TableSchema(
    "adjacency.csv",
    (
        _id("a", "sea_area"),
        _id("b", "sea_area"),
        Column("kind", "enum", choices=ADJACENCY_KINDS),
        Column("name", "text", required=False),
    ),
    key=("a", "b"),
    optional=True,
    description="the sea-area graph's edges",
)

NATIONS = TableSchema(
    "nations.csv",
    (
        _id(),
        Column("name"),
        Column("side", "enum", choices=SIDES),
        Column("colour", "colour"),
        _count("tonnage"),
        _notes(),
    ),
    key=("id",),
    description="the nations (teams) and their sides",
)

BASES = TableSchema(
    "bases.csv",
    (
        _id(),
        Column("name"),
        _id("nation", "nation"),
        Column("kind", "enum", choices=BASE_KINDS),
        Column("island", "bool"),
        _lon(),
        _lat(),
        _id("sea_area", "sea_area"),
        _id("holder", "nation"),
        _turn("from_turn", required=False),
        _notes(),
        Column(
            "land_map",
            "bool",
            required=False,
            help="on a Land Combat map (a landing there is a major invasion); empty: "
            "islands are not, other places are",
        ),
    ),
    key=("id",),
    description="fleet bases, ports and islands",
)

ROUTES = TableSchema(
    "routes.csv",
    (
        _id(),
        Column("serial", "int", minimum=1, maximum=10_000),
        Column("name"),
        _id("nation", "nation"),
        _id("origin", "base"),
        _id("destination", "base"),
        Column("via", "idlist", required=False, ref="sea_area"),
        _count("tonnage"),
        _notes(),
    ),
    key=("id",),
    description="merchant routes",
)

UNITS = TableSchema(
    "units.csv",
    (
        _id(),
        _id("nation", "nation"),
        Column("type", "enum", choices=UNIT_TYPES),
        Column("name"),
        _id("base", "base"),
        Column("state", "enum", choices=UNIT_STATES),
        Column("carries_air", "bool"),
        _notes(),
    ),
    key=("id",),
    description="naval units",
)

LSP = TableSchema(
    "lsp.csv",
    (_id("base", "base"), _id("nation", "nation"), _count("points")),
    key=("base", "nation"),
    description="Logistic Support Points at fleet bases",
)

LSP_SUPPLY = TableSchema(
    "lsp_supply.csv",
    (_id("nation", "nation"), _turn(), _id("base", "base"), _count("points", 100)),
    key=("nation", "turn", "base"),
    description="LSP delivered by the economy each turn",
)

AIR = TableSchema(
    "air.csv",
    (
        _id(),
        _id("nation", "nation"),
        _id("base", "base"),
        Column("kind", "enum", choices=AIR_KINDS),
        _count("points", 1000),
        _notes(),
    ),
    key=("id",),
    description="land-based Air Points",
)

AIR_RANGES = TableSchema(
    "air_ranges.csv",
    (
        _id("nation", "nation"),
        Column("kind", "enum", choices=AIR_KINDS),
        _turn("from_turn"),
        Column("range", "int", minimum=0, maximum=10),
    ),
    key=("nation", "kind", "from_turn"),
    description="air operational range by nation and date",
)

GARRISONS = TableSchema(
    "garrisons.csv",
    (_id("base", "base"), _id("nation", "nation"), _count("garrisons", 100)),
    key=("base", "nation"),
    description="garrison counters",
)

FLAGS = TableSchema(
    "flags.csv",
    (
        _id("nation", "nation"),
        _turn(),
        _count("naval", 100),
        _count("military", 100),
    ),
    key=("nation", "turn"),
    description="Naval and Military Operations Flags per nation per turn",
)

CARDS = TableSchema(
    "cards.csv",
    (
        _id(),
        _id("nation", "nation"),
        Column("type", "enum", choices=CARD_TYPES),
        Column("value", "int", minimum=1, maximum=6),
        Column("title"),
    ),
    key=("id",),
    description="Advantage Card decks",
)

SHIPYARDS = TableSchema(
    "shipyards.csv",
    (
        _id(),
        Column("name"),
        _id("nation", "nation"),
        _lon(),
        _lat(),
        _id("sea_area", "sea_area"),
    ),
    key=("id",),
    description="shipyards where new production is built",
)

PRODUCTION = TableSchema(
    "production.csv",
    (
        _id(),
        _turn(),
        _id("nation", "nation"),
        _id("shipyard", "shipyard"),
        Column("type", "enum", choices=UNIT_TYPES),
        Column("name"),
        _notes(),
    ),
    key=("id",),
    description="the reinforcement (production) schedule",
)

SHIPS = TableSchema(
    "ships.csv",
    (
        _id(),
        Column("name"),
        _id("nation", "nation"),
        _id("unit", "unit"),
        Column("type", "enum", choices=SHIP_TYPES),
        Column("class", "text"),
        _count("tonnage", 100_000),
        Column("completed", "int", minimum=1890, maximum=1950),
        Column("speed", "decimal", minimum=0, maximum=45),
        Column("guns", "text", required=False),
        _count("aa", 200),
        Column("belt", "decimal", minimum=0, maximum=30),
        Column("deck", "decimal", minimum=0, maximum=15),
        Column("turret", "decimal", minimum=0, maximum=30),
        _count("torpedo_tubes", 40),
        _notes(),
    ),
    key=("id",),
    optional=True,
    description="named ships of each campaign unit (for tactical battles)",
)

AIR_GROUPS = TableSchema(
    "air_groups.csv",
    (
        _id(),
        _id("ship", "ship"),
        Column("kind", "enum", choices=AIR_GROUP_KINDS),
        Column("model"),
        _count("aircraft", 200),
        _notes(),
    ),
    key=("id",),
    optional=True,
    description="carrier air groups (for tactical battles)",
)

#: Every scenario table, in the order files are listed, read and written.
TABLES: tuple[TableSchema, ...] = (
    SEA_AREAS,
    ADJACENCY,
    NATIONS,
    BASES,
    ROUTES,
    UNITS,
    LSP,
    LSP_SUPPLY,
    AIR,
    AIR_RANGES,
    GARRISONS,
    FLAGS,
    CARDS,
    SHIPYARDS,
    PRODUCTION,
    SHIPS,
    AIR_GROUPS,
)

WORLD_TABLES = (SEA_AREAS, ADJACENCY)


def table_name(schema: TableSchema) -> str:
    """``units.csv`` → ``units`` (the attribute and SQLite table name)."""
    return schema.file.removesuffix(".csv")
