"""Download (issue 19 item 5): chosen photos as a ZIP the server makes as it sends it, with or
without their place; one photo from the viewer as its file. What Chromium saves is read with
Python's zipfile and exiftool, and compared with what the server holds."""

import shutil
import subprocess
import tempfile
import time
import urllib.parse
import zipfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import bench, make_driver, serve_imported, wait_for


@pytest.fixture(scope="module")
def placed_server():
    """A library of three photos, the first taken at the Colosseum (EXIF GPS, written by exiftool)."""
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-download-"))
    inputs = folder / "inputs"
    bench("generate", str(inputs), "--count", "3", "--width", "640", "--height", "480")
    first = sorted(inputs.iterdir())[0]
    tagged = subprocess.run(["exiftool", "-q", "-overwrite_original", "-GPSLatitude=41.8902", "-GPSLatitudeRef=N",
                             "-GPSLongitude=12.4922", "-GPSLongitudeRef=E", "-Make=Shoebox", str(first)], capture_output=True, text=True)
    assert tagged.returncode == 0, tagged.stderr
    yield from serve_imported(folder, inputs, "Download.shoebox")


@pytest.fixture
def downloads():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-downloads-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def browser_saving_to(server, folder):
    browser = make_driver()
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    browser.get(server.user_url)
    return browser


def saved_file(folder, suffix, timeout=60):
    """The one finished download in `folder` ending in `suffix`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        done = [path for path in folder.iterdir() if path.name.endswith(suffix)]
        pending = [path for path in folder.iterdir() if path.name.endswith(".crdownload")]
        if done and not pending:
            return done[0]
        time.sleep(0.2)
    raise AssertionError(f"nothing ending in {suffix} was saved in {timeout} s: {[p.name for p in folder.iterdir()]}")


def gps_of(path):
    return subprocess.run(["exiftool", "-s", "-s", "-s", "-n", "-GPSLatitude", str(path)], capture_output=True, text=True).stdout.strip()


def assets(server):
    status, page = server.api("GET", "/api/assets?limit=100")
    assert status == 200, page
    return page["assets"]


def test_chosen_photos_download_as_a_zip_without_their_place(placed_server, downloads):
    browser = browser_saving_to(placed_server, downloads)
    try:
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#photos .cell img")) >= 3)
        grid = browser.find_element(By.CSS_SELECTOR, "#photos")
        grid.send_keys(Keys.HOME, " ", Keys.ARROW_RIGHT, " ", Keys.ARROW_RIGHT, " ")
        wait_for(browser, lambda: "3" in browser.find_element(By.CSS_SELECTOR, ".selection-count").text, message="three were not chosen")
        browser.find_element(By.CSS_SELECTOR, '.selection-actions [data-action="download"]').click()
        dialog = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"), message="no download dialog")
        assert "Download 3 items" in dialog.text, dialog.text
        dialog.find_element(By.CSS_SELECTOR, 'input[name="files"][value="originals"]').click()
        dialog.find_element(By.CSS_SELECTOR, 'input[name="location"]').click()  # untick "Include location"
        dialog.find_element(By.CSS_SELECTOR, 'button[value="confirm"]').click()
        archive = saved_file(downloads, ".zip")
    finally:
        browser.quit()
    with zipfile.ZipFile(archive) as zip_file:
        assert zip_file.testzip() is None
        entries = {name: zip_file.read(name) for name in zip_file.namelist()}
    library = {asset["originalFilename"]: asset for asset in assets(placed_server)}
    assert sorted(entries) == sorted(library), (sorted(entries), sorted(library))
    placed = 0
    for name, data in entries.items():
        path = "/api/assets/" + urllib.parse.quote(library[name]["localIdentifier"], safe="")
        _, original = placed_server.api("GET", path + "/original")
        _, stripped = placed_server.api("GET", path + "/original?location=strip")
        assert data == stripped and len(data) == len(original), name
        extracted = downloads / ("entry-" + name)
        extracted.write_bytes(data)
        assert gps_of(extracted) == "", f"{name} still has its place"
        (downloads / ("original-" + name)).write_bytes(original)
        placed += gps_of(downloads / ("original-" + name)) != ""
    assert placed == 1, "the Colosseum photo had its place in the library"


def test_the_viewer_downloads_the_photo_shown(placed_server, downloads):
    browser = browser_saving_to(placed_server, downloads)
    try:
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#photos .cell img"))
        browser.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, Keys.ENTER)
        wait_for(browser, lambda: "/photo/" in browser.current_url, message="the viewer did not open")
        identifier = urllib.parse.unquote(browser.current_url.rsplit("/photo/", 1)[1])
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, '.viewer button[aria-label="Download"]')).click()
        dialog = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"), message="no download dialog")
        dialog.find_element(By.CSS_SELECTOR, 'button[value="confirm"]').click()  # the current version, with its place
        status, detail = placed_server.api("GET", "/api/assets/" + urllib.parse.quote(identifier, safe=""))
        assert status == 200, detail
        name = detail["asset"]["originalFilename"]
        saved = saved_file(downloads, Path(name).suffix)
    finally:
        browser.quit()
    _, render = placed_server.api("GET", "/api/assets/" + urllib.parse.quote(identifier, safe="") + "/render")
    assert saved.name == name and saved.read_bytes() == render


def test_search_results_download_under_the_search(placed_server, downloads):
    # Issue 39 item 23: the ZIP of a search's photos was named after the album behind the search
    # ("Recents.zip"); it is named after the search.
    browser = browser_saving_to(placed_server, downloads)
    try:
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#photos .cell img")) >= 3)
        browser.find_element(By.CSS_SELECTOR, "#photos").send_keys("/")
        field = wait_for(browser, lambda: browser.switch_to.active_element if "search-field" in (browser.switch_to.active_element.get_attribute("class") or "") else None,
                         message="/ did not focus the search field")
        field.send_keys("rome")  # the Colosseum photo
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#photos .cell img")) == 1, message="the search did not find the one photo")
        # Select All: the search's whole fetch goes as a ZIP, even of one photo.
        browser.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.CONTROL, "a")
        wait_for(browser, lambda: "1" in browser.find_element(By.CSS_SELECTOR, ".selection-count").text, message="Select All chose nothing")
        browser.find_element(By.CSS_SELECTOR, '.selection-actions [data-action="download"]').click()
        dialog = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"), message="no download dialog")
        dialog.find_element(By.CSS_SELECTOR, 'button[value="confirm"]').click()
        archive = saved_file(downloads, ".zip")
    finally:
        browser.quit()
    assert archive.name == "Search “rome”.zip", archive.name
    with zipfile.ZipFile(archive) as zip_file:
        assert len(zip_file.namelist()) == 1
