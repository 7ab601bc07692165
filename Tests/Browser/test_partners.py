"""Partner sharing (issue 42, item 3): Ann shares her library with Bob from Account › Partner
Sharing; Bob's open page (a phone) hears of it, lists Ann under Shared with You, shows her photo on
her page and, once he chooses, in his Recents, read-only in the viewer; a photo Ann adds comes
into his open Recents in place; Ann stops, and Bob's Recents loses her photos without a reload."""

import json
import subprocess
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, BIN, Server, by_name, click_settled, make_driver, make_phone_driver, shoebox, wait_for
from test_people import in_page, sign_in


@pytest.fixture
def household(tmp_path):
    """Ann (the admin) and Bob, each with one photo of their own; served."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    library = tmp_path / "Partners.shoebox"
    made = subprocess.run([str(BIN / "shoebox"), "init", "--library", str(library), "--admin", "Ann", "--password-stdin"],
                          input="ann-password\n", capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    added = subprocess.run([str(BIN / "shoebox"), "user", "add", "bob", "--display-name", "Bob", "--library", str(library), "--password-stdin"],
                           input="bob-password\n", capture_output=True, text=True, timeout=120)
    assert added.returncode == 0, added.stderr
    for index, name in enumerate(["ann", "bob"]):
        photo = tmp_path / f"{name}.jpg"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=480x320", "-vf", f"hue=h={index * 150}",
                        "-frames:v", "1", str(photo)], check=True, timeout=60)
        imported = shoebox("import", "--library", str(library), "--user", name, str(photo))
        assert imported.returncode == 0, imported.stderr
    server = Server(library)
    try:
        yield server
    finally:
        server.stop()


def until(browser, condition, message="", timeout=20):
    return wait_for(browser, lambda: condition(browser), timeout=timeout, message=message)


def severe(browser):
    return [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE" and "status of 401" not in entry["message"]]


def shown_ids(browser):
    """The ids of the grid's shown cells, read in one step of the page: the grid may draw itself
    again between two WebDriver calls (a change event arriving), which would leave the elements
    one call found stale for the next."""
    return browser.execute_script(
        "return [...document.querySelectorAll('#photos .cell[data-id]')].filter((c) => c.checkVisibility()).map((c) => c.dataset.id)")


def test_a_partner_sees_the_library_apart_and_in_recents_read_only(household, tmp_path):
    server = household
    ann, bob = make_driver(), make_phone_driver()
    try:
        sign_in(ann, server, "ann", "ann-password")
        sign_in(bob, server, "bob", "bob-password")
        until(bob, lambda b: len(shown_ids(b)) == 1, message="Bob's own photo")
        anns = json.loads(in_page(ann, "GET", "/api/assets")["body"])["assets"][0]["localIdentifier"]

        # Ann shares everything with Bob from Account › Partner Sharing.
        ann.get(server.base + "/#/account")
        form = until(ann, lambda b: b.find_elements(By.CSS_SELECTOR, ".partner-form"), message="the Partner Sharing form")[0]
        Select(form.find_element(By.NAME, "person")).select_by_value("bob")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        until(ann, lambda b: "Bob" in b.find_element(By.CSS_SELECTOR, ".partner-list").text, message="Ann's list names Bob")
        assert "your whole library" in ann.find_element(By.CSS_SELECTOR, ".partner-list").text
        assert ann.find_element(By.CSS_SELECTOR, ".library-view").get_attribute("hidden") is not None, "the account page stays alone"
        ann.execute_script("document.querySelector('.partner-panel').scrollIntoView()")
        ann.save_screenshot(str(ARTIFACTS / "partners-settings-desktop.png"))

        # Bob's open page hears of it: Shared with You lists Ann (in his drawer), without a reload.
        until(bob, lambda b: "Ann" in b.find_element(By.CSS_SELECTOR, ".partner-libraries").get_attribute("textContent"),
              message="Ann reaches Bob's sidebar")
        bob.find_element(By.CSS_SELECTOR, ".sidebar-toggle").click()
        until(bob, lambda b: click_settled(b, ".partner-libraries a"), message="Bob opens Ann's photos")
        until(bob, lambda b: b.current_url.endswith("#/partner/ann") and shown_ids(b) == [anns], message="Ann's photo on her page")
        assert "Shared by Ann" in bob.find_element(By.CSS_SELECTOR, ".view-title").text
        bob.save_screenshot(str(ARTIFACTS / "partners-page-phone.png"))

        # Read-only in the viewer: whose it is, no Favorite, Delete or Edit.
        until(bob, lambda b: click_settled(b, f'#photos .cell[data-id="{anns}"]'), message="Bob opens Ann's photo")
        until(bob, lambda b: b.find_elements(By.CSS_SELECTOR, "dialog[open] .viewer-bar .shared-by"), message="the viewer says whose")
        until(bob, lambda b: b.execute_script("const i = document.querySelector('dialog[open] .viewer-stage img'); return i && i.complete && i.naturalWidth > 0"),
              message="Ann's photo shows")
        bar = bob.find_element(By.CSS_SELECTOR, "dialog[open] .viewer-bar")
        assert "Shared by Ann" in bar.text
        labels = [button.get_attribute("aria-label") or button.text for button in bar.find_elements(By.TAG_NAME, "button")]
        assert not {"Favorite", "Delete", "Edit"} & set(labels), labels
        bob.save_screenshot(str(ARTIFACTS / "partners-viewer-phone.png"))
        by_name(bob, "Close").click()

        # Show in my Recents: Recents holds both, in date order; Ann's page stays.
        until(bob, lambda b: click_settled(b, ".partner-in-timeline"), message="Show in my Recents")
        bob.get(server.base + "/#/")
        until(bob, lambda b: len(shown_ids(b)) == 2 and anns in shown_ids(b), message="Bob's Recents with Ann's photo")
        bob.save_screenshot(str(ARTIFACTS / "partners-recents-phone.png"))

        # A photo Ann adds (another process: the command line) reaches Bob's open Recents in place.
        newer = tmp_path / "ann-new.jpg"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=480x320", "-vf", "hue=h=60",
                        "-frames:v", "1", str(newer)], check=True, timeout=60)
        imported = shoebox("import", "--library", str(server.library), "--user", "ann", str(newer))
        assert imported.returncode == 0, imported.stderr
        made_fetches = "return performance.getEntriesByType('resource').filter((r) => new URL(r.name).pathname === '/api/fetches').length"
        loads = (bob.execute_script(made_fetches), bob.execute_script("return performance.timeOrigin"))
        until(bob, lambda b: len(shown_ids(b)) == 3, message="Ann's new photo reaches Bob's Recents without a reload")
        assert (bob.execute_script(made_fetches), bob.execute_script("return performance.timeOrigin")) == loads, \
            "in place: no reload, no new fetch"

        # Ann stops: Bob's Recents loses her photo without a reload, and her page is gone from his sidebar.
        ann.refresh()
        stop = until(ann, lambda b: [e for e in b.find_elements(By.XPATH, "//button[normalize-space()='Stop Sharing']") if e.is_displayed()],
                     message="Stop Sharing")[0]
        stop.click()
        until(ann, lambda b: "not shared with anyone" in b.find_element(By.CSS_SELECTOR, ".partner-panel").text)
        until(bob, lambda b: len(shown_ids(b)) == 1 and anns not in shown_ids(b), message="Ann's photos leave Bob's Recents")
        until(bob, lambda b: "Ann" not in b.find_element(By.CSS_SELECTOR, ".partner-libraries").get_attribute("textContent"))
        bobs_errors = severe(bob)
        assert in_page(bob, "GET", f"/api/assets/{urllib.parse.quote(anns, safe='')}/thumbnail?size=64")["status"] == 404
        for errors in (severe(ann), bobs_errors):
            assert not errors, errors
    finally:
        for browser in (ann, bob):
            browser.quit()
