"""The game file's seal (campaign/seal.py, docs/game-file.md): every stored record is in
the chain, the chain is sealed with a key that is not in the file, and any edit made
outside Sea Control shows — when the file is opened, in ``validate`` (exit 1), in
``report`` and in the app.

The headline test makes 500 random edits with the sqlite3 library, as a tamperer with the
``sqlite3`` tool would (cells changed, rows deleted or added, values swapped, the tail of
the logs cut off, the chain and seal themselves edited) and requires every one to be found.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from campaign import seal
from campaign.engine import Campaign
from campaign.events import Event
from campaign.gamefile import SCHEMA_VERSION, GameFile, GameFileError
from campaign.reports import turn_report
from campaign.teampack import team_pack

from .gamefiles import cli, fingerprint, forge, played_game, sql, tables


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played_game(tmp_path_factory.mktemp("seal") / "template.seacontrol")


@pytest.fixture
def game(template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "game.seacontrol"
    shutil.copyfile(template, path)
    return path


def other_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """Become another machine: a key of its own."""
    monkeypatch.setenv(seal.KEY_ENV, str(tmp_path / "other.key"))
    key = seal.machine_key()
    assert key is not None
    return key


# -- sealing ---------------------------------------------------------------------------------
def test_a_game_is_sealed_with_this_machines_key_at_every_write(game: Path) -> None:
    with GameFile.open(game) as g:
        assert g.integrity.verified and g.integrity.key_id == seal.key_id(seal.machine_key())
        link, head = g.chain_head()
        g.set_meta("notes", "x")
        assert g.chain_head()[0] == link + 1 and g.chain_head()[1] != head
        assert g.chain()[-2] == head  # the old head stays in the chain
    with GameFile.open(game) as g:
        assert g.integrity.verified and g.integrity.link == link + 1


def test_the_key_file_is_made_owner_only_in_the_configuration_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(seal.KEY_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(seal, "_KEYS", {})
    key = seal.machine_key()
    path = seal.key_path()
    assert key is not None and path.is_file()
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        path.chmod(0o644)  # loosened by someone: tightened again when read
        monkeypatch.setattr(seal, "_KEYS", {})
        assert seal.machine_key() == key and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert str(key.hex()) not in seal.key_id(key)


def test_a_damaged_key_file_is_never_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bad.key"
    path.write_text("not a key\n")
    monkeypatch.setenv(seal.KEY_ENV, str(path))
    assert seal.machine_key() is None
    assert path.read_text() == "not a key\n"
    game = played_game(tmp_path / "g.seacontrol", turns=1)
    with GameFile.open(game) as g:
        assert g.integrity.status == seal.UNKEYED


def test_reports_and_packs_print_the_chain_head(game: Path) -> None:
    with Campaign.open(game) as c:
        head, link = c.chain_head(), c.chain_link()
        assert f"chain head {head} (link {link})" in turn_report(c, "blue")
        pack = team_pack(c, "blue", join="http://h:1")
        assert pack.chain_head == c.chain_head()


def test_report_and_validate_name_the_head(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with GameFile.open(game) as g:
        link, head = g.chain_head()
    code, text = cli(capsys, "validate", str(game))
    assert code == 0 and f"chain head {head} (link {link})" in text and "Seal verified" in text
    code, text = cli(capsys, "report", str(game), "--json")
    data = json.loads(text)
    assert code == 0 and data["chain_head"] == head and data["seal"] == seal.SEALED


# -- tampering ---------------------------------------------------------------------------------
def _value(rng: random.Random, old: Any) -> Any:
    """Something else for a cell: a near value of its kind, or one of another kind."""
    roll = rng.random()
    if roll < 0.55:
        if isinstance(old, bool | int):
            return old + rng.choice([-2, -1, 1, 2, 7])
        if isinstance(old, float):
            return old + rng.choice([-0.5, 0.25, 1e-9])
        if isinstance(old, str) and old:
            i = rng.randrange(len(old))
            return old[:i] + rng.choice('0123x{},"a9 ') + old[i + 1 :]
    return rng.choice([None, 0, 1, -1, 3.5, "", "red", "umpire", "{}", "[]", b"\x00", "x" * 300])


def tamper(path: Path, rng: random.Random) -> str:
    """One random edit with the sqlite3 library; returns what it did (table: how)."""
    conn = sqlite3.connect(path)
    conn.text_factory = bytes
    conn.execute("PRAGMA synchronous=OFF")  # a test's edits need not survive a power cut
    try:
        found = conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        names = [r[0].decode() for r in found]
        full = [n for n in names if conn.execute(f"SELECT count(*) FROM [{n}]").fetchone()[0]]
        table = rng.choice(full)
        cols = [r[1].decode() for r in conn.execute(f"PRAGMA table_info([{table}])")]
        rowids = [r[0] for r in conn.execute(f"SELECT rowid FROM [{table}]")]
        kind = rng.choices(["update", "delete", "insert", "swap", "tail"], [60, 14, 10, 8, 8])[0]
        if kind == "update":
            col, rowid = rng.choice(cols), rng.choice(rowids)
            old = conn.execute(f"SELECT [{col}] FROM [{table}] WHERE rowid = ?", [rowid])
            value = _value(rng, _text(old.fetchone()[0]))
            conn.execute(f"UPDATE [{table}] SET [{col}] = ? WHERE rowid = ?", [value, rowid])
        elif kind == "delete":
            conn.execute(f"DELETE FROM [{table}] WHERE rowid = ?", [rng.choice(rowids)])
        elif kind == "insert":
            row = list(
                conn.execute(
                    f"SELECT * FROM [{table}] WHERE rowid = ?", [rng.choice(rowids)]
                ).fetchone()
            )
            row[0] = rng.choice([max(rowids) + 1, 999, "seed2" if table == "meta" else 999])
            marks = ",".join("?" * len(row))
            conn.execute(f"INSERT OR REPLACE INTO [{table}] VALUES ({marks})", row)
        elif kind == "swap" and len(rowids) > 1:
            col = rng.choice(cols)
            a, b = rng.sample(rowids, 2)
            va = conn.execute(f"SELECT [{col}] FROM [{table}] WHERE rowid = ?", [a]).fetchone()[0]
            vb = conn.execute(f"SELECT [{col}] FROM [{table}] WHERE rowid = ?", [b]).fetchone()[0]
            conn.execute(f"UPDATE [{table}] SET [{col}] = ? WHERE rowid = ?", [vb, a])
            conn.execute(f"UPDATE [{table}] SET [{col}] = ? WHERE rowid = ?", [va, b])
        else:
            kind, table = "tail", "events+dice+chain"
            cut = rng.randint(1, 3)
            for log, key in (("events", "seq"), ("dice", "seq"), ("chain", "link")):
                conn.execute(
                    f"DELETE FROM {log} WHERE {key} > (SELECT max({key}) - ? FROM {log})", [cut]
                )
            if rng.random() < 0.7:  # and the seal moved back to the new end of the chain
                link, head = conn.execute(
                    "SELECT link, head FROM chain ORDER BY link DESC"
                ).fetchone()
                conn.execute("UPDATE seal SET link = ?, head = ?", [link, head])
        conn.commit()
        return f"{table}: {kind}"
    except sqlite3.IntegrityError:  # a key SQLite itself refuses: no edit made
        return "none"
    finally:
        conn.close()


def _text(value: Any) -> Any:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def test_500_random_edits_with_sqlite3_are_all_found(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every edit that changes the file is found: refused when opened, and by ``validate``
    (exit 1). The one kind of edit that is not refused outright — the seal's key name
    changed, so that the seal looks made on another machine — is found as a seal this
    machine cannot check, which every command and the app say."""
    rng = random.Random(1942)
    original = template.read_bytes()
    before = fingerprint(template)
    path = tmp_path / "t.seacontrol"
    refused: dict[str, int] = {}
    unverified: list[str] = []
    made = 0
    while made < 500:
        path.write_bytes(original)
        what = tamper(path, rng)
        if fingerprint(path) == before:
            continue  # the edit changed nothing (a value set to itself): not a tampering
        made += 1
        try:
            with GameFile.open(path) as g:
                status = g.integrity.status
        except GameFileError:
            refused[what] = refused.get(what, 0) + 1
        else:
            assert status != seal.SEALED, what
            assert what.startswith("seal:"), what
            unverified.append(what)
        if made % 50 == 0:
            code, text = cli(capsys, "validate", str(path))
            assert code == 1 or "WARNING" in text, what
    assert sum(refused.values()) + len(unverified) == 500
    assert len(unverified) < 25
    tables_hit = {w.split(":")[0] for w in refused}
    for name in ("dice", "events", "current", "turn_starts", "orders", "meta", "sc_units"):
        assert name in tables_hit


def test_an_edit_of_every_kind_the_issue_names_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edits = [
        ("dice", "UPDATE dice SET value = 7 - value WHERE seq = 1"),
        ("events", "UPDATE events SET text = 'Nothing happened' WHERE seq = 3"),
        ("events", "UPDATE events SET visible = '' WHERE visible <> ''"),
        ("current", "UPDATE current SET state = replace(state, '\"step\":0', '\"step\":0 ')"),
        ("turn_starts", "DELETE FROM turn_starts WHERE turn = 2"),
        ("orders", "UPDATE orders SET data = replace(data, 'blue', 'blue') || ' '"),
        ("sc_units", "UPDATE sc_units SET name = 'Mighty' WHERE row_order = 0"),
        ("meta", "UPDATE meta SET value = 'another' WHERE key = 'seed'"),
    ]
    original = game.read_bytes()
    for table, statement in edits:
        game.write_bytes(original)
        sql(game, statement)
        code, text = cli(capsys, "validate", str(game))
        assert code == 1 and f"records were changed in {table}" in text, statement
        code, text = cli(capsys, "report", str(game))
        assert code == 1 and "changed outside Sea Control" in text


def test_a_rehash_without_the_key_is_refused(game: Path, tmp_path: Path) -> None:
    sql(game, "UPDATE dice SET value = 7 - value WHERE seq = 1")
    ours = seal.key_id(seal.machine_key())
    forge(game, os.urandom(32), key_id=ours)  # recomputed, but sealed with a guessed key
    with pytest.raises(GameFileError, match="seal does not match"):
        GameFile.open(game)


def test_cutting_off_the_tail_is_refused(game: Path) -> None:
    for statement in (
        "DELETE FROM events WHERE seq = (SELECT max(seq) FROM events)",
        "DELETE FROM chain WHERE link = (SELECT max(link) FROM chain)",
        "UPDATE seal SET link = (SELECT max(link) FROM chain),"
        " head = (SELECT head FROM chain ORDER BY link DESC LIMIT 1)",
    ):
        sql(game, statement)
    forge(game, None, key_id=seal.key_id(seal.machine_key()))
    with pytest.raises(GameFileError, match="changed outside Sea Control"):
        GameFile.open(game)


def test_a_rehash_under_another_keys_name_is_shown_and_fails_the_anchor(
    game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tamperer with the program's code rebuilds the chain and names another key: this
    machine cannot check that seal, and says so; the chain head a team kept from its last
    report is not in the rebuilt chain; and the next write here puts the change of key in
    the log every team reads."""
    with GameFile.open(game) as g:
        anchor = g.chain_head()[1]
    sql(game, "UPDATE events SET visible = '' WHERE visible <> ''")  # a secret made public
    forge(game, os.urandom(32), key_id="0123456789abcdef", rebuild=True)
    code, text = cli(capsys, "validate", str(game))
    assert code == 0 and "WARNING" in text and "another machine's key (0123456789abcdef)" in text
    code, text = cli(capsys, "validate", str(game), "--anchor", anchor[:16])
    assert code == 1 and "is not in this file's chain" in text
    code, text = cli(capsys, "report", str(game))
    assert code == 0 and "cannot check it" in text
    with Campaign.open(game) as c:
        c.game.set_meta("notes", "carried on")
        assert c.game.integrity.verified
        moved = [e for e in c.events("red") if e.kind == "seal_key_changed"]
        assert moved and "0123456789abcdef" in moved[0].text


def test_a_game_carried_between_two_machines(
    game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Umpire A's game opens on umpire B's machine with a warning (B cannot check A's seal),
    and its chain head is the one A's last report printed; once B saves, A's machine warns
    in turn, and the log says which keys sealed it."""
    with Campaign.open(game) as c:
        printed = c.chain_head()
    other_key(tmp_path, monkeypatch)
    code, text = cli(capsys, "validate", str(game), "--anchor", printed)
    assert code == 0 and "cannot check it" in text
    with Campaign.open(game) as c:
        assert c.game.integrity.status == seal.FOREIGN and c.chain_head() == printed
        c.game.set_meta("notes", "B was here")
        assert c.game.integrity.verified
    monkeypatch.undo()
    with Campaign.open(game) as c:
        assert c.game.integrity.status == seal.FOREIGN
        texts = [e.text for e in c.events() if e.kind == "seal_key_changed"]
        assert len(texts) == 1 and seal.key_id(seal.machine_key()) in texts[0]


def test_an_altered_file_accepted_by_game_control_is_logged(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sql(game, "UPDATE meta SET value = 'fixed by hand' WHERE key = 'name'")
    code, text = cli(capsys, "reseal", str(game), "--reason", "the umpire renamed the game")
    assert code == 0 and "records were changed in meta" in text
    with Campaign.open(game) as c:
        assert c.game.integrity.verified and c.game.name == "fixed by hand"
        found = [e for e in c.events("blue") if e.kind == "file_altered"]
        assert found and "the umpire renamed the game" in found[0].text
        c.reopen_turn(found[0].turn - 1)  # undoing turns never undoes what the seal found
        assert [e for e in c.events("blue") if e.kind == "file_altered"] == found
    code, text = cli(capsys, "reseal", str(game), "--reason", "again")
    assert code == 1 and "nothing to accept" in text


def test_the_app_path_opens_an_altered_file_and_logs_it_at_the_first_write(game: Path) -> None:
    sql(game, "UPDATE dice SET reason = 'rerolled' WHERE seq = 1")
    with Campaign.open(game, altered_ok=True) as c:
        assert c.game.integrity.altered and "records were changed in dice" in (
            c.game.integrity.summary()
        )
        c.game.save(c.state, [Event(c.state.turn, 0, "note", "carry on").row()])
        kinds = [e.kind for e in c.events()]
        assert kinds[-2:] == ["file_altered", "note"] or kinds[-2:] == ["note", "file_altered"]
    with GameFile.open(game) as g:
        assert g.integrity.verified


def test_a_file_from_before_the_seal_is_sealed_on_first_opening(game: Path) -> None:
    sql(game, "DROP TABLE chain; DROP TABLE seal", f"PRAGMA user_version={SCHEMA_VERSION - 1}")
    with Campaign.open(game) as c:
        assert c.game.integrity.verified and c.game.integrity.link == 1
        first = [e for e in c.events("red") if e.kind == "file_sealed"]
        assert len(first) == 1 and "nothing before this point was sealed" in first[0].text
    assert "chain" in tables(game)


def test_the_same_game_on_the_same_machine_gives_the_same_bytes(tmp_path: Path) -> None:
    a = played_game(tmp_path / "a.seacontrol", turns=1, seats=False).read_bytes()
    b = played_game(tmp_path / "b.seacontrol", turns=1, seats=False).read_bytes()
    assert a == b


def test_two_programs_writing_one_file_keep_its_seal(game: Path) -> None:
    """The seat server and the app (or a command) write the same file in turn: each reads
    the other's writes before sealing its own, and the file stays sealed."""
    with GameFile.open(game) as a, GameFile.open(game) as b:
        a.set_meta("from_a", "1")
        b.set_meta("from_b", "2")
        a.set_orders(3, "blue", '{"nation": "blue"}')
        b.save(b.state(), [Event(3, 0, "note", "b's note").row()])
        a.set_meta("from_a", "3")
    with GameFile.open(game) as g:
        assert g.integrity.verified
        assert (g.meta("from_a"), g.meta("from_b")) == ("3", "2")


def test_an_edit_made_while_the_game_is_open_is_logged_not_sealed_over(game: Path) -> None:
    with GameFile.open(game) as g:
        sql(game, "UPDATE meta SET value = 'rigged' WHERE key = 'seed'")
        g.set_meta("notes", "the app saves on")
        assert g.integrity.verified
        found = [e for e in g.log() if e.kind == "file_altered"]
        assert found and "records were changed in meta" in found[0].text


def test_a_write_rolled_back_by_its_caller_is_not_sealed_over(game: Path) -> None:
    """seats.write_transaction checks orders inside a transaction of its own and rolls it
    back: the seal written inside is undone with it, and the next write seals afresh."""
    with GameFile.open(game) as g:
        g.db.conn.execute("BEGIN IMMEDIATE")
        g.set_meta("checked_only", "x")
        g.db.conn.rollback()
        g.set_meta("stored", "y")
    with GameFile.open(game) as g:
        assert g.integrity.verified and g.meta("checked_only") == "" and g.meta("stored") == "y"
