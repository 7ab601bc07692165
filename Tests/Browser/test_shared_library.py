"""The Shared Library (issue 42, item 2): Ann starts one from Account › Shared Library and invites
Bob; Bob (a phone) joins, moving nothing yet; his Recents switches between Both Libraries, Personal
Library and Shared Library; the viewer says who added a photo and lets him favorite it (it is his
too); he moves his own photo in from the selection, and Ann's open page shows it without a
reload; Bob leaves keeping what he added, and Ann keeps both."""

import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, by_name, click_settled, make_driver, make_phone_driver
from test_partners import household, severe, shown_ids, until  # noqa: F401 (household is the fixture: Ann and Bob, a photo each)
from test_people import in_page, sign_in


def ids(browser):
    return set(shown_ids(browser))


def press(browser, label):
    """Clicks the shown button named `label`, or returns False when there is none yet."""
    shown = [b for b in browser.find_elements(By.XPATH, f"//button[normalize-space()='{label}']") if b.is_displayed()]
    if not shown:
        return False
    try:
        shown[0].click()
        return True
    except Exception:
        return False


def toasts(browser):
    return " ".join(toast.text for toast in browser.find_elements(By.CSS_SELECTOR, ".toast"))


def segment(browser, label):
    return [b for b in browser.find_elements(By.CSS_SELECTOR, ".library-switch .segment") if b.text == label][0]


def test_two_people_share_a_library_and_one_leaves(household):
    server = household
    ann, bob = make_driver(), make_phone_driver()
    try:
        sign_in(ann, server, "ann", "ann-password")
        sign_in(bob, server, "bob", "bob-password")
        anns = json.loads(in_page(ann, "GET", "/api/assets")["body"])["assets"][0]["localIdentifier"]
        bobs = json.loads(in_page(bob, "GET", "/api/assets")["body"])["assets"][0]["localIdentifier"]

        # Ann starts it, inviting Bob, and moves everything of hers in.
        ann.get(server.base + "/#/account")
        form = until(ann, lambda b: b.find_elements(By.CSS_SELECTOR, ".shared-library-invite"), message="the invitation form")[0]
        Select(form.find_element(By.NAME, "person")).select_by_value("bob")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        until(ann, lambda b: "invited" in b.find_element(By.CSS_SELECTOR, ".shared-library-people").text, message="Bob is invited")
        until(ann, lambda b: press(b, "Move Everything In"), message="Move Everything In")
        until(ann, lambda b: "1 moved" in toasts(b), message="Ann's photo moved in")
        ann.execute_script("document.querySelector('.shared-library-panel').scrollIntoView()")
        ann.save_screenshot(str(ARTIFACTS / "shared-library-settings-desktop.png"))

        # Bob joins from his Account page, moving nothing yet.
        bob.get(server.base + "/#/account")
        join = until(bob, lambda b: b.find_elements(By.CSS_SELECTOR, ".shared-library-join"), message="Bob's invitation")[0]
        join.find_element(By.CSS_SELECTOR, "input[value=nothing]").click()
        bob.save_screenshot(str(ARTIFACTS / "shared-library-join-phone.png"))
        join.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        until(bob, lambda b: b.find_elements(By.CSS_SELECTOR, ".moves-new-assets"), message="Bob is in it")

        # Recents: both libraries, then each alone.
        bob.get(server.base + "/#/")
        until(bob, lambda b: ids(b) == {anns, bobs}, message="Both Libraries")
        until(bob, lambda b: segment(b, "Both Libraries").get_attribute("aria-pressed") == "true")
        bob.save_screenshot(str(ARTIFACTS / "shared-library-both-phone.png"))
        segment(bob, "Personal Library").click()
        until(bob, lambda b: ids(b) == {bobs}, message="Personal Library")
        segment(bob, "Shared Library").click()
        until(bob, lambda b: ids(b) == {anns}, message="Shared Library")

        # The viewer: who added it, and Bob may favorite it.
        until(bob, lambda b: click_settled(b, f'#photos .cell[data-id="{anns}"]'), message="Ann's photo opens")
        line = until(bob, lambda b: b.find_elements(By.CSS_SELECTOR, "dialog[open] .viewer-bar .shared-library-line"), message="who added it")[0]
        assert "added by Ann" in line.text
        favorite = until(bob, lambda b: [e for e in b.find_elements(By.CSS_SELECTOR, "dialog[open] .viewer-bar button") if e.get_attribute("aria-label") == "Favorite"],
                         message="Favorite")[0]
        favorite.click()
        until(bob, lambda b: json.loads(in_page(ann, "GET", "/api/assets?favorite=true")["body"])["assets"], message="Bob's favorite reaches Ann")
        bob.save_screenshot(str(ARTIFACTS / "shared-library-viewer-phone.png"))
        by_name(bob, "Close").click()

        # Ann's Recents is open; Bob moves his own photo in from the selection.
        ann.get(server.base + "/#/")
        until(ann, lambda b: ids(b) == {anns}, message="Ann's Recents")
        segment(bob, "Personal Library").click()
        until(bob, lambda b: ids(b) == {bobs})
        bob.execute_script(
            "document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('click', {bubbles: true, ctrlKey: true}))",
            f'#photos .cell[data-id="{bobs}"]')
        until(bob, lambda b: click_settled(b, "[data-action='move-library']"), message="Move to Shared Library")
        until(bob, lambda b: ids(b) == set(), message="Bob's photo leaves his Personal Library")
        until(ann, lambda b: ids(b) == {anns, bobs}, message="Bob's photo reaches Ann's open Recents")
        ann.save_screenshot(str(ARTIFACTS / "shared-library-recents-desktop.png"))

        # Bob leaves, keeping what he added: a copy of his photo; Ann keeps both.
        bob.get(server.base + "/#/account")
        def leave(b):
            # The panel is drawn again when a change event arrives: choose and press on one drawing.
            try:
                Select(b.find_element(By.CSS_SELECTOR, ".shared-library-leave select")).select_by_value("mine")
                b.find_element(By.CSS_SELECTOR, ".shared-library-leave .button.danger").click()
                return True
            except Exception:
                return False
        until(bob, leave, message="Leave Shared Library, keeping what he added")
        until(bob, lambda b: click_settled(b, "dialog[open] button[value=confirm]"), message="confirm leaving")
        until(bob, lambda b: b.find_elements(By.CSS_SELECTOR, ".shared-library-invite") or "not in" in b.find_element(By.CSS_SELECTOR, ".shared-library-panel").text
              or not b.find_elements(By.CSS_SELECTOR, ".moves-new-assets"), message="Bob is out")
        mine = json.loads(in_page(bob, "GET", "/api/assets")["body"])["assets"]
        assert len(mine) == 1 and mine[0].get("library") is None and mine[0]["localIdentifier"] not in (anns, bobs), mine
        theirs = {asset["localIdentifier"] for asset in json.loads(in_page(ann, "GET", "/api/assets?library=shared")["body"])["assets"]}
        assert theirs == {anns, bobs}
        for errors in (severe(ann), severe(bob)):
            assert not errors, errors
    finally:
        for browser in (ann, bob):
            browser.quit()
