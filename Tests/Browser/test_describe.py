"""Fixing what the camera got wrong in the web app (issue 44 item 5): the viewer's Info edits a
photo's title, caption, keywords and stars, adjusts its date (previewed first) and place (found in
the offline place table), and reverts them to the camera's; a selection gets keywords at once, and
the sidebar's Keywords view lists them. At desktop and phone sizes."""

import os
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import ARTIFACTS, RETRIED, by_name, click_by_name, click_settled, make_driver, make_phone_driver, serve_imported, wait_for


@pytest.fixture(scope="module")
def describe_server():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-describe-"))
    inputs = folder / "inputs"
    inputs.mkdir()
    for index, hour in enumerate([10, 11, 12]):
        photo = inputs / f"IMG_{index + 1}.JPG"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=640x480:rate=1,hue=h={index * 100}",
                        "-frames:v", "1", str(photo)], check=True, timeout=60)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-Make=Canon", f"-Model=EOS {index + 1}",
                        f"-DateTimeOriginal=2024:05:01 {hour}:00:00", str(photo)], check=True, timeout=60)
    yield from serve_imported(folder, inputs, "Describe.shoebox")


def assets(server):
    status, page = server.api("GET", "/api/assets?sort=creationDate&ascending=true")
    assert status == 200
    return page["assets"]


def asset(server, identifier):
    return next(item for item in assets(server) if item["localIdentifier"] == identifier)


def type_into(browser, selector, *keys):
    """Types into the field `selector` finds, finding it again if Info was drawn anew meanwhile."""
    def typed(_):
        try:
            browser.find_element(By.CSS_SELECTOR, selector).send_keys(*keys)
            return True
        except RETRIED:
            return False
    WebDriverWait(browser, 20).until(typed, f"could not type into {selector}")


def open_dialog(browser):
    """The correcting dialog once it is open (a dialog that draws a map opens a moment later)."""
    return WebDriverWait(browser, 20, ignored_exceptions=RETRIED).until(
        lambda _: next(iter(browser.find_elements(By.CSS_SELECTOR, "dialog.describe-dialog[open]")), False), "no correcting dialog opened")


def screenshot(browser, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"describe-{name}.png"))


def open_info(browser, server, asset):
    identifier = urllib.parse.quote(asset["localIdentifier"], safe="")
    browser.get(server.user_url.split("#")[0] + "#/photo/" + identifier)
    click_by_name(browser, "Info")
    wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".info-panel .describe-editors"), message="Info has no editors")


def test_info_corrects_one_photo_and_reverts_it(describe_server):
    first = assets(describe_server)[0]
    browser = make_driver()
    try:
        open_info(browser, describe_server, first)
        type_into(browser, ".describe-editors input[name=title]", "Picnic", Keys.ENTER)
        wait_for(browser, lambda: assets(describe_server)[0].get("title") == "Picnic", message="the title was not saved")
        type_into(browser, ".describe-editors textarea[name=caption]", "Grandma's birthday by the lake")
        wait_for(browser, lambda: click_settled(browser, ".describe-editors input[name=keyword]"))  # the caption saves as it loses focus
        wait_for(browser, lambda: assets(describe_server)[0].get("caption") == "Grandma's birthday by the lake", message="the caption was not saved")
        type_into(browser, ".describe-editors input[name=keyword]", "Family", Keys.ENTER)
        wait_for(browser, lambda: assets(describe_server)[0].get("keywords") == ["Family"], message="the keyword was not added")
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".keyword-chip"), message="the keyword shows no chip")
        click_by_name(browser, "Rate 4 of 5")
        wait_for(browser, lambda: assets(describe_server)[0].get("rating") == 4, message="the rating was not saved")
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".stars .star.on")) == 4, message="four stars are not lit")

        # The date: moved two hours later, previewed first.
        click_by_name(browser, "Adjust Date and Time")
        dialog = open_dialog(browser)
        dialog.find_element(By.CSS_SELECTOR, "input[value=shift]").click()
        hours = dialog.find_element(By.CSS_SELECTOR, "input[name=hours]")
        hours.clear()
        hours.send_keys("2")
        wait_for(browser, lambda: "12:00" in (dialog.find_elements(By.CSS_SELECTOR, ".preview-table .after") or [dialog])[0].text,
                 message="the preview does not show the new time")
        screenshot(browser, "date-dialog-desktop")
        assert assets(describe_server)[0]["localCreationDate"] == "2024-05-01T10:00:00", "a preview changes nothing"
        dialog.find_element(By.CSS_SELECTOR, "button[value=confirm]").click()
        wait_for(browser, lambda: asset(describe_server, first["localIdentifier"])["localCreationDate"] == "2024-05-01T12:00:00",
                 message="the shift was not applied")
        wait_for(browser, lambda: "set by you" in browser.find_element(By.CSS_SELECTOR, ".info-panel").text, message="Info does not say the date is the person's")

        # The place: found by name in the offline table.
        click_by_name(browser, "Adjust Location")
        dialog = open_dialog(browser)
        dialog.find_element(By.CSS_SELECTOR, "input[name=place]").send_keys("kyot")
        wait_for(browser, lambda: dialog.find_elements(By.CSS_SELECTOR, ".place-result"), message="no place is offered for “kyot”")
        assert dialog.find_elements(By.CSS_SELECTOR, ".place-result")[0].text.startswith("Kyoto")
        dialog.find_elements(By.CSS_SELECTOR, ".place-result")[0].click()
        wait_for(browser, lambda: "Kyoto" in dialog.find_element(By.CSS_SELECTOR, ".chosen-place").text)
        screenshot(browser, "location-dialog-desktop")
        dialog.find_element(By.CSS_SELECTOR, "button[value=confirm]").click()
        wait_for(browser, lambda: abs((asset(describe_server, first["localIdentifier"]).get("latitude") or 0) - 35.02) < 0.1,
                 message="the place was not set")
        wait_for(browser, lambda: "Kyoto" in browser.find_element(By.CSS_SELECTOR, ".info-panel").text, message="Info does not name the place")
        screenshot(browser, "info-desktop")

        # Back to the camera's date and place.
        click_by_name(browser, "Revert to Camera’s Date")
        wait_for(browser, lambda: asset(describe_server, first["localIdentifier"])["localCreationDate"] == "2024-05-01T10:00:00",
                 message="the date did not revert")
        click_by_name(browser, "Revert to Camera’s Location")
        wait_for(browser, lambda: asset(describe_server, first["localIdentifier"]).get("latitude") is None, message="the place did not revert")
        reverted = asset(describe_server, first["localIdentifier"])
        assert "userSet" not in reverted and reverted["title"] == "Picnic" and reverted["rating"] == 4
    finally:
        browser.quit()


def test_a_selection_gets_keywords_and_the_keywords_view_lists_them(describe_server):
    browser = make_driver()
    try:
        browser.get(describe_server.user_url)
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".cell")) == 3, message="the grid has not three photos")
        browser.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.CONTROL, "a")
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".selection-count").text == "3 selected")
        Select(browser.find_element(By.CSS_SELECTOR, ".adjust-selection select")).select_by_value("keywords")
        dialog = open_dialog(browser)
        dialog.find_element(By.CSS_SELECTOR, "input[name=words]").send_keys("Trip, Places/Japan/Kyoto")
        screenshot(browser, "keywords-dialog-desktop")
        dialog.find_element(By.CSS_SELECTOR, "button[value=confirm]").click()
        wait_for(browser, lambda: all("Trip" in asset.get("keywords", []) for asset in assets(describe_server)), message="the keywords did not reach all three")
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, '.keyword-list .album-link[aria-label="Trip, 3"]'),
                 message="the sidebar does not list Trip with 3")
        browser.find_element(By.CSS_SELECTOR, '.keyword-list .album-link[aria-label="Places/Japan/Kyoto, 3"]').click()
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".view-title").text == "Places/Japan/Kyoto")
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".cell")) == 3, message="the keyword's view has not its three photos")
        screenshot(browser, "keywords-view-desktop")
        # Rate them all three stars from the selection.
        browser.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.CONTROL, "a")
        Select(browser.find_element(By.CSS_SELECTOR, ".adjust-selection select")).select_by_value("rating")
        dialog = open_dialog(browser)
        dialog.find_element(By.CSS_SELECTOR, "input[name=rating][value='3']").click()
        dialog.find_element(By.CSS_SELECTOR, "button[value=confirm]").click()
        wait_for(browser, lambda: [asset.get("rating") for asset in assets(describe_server)] == [3, 3, 3], message="the rating did not reach all three")
    finally:
        browser.quit()


def test_the_date_dialog_and_info_fit_a_phone(describe_server):
    browser = make_phone_driver()
    try:
        open_info(browser, describe_server, assets(describe_server)[1])
        screenshot(browser, "info-phone")
        click_by_name(browser, "Adjust Date and Time")
        dialog = open_dialog(browser)
        dialog.find_element(By.CSS_SELECTOR, "input[value=zone]").click()
        dialog.find_element(By.CSS_SELECTOR, "input[name=zone]").send_keys("Asia/Tokyo")
        wait_for(browser, lambda: "UTC+09:00" in dialog.text, message="the preview does not show the zone")
        screenshot(browser, "date-dialog-phone")
        width = browser.execute_script("return window.innerWidth")
        box = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right]", dialog)
        assert box[0] >= 0 and box[1] <= width, f"the dialog {box} overflows the phone's {width} px"
        dialog.find_element(By.CSS_SELECTOR, "button[value=cancel]").click()
        wait_for(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".describe-dialog"), message="Cancel does not close the dialog")
        assert all(asset.get("timeZoneOffset") is None for asset in assets(describe_server)), "Cancel changed a zone"
    finally:
        browser.quit()
