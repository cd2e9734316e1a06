"""Team packs (campaign/teampack.py): what each team is handed, printed — and never what it
may not know."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pypdf
import pytest
import segno

from campaign.cli import main
from campaign.engine import Campaign
from campaign.gamefile import GameFile
from campaign.orders import parse_orders
from campaign.printing import Sheet, pdf_text
from campaign.scenario import load_scenario
from campaign.seats import join_base
from campaign.teampack import PackError, render_pack, team_pack, write_packs
from tests.helpers import add_row, set_cell

BLUE: dict[str, Any] = {
    "nation": "blue",
    "turn": 1,
    "supplies": [{"route": "blue_north", "lsp": 1}],
    "task_forces": [
        {
            "id": "home",
            "name": "Home Fleet",
            "base": "blue_port",
            "units": ["blue_cv1", "blue_bb1"],
            "lsp": 1,
        }
    ],
    "escorts": [{"route": "blue_north", "units": ["blue_es1"]}],
    "operations": [
        {
            "id": "rock",
            "kind": "minor_invasion",
            "area": "east_sea",
            "task_forces": ["home"],
            "target": "rock",
            "invasion_force": "home",
            "manpower": 1,
        }
    ],
}
#: Red's secrets: a unit Blue never meets, a task force that stays home, a card kept
RED: dict[str, Any] = {
    "nation": "red",
    "turn": 1,
    "task_forces": [
        {
            "id": "canary",
            "name": "CANARY FLEET",
            "base": "red_far",
            "units": ["red_canary"],
            "stance": "stay",
        }
    ],
    "raids": [{"route": "blue_north", "area": "north_sea", "units": ["red_ss1"]}],
}
SECRET_TONNAGE = "4321"


@pytest.fixture
def game(tmp_path: Path, mini_copy: Path) -> Path:
    """The mini scenario with Red secrets planted, turn 1 played."""
    add_row(
        mini_copy,
        "units.csv",
        {
            "id": "red_canary",
            "nation": "red",
            "type": "heavy",
            "name": "CANARY Q-SHIP",
            "base": "red_far",
            "state": "ready",
            "carries_air": "no",
        },
    )
    add_row(
        mini_copy,
        "cards.csv",
        {
            "id": "red_canary_card",
            "nation": "red",
            "type": "radar",
            "value": "1",
            "title": "CANARY",
        },
    )
    set_cell(mini_copy, "routes.csv", 2, "tonnage", SECRET_TONNAGE)
    set_cell(mini_copy, "nations.csv", 1, "tonnage", "5000")
    set_cell(mini_copy, "bases.csv", 3, "from_turn", "")  # Red Far Base open from turn 1
    path = tmp_path / "g.seacontrol"
    GameFile.create(path, load_scenario(mini_copy)).close()
    with Campaign.open(path) as c:
        for data in (BLUE, RED):
            c.set_orders(data["nation"], parse_orders(data, data["nation"]))
        c.resolve(seed=7)
    return path


def pdf_words(path: Path) -> str:
    """The PDF's text with every run of spaces and line ends made one space."""
    text = " ".join(page.extract_text() or "" for page in pypdf.PdfReader(path).pages)
    return " ".join(text.split())


def without_codes(text: str, *codes: str) -> str:
    """The text without hex hashes and the seat codes (random letters and digits)."""
    for code in codes:
        text = text.replace(code, "")
    return re.sub(r"[0-9a-f]{16,}", "", text)


def test_a_pack_holds_the_teams_own_cards_routes_and_report(game: Path) -> None:
    with Campaign.open(game) as c:
        pack = team_pack(c, "blue", join="http://10.0.0.5:8765")
        state = c.state
    assert pack.turn == 2 and pack.report_turn == 1 and pack.period == "Mar/Apr 1942"
    assert pack.join_url == f"http://10.0.0.5:8765/join?code={pack.seat_code}"
    [home] = pack.task_forces
    assert home.name == "Home Fleet" and pack.task_forces_turn == 1
    assert home.fleet_cv == sum(u.fleet for u in home.units) > 0
    assert {u.id for u in home.units} == {"blue_cv1", "blue_bb1"}
    assert [u.state for u in home.units] == [
        {"ready": "Ready", "damaged": "Damaged", "sunk": "Sunk"}[state.units[u.id].state]
        for u in home.units
    ]
    # last turn's task forces have come home: every unit afloat is on a port card
    afloat = {u.id for u in state.units_of("blue") if u.state != "sunk"}
    assert {u.id for p in pack.ports for u in p.units} == afloat
    assert [r.id for r in pack.routes] == ["blue_home", "blue_north"]
    north = pack.routes[1]
    assert north.escorts == ("Blue Escorts",)
    assert north.attacks and "North Sea" in north.attacks[0]
    assert [r.id for r in pack.other_routes] == ["red_inner"]
    assert pack.cards and {k.id for k in pack.cards} == {"blue_radar"}
    assert any("Step 8" in heading for heading, _ in pack.report)
    assert pack.flags == (3, 1)


def test_a_pack_never_shows_what_the_team_may_not_know(game: Path, tmp_path: Path) -> None:
    with Campaign.open(game) as c:
        folder = tmp_path / "packs"
        [blue_pdf, red_pdf] = write_packs(c, folder, ["blue", "red"], join="http://h:1")
        blue = team_pack(c, "blue", join="http://h:1")
        red = team_pack(c, "red", join="http://h:1")
    text = without_codes(pdf_words(blue_pdf), blue.seat_code)
    assert "CANARY" not in text  # Red's secret unit, task force and card
    assert "Q-SHIP" not in text
    assert SECRET_TONNAGE not in text  # Red's route tonnage
    assert "Red Far Base" in text  # … though the route and its ends are on the map
    # the pack's data holds the dice chain's head (a random hash) and the seat code: either
    # may hold the secret tonnage's digits by chance (a new-machine run once found them)
    data = without_codes(str(blue.to_data()), blue.seat_code)
    assert "CANARY" not in data and SECRET_TONNAGE not in data
    assert red.seat_code not in pdf_words(blue_pdf)
    # the canary is alive: Red's own pack shows all of it
    red_text = pdf_words(red_pdf)
    assert "CANARY Q-SHIP" in red_text and "CANARY FLEET" in red_text
    assert SECRET_TONNAGE in red_text


def test_the_printed_pack_says_what_it_must(game: Path, tmp_path: Path) -> None:
    with Campaign.open(game) as c:
        pack = team_pack(c, "blue", join="http://h:1")
        head = c.chain_head()
    path = render_pack(pack, "a4").save(tmp_path / "blue.pdf")
    text = pdf_words(path)
    for words in (
        "Blueland",
        "Team pack for turn 2 - Mar/Apr 1942",
        pack.seat_code,
        head,
        "Report of turn 1",
        "TASK FORCE CARD - Home Fleet",
        f"Total Fleet CV: {pack.task_forces[0].fleet_cv}",
        "TASK FORCE CARD - (blank)",
        "FORCES IN PORT - Blue Harbour",
        "Merchant route chart",
        "Blue to the isle",
        "Order sheet - turn 2 (Mar/Apr 1942)",
        "Step 7 - Advantage Cards",
        "Centimetric radar",
        "New Carriers",  # the ship joining in step 2 is on the order sheet
    ):
        assert words in text, words


@pytest.mark.parametrize(("paper", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_packs_print_on_a4_or_letter_in_nine_point_text_or_larger(
    game: Path, tmp_path: Path, paper: str, size: tuple[int, int]
) -> None:
    with Campaign.open(game) as c:
        path = render_pack(team_pack(c, "blue", join="http://h:1"), paper).save(tmp_path / "p.pdf")
    reader = pypdf.PdfReader(path)
    for page in reader.pages:
        box = page.mediabox
        assert (round(float(box.width)), round(float(box.height))) == size
        content = page.get_contents()
        assert content is not None
        sizes = [float(s) for s in re.findall(rb"/F\d+ ([\d.]+) Tf", content.get_data())]
        assert sizes and min(sizes) >= 9, min(sizes)


def test_a_pack_for_a_turn_not_begun_or_a_stranger_is_refused(game: Path) -> None:
    with Campaign.open(game) as c:
        with pytest.raises(PackError, match=r"turn 5 has not begun; .* turns 1 to 2"):
            team_pack(c, "blue", 5)
        with pytest.raises(PackError, match="no nation 'purple'"):
            team_pack(c, "purple")
        first = team_pack(c, "blue", 1, join="http://h:1")  # a reprint of the first pack
    # the position at turn 1's start: the task force as ordered, nothing damaged yet
    assert first.report_turn is None and first.task_forces_turn == 1
    assert [u.state for u in first.task_forces[0].units] == ["Ready", "Ready"]
    assert first.task_forces[0].fleet_cv == 16
    assert first.arriving == []  # the new carriers are due on turn 2


def test_the_qr_code_is_drawn_module_by_module(tmp_path: Path) -> None:
    url = "http://10.0.0.5:8765/join?code=ABCD-EFGH-JK"
    sheet = Sheet("a4", "t", "f")
    sheet.add_page()
    before = sheet.pages[1].contents.count(b" re")
    sheet.qr(url, 20, 20, 50)
    drawn = sheet.pages[1].contents.count(b" re") - before
    runs = sum(
        len(re.findall(rb"\x01+", bytes(row)))
        for row in segno.make(url, error="m", micro=False).matrix
    )
    assert drawn == runs > 100


def test_text_outside_the_pdf_fonts_is_spelt_plainly() -> None:
    assert pdf_text("Truk → Rabaul, CV −2 ≤ 3 ✓") == "Truk -> Rabaul, CV -2 <= 3 ok"
    assert pdf_text("Ōyodo — Café") == "Oyodo — Café"
    assert pdf_text("雪") == "?"


def test_the_join_address_defaults_to_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("campaign.seats.lan_address", lambda: "192.168.1.20")
    assert join_base() == "http://192.168.1.20:8765"
    assert join_base("control.local", 9000) == "http://control.local:9000"


def test_the_pack_command(game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = main(["pack", str(game), "-o", str(out), "--paper", "letter", "--host", "h", "--json"])
    printed = capsys.readouterr().out
    assert code == 0
    assert '"g-turn2-blue.pdf"' in printed and '"g-turn2-red.pdf"' in printed
    assert sorted(p.name for p in out.iterdir()) == ["g-turn2-blue.pdf", "g-turn2-red.pdf"]
    assert "http://h:8765/join?code=" in pdf_words(out / "g-turn2-red.pdf")
    code = main(["pack", str(game), "-o", str(out), "--nation", "purple"])
    assert code == 1
    assert "unknown team purple; valid: blue, red" in capsys.readouterr().err
    assert main(["pack", str(game), "-o", str(out), "--turn", "9"]) == 1
    assert "turn 9 has not begun" in capsys.readouterr().err
