"""Shared albums (issue 42, part 1): Ann shares an album with Bob (who adds photos) and Cat
(who views) from the album's page; Bob's photo, Ann's like and comment and Cat's leaving reach
the others' open pages without a reload; Cat, on a phone, adds Bob's photo to her own library."""

import json
import subprocess
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, BIN, Server, by_name, click_settled, make_driver, make_phone_driver, shoebox, wait_for
from test_people import in_page, sign_in


@pytest.fixture
def household(tmp_path):
    """Ann (the admin), Bob and Cat, each with one photo of their own; served."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    library = tmp_path / "Shared.shoebox"
    made = subprocess.run([str(BIN / "shoebox"), "init", "--library", str(library), "--admin", "Ann", "--password-stdin"],
                          input="ann-password\n", capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    for name in ["bob", "cat"]:
        added = subprocess.run([str(BIN / "shoebox"), "user", "add", name, "--display-name", name.capitalize(), "--library", str(library),
                                "--password-stdin"], input=f"{name}-password\n", capture_output=True, text=True, timeout=120)
        assert added.returncode == 0, added.stderr
    for index, name in enumerate(["ann", "bob", "cat"]):
        photo = tmp_path / f"{name}.jpg"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=480x320", "-vf", f"hue=h={index * 120}",
                        "-frames:v", "1", str(photo)], check=True, timeout=60)
        imported = shoebox("import", "--library", str(library), "--user", name, str(photo))
        assert imported.returncode == 0, imported.stderr
    server = Server(library)
    try:
        yield server
    finally:
        server.stop()


def until(browser, condition, message="", timeout=20):
    """`condition(browser)`, waited for."""
    return wait_for(browser, lambda: condition(browser), timeout=timeout, message=message)


def severe(browser):
    """The page's errors so far (the sign-in page itself is a 401)."""
    return [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE" and "status of 401" not in entry["message"]]


def own_photos(browser):
    return [asset["localIdentifier"] for asset in json.loads(in_page(browser, "GET", "/api/assets")["body"])["assets"]]


def items(browser):
    return browser.find_elements(By.CSS_SELECTOR, ".shared-album-view .shared-item")


def gallery_cells(browser):
    return browser.execute_script(
        "return [...document.querySelectorAll('.shared-cell img')].filter((i) => i.complete && i.naturalWidth > 0).length")


def test_a_shared_album_with_a_contributor_a_viewer_likes_and_comments(household):
    server = household
    ann, bob, cat = make_driver(), make_driver(width=1200, height=850), make_phone_driver()
    try:
        sign_in(ann, server, "ann", "ann-password")
        sign_in(bob, server, "bob", "bob-password")
        sign_in(cat, server, "cat", "cat-password")
        for browser in (ann, bob, cat):
            until(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".grid .cell"), message="the library shows")
        made = in_page(ann, "POST", "/api/albums", {"title": "Lisbon", "assets": own_photos(ann)})
        assert made["status"] == 201, made
        album = json.loads(made["body"])["localIdentifier"]
        quoted = urllib.parse.quote(album, safe="")

        # Ann shares it from the album's page: Bob adds photos, Cat views.
        ann.get(server.base + f"/#/album/{quoted}")
        ann.refresh()  # the album was made behind the page's back
        share = until(ann, lambda b: [e for e in b.find_elements(By.CSS_SELECTOR, '[data-view-action="share-with-people"]') if e.is_displayed()],
                         message="Share with People")[0]
        share.click()
        dialog = until(ann, lambda b: b.find_elements(By.CSS_SELECTOR, "dialog.share-people[open]"))[0]
        for name, role in [("bob", "contributor"), ("cat", "viewer")]:
            form = until(ann, lambda b: b.find_elements(By.CSS_SELECTOR, "dialog.share-people .share-add"))[0]
            Select(form.find_element(By.NAME, "person")).select_by_value(name)
            Select(form.find_element(By.NAME, "role")).select_by_value(role)
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            until(ann, lambda b, n=name: n.capitalize() in [e.text for e in b.find_elements(By.CSS_SELECTOR, "dialog.share-people .member-name")],
                  message=f"{name} shared")
        ann.save_screenshot(str(ARTIFACTS / "shared-album-sharing-desktop.png"))
        ann.find_element(By.CSS_SELECTOR, "dialog.share-people .done-sharing").click()
        until(ann, lambda b: b.current_url.endswith(f"#/shared/{quoted}") and len(items(b)) == 1, message="Ann's shared album page")

        # Bob's open library hears of it: the sidebar lists it, and Add to album offers it.
        until(bob, lambda b: "Lisbon" in b.find_element(By.CSS_SELECTOR, ".shared-albums").get_attribute("textContent"),
                 message="the album reaches Bob's sidebar without a reload")
        bob.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, " ")
        until(bob, lambda b: b.find_element(By.CSS_SELECTOR, ".add-to-album select").is_displayed())
        until(bob, lambda b: b.find_elements(By.CSS_SELECTOR, f'.add-to-album option[value="shared:{album}"]'), message="Add to album offers it")
        Select(bob.find_element(By.CSS_SELECTOR, ".add-to-album select")).select_by_value(f"shared:{album}")
        by_name(bob, "OK").click()
        # Ann's page shows Bob's photo, with his name, without a reload.
        until(ann, lambda b: len(items(b)) == 2, message="Bob's photo reaches Ann's page")
        assert "Bob" in items(ann)[1].text

        # Ann likes and comments on Bob's photo; Bob, on the album's page, sees both arrive.
        until(bob, lambda b: click_settled(b, ".shared-albums a"), message="Bob opens the album")
        until(bob, lambda b: len(items(b)) == 2, message="Bob's shared album page")
        # Bob, a contributor, makes a public link to it: it shows the album as he sees it.
        by_name(bob, "Share Link…").click()
        until(bob, lambda b: click_settled(b, ".share-form button[value='confirm']"), message="Bob creates the link")
        link = until(bob, lambda b: b.find_element(By.CSS_SELECTOR, ".share-url").get_attribute("value"), message="the link is shown")
        assert "/s/" in link, link
        by_name(bob, "Done").click()
        until(ann, lambda b: click_settled(b, ".shared-album-view li:nth-child(2) .shared-item"), message="Ann opens Bob's photo")
        photo = until(ann, lambda b: b.find_elements(By.CSS_SELECTOR, "dialog.shared-photo[open]"))[0]
        until(ann, lambda b: b.execute_script("const i = document.querySelector('dialog.shared-photo img'); return i && i.complete && i.naturalWidth > 0"),
                 message="the photo shows")
        until(ann, lambda b: click_settled(b, "dialog.shared-photo .like-button"), message="Ann likes it")
        until(ann, lambda b: b.find_element(By.CSS_SELECTOR, "dialog.shared-photo .like-button").get_attribute("aria-pressed") == "true")
        ann.find_element(By.CSS_SELECTOR, "dialog.shared-photo textarea").send_keys("Great light!")
        until(ann, lambda b: click_settled(b, "dialog.shared-photo .comment-form button"), message="Ann comments")
        until(ann, lambda b: "Great light!" in b.find_element(By.CSS_SELECTOR, "dialog.shared-photo .comment-list").text)
        ann.save_screenshot(str(ARTIFACTS / "shared-album-photo-desktop.png"))
        until(bob, lambda b: "Great light!" in b.find_element(By.CSS_SELECTOR, ".activity-list").text, message="the comment reaches Bob")
        assert "liked a photo" in bob.find_element(By.CSS_SELECTOR, ".activity-list").text
        assert "♡ 1 · 1 comment" in items(bob)[1].text, "one like (not his), one comment"
        bob.save_screenshot(str(ARTIFACTS / "shared-album-desktop.png"))

        # Cat, on a phone, sees it in her drawer, opens Bob's photo and adds it to her library.
        cat.get(server.base + f"/#/shared/{quoted}")
        until(cat, lambda b: len(items(b)) == 2, message="Cat's shared album page")
        assert not cat.find_elements(By.XPATH, "//button[normalize-space()='Share with People…']"), "only the owner shares"
        assert not cat.find_elements(By.XPATH, "//button[normalize-space()='Share Link…']"), "a viewer makes no link"
        cat.save_screenshot(str(ARTIFACTS / "shared-album-phone.png"))
        until(cat, lambda b: click_settled(b, ".shared-album-view li:nth-child(2) .shared-item"), message="Cat opens Bob's photo")
        until(cat, lambda b: b.find_elements(By.CSS_SELECTOR, "dialog.shared-photo[open]"))
        by_name(cat, "Add to My Library").click()
        until(cat, lambda b: "Added to your library" in b.find_element(By.CSS_SELECTOR, ".shared-status").text)
        assert not cat.find_elements(By.XPATH, "//dialog[@open]//button[normalize-space()='Remove from Album']"), "a viewer takes nothing out"
        cat.save_screenshot(str(ARTIFACTS / "shared-album-photo-phone.png"))
        assert len(own_photos(cat)) == 2, "Bob's photo is now also Cat's own"
        by_name(cat, "Close").click()
        # Cat leaves: Ann's page no longer names her.
        assert "Cat" in ann.find_element(By.CSS_SELECTOR, ".shared-about").text
        by_name(cat, "Leave Album").click()
        by_name(cat, "Leave").click()
        until(cat, lambda b: not b.current_url.endswith(f"#/shared/{quoted}"), message="Cat is back in her library")
        cats_errors = severe(cat)  # before the 404 asked for on purpose
        assert in_page(cat, "GET", f"/api/shared-albums/{quoted}")["status"] == 404
        ann.find_element(By.CSS_SELECTOR, "dialog.shared-photo").send_keys(Keys.ESCAPE)
        until(ann, lambda b: "Cat" not in b.find_element(By.CSS_SELECTOR, ".shared-about").text, message="Cat's leaving reaches Ann")
        for errors in (severe(ann), severe(bob), cats_errors):
            assert not errors, errors
        # Bob's link, opened by anyone: Ann's photo and his, nothing else; once he leaves, nothing.
        cat.get(link)
        until(cat, lambda b: gallery_cells(b) == 2, message="the link shows the album's two photos")
        assert cat.find_element(By.CSS_SELECTOR, ".shared-title").text == "Lisbon"
        cat.save_screenshot(str(ARTIFACTS / "shared-album-link-phone.png"))
        assert in_page(bob, "DELETE", f"/api/shared-albums/{quoted}/people/bob")["status"] == 204
        cat.refresh()
        until(cat, lambda b: b.find_element(By.CSS_SELECTOR, ".shared-count").text == "0 items", message="Bob left: his link shows nothing")
        assert not cat.find_elements(By.CSS_SELECTOR, ".shared-cell")
        path = urllib.parse.urlsplit(link).path
        status = cat.execute_async_script("fetch(arguments[0]).then((r) => arguments[1](r.status))", f"{path}/0/thumbnail")
        assert status == 404, f"nor any photo by its number: {status}"
    finally:
        for browser in (ann, bob, cat):
            browser.quit()
