"""Search (issue 19 item 2): the field in the top bar finds by place, camera, name and date as one
types, shows what it understood, and Escape brings the view back."""

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import bench, make_driver, serve_imported, wait_for


@pytest.fixture(scope="module")
def search_server():
    """Four photos: one taken at the Colosseum in June 2019 with a Canon, one in Kyoto in 2021,
    two with no place (EXIF written by exiftool)."""
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-search-"))
    inputs = folder / "inputs"
    bench("generate", str(inputs), "--count", "4", "--width", "480", "--height", "360")
    photos = sorted(inputs.iterdir())
    tags = [
        ["-GPSLatitude=41.8902", "-GPSLatitudeRef=N", "-GPSLongitude=12.4922", "-GPSLongitudeRef=E",
         "-Make=Canon", "-Model=Canon EOS R5", "-DateTimeOriginal=2019:06:10 12:00:00"],
        ["-GPSLatitude=35.0116", "-GPSLatitudeRef=N", "-GPSLongitude=135.7681", "-GPSLongitudeRef=E",
         "-DateTimeOriginal=2021:04:02 09:00:00"],
        ["-DateTimeOriginal=2018:12:25 10:00:00"],
        ["-DateTimeOriginal=2018:12:26 10:00:00"],
    ]
    for photo, arguments in zip(photos, tags):
        written = subprocess.run(["exiftool", "-q", "-overwrite_original", *arguments, str(photo)], capture_output=True, text=True)
        assert written.returncode == 0, written.stderr
    yield from serve_imported(folder, inputs, "Search.shoebox")


def cells(browser):
    return browser.find_elements(By.CSS_SELECTOR, "#photos .cell")


def terms(browser):
    return [term.text for term in browser.find_elements(By.CSS_SELECTOR, ".search-terms .search-term")]


def test_search_finds_as_one_types_and_escape_goes_back(search_server):
    browser = make_driver()
    try:
        browser.get(search_server.user_url)
        wait_for(browser, lambda: len(cells(browser)) == 4, message="the four photos did not show")
        browser.find_element(By.CSS_SELECTOR, "#photos").send_keys("/")
        field = wait_for(browser, lambda: browser.switch_to.active_element if "search-field" in (browser.switch_to.active_element.get_attribute("class") or "") else None,
                         message="/ did not focus the search field")
        field.send_keys("Rome")
        wait_for(browser, lambda: len(cells(browser)) == 1 and terms(browser) == ["“rome”"], message="“Rome” did not find the Colosseum photo")
        assert browser.find_element(By.CSS_SELECTOR, ".view-title").text == "Search"
        assert "1 item" in browser.find_element(By.CSS_SELECTOR, ".view-count").text

        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("japan 2021")
        wait_for(browser, lambda: len(cells(browser)) == 1 and terms(browser) == ["“japan”", "2021"], message="a country and a year")

        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("december 2018 photos")
        wait_for(browser, lambda: len(cells(browser)) == 2 and terms(browser) == ["December 2018", "Photos"], message="a month and a kind")

        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("canon italy")
        wait_for(browser, lambda: len(cells(browser)) == 1, message="a camera and a country")

        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("nothing here")
        wait_for(browser, lambda: "Nothing found" in browser.find_element(By.CSS_SELECTOR, ".empty-state").text, message="no note for no results")

        field.send_keys(Keys.ESCAPE)
        wait_for(browser, lambda: len(cells(browser)) == 4 and not terms(browser), message="Escape did not bring every photo back")
        assert browser.find_element(By.CSS_SELECTOR, ".view-title").text == "Recents"
        assert field.get_attribute("value") == ""
    finally:
        browser.quit()
