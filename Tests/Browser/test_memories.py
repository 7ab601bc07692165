"""Memories (issue 19 item 7): cards over the Recents grid — On This Day and a year in review here —
each opening a page of its photos, and a × that hides one for good."""

import datetime
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, bench, choose_order, click_settled, make_driver, make_phone_driver, serve_imported, wait_for


@pytest.fixture(scope="module")
def memories_server():
    """Two photos taken on this day of the year in 2019 and 2021, ten in 2020 (a year in review)."""
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-memories-"))
    inputs = folder / "inputs"
    bench("generate", str(inputs), "--count", "12", "--width", "320", "--height", "240")
    today = datetime.date.today()
    day = min(today.day, 28) if today.month == 2 else today.day
    dates = [f"2019:{today.month:02d}:{day:02d} 12:00:00", f"2021:{today.month:02d}:{day:02d} 12:00:00"]
    dates += [f"2020:{month:02d}:15 12:00:00" for month in range(1, 11)]
    for photo, taken in zip(sorted(inputs.iterdir()), dates):
        written = subprocess.run(["exiftool", "-q", "-overwrite_original", f"-DateTimeOriginal={taken}", str(photo)], capture_output=True, text=True)
        assert written.returncode == 0, written.stderr
    yield from serve_imported(folder, inputs, "Memories.shoebox")


def cards(browser):
    return browser.execute_script("""
        const strip = document.querySelector('.memories');
        return strip.hidden ? [] : [...strip.querySelectorAll('.memory-title')].map((t) => t.textContent);""")



def test_memories_open_their_photos_and_hide(memories_server):
    browser = make_driver()
    try:
        browser.get(memories_server.user_url)
        wait_for(browser, lambda: cards(browser) == ["On This Day", "2020"], message="no memory cards over the grid")
        subtitle = browser.find_element(By.CSS_SELECTOR, ".memory-subtitle").text
        assert subtitle == "2019 and 2021"
        wait_for(browser, lambda: browser.execute_script(
            "return [...document.querySelectorAll('.memory-open img')].every((i) => i.complete && i.naturalWidth > 0)"), message="covers did not load")

        wait_for(browser, lambda: click_settled(browser, '.memory-open[aria-label^="On This Day"]'))
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".view-title").text == "On This Day"
                 and browser.find_element(By.CSS_SELECTOR, ".view-count").text == "2 items", message="the memory's page did not open")
        assert "#/memory/on-this-day-" in browser.current_url
        assert cards(browser) == [], "the cards belong to Recents"
        browser.back()
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".view-count").text == "12 items" and cards(browser) == ["On This Day", "2020"])

        wait_for(browser, lambda: click_settled(browser, '.memory-hide[aria-label="Hide 2020"]'))
        wait_for(browser, lambda: cards(browser) == ["On This Day"], message="the hidden memory stayed")
        browser.refresh()
        wait_for(browser, lambda: cards(browser) == ["On This Day"], message="the hidden memory came back")
    finally:
        browser.quit()


def test_memories_fit_a_phone(memories_server):
    browser = make_phone_driver()
    try:
        browser.get(memories_server.user_url)
        wait_for(browser, lambda: len(cards(browser)) >= 1)
        width = browser.execute_script("return document.querySelector('.memory-card').getBoundingClientRect().width")
        assert width <= 160
        overflow = browser.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        assert overflow, "the cards scroll in their row, not the page"
    finally:
        browser.quit()


# Issue 39 item 21: albums have month headers and the scrubber, a click on the scrubber gives it
# the keyboard, and hiding a memory says which one went and offers Undo.

def test_an_album_has_month_headers_and_a_scrubber_that_takes_the_keyboard(memories_server):
    status, listing = memories_server.api("GET", "/api/assets?limit=20")
    ids = [asset["localIdentifier"] for asset in listing["assets"]]
    status, album = memories_server.api("POST", "/api/albums", {"title": "Everything", "assets": ids})
    assert status == 201, album
    browser = make_driver(width=1280, height=800)
    try:
        browser.get(memories_server.user_url + "#/album/" + album["localIdentifier"].replace("/", "%2F"))
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".view-title").text == "Everything")
        headers = wait_for(browser, lambda: [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#photos .grid-header")] or None,
                           message="the album has no month headers")
        assert any("2020" in header for header in headers), headers
        scrubber = wait_for(browser, lambda: next((s for s in browser.find_elements(By.CSS_SELECTOR, ".scrubber") if s.is_displayed()), None),
                            message="the album has no scrubber")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "album-months.png"))
        # A click on the scrubber jumps, and the keys go on from there.
        scrubber.click()
        assert browser.execute_script("return document.activeElement === document.querySelector('.scrubber')"), "the click did not focus the scrubber"
        # The album's own order is still there, in Sort: no months then.
        choose_order(browser, "Album Order")
        wait_for(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, "#photos .grid-header"), message="Album Order kept month headers")
        choose_order(browser, "Newest First")
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#photos .grid-header"), message="Newest First gave no month headers")
    finally:
        browser.quit()
        memories_server.api("DELETE", "/api/albums/" + album["localIdentifier"].replace("/", "%2F"))


def test_hiding_a_memory_names_it_and_undo_brings_it_back(memories_server):
    memories_server.api("POST", "/api/memories/year-2020/unhide")  # whatever an earlier test hid
    browser = make_driver()
    try:
        browser.get(memories_server.user_url)
        wait_for(browser, lambda: cards(browser) == ["On This Day", "2020"], message="no memory cards over the grid")
        wait_for(browser, lambda: click_settled(browser, '.memory-hide[aria-label="Hide On This Day"]'))
        wait_for(browser, lambda: cards(browser) == ["2020"], message="the hidden memory stayed")
        note = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".toast").text or None)
        assert "Hid the memory" in note and "2019 and 2021" in note, f"the note does not say which memory went: {note!r}"
        browser.find_element(By.CSS_SELECTOR, ".toast .toast-action").click()
        wait_for(browser, lambda: cards(browser) == ["On This Day", "2020"], message="Undo did not bring the memory back")
        browser.refresh()
        wait_for(browser, lambda: cards(browser) == ["On This Day", "2020"], message="Undo did not last")
    finally:
        browser.quit()


def test_on_a_phone_the_title_and_memories_fold_away_when_the_photos_scroll(memories_server):
    # Issue 39 item 15: the title, the order row and the memories never scrolled: a third of the screen.
    memories_server.api("POST", "/api/memories/year-2020/unhide")
    browser = make_phone_driver()
    try:
        browser.get(memories_server.user_url)
        wait_for(browser, lambda: len(cards(browser)) >= 1, message="no memory cards")
        top = lambda: browser.execute_script("return document.querySelector('#photos').getBoundingClientRect().top")
        before = top()
        browser.execute_script("document.querySelector('#photos').scrollTop = 400")
        wait_for(browser, lambda: top() < 130, message=f"the photos start {top()} px down after scrolling (at {before} before)")
        assert cards(browser) == [] or not browser.find_element(By.CSS_SELECTOR, ".memories").is_displayed()
        assert browser.find_element(By.CSS_SELECTOR, ".view-title").is_displayed(), "the title stays"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "phone-scrolled.png"))
        browser.execute_script("document.querySelector('#photos').scrollTop = 0")
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".memories").is_displayed(), message="the memories did not come back at the top")
        assert before > 200, f"the photos started at {before} px: the fold is not what this measures"
    finally:
        browser.quit()


def test_the_scrubber_names_every_year_and_strikes_none_out(memories_server):
    # Issue 39 item 23: the top year was struck through by the thumb, and years close together were left out.
    browser = make_driver(width=1280, height=800)
    try:
        browser.get(memories_server.user_url)
        wait_for(browser, lambda: next((s for s in browser.find_elements(By.CSS_SELECTOR, ".scrubber") if s.is_displayed()), None),
                 message="no scrubber")
        years = wait_for(browser, lambda: [y.text for y in browser.find_elements(By.CSS_SELECTOR, ".scrubber-year")] or None)
        assert years == ["2021", "2020", "2019"], years
        crossed = browser.execute_script("""
            const thumb = document.querySelector('.scrubber-thumb').getBoundingClientRect();
            return [...document.querySelectorAll('.scrubber-year')].filter((year) => {
                const box = year.getBoundingClientRect();
                return box.left < thumb.right && thumb.left < box.right && box.top < thumb.bottom && thumb.top < box.bottom;
            }).map((year) => year.textContent);""")
        assert crossed == [], f"the thumb crosses {crossed}"
        top = browser.execute_script("return document.querySelector('.scrubber-year').getBoundingClientRect().top - document.querySelector('.scrubber').getBoundingClientRect().top")
        assert top >= 0, f"the first year sticks out of the strip by {-top} px"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "scrubber-years.png"))
    finally:
        browser.quit()
