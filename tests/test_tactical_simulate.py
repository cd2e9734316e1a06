"""Odds of a tactical battle: sampled figures with standard errors, and the campaign step
losses each battle comes to (campaign.tactical.simulate)."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from campaign.dice import UnloggedDice
from campaign.state import Unit
from campaign.tactical import RULE_SETS, BattleSetup, run
from campaign.tactical import simulate as sampling
from campaign.tactical.outcome import step_losses, unit_rosters
from campaign.tactical.preview import PreviewDice
from campaign.tactical.simulate import TacticalOdds, available, campaign_units, simulate

MIDWAY = Path(__file__).resolve().parent.parent / "data" / "battles" / "midway.json"


def test_probability_and_mean_standard_errors() -> None:
    odds = TacticalOdds("x", runs=100)
    p, se = odds.p(25)
    assert p == 0.25 and se == pytest.approx(math.sqrt(0.25 * 0.75 / 100))
    # 50 battles with 0 steps, 50 with 2: mean 1, sample variance 100/99, SE √(var/n)
    mean, se = odds.mean(Counter({0: 50, 2: 50}))
    assert mean == 1 and se == pytest.approx(math.sqrt(100 / 99 / 100))
    assert TacticalOdds("x").p(0) == (0.0, 0.0)


def test_stand_in_units_come_from_the_ships() -> None:
    setup = BattleSetup.load(MIDWAY)
    units = campaign_units(setup)
    assert [u.id for u in units["a"]] == ["jpn_cv_akagi_kaga", "jpn_cv_hiryu_soryu"]
    assert {u.state for u in units["a"] + units["b"]} == {"ready"}
    setup.a.ships[0].state = "damaged"
    assert campaign_units(setup)["a"][0].state == "damaged"
    setup.a.ships[0].campaign_unit = ""  # a ship standing for no unit: no step losses
    assert campaign_units(setup) == {"a": [], "b": []}


def test_step_losses_are_counted_battle_by_battle() -> None:
    available()
    setup = BattleSetup.load(MIDWAY)
    odds = simulate("carrier", setup, 40, seed="t")
    assert odds.runs == 40 and odds.has_steps
    for counts in odds.unit_steps.values():
        assert sum(counts.values()) == 40 and set(counts) <= {0, 1, 2}
    # the same 40 battles again, by hand
    units = campaign_units(setup)
    expected: dict[str, Counter[int]] = {"a": Counter(), "b": Counter()}
    pairs: Counter[tuple[int, int]] = Counter()
    for i in range(40):
        result = run(RULE_SETS["carrier"](setup, PreviewDice(f"t/{i}")))
        sunk = {s.id for s in result.ships.values() if s.state == "sunk"}
        lost = [sum(s.id in sunk for s in side.ships) for side in (setup.a, setup.b)]
        pairs[lost[0], lost[1]] += 1
        for key in ("a", "b"):
            losses = step_losses(result, units[key], unit_rosters(setup))
            expected[key][sum(loss.steps for loss in losses)] += 1
    assert odds.side_steps == expected
    assert odds.sunk_pairs == pairs
    wiped = odds.wiped_out()  # Kido Butai has 4 carriers, the Americans 3
    assert wiped["both"] == pairs[4, 3]
    assert wiped["a"] == sum(n for (a, _), n in pairs.items() if a == 4)
    assert wiped["neither"] == sum(n for (a, b), n in pairs.items() if a < 4 and b < 3)
    assert wiped["a"] + wiped["b"] - wiped["both"] + wiped["neither"] == 40
    assert not odds.campaign_winners  # stand-in units: no combat values to compare
    data = odds.to_dict()
    assert data["units"]["jpn_cv_akagi_kaga"]["side"] == "a"
    assert abs(sum(v["p"] for v in data["steps_lost"]["a"]["p"].values()) - 1) < 1e-3
    assert "campaign steps lost" in odds.format()


def test_with_the_campaign_units_the_campaign_winner_is_counted() -> None:
    setup = BattleSetup.load(MIDWAY)
    units = {
        "a": [
            Unit(
                "jpn_cv_akagi_kaga",
                "japan",
                "fleet_carrier",
                "Akagi & Kaga",
                "truk",
                carries_air=True,
            ),
            Unit(
                "jpn_cv_hiryu_soryu",
                "japan",
                "fleet_carrier",
                "Hiryu & Soryu",
                "truk",
                carries_air=True,
            ),
        ],
        "b": [
            Unit(
                "usa_cv_enterprise_yorktown",
                "usa",
                "fleet_carrier",
                "Enterprise & Yorktown",
                "pearl",
            ),
            Unit("usa_cv_wasp_hornet", "usa", "fleet_carrier", "Wasp & Hornet", "pearl"),
        ],
    }
    odds = simulate("carrier", setup, 30, units=units)
    assert sum(odds.campaign_winners.values()) == 30
    assert odds.unit_names["jpn_cv_akagi_kaga"] == "Akagi & Kaga"
    assert "wins the campaign battle" in odds.format()


def test_set_ups_without_campaign_units_have_no_step_losses() -> None:
    available()
    setup = BattleSetup.load(MIDWAY.with_name("surface-example.json"))
    odds = simulate("surface", setup, 5)
    assert not odds.has_steps and "steps_lost" not in odds.to_dict()


def test_worker_processes_fight_the_very_same_battles() -> None:
    """Battle i has the dice seeded "seed/i" wherever it is fought: the odds from a pool of
    worker processes, in batches that come in in any order, are the odds fought in this
    process, battle for battle; progress comes batch by batch."""
    available()
    setup = BattleSetup.load(MIDWAY)
    units = campaign_units(setup)
    here = simulate("carrier", setup, 120, seed="w", units=units, workers=1)
    seen: list[int] = []
    pooled = simulate(
        "carrier",
        setup,
        120,
        seed="w",
        units=units,
        workers=2,
        every=25,
        on_progress=lambda o: seen.append(o.runs),
    )
    assert pooled.to_dict() == here.to_dict() and pooled.runs == 120
    # batch by batch, as each is done (the last one 20 battles)
    steps = [b - a for a, b in zip([0, *seen], seen, strict=False)]
    assert seen[-1] == 120 and sorted(steps) == [20, 25, 25, 25, 25]
    assert pooled.campaign_winners == here.campaign_winners
    # a pool already running is given every batch, the first too
    simulate("carrier", setup, 50, seed="w", workers=2, every=25)
    assert sampling._POOL is not None
    again = simulate("carrier", setup, 120, seed="w", units=units, workers=2, every=25)
    assert again.to_dict() == here.to_dict()


def test_a_stopped_pool_keeps_the_figures_so_far() -> None:
    available()
    setup = BattleSetup.load(MIDWAY.with_name("surface-example.json"))

    def stop(odds: TacticalOdds) -> None:
        raise KeyboardInterrupt  # what a caller's Stop raises

    with pytest.raises(KeyboardInterrupt):
        simulate("surface", setup, 400, workers=2, every=20, on_progress=stop)
    # the pool is still there for the next preview
    assert simulate("surface", setup, 40, workers=2, every=20).runs == 40


def test_counting_two_previews_together() -> None:
    available()
    setup = BattleSetup.load(MIDWAY)
    whole = simulate("carrier", setup, 30, seed="c", workers=1)
    part = simulate("carrier", setup, 30, seed="c", workers=1, every=10)
    assert part.to_dict() == whole.to_dict()
    empty = TacticalOdds("carrier")
    empty.add(whole)
    assert empty.runs == 30 and empty.winners == whole.winners
    assert empty.unit_steps == whole.unit_steps and empty.sunk_pairs == whole.sunk_pairs


# -- the preview's dice against the game's ---------------------------------------------

#: each rule set's benchmark set-up and the battles of each sample
SAMPLES = {
    "carrier": ("midway.json", 300),
    "fastplay": ("fastplay-example.json", 200),
    "surface": ("surface-example.json", 300),
    "airstrike": ("airstrike-example.json", 600),
}
#: z of a one-sided 0.1% test: the samples differ with a chance under one in a thousand
Z_999 = 3.0902


def chi_square(a: Counter[Any], b: Counter[Any]) -> tuple[float, float]:
    """Two-sample chi-square of homogeneity of two counts over the same categories, with
    categories seen fewer than 10 times in both together pooled into one: (statistic, its
    99.9% critical value, by the Wilson–Hilferty approximation)."""
    kept: list[tuple[int, int]] = []
    rare = [0, 0]
    for key in set(a) | set(b):
        if a[key] + b[key] >= 10:
            kept.append((a[key], b[key]))
        else:
            rare[0] += a[key]
            rare[1] += b[key]
    if sum(rare) > 0:
        kept.append((rare[0], rare[1]))
    na, nb = sum(a.values()), sum(b.values())
    stat = 0.0
    for x, y in kept:
        total = x + y
        for seen, n in ((x, na), (y, nb)):
            expected = total * n / (na + nb)
            stat += (seen - expected) ** 2 / expected
    df = max(len(kept) - 1, 1)
    critical = df * (1 - 2 / (9 * df) + Z_999 * math.sqrt(2 / (9 * df))) ** 3
    return stat, critical


@pytest.mark.slow
@pytest.mark.parametrize("rule_set", sorted(SAMPLES))
def test_preview_dice_give_the_game_dice_odds(rule_set: str) -> None:
    """An odds preview rolls a seeded Mersenne Twister (PreviewDice); a battle in the game
    rolls SeededDice's SHA-256 stream. With fixed seeds (so the test is the same on every
    run) the two samples' winners and ships sunk on each side are the same distribution by
    a chi-square test at 0.1%, and their mean ships sunk agree within four standard errors."""
    available()
    file, n = SAMPLES[rule_set]
    setup = BattleSetup.load(MIDWAY.with_name(file))
    preview = simulate(rule_set, setup, n, seed="equivalence")
    winners: Counter[str] = Counter()
    sunk: dict[str, Counter[int]] = {"a": Counter(), "b": Counter()}
    for i in range(n):
        battle = RULE_SETS[rule_set](setup, UnloggedDice(f"equivalence/{i}"))
        battle.narrate = False
        result = run(battle)
        winners[result.winner] += 1
        for key, side in (("a", setup.a), ("b", setup.b)):
            sunk[key][sum(result.ships[s.id].state == "sunk" for s in side.ships)] += 1
    for name, mine, game in (
        ("winner", preview.winners, winners),
        ("ships sunk, a", preview.ships_sunk["a"], sunk["a"]),
        ("ships sunk, b", preview.ships_sunk["b"], sunk["b"]),
    ):
        stat, critical = chi_square(Counter(mine), game)
        assert stat < critical, f"{rule_set} {name}: chi-square {stat:.1f} ≥ {critical:.1f}"
    for key in ("a", "b"):
        m1, se1 = preview.mean(preview.ships_sunk[key])
        m2, se2 = preview.mean(sunk[key])
        assert abs(m1 - m2) <= 4 * math.hypot(se1, se2) + 1e-9, (key, m1, m2)


def test_a_worker_whose_compiled_rules_fail_fights_on_with_the_sources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Should compiled code fail where the source would not (it holds to its types), the
    worker drops the build and fights the batch again with the sources."""
    import pickle

    from campaign.tactical import simulate as sampling

    available()
    setup = BattleSetup.load(MIDWAY.with_name("airstrike-example.json"))
    plan = sampling._Plan("airstrike", setup, "fallback", None, compiled="/a/build")
    dropped: list[Path] = []
    real = sampling._fight
    calls: list[int] = []

    def fight(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            raise TypeError("int object expected; got float")  # what compiled code says
        real(*args, **kwargs)

    monkeypatch.setattr(sampling, "_COMPILED", ["/a/build"])
    monkeypatch.setattr(sampling.compiled, "drop", dropped.append)
    monkeypatch.setattr(sampling, "_fight", fight)
    odds = sampling._fight_batch(pickle.dumps(plan), 0, 30)
    assert dropped == [Path("/a/build")] and sampling._COMPILED == [""]
    assert odds.to_dict() == simulate("airstrike", setup, 30, seed="fallback").to_dict()

    # the set-up's own faults are not the build's: they go to the caller
    def refused(*args: Any, **kwargs: Any) -> None:
        raise ValueError("campaign_units not understood")

    monkeypatch.setattr(sampling, "_COMPILED", ["/a/build"])
    monkeypatch.setattr(sampling, "_fight", refused)
    with pytest.raises(ValueError, match="not understood"):
        sampling._fight_batch(pickle.dumps(plan), 0, 30)
    assert sampling._COMPILED == ["/a/build"]
