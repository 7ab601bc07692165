"""The picker page, driven by a Swift client (`shoebox pick`, which asks the running server)."""

import urllib.parse

import pytest
from selenium.webdriver.common.keys import Keys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import Pick, by_name, cell, probe_duration, register, wait_for


def limit_text(driver):
    return driver.find_element(By.CSS_SELECTOR, ".limit-text").text


def test_browse_and_pick_an_image(server, library, driver):
    pick = Pick(library, "--limit", "2")  # with a limit of 1 a click picks at once: no preview to see
    driver.get(pick.url)
    # Three panes: albums, the grid, the preview.
    albums = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'nav[aria-label="Albums"]'))
    wait_for(driver, lambda: "Recents" in albums.text, message="the albums pane never listed Recents")
    chosen = cell(driver, 1)
    identifier = chosen.get_attribute("data-id")
    chosen.click()
    label = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".size-label").text or None)
    assert label == "1600 x 1200"
    preview = driver.find_element(By.CSS_SELECTOR, ".preview-media img")
    wait_for(driver, lambda: preview.get_property("naturalWidth") > 0, message="the preview never loaded")
    assert "1 of 2 selected" in limit_text(driver)
    by_name(driver, "Choose").click()
    code, infos, err = pick.result()
    assert code == 0, err
    # Issue 39 item 23: the finished page kept "Preparing… 100 %" in its status line, in red.
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".finished").is_displayed(), message="the page did not say Done")
    assert driver.find_element(By.CSS_SELECTOR, ".finished-title").text == "Done"
    assert driver.find_element(By.CSS_SELECTOR, ".status").text == "", "the status line still speaks after Done"
    assert len(infos) == 1
    info = infos[0]
    assert info["localIdentifier"] == identifier
    assert info["mediaType"] == "public.image"
    assert info["pixelWidth"] == 1600 and info["pixelHeight"] == 1200
    status, original = server.api("GET", f"/api/assets/{urllib.parse.quote(identifier, safe='')}/original")
    assert status == 200
    with open(info["imageURL"], "rb") as picked:
        assert picked.read() == original, "the client got the picked photo's bytes"
    assert "referenceURL" in info and "cropRect" not in info


def test_cancel_prints_nothing_and_fails(library, driver):
    pick = Pick(library)
    driver.get(pick.url)
    by_name(driver, "Cancel").click()
    code, infos, _ = pick.result()
    assert code == 1 and infos is None


def test_crop(library, driver):
    pick = Pick(library, "--edit")
    driver.get(pick.url)
    cell(driver, 0).click()
    by_name(driver, "Crop").click()
    dialog = driver.find_element(By.CSS_SELECTOR, ".editor-dialog")
    wait_for(driver, lambda: dialog.is_displayed())
    zoom = dialog.find_element(By.CSS_SELECTOR, 'input[aria-label="Zoom"]')
    driver.execute_script("arguments[0].value = '2'; arguments[0].dispatchEvent(new Event('input'))", zoom)
    box = dialog.find_element(By.CSS_SELECTOR, ".crop-box")
    ActionChains(driver).click_and_hold(box).move_by_offset(40, 10).release().perform()
    by_name(driver, "Done").click()
    wait_for(driver, lambda: "Cropped to" in driver.find_element(By.CSS_SELECTOR, ".preview-actions").text)
    by_name(driver, "Choose").click()
    code, infos, err = pick.result()
    assert code == 0, err
    info = infos[0]
    rect = info["cropRect"]
    assert rect["width"] == rect["height"] == 600, rect  # zoom 2 on the 1200 px side
    assert rect["x"] > 500, "moved right of the centred square (x 500)"
    assert 0 <= rect["y"] <= 600 and rect["x"] + rect["width"] <= 1600
    with open(info["editedImage"], "rb") as edited:
        assert edited.read(2) == b"\xff\xd8"


def test_pick_a_movie_with_play_trim_and_choose(library, driver):
    pick = Pick(library, "--media", "movie", "--edit", "--max-duration", "2", "--quality", "type640x480")
    driver.get(pick.url)
    movie = cell(driver, 0)
    movie.click()  # selects it, as a photo is selected
    wait_for(driver, lambda: "1 of 1 selected" in limit_text(driver), message="the click did not select the movie")
    by_name(driver, "Play").click()
    video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".preview-media video"))
    wait_for(driver, lambda: driver.execute_script("return arguments[0].currentTime", video) > 0.3, message="the movie did not play")
    by_name(driver, "Trim").click()
    dialog = driver.find_element(By.CSS_SELECTOR, ".editor-dialog")
    end = dialog.find_element(By.CSS_SELECTOR, 'input[aria-label="End"]')
    driver.execute_script("arguments[0].value = '3.5'; arguments[0].dispatchEvent(new Event('input'))", end)
    start_value = float(driver.execute_script("return arguments[0].value", dialog.find_element(By.CSS_SELECTOR, 'input[aria-label="Start"]')))
    assert start_value == 1.5, "the start follows to keep at most 2 s"
    by_name(driver, "Done").click()
    wait_for(driver, lambda: "Trimmed to" in driver.find_element(By.CSS_SELECTOR, ".preview-actions").text)
    driver.find_element(By.CSS_SELECTOR, '.picker-bar [data-action="choose"]').click()
    code, infos, err = pick.result()
    assert code == 0, err
    info = infos[0]
    assert info["mediaType"] == "public.movie"
    assert abs(probe_duration(info["mediaURL"]) - 2.0) < 0.15
    assert info["localIdentifier"]


def test_several_in_order_with_numbers(library, driver):
    pick = Pick(library, "--limit", "3", "--ordered")
    driver.get(pick.url)
    assert "0 of 3 selected" in driver.find_element(By.CSS_SELECTOR, ".limit-text").text
    order = [cell(driver, index).get_attribute("data-id") for index in (3, 0, 2)]
    for count, index in enumerate((3, 0, 2), start=1):
        cell(driver, index).click()
        wait_for(driver, lambda: f"{count} of 3 selected" in driver.find_element(By.CSS_SELECTOR, ".limit-text").text,
                 message=f"the click on cell {index} was not counted")
    wait_for(driver, lambda: "3 of 3 selected" in driver.find_element(By.CSS_SELECTOR, ".limit-text").text)
    numbers = {element.find_element(By.XPATH, "..").get_attribute("data-id"): element.text
               for element in driver.find_elements(By.CSS_SELECTOR, ".cell .order")}
    assert [numbers[identifier] for identifier in order] == ["1", "2", "3"]
    by_name(driver, "Choose").click()
    code, infos, err = pick.result()
    assert code == 0, err
    assert [info["localIdentifier"] for info in infos] == order


def test_narrow_screens_show_one_pane(library, server):
    from conftest import make_driver
    browser = make_driver(width=420, height=800)
    try:
        browser.get(server.user_url)
        pick = Pick(library)
        browser.get(pick.url)
        albums = browser.find_element(By.CSS_SELECTOR, ".albums-pane")
        grid = browser.find_element(By.CSS_SELECTOR, ".grid-pane")
        assert albums.is_displayed() and not grid.is_displayed()
        # The albums arrive after the page: wait for them rather than race their request.
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, '.albums-pane .album-link[aria-label^="Recents"]')).click()
        wait_for(browser, lambda: grid.is_displayed() and not albums.is_displayed())
        by_name(browser, "Back to albums").click()
        by_name(browser, "Cancel").click()
        pick.result()
    finally:
        browser.quit()


# Issue "The web app and CLI, fixed where people trip", item 12.

def test_a_click_on_a_movie_selects_it_and_previews_it(library, driver):
    pick = Pick(library, "--media", "image,movie", "--limit", "3")
    driver.get(pick.url)
    cell(driver, 0)
    movie = wait_for(driver, lambda: driver.find_element(By.XPATH, '//*[contains(@class, "cell") and contains(@aria-label, ", video ")]'),
                     message="no movie in the grid")
    identifier = movie.get_attribute("data-id")
    movie.click()
    wait_for(driver, lambda: "1 of 3 selected" in limit_text(driver), message="a click on a movie did not select it")
    assert driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{identifier}"]').get_attribute("aria-selected") == "true"
    wait_for(driver, lambda: "0:04" in driver.find_element(By.CSS_SELECTOR, ".size-label").text, message="no preview beside the grid")
    assert by_name(driver, "Play").is_displayed()
    actions = driver.find_element(By.CSS_SELECTOR, ".preview-actions")
    assert not actions.find_elements(By.CSS_SELECTOR, 'button[aria-label="Choose"], button[aria-label="Cancel"]'), \
        "the preview asks a second time: " + actions.text
    # A second click takes it out again, as for a photo.
    driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{identifier}"]').click()
    wait_for(driver, lambda: "0 of 3 selected" in limit_text(driver), message="a second click did not deselect the movie")
    driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{identifier}"]').click()
    wait_for(driver, lambda: "1 of 3 selected" in limit_text(driver))
    by_name(driver, "Choose").click()
    code, infos, err = pick.result()
    assert code == 0, err
    assert [(info["localIdentifier"], info["mediaType"]) for info in infos] == [(identifier, "public.movie")]


def test_one_click_picks_when_one_item_is_asked_without_editing(library, driver):
    # As PHPicker and UIImagePickerController do: nothing to confirm.
    pick = Pick(library, "--media", "image,movie")
    driver.get(pick.url)
    chosen = cell(driver, 2)
    identifier = chosen.get_attribute("data-id")
    chosen.click()
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".finished").is_displayed(), timeout=30,
             message="the click did not finish the pick")
    assert driver.find_element(By.CSS_SELECTOR, ".finished-title").text == "Done"
    code, infos, err = pick.result()
    assert code == 0, err
    assert [info["localIdentifier"] for info in infos] == [identifier]


def test_keyboard_focus_does_not_look_like_a_selection(library, driver):
    pick = Pick(library, "--limit", "3")
    driver.get(pick.url)
    cell(driver, 0).click()
    wait_for(driver, lambda: "1 of 3 selected" in limit_text(driver))
    grid = driver.find_element(By.CSS_SELECTOR, ".grid")
    grid.send_keys(Keys.ARROW_RIGHT)  # the keyboard's place: cell 1, not selected
    focused = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, '.grid .cell.active[data-index="1"]'))
    selected = cell(driver, 0)
    assert focused.get_attribute("aria-selected") == "false" and selected.get_attribute("aria-selected") == "true"
    look = lambda element: driver.execute_script("""
        const style = getComputedStyle(arguments[0]), check = getComputedStyle(arguments[0], '::before'), frame = getComputedStyle(arguments[0], '::after');
        return {outline: style.outlineStyle, outlineOffset: parseFloat(style.outlineOffset),
                check: check.content, checkBackground: check.backgroundColor, frame: frame.content, frameBorder: frame.borderTopStyle}""", element)
    ring, selection = look(focused), look(selected)
    # Focus: a ring outside the cell, no check. Selection: a filled check badge and a frame inside.
    assert ring["outline"] != "none" and ring["outlineOffset"] >= 0, f"the focus ring: {ring}"
    assert ring["check"] in ("none", "normal", ""), f"the focused cell shows a check: {ring}"
    assert "✓" in selection["check"] and selection["checkBackground"] not in ("rgba(0, 0, 0, 0)", "transparent"), \
        f"the selected cell has no filled check badge: {selection}"
    assert selection["outline"] == "none", f"the selected cell has a focus-like outline: {selection}"
    by_name(driver, "Cancel").click()
    pick.result()


@pytest.fixture(scope="module")
def booth(server):
    """A client named Booth (its token): pickers need no grant. Removed afterwards, so the Privacy
    page's tests (on the same server) meet only their own clients."""
    yield register(server, "com.example.booth", {"NSPhotoLibraryUsageDescription": "To print your photos"})
    status, body = server.api("DELETE", "/api/clients/com.example.booth")
    assert status == 204, body


@pytest.mark.parametrize("request_body, expected", [
    ({"mediaTypes": ["public.image", "public.movie"], "configuration": {"selectionLimit": 0}}, "Booth wants photos or videos"),
    ({"mediaTypes": ["public.image"]}, "Booth wants a photo"),
    ({"mediaTypes": ["public.movie"], "configuration": {"selectionLimit": 5}}, "Booth wants up to 5 videos"),
    ({"mediaTypes": ["public.image", "public.movie"]}, "Booth wants a photo or video"),
])
def test_the_header_names_what_is_asked(server, driver, booth, request_body, expected):
    token = booth
    status, created = server.api("POST", "/api/picker/sessions", request_body, token=token)
    assert status == 201, created
    try:
        driver.get(urllib.parse.urljoin(server.base, created["url"]))  # a client's URL carries no key: the browser is signed in
        wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".prompt-text").text == expected,
                 message=f"the header says {driver.find_element(By.CSS_SELECTOR, '.prompt-text').text!r}, not {expected!r}")
        assert driver.title.startswith(expected), driver.title
    finally:
        server.api("DELETE", f"/api/picker/sessions/{created['id']}", token=token)


# Issue 39 item 12: UIImagePickerController previews a movie before it is picked; PHPicker picks it.

def movie_cell(driver):
    cell(driver, 0)
    return wait_for(driver, lambda: driver.find_element(By.XPATH, '//*[contains(@class, "cell") and contains(@aria-label, ", video ")]'),
                    message="no movie in the grid")


def test_a_single_pick_previews_a_movie_with_cancel_and_choose(library, driver):
    pick = Pick(library, "--media", "image,movie")  # one item, no editing: UIImagePickerController's picker
    driver.get(pick.url)
    movie = movie_cell(driver)
    identifier = movie.get_attribute("data-id")
    movie.click()
    actions = driver.find_element(By.CSS_SELECTOR, ".preview-actions")
    wait_for(driver, lambda: "Choose" in actions.text, message="the movie's preview has no Choose: " + actions.text)
    assert not driver.find_element(By.CSS_SELECTOR, ".finished").is_displayed(), "a click on a movie picked it at once"
    assert [button.text for button in actions.find_elements(By.CSS_SELECTOR, "button")] == ["Play", "Cancel", "Choose"]
    # Cancel in the preview: the movie is not chosen, the picker stays.
    actions.find_element(By.XPATH, './/button[normalize-space()="Cancel"]').click()
    wait_for(driver, lambda: "0 of 1 selected" in limit_text(driver), message="Cancel left the movie chosen")
    assert pick.process.poll() is None, "Cancel in the preview ended the pick"
    driver.find_element(By.CSS_SELECTOR, f'.cell[data-id="{identifier}"]').click()
    wait_for(driver, lambda: "Choose" in driver.find_element(By.CSS_SELECTOR, ".preview-actions").text)
    driver.find_element(By.CSS_SELECTOR, ".preview-actions").find_element(By.XPATH, './/button[normalize-space()="Choose"]').click()
    code, infos, err = pick.result()
    assert code == 0, err
    assert [(info["localIdentifier"], info["mediaType"]) for info in infos] == [(identifier, "public.movie")]


def test_phpicker_picks_a_movie_with_one_click(server, driver):
    status, created = server.api("POST", "/api/picker/sessions", {"mediaTypes": ["public.image", "public.movie"], "configuration": {"selectionLimit": 1}})
    assert status == 201, created
    try:
        driver.get(urllib.parse.urljoin(server.base, created["url"]))
        movie = movie_cell(driver)
        identifier = movie.get_attribute("data-id")
        movie.click()
        wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".finished").is_displayed(), timeout=60,
                 message="PHPicker's click on a movie did not pick it")
        status, result = server.api("GET", f"/api/picker/sessions/{created['id']}?wait=30")
        assert status == 200 and result["status"] == "picked", result
        assert [entry["info"]["localIdentifier"] for entry in result["results"]] == [identifier]
    finally:
        server.api("DELETE", f"/api/picker/sessions/{created['id']}")


def test_on_a_phone_a_tap_that_selects_stays_in_the_grid(library, server):
    # Issue 39 item 15: each tap jumped to the preview, so choosing three took three trips back.
    from conftest import make_phone_driver
    browser = make_phone_driver()
    try:
        browser.get(server.user_url)
        pick = Pick(library, "--limit", "3")
        browser.get(pick.url)
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, '.albums-pane .album-link[aria-label^="Recents"]')).click()
        grid = browser.find_element(By.CSS_SELECTOR, ".grid-pane")
        wait_for(browser, lambda: grid.is_displayed())
        for count, index in enumerate((0, 1, 2), start=1):
            cell(browser, index).click()
            wait_for(browser, lambda: f"{count} of 3 selected" in limit_text(browser), message=f"tap {count} did not select")
            # The preview is made (in its pane, out of sight) before the page would switch panes.
            wait_for(browser, lambda: browser.execute_script("return document.querySelector('.size-label').textContent") != "")
            browser.execute_script("document.querySelector('.size-label').textContent = ''")
            assert grid.is_displayed() and not browser.find_element(By.CSS_SELECTOR, ".preview-pane").is_displayed(), \
                f"tap {count} left the grid for the preview"
        by_name(browser, "Choose").click()
        code, infos, err = pick.result()
        assert code == 0 and len(infos) == 3, err
    finally:
        browser.quit()
