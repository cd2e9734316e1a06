"""The built-in Jan/Feb 1942 scenario against the seed: Annex A bases, Annex B routes and
their length classes, and the starting naval balance, number by number."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from campaign import paths
from campaign.routes import route_chart
from campaign.scenario import Scenario, load_scenario, write_scenario
from tests import seeds

#: Annex A, nation by nation: the seed's text for each fleet base → our id
ANNEX_A = {
    ("United Kingdom and Commonwealth", "uk"): {
        "Scapa Flow": "scapa_flow",
        "Portsmouth": "portsmouth",
        "Gibraltar": "gibraltar",
        "Plymouth": "plymouth",
        "Malta": "malta",
        "Simonstown (Cape Town)": "simonstown",
        "Alexandria": "alexandria",
        "Bombay": "bombay",
        "Singapore": "singapore",
        "Freetown (Sierra Leone)": "freetown",
        "Calcutta": "calcutta",
        "Sydney": "sydney",
        "Melbourne": "melbourne",
        "Adelaide": "adelaide",
        "Halifax, Nova Scotia": "halifax",
        "Trincomalee": "trincomalee",
        "Bermuda": "bermuda",
        "Vancouver": "vancouver",
        "King George Sound (W Australia)": "king_george_sound",
    },
    ("USA", "usa"): {
        "Norfolk (Chesapeake Bay)": "norfolk",
        "Guantanamo Bay": "guantanamo_bay",
        "Newport Rhode Island": "newport",
        "Charleston": "charleston",
        "Balboa (Panama Pacific)": "balboa",
        "Colon (Panama Atlantic)": "colon",
        "Pascagoula (Mississippi)": "pascagoula",
        "San Diego": "san_diego",
        "Pearl Harbour (Hawaii)": "pearl_harbour",
        "Guam": "guam",
    },
    ("Japan", "japan"): {
        "Nagasaki": "nagasaki",
        "Masanpo (Seoul)": "masanpo",
        "Truk": "truk",
        "Port Arthur": "port_arthur",
        "Maku (islands west of Formosa)": "maku",
        "Ominato (northern tip of Honshu)": "ominato",
        "Saigon (after Turn 3)": "saigon",
    },
    ("Germany", "germany"): {
        "Kiel": "kiel",
        "Wilhelmshaven": "wilhelmshaven",
        "Danzig": "danzig",
        "Kristiansand": "kristiansand",
        "Trondheim": "trondheim",
        "Gotenhafen (Gdynia)": "gotenhafen",
    },
    ("Italy", "italy"): {
        "Naples": "naples",
        "La Spezia": "la_spezia",
        "Cagliari (Sardinia)": "cagliari",
        "Taranto": "taranto",
    },
    ("USSR", "ussr"): {"Murmansk": "murmansk", "Vladivostock": "vladivostok"},
    ("France", "vichy_france"): {
        "Casablanca": "casablanca",
        "Tunis": "tunis",
        "Dakar": "dakar",
        "Libreville (W coast of Africa)": "libreville",
        "Djibouti (French Somaliland)": "djibouti",
        "Toulon": "toulon",
        "Beirut": "beirut",
        "Brest": "brest",
        "Diego Suarez": "diego_suarez",
        "Martinique": "martinique",
    },
    ("Netherlands", "netherlands"): {
        "Batavia": "batavia",
        "Surabaya": "surabaya",
        "Sabang": "sabang",
    },
    ("Spain", "spain"): {"Cadiz": "cadiz"},
    ("Greece", "greece"): {"Athens": "athens"},
}

#: the starting naval balance table's row labels → unit type (or a nation total)
BALANCE_ROWS = {
    "Fleet Carrier Group": "fleet_carrier",
    "Escort Carrier group": "escort_carrier",
    "Heavy Ship Group": "heavy",
    "Light Cruiser Force": "light_cruiser",
    "Escort Force": "escort",
    "Submarine flotilla": "submarine",
    "Landing Craft Group": "landing_craft",
}


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario()


def test_the_built_in_scenario_is_valid_without_warnings(scenario: Scenario) -> None:
    assert scenario.meta.id == "1942"
    assert scenario.meta.period_of(1) == "Jan/Feb 1942"
    assert scenario.meta.period_of(scenario.meta.last_turn) == "Nov/Dec 1945"
    assert [str(w) for w in scenario.warnings] == []


def test_every_annex_a_fleet_base_is_on_the_map(scenario: Scenario) -> None:
    text = seeds.between(seeds.seed_text(), "Annex A : Fleet Bases", "[page break]")
    headers = {h: key for key in ANNEX_A for h in [key[0]]}
    blocks: dict[tuple[str, str], str] = {}
    current = None
    for line in text.splitlines()[1:]:
        if line.strip() in headers:
            current = headers[line.strip()]
            blocks[current] = ""
        elif current is not None:
            blocks[current] += " " + " ".join(line.split())
    bases = scenario.by_id("bases")
    for key, places in ANNEX_A.items():
        header, nation = key
        for seed_name, base_id in places.items():
            assert seed_name in blocks[key], f"{seed_name} not under {header} in the seed"
            base = bases[base_id]
            assert (base["kind"], base["nation"]) == ("fleet_base", nation), base_id
    listed = {b for places in ANNEX_A.values() for b in places.values()}
    on_map = {b["id"] for b in scenario.rows("bases") if b["kind"] == "fleet_base"}
    assert on_map == listed


def test_saigon_is_a_fleet_base_only_after_turn_3(scenario: Scenario) -> None:
    assert scenario.by_id("bases")["saigon"]["from_turn"] == 4


def test_starting_naval_balance_equals_the_seed_table(scenario: Scenario) -> None:
    table = seeds.starting_balance()
    counts = Counter((u["nation"], u["type"]) for u in scenario.rows("units"))
    for label, unit_type in BALANCE_ROWS.items():
        for nation, number in table[label].items():
            assert counts[(nation, unit_type)] == number, (label, nation)
    nations = scenario.by_id("nations")
    for nation, number in table["Tonnage Points"].items():
        assert nations[nation]["tonnage"] == number, nation
    lsp = Counter()
    for row in scenario.rows("lsp"):
        lsp[row["nation"]] += row["points"]
    for nation, number in table["Logistic Support Points (Naval Only)"].items():
        assert lsp[nation] == number, nation
    table_nations = set(table["Tonnage Points"])
    assert {u["nation"] for u in scenario.rows("units")} <= table_nations


def annex_b() -> list[tuple[int, str, int, str, int]]:
    """Annex B as printed: serial, route, tonnage, length class, effective lift."""
    text = seeds.between(seeds.seed_text(), "ANNEX B", "\n \n \n")
    rows = []
    for m in re.finditer(r"(\d+)\.\s+(.+?)\s+(\d+)\s+(Short|Med|Long) \(x[\d/]+\)\s+(\d+)", text):
        rows.append((int(m[1]), m[2].strip(), int(m[3]), m[4], int(m[5])))
    return rows


def test_every_annex_b_route_has_the_charts_length_class(scenario: Scenario) -> None:
    chart = annex_b()
    assert [r[0] for r in chart] == list(range(1, 29))
    lines = {line.serial: line for line in route_chart(scenario)}
    report = []
    for serial, name, _tonnage, length, _lift in chart:
        line = lines[serial]
        report.append(
            f"{serial:>2} {name:<34} {line.moves:>2} moves {line.length.label:<5} "
            f"chart {length:<5} {' > '.join(line.path)}"
        )
        assert line.length.label == length, report[-1]
    print("\n".join(report))


def test_route_tonnage_follows_annex_b_with_japan_scaled_to_its_56_points(
    scenario: Scenario,
) -> None:
    lines = {line.serial: line for line in route_chart(scenario)}
    japan = 0
    for serial, name, tonnage, _length, lift in annex_b():
        line = lines[serial]
        if line.nation == "japan":
            japan += line.tonnage
            continue
        assert line.tonnage == tonnage, name
        assert line.effective_lift == lift, name
    assert japan == 56 == scenario.by_id("nations")["japan"]["tonnage"]


def test_the_board_is_one_connected_graph_of_120_to_215_sea_areas(scenario: Scenario) -> None:
    # 002 "Sea Areas": areas *approximately 1200-1600 kilometres across*; the board's
    # ~306 million km² of sea make 120 (1600 km squares) to 215 (1200 km squares) of them
    world = scenario.world
    assert 120 <= len(world) <= 215
    assert world.is_connected()
    straits = " ".join(e["name"] for e in scenario.rows("adjacency") if e["kind"] == "strait")
    for strait in ("Gibraltar", "Suez", "Panama", "Bosporus", "Danish", "Malacca", "Sunda"):
        assert strait in straits
    required = {
        "baltic_sea",
        "black_sea",
        "red_sea",
        "mediterranean",
        "caribbean",
        "gulf_of_mexico",
        "bay_of_bengal",
        "south_china_sea",
        "yellow_sea",
        "sea_of_japan",
        "east_china_sea",
        "north_sea",
        "norwegian_sea",
        "coral_sea",
        "tasman_sea",
        "java_sea",
        "arabian_sea",
    }
    ids = " ".join(world.areas)
    assert all(name in ids for name in required), sorted(n for n in required if n not in ids)


def test_known_distances_on_the_board(scenario: Scenario) -> None:
    world = scenario.world
    bases = scenario.by_id("bases")

    def d(a: str, b: str) -> int:
        return world.distance(bases[a]["sea_area"], bases[b]["sea_area"])

    assert d("pearl_harbour", "midway") <= 2
    assert d("truk", "guadalcanal") <= 4  # Rabaul/Truk operations reached the Solomons
    assert d("scapa_flow", "murmansk") <= 3
    assert d("gibraltar", "malta") <= 2
    assert d("san_diego", "singapore") >= 7


def test_export_of_the_built_in_scenario_is_identical(scenario: Scenario, tmp_path: Path) -> None:
    write_scenario(scenario, tmp_path)
    folder = paths.scenario_dir("1942")
    for path in folder.iterdir():
        if path.is_file():
            assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name
    for name in ("sea_areas.csv", "adjacency.csv"):
        assert (tmp_path / name).read_bytes() == (paths.world_dir() / name).read_bytes()


def test_the_coastline_resource_is_there_with_its_licence() -> None:
    land = json.loads((paths.resources_dir() / "map" / "land.json").read_text())
    assert len(land["rings"]) > 50
    assert all(len(ring) >= 3 for ring in land["rings"])
    licence = (paths.resources_dir() / "map" / "NATURAL_EARTH_LICENSE.txt").read_text()
    assert "public domain" in licence.lower()


def test_every_unit_starts_ready_as_the_starting_balance_shows() -> None:
    """002 "Starting Naval Balance Jan/Feb 1942" counts the groups and shows none damaged."""
    from campaign.scenario import load_scenario

    assert {u["state"] for u in load_scenario().rows("units")} == {"ready"}
