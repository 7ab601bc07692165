"""Memories (issue 19 item 7): cards over the Recents grid — On This Day and a year in review here —
each opening a page of its photos, and a × that hides one for good."""

import datetime
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import bench, click_settled, make_driver, make_phone_driver, serve_imported, wait_for


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
