"""Bursts in the web app: four frames a camera took under a second apart show as one item marked
BURST 4; the viewer shows the frames in a strip, and a chosen frame becomes the key photo that
the grid shows."""

import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver, serve_imported, wait_for


@pytest.fixture(scope="module")
def burst_server():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-burst-"))
    inputs = folder / "inputs"
    inputs.mkdir()
    for index in range(4):
        frame = inputs / f"DSCF{index:04d}.JPG"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=640x480:rate=1,hue=h={index * 90}",
                        "-frames:v", "1", str(frame)], check=True, timeout=60)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-Make=FUJIFILM", "-Model=X-T5", "-ExifIFD:SerialNumber=5AB12345",
                        "-DateTimeOriginal=2024:05:01 10:11:12", f"-SubSecTimeOriginal={index * 25:02d}", str(frame)],
                       check=True, timeout=60)
    yield from serve_imported(folder, inputs, "Burst.shoebox")


def test_a_burst_is_one_item_and_its_key_photo_can_change(burst_server):
    status, page = burst_server.api("GET", "/api/assets?limit=10")
    assert status == 200
    assert len(page["assets"]) == 1, [asset["originalFilename"] for asset in page["assets"]]
    key = page["assets"][0]
    assert key["burstCount"] == 4 and key["representsBurst"] and key["originalFilename"] == "DSCF0000.JPG"
    browser = make_driver()
    try:
        browser.get(burst_server.user_url)
        wait_for(browser, lambda: "BURST 4" in browser.find_element(By.CSS_SELECTOR, ".cell .badge").text,
                 message="the grid does not mark the burst")
        label = browser.find_element(By.CSS_SELECTOR, ".cell").get_attribute("aria-label")
        assert "burst of 4 photos" in label, label
        identifier = urllib.parse.quote(key["localIdentifier"], safe="")
        browser.get(burst_server.user_url.split("#")[0].split("?")[0] + "#/photo/" + identifier)
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".burst-strip .burst-frame")) == 4,
                 message="the viewer shows no strip of four frames")
        frames = browser.find_elements(By.CSS_SELECTOR, ".burst-strip .burst-frame")
        assert frames[0].get_attribute("aria-pressed") == "true" and "key photo" in frames[0].get_attribute("aria-label")
        frames[2].click()
        wait_for(browser, lambda: "DSCF0002.JPG" in browser.find_element(By.CSS_SELECTOR, ".viewer-bar .title").text,
                 message="choosing a frame does not show it")
        browser.find_element(By.CSS_SELECTOR, "button[aria-label='Make this frame the key photo']").click()
        # The strip is drawn again when the key photo changes: until it is, there may be no third frame.
        wait_for(browser, lambda: "key photo" in " ".join(frame.get_attribute("aria-label") or "" for frame in
                                                         browser.find_elements(By.CSS_SELECTOR, ".burst-strip .burst-frame")[2:3]),
                 message="the strip does not mark the new key photo")
        status, page = burst_server.api("GET", "/api/assets?limit=10")
        assert [asset["originalFilename"] for asset in page["assets"]] == ["DSCF0002.JPG"]
        assert page["assets"][0]["burstCount"] == 4
        browser.find_element(By.XPATH, "//dialog[@open]//button[normalize-space()='Close']").click()
        # The grid follows the change: its one item is the new key photo.
        wait_for(browser, lambda: page["assets"][0]["localIdentifier"] == browser.find_element(By.CSS_SELECTOR, ".cell").get_attribute("data-id"),
                 message="the grid still shows the old key photo")
    finally:
        browser.quit()
