"""A photo's time is the clock where it was taken (issue 18 item 1), whatever the browser's zone:
the viewer's title and Info panel, the grid's month headers and `shoebox ls`, in Chromium (its zone
set to Los Angeles through DevTools) and in Firefox (started with TZ=America/Los_Angeles)."""

import json
import os
import shutil
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import Server, by_name, make_driver, shoebox, wait_for
from firefox import Firefox

# name → exiftool tags. Without a place table (SHOEBOX_PLACES) the Rome photo has no zone: CI has one.
PHOTOS = {
    # 15:47:53 at −05:00, as the file says.
    "offset.jpg": ["-DateTimeOriginal=2021:04:11 15:47:53", "-OffsetTimeOriginal=-05:00"],
    # 15:56 with no offset, taken in Rome in July (summer time, +02:00).
    "rome.jpg": ["-DateTimeOriginal=2021:07:04 15:56:00", "-GPSLatitude=41.9", "-GPSLatitudeRef=N",
                 "-GPSLongitude=12.5", "-GPSLongitudeRef=E"],
    # 15:56 with neither: the camera's clock as it read.
    "floating.jpg": ["-DateTimeOriginal=2019:01:02 15:56:00"],
    # 23:30 on 30 April at −04:00 is 1 May in UTC: it belongs to April.
    "april.jpg": ["-DateTimeOriginal=2021:04:30 23:30:00", "-OffsetTimeOriginal=-04:00"],
}


@pytest.fixture(scope="module")
def zoned():
    """A library of the photos above, served; yields (server, {name: localIdentifier}, library path)."""
    folder = Path(tempfile.mkdtemp(prefix="shoebox-time-zones-"))
    for index, (name, tags) in enumerate(PHOTOS.items()):
        path = folder / name
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c=0x{index * 40 + 60:02x}6080:s=320x240",
                        "-frames:v", "1", str(path)], check=True, timeout=60)
        subprocess.run(["exiftool", "-q", "-overwrite_original", *tags, str(path)], check=True, timeout=60)
    library = folder / "Zones.shoebox"
    assert shoebox("init", "--library", str(library)).returncode == 0
    result = shoebox("import", "--library", str(library), *[str(folder / name) for name in PHOTOS])
    assert result.returncode == 0, result.stderr
    listing = json.loads(shoebox("ls", "--library", str(library), "--json").stdout)
    identifiers = {asset["originalFilename"]: asset["localIdentifier"] for asset in listing}
    server = Server(library)
    yield server, identifiers, library
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


def has_places():
    return bool(os.environ.get("SHOEBOX_PLACES")) and Path(os.environ["SHOEBOX_PLACES"]).exists()


def test_ls_shows_the_clock_where_each_photo_was_taken(zoned):
    _, identifiers, library = zoned
    lines = shoebox("ls", "--library", str(library)).stdout.splitlines()
    line = lambda name: next(text for text in lines if text.startswith(identifiers[name]))
    assert "2021-04-11 15:47:53 -05:00" in line("offset.jpg")
    assert "2019-01-02 15:56:00 " in line("floating.jpg") and "+00:00" not in line("floating.jpg")
    if has_places() or os.environ.get("CI"):
        assert "2021-07-04 15:56:00 +02:00" in line("rome.jpg")
    listing = {asset["originalFilename"]: asset for asset in json.loads(shoebox("ls", "--library", str(library), "--json").stdout)}
    # The API carries both: the instant (sorting goes by it) and the clock.
    assert listing["offset.jpg"]["creationDate"].startswith("2021-04-11T20:47:53")
    assert listing["offset.jpg"]["localCreationDate"] == "2021-04-11T15:47:53"
    assert listing["offset.jpg"]["timeZoneOffset"] == -18000
    assert listing["floating.jpg"]["timeZoneOffset"] is None


def open_photo(browser, server, identifier):
    browser.get(server.base + "/#/photo/" + urllib.parse.quote(identifier, safe=""))


def viewer_texts(driver, name):
    """The open viewer's title and Info panel text, once it shows `name`."""
    viewer = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.viewer[open]"))
    title = wait_for(driver, lambda: name in (text := viewer.find_element(By.CSS_SELECTOR, ".title").text) and text,
                     message=f"the viewer did not open {name}")
    by_name(driver, "Info").click()
    info = wait_for(driver, lambda: "Taken" in (text := viewer.find_element(By.CSS_SELECTOR, ".info-panel").text) and text)
    by_name(driver, "Info").click()
    return title, info


def test_a_los_angeles_chromium_shows_each_photos_own_clock(zoned):
    server, identifiers, _ = zoned
    driver = make_driver()
    try:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/Los_Angeles"})
        driver.get(server.user_url)
        assert driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone") == "America/Los_Angeles"
        headers = wait_for(driver, lambda: [h.text for h in driver.find_elements(By.CSS_SELECTOR, ".grid-header")] or None)
        assert "April 2021" in headers and "May 2021" not in headers, headers

        open_photo(driver, server, identifiers["offset.jpg"])
        title, info = viewer_texts(driver, "offset.jpg")
        assert "3:47 PM" in title, title  # not 1:47 PM, Los Angeles' clock at that instant
        assert "UTC−05:00" in info, info

        open_photo(driver, server, identifiers["floating.jpg"])
        title, info = viewer_texts(driver, "floating.jpg")
        assert "3:56 PM" in title, title  # not 7:56 AM
        assert "UTC" not in info.split("Taken")[1].split("\n")[1], info

        if has_places() or os.environ.get("CI"):
            open_photo(driver, server, identifiers["rome.jpg"])
            title, info = viewer_texts(driver, "rome.jpg")
            assert "3:56 PM" in title, title
            assert "UTC+02:00, Europe/Rome" in info, info
    finally:
        driver.quit()


def test_a_los_angeles_firefox_shows_each_photos_own_clock(zoned):
    server, identifiers, _ = zoned
    firefox = Firefox(timezone="America/Los_Angeles")
    try:
        firefox.get(server.user_url)
        assert firefox.js("return Intl.DateTimeFormat().resolvedOptions().timeZone") == "America/Los_Angeles"
        for name, clock in [("offset.jpg", "3:47 PM"), ("floating.jpg", "3:56 PM")]:
            firefox.get(server.base + "/#/photo/" + urllib.parse.quote(identifiers[name], safe=""))
            title = firefox.wait_for(lambda: name in (text := firefox.find("dialog.viewer[open] .title").text) and text,
                                     message=f"the viewer did not open {name}")
            assert clock in title, (name, title)
    finally:
        firefox.quit()
