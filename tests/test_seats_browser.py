"""A team's seat in a real browser: Debian's headless Chromium, driven by selenium through
Debian's chromedriver (nothing is downloaded). The team opens its pack's join link, joins,
reads its pages, has orders refused with the rules' words, submits good ones, and the game
file holds them.

Skipped, saying why, where Chromium or its driver is not installed (README Quick start
installs both: ``apt-get install chromium chromium-driver``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from campaign import clock, seats
from campaign.gamefile import GameFile, opened
from campaign.scenario import load_scenario
from campaign.seatserver import SeatServer
from campaign.teampack import join_url

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()),
    reason="the real-browser test needs Debian's chromium and chromium-driver "
    "(/usr/bin/chromium, /usr/bin/chromedriver): apt-get install -y chromium chromium-driver",
)


@pytest.fixture
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # selenium's own driver manager never downloads
    profile = tempfile.mkdtemp(prefix="seats-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def served(tmp_path: Path, mini_dir: Path) -> Iterator[tuple[SeatServer, Path, str]]:
    game = tmp_path / "room.seacontrol"
    GameFile.create(game, load_scenario(mini_dir)).close()
    with opened(game) as g:
        code = seats.seat_codes(g, ["blue", "red"])["blue"]
        clock.change(g, lambda c: clock.start(c, time.time()))
    server = SeatServer(game, port=0)
    server.start()
    try:
        yield server, game, code
    finally:
        server.stop()


class _Waiting:
    """A minute's wait that looks again when the page replaced the element it read (the
    clock and the results are redrawn while the test reads them). Chromium reports such an
    element as stale, or, when the page was replaced between finding it and reading it, as
    a node that "does not belong to the document"; any other error still stops the wait."""

    def __init__(self, browser: Any) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        self._wait = WebDriverWait(
            browser, 60, ignored_exceptions=(StaleElementReferenceException,)
        )

    def until(self, condition: Callable[[Any], Any]) -> Any:
        from selenium.common.exceptions import WebDriverException

        def looked(browser: Any) -> Any:
            try:
                return condition(browser)
            except WebDriverException as exc:
                if "does not belong to the document" in str(exc):
                    return False
                raise

        return self._wait.until(looked)


def test_a_team_joins_in_a_browser_and_its_orders_reach_the_game_file(
    browser: Any, served: tuple[SeatServer, Path, str]
) -> None:
    from selenium.webdriver.common.by import By

    server, game, code = served
    wait = _Waiting(browser)

    browser.get(join_url(server.url, code))  # the team pack's QR code
    assert browser.find_element(By.ID, "code").get_attribute("value") == code
    browser.find_element(By.ID, "join").click()
    wait.until(lambda b: b.current_url.endswith("/team"))
    assert "Blueland" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_elements(By.CSS_SELECTOR, "svg#map polygon.sea")
    wait.until(lambda b: "Orders 1" in b.find_element(By.ID, "clock").text)  # polled clock

    browser.find_element(By.LINK_TEXT, "Units").click()
    wait.until(lambda b: "Your units" in b.page_source)
    assert "Redland" not in browser.find_element(By.TAG_NAME, "h1").text

    browser.find_element(By.LINK_TEXT, "Orders").click()
    box = wait.until(lambda b: b.find_element(By.ID, "orders"))
    box.clear()
    box.send_keys(json.dumps({"nation": "blue", "transfers": [{"unit": "nowhere", "to": "x"}]}))
    browser.find_element(By.ID, "submit").click()
    problems = wait.until(lambda b: b.find_element(By.ID, "problems"))
    assert "nowhere" in problems.text and "nothing was stored" in browser.page_source

    with opened(game) as g:
        unit = next(
            u for u in g.state().units.values() if u.nation == "blue" and u.state == "ready"
        )
    good = {
        "nation": "blue",
        "task_forces": [
            {
                "id": "tf1",
                "name": "Browser Force",
                "base": unit.base,
                "units": [unit.id],
                "stance": "stay",
            }
        ],
    }
    box = browser.find_element(By.ID, "orders")
    box.clear()
    box.send_keys(json.dumps(good))
    browser.find_element(By.ID, "submit").click()
    wait.until(lambda b: "submitted and stored" in b.find_element(By.ID, "result").text)
    assert "1 time" in browser.find_element(By.ID, "sent").text

    with opened(game) as g:
        stored = json.loads(g.orders(1)["blue"])
        sent = seats.submissions(g, 1)
    assert stored["task_forces"][0]["name"] == "Browser Force"
    assert stored["task_forces"][0]["units"] == [unit.id]
    assert set(sent) == {"blue"} and sent["blue"].count == 1

    browser.find_element(By.ID, "leave").click()
    wait.until(lambda b: b.find_elements(By.ID, "join"))
    browser.get(server.url + "/team/orders")
    assert browser.find_elements(By.ID, "join")  # no seat without the code again


def test_a_team_forms_a_task_force_with_the_order_builder(
    browser: Any, served: tuple[SeatServer, Path, str], tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    server, game, code = served
    wait = _Waiting(browser)
    browser.get(join_url(server.url, code))
    browser.find_element(By.ID, "join").click()
    wait.until(lambda b: b.current_url.endswith("/team"))
    browser.find_element(By.LINK_TEXT, "Orders").click()
    wait.until(lambda b: b.find_element(By.ID, "builder"))

    with opened(game) as g:
        unit = next(
            u for u in g.state().units.values() if u.nation == "blue" and u.state == "ready"
        )
    browser.find_element(By.ID, "tf-name").send_keys("Form Force")
    Select(browser.find_element(By.ID, "tf-base")).select_by_value(unit.base)
    others = browser.find_elements(
        By.CSS_SELECTOR, f"fieldset[data-base]:not([data-base='{unit.base}'])"
    )
    assert all(not box.is_displayed() for box in others)  # only the chosen base's units
    browser.find_element(
        By.CSS_SELECTOR, f"fieldset[data-base='{unit.base}'] input[value='{unit.id}']"
    ).click()
    browser.find_element(By.ID, "tf_add").click()
    wait.until(lambda b: "Task force formed" in b.find_element(By.ID, "result").text)
    browser.save_screenshot(str(tmp_path / "builder.png"))

    with opened(game) as g:
        stored = json.loads(g.orders(1)["blue"])
    (tf,) = stored["task_forces"]
    assert (tf["name"], tf["base"], tf["units"]) == ("Form Force", unit.base, [unit.id])
    assert "Form Force" in browser.find_element(By.ID, "draft-tfs").text
