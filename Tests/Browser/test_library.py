"""The library app: the grid, the viewer, import, live changes, and a large library."""

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import BIN, Server, bench, by_name, make_driver, shoebox, wait_for


def visible_thumbnails(browser):
    return browser.execute_script("""
        const grid = document.querySelector('#photos');
        const box = grid.getBoundingClientRect();
        return [...grid.querySelectorAll('.cell img')].filter((img) => {
            const r = img.getBoundingClientRect();
            return r.bottom > box.top && r.top < box.bottom && img.complete && img.naturalWidth > 0;
        }).length;
    """)


def test_grid_viewer_and_favorite(server, driver):
    grid = driver.find_element(By.CSS_SELECTOR, '[role="listbox"][aria-label="Photos"]')
    wait_for(driver, lambda: visible_thumbnails(driver) >= 7, message="the thumbnails did not load")
    headers = [header.text for header in driver.find_elements(By.CSS_SELECTOR, ".grid-header")]
    assert headers, "date headers"
    grid.send_keys(Keys.ENTER)
    viewer = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.viewer[open]"))
    first = viewer.find_element(By.CSS_SELECTOR, ".title").text
    viewer.send_keys(Keys.ARROW_RIGHT)
    wait_for(driver, lambda: viewer.find_element(By.CSS_SELECTOR, ".title").text != first)
    by_name(driver, "Info").click()
    wait_for(driver, lambda: "Size" in viewer.find_element(By.CSS_SELECTOR, ".info-panel").text)
    by_name(driver, "Favorite").click()
    viewer.send_keys(Keys.ESCAPE)
    wait_for(driver, lambda: "Favorites, 1" in [link.get_attribute("aria-label") for link in driver.find_elements(By.CSS_SELECTOR, ".album-link")],
             message="the favorite did not reach the sidebar")


def test_import_by_file_input_shows_progress(server, driver, tmp_path):
    photo = tmp_path / "imported-by-browser.jpg"
    bench("generate", str(tmp_path / "gen"), "--count", "1", "--width", "900", "--height", "600")
    shutil.copy(next((tmp_path / "gen").glob("*.jpg")), photo)
    driver.find_element(By.CSS_SELECTOR, 'input[aria-label="Import"]').send_keys(str(photo))
    wait_for(driver, lambda: "imported" in driver.find_element(By.CSS_SELECTOR, ".uploads").text)
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '.cell[aria-label^="imported-by-browser.jpg"]'), timeout=20,
             message="the imported photo never appeared in the grid")


def test_live_change_from_another_process(server, library, driver, tmp_path):
    wait_for(driver, lambda: visible_thumbnails(driver) >= 3)
    before = driver.find_element(By.CSS_SELECTOR, ".view-count").text
    bench("generate", str(tmp_path / "live"), "--count", "1", "--width", "700", "--height", "500")
    source = next((tmp_path / "live").glob("*.jpg"))
    target = tmp_path / "from-another-process.jpg"
    shutil.copy(source, target)
    result = shoebox("import", "--library", str(library), str(target))
    assert result.returncode == 0, result.stderr
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '.cell[aria-label^="from-another-process.jpg"]'), timeout=20,
             message="the change did not reach the open grid")
    assert driver.find_element(By.CSS_SELECTOR, ".view-count").text != before


def test_delete_and_restore_with_multi_select(server, driver):
    wait_for(driver, lambda: visible_thumbnails(driver) >= 3)
    grid = driver.find_element(By.CSS_SELECTOR, "#photos")
    grid.send_keys(Keys.HOME, " ")
    grid.send_keys(Keys.ARROW_RIGHT, " ")
    wait_for(driver, lambda: "2 selected" in driver.find_element(By.CSS_SELECTOR, ".selection-count").text)
    names = [element.get_attribute("aria-label").split(",")[0] for element in driver.find_elements(By.CSS_SELECTOR, '.cell[aria-selected="true"]')]
    by_name(driver, "Delete").click()
    by_name(driver, "Recently Deleted, 2").click()
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 2)
    grid = driver.find_element(By.CSS_SELECTOR, "#photos")
    grid.send_keys(Keys.HOME, " ", Keys.ARROW_RIGHT, " ")
    by_name(driver, "Restore").click()
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 0)
    assert all(names)


@pytest.fixture(scope="module")
def big_library():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-big-"))
    path = folder / "Big.shoebox"
    bench("populate", str(path), "--count", "10000", "--originals", "24")
    yield path
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def big_driver(big_library):
    running = Server(big_library)
    browser = make_driver()
    browser.get(running.user_url)
    yield browser
    browser.quit()
    running.stop()


def test_ten_thousand_assets_keep_the_dom_small(big_driver):
    browser = big_driver
    wait_for(browser, lambda: "10,000 items" in browser.find_element(By.CSS_SELECTOR, ".view-count").text, timeout=30)
    wait_for(browser, lambda: visible_thumbnails(browser) >= 20, timeout=30, message="no thumbnails")
    cells = browser.execute_script("return document.querySelectorAll('.cell').length")
    assert cells < 400, f"{cells} cells in the DOM for 10,000 assets"
    height = browser.execute_script("return document.querySelector('#photos').scrollHeight")
    assert height > 100 * 160, "the grid is as tall as 10,000 thumbnails"
    browser.execute_script("const g = document.querySelector('#photos'); g.scrollTop = g.scrollHeight / 2")
    wait_for(browser, lambda: visible_thumbnails(browser) >= 20, timeout=30, message="no thumbnails in the middle")
    cells = browser.execute_script("return document.querySelectorAll('.cell').length")
    assert cells < 400
    positions = browser.execute_script("return [...document.querySelectorAll('.cell')].map((c) => Number(c.dataset.index))")
    assert min(positions) > 3000 and max(positions) < 7000, "the cells are the middle ones"
