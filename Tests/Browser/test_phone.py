"""The library app on a phone (issue "The web app and CLI, fixed where people trip", item 8): a
390 x 844 touch screen (Chromium's mobile emulation), driven by touch events as a finger sends
them. The albums are a drawer over the grid, the grid has three or four columns, the viewer's Close
stays on screen, Info is a bottom sheet under the photo, swipes move between photos, a pinch
zooms, and a long press starts selecting."""

import time
import urllib.parse

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ARTIFACTS, animations_done, cell, centre_of, drag, long_press, make_phone_driver, pinch, tap, wait_for

WIDTH, HEIGHT = 390, 844


@pytest.fixture
def phone(server):
    browser = make_phone_driver(WIDTH, HEIGHT)
    try:
        browser.get(server.user_url)  # signs in (the key's cookie)
        wait_for(browser, lambda: browser.execute_script(
            "return [...document.querySelectorAll('#photos .cell img')].filter((i) => i.complete && i.naturalWidth > 0).length") >= 3,
            message="the thumbnails did not load")
        yield browser
    finally:
        browser.quit()


def screenshot(browser, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / f"phone-{name}.png"))


def rect(browser, element):
    return browser.execute_script("const r = arguments[0].getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}", element)


def is_on_top(browser, element):
    """The element (or something inside it) is what a tap on its centre reaches."""
    return browser.execute_script("""
        const r = arguments[0].getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return !!hit && arguments[0].contains(hit)""", element)


def first_photo_index(browser):
    """The first cell that is a photo, not a movie (movies do not zoom)."""
    return browser.execute_script("""
        return Math.min(...[...document.querySelectorAll('#photos .cell[data-index]')]
            .filter((cell) => cell.querySelector('img') && !/, video /.test(cell.getAttribute('aria-label')))
            .map((cell) => Number(cell.dataset.index)))""")


def open_photo(browser, index):
    tap(browser, centre_of(browser, cell(browser, index)))
    image = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.viewer[open] .viewer-stage img"),
                     message="a tap on the cell did not open the viewer")
    wait_for(browser, lambda: image.get_property("naturalWidth") > 0, message="the photo did not load")
    return image


def shown_photo(browser):
    """The identifier of the photo the viewer shows (its URL names it)."""
    fragment = browser.execute_script("return location.hash")
    return urllib.parse.unquote(fragment.split("/photo/")[1]) if "/photo/" in fragment else None


def transform(browser, element):
    """[translate x, translate y, scale] of the element's computed transform."""
    return browser.execute_script("const m = new DOMMatrix(getComputedStyle(arguments[0]).transform); return [m.e, m.f, m.a]", element)


def test_phone_albums_are_a_drawer_over_the_grid(phone):
    sidebar = phone.find_element(By.ID, "sidebar")
    toggle = phone.find_element(By.CSS_SELECTOR, ".sidebar-toggle")
    grid = phone.find_element(By.ID, "photos")
    assert not sidebar.is_displayed() or rect(phone, sidebar)["right"] <= 0, "the albums start hidden"
    assert toggle.get_attribute("aria-expanded") == "false"
    grid_width = rect(phone, grid)["width"]
    assert grid_width >= WIDTH - 20, f"the grid has the whole width ({grid_width})"
    # Three or four columns: the distinct left edges of the cells.
    columns = phone.execute_script("""
        return new Set([...document.querySelectorAll('#photos .cell')].map((c) => Math.round(c.getBoundingClientRect().left))).size""")
    assert 3 <= columns <= 4, f"{columns} columns on a phone"
    screenshot(phone, "grid")

    tap(phone, centre_of(phone, toggle))
    wait_for(phone, lambda: sidebar.is_displayed() and toggle.get_attribute("aria-expanded") == "true", message="☰ did not open the albums")
    box = rect(phone, sidebar)
    assert box["left"] >= 0 and box["right"] <= WIDTH and box["width"] < WIDTH, f"the drawer is on screen and leaves the grid showing: {box}"
    assert rect(phone, grid)["width"] == grid_width, "the drawer lies over the grid, which keeps its width"
    screenshot(phone, "sidebar")
    # Escape closes it and gives the focus back to ☰.
    phone.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(phone, lambda: not sidebar.is_displayed(), message="Escape did not close the albums")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert phone.execute_script("return document.activeElement") == toggle, "the focus went back to ☰"
    # A tap outside it (on the grid it covers) closes it, and opens no photo.
    tap(phone, centre_of(phone, toggle))
    wait_for(phone, lambda: sidebar.is_displayed())
    tap(phone, (WIDTH - 20, HEIGHT / 2))
    wait_for(phone, lambda: not sidebar.is_displayed(), message="a tap outside did not close the albums")
    time.sleep(0.3)
    assert not phone.find_elements(By.CSS_SELECTOR, "dialog.viewer[open]"), "the tap that closed the albums opened a photo"
    # Choosing an album shows it and closes the drawer.
    tap(phone, centre_of(phone, toggle))
    wait_for(phone, lambda: sidebar.is_displayed())
    videos = wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, '#sidebar .album-link[aria-label^="Videos,"]'))
    tap(phone, centre_of(phone, videos))
    wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".view-title").text == "Videos", message="the album was not shown")
    wait_for(phone, lambda: not sidebar.is_displayed(), message="choosing an album did not close the drawer")


def test_phone_viewer_keeps_close_on_screen_and_info_under_the_photo(phone):
    image = open_photo(phone, first_photo_index(phone))
    close = phone.find_element(By.CSS_SELECTOR, 'dialog.viewer[open] .viewer-bar button:last-child')
    assert close.text == "Close" and close.is_displayed()
    box = rect(phone, close)
    assert box["left"] >= 0 and box["right"] <= WIDTH and box["top"] >= 0 and box["bottom"] <= HEIGHT, f"Close is off screen: {box}"
    assert box["width"] >= 40 and box["height"] >= 32, f"Close is too small to tap: {box}"
    assert is_on_top(phone, close), "something covers Close"
    screenshot(phone, "viewer")
    tap(phone, centre_of(phone, phone.find_element(By.CSS_SELECTOR, 'dialog.viewer[open] button[aria-label="Info"]')))
    panel = wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, "dialog.viewer[open] .info-panel"))
    wait_for(phone, lambda: "Size" in panel.text)
    image = phone.find_element(By.CSS_SELECTOR, "dialog.viewer[open] .viewer-stage img")
    wait_for(phone, lambda: image.get_property("naturalWidth") > 0)
    animations_done(phone, phone.find_element(By.CSS_SELECTOR, "dialog.viewer[open]"))
    sheet, photo = rect(phone, panel), rect(phone, image)
    assert sheet["left"] <= 1 and sheet["right"] >= WIDTH - 1 and sheet["bottom"] >= HEIGHT - 1, f"Info is not a bottom sheet: {sheet}"
    assert sheet["top"] >= HEIGHT * 0.35, f"the sheet covers more than the lower part: {sheet}"
    assert photo["height"] >= 150 and photo["bottom"] <= sheet["top"] + 1, f"the sheet {sheet} covers the photo {photo}"
    assert is_on_top(phone, image), "the photo is hidden"
    close = phone.find_element(By.CSS_SELECTOR, 'dialog.viewer[open] .viewer-bar button:last-child')
    assert rect(phone, close)["right"] <= WIDTH and is_on_top(phone, close), "Close went under the sheet"
    screenshot(phone, "info")
    tap(phone, centre_of(phone, close))
    wait_for(phone, lambda: not phone.find_elements(By.CSS_SELECTOR, "dialog.viewer[open]"), message="Close did not close the viewer")


def swipe(phone, start, end, identifier, message):
    """Swipes from start to end until the viewer shows `identifier`, three times at most: on a
    loaded machine a swipe can begin while the viewer still settles from the last one, and is
    taken as part of it (as a person swipes again, so does the test)."""
    for attempt in range(3):
        drag(phone, start, end)
        try:
            wait_for(phone, lambda: shown_photo(phone) == identifier, timeout=6)
            return
        except TimeoutException:
            if attempt == 2:
                raise AssertionError(f"{message} (three swipes; it shows {shown_photo(phone)})")
            animations_done(phone, phone.find_element(By.CSS_SELECTOR, "dialog.viewer[open]"))


def test_phone_viewer_swipes_between_photos(phone):
    index = first_photo_index(phone)
    identifiers = [cell(phone, position).get_attribute("data-id") for position in (index, index + 1)]
    image = open_photo(phone, index)
    wait_for(phone, lambda: shown_photo(phone) == identifiers[0])
    x, y = centre_of(phone, image)
    y = min(y + 60, HEIGHT - 80)  # below the ‹ › buttons at mid-height
    # right to left: the next photo; left to right: the previous one
    swipe(phone, (WIDTH - 60, y), (60, y + 10), identifiers[1], "a swipe to the left did not show the next photo")
    animations_done(phone, phone.find_element(By.CSS_SELECTOR, "dialog.viewer[open]"))
    swipe(phone, (60, y), (WIDTH - 60, y - 10), identifiers[0], "a swipe to the right did not show the previous photo")
    # A short or mostly vertical movement is no swipe.
    animations_done(phone, phone.find_element(By.CSS_SELECTOR, "dialog.viewer[open]"))
    drag(phone, (WIDTH / 2, y), (WIDTH / 2 - 15, y + 120))
    time.sleep(0.5)
    assert shown_photo(phone) == identifiers[0]


def test_phone_viewer_pinch_zooms_and_a_finger_pans(phone):
    index = first_photo_index(phone)
    image = open_photo(phone, index)
    shown = shown_photo(phone)
    before = rect(phone, image)
    centre = centre_of(phone, image)
    pinch(phone, centre, 60, 240)
    wait_for(phone, lambda: transform(phone, image)[2] > 2, message=f"the pinch did not zoom: {transform(phone, image)}")
    animations_done(phone, image)  # the transform's easing
    after = rect(phone, image)
    assert after["width"] > before["width"] * 2 and after["height"] > before["height"] * 2, f"{before} → {after}"
    # Zoomed, one finger pans the photo (and moves to no other photo).
    x, _, _ = transform(phone, image)
    drag(phone, centre, (centre[0] + 100, centre[1]))
    wait_for(phone, lambda: transform(phone, image)[0] > x + 60, message=f"the finger did not pan: {transform(phone, image)}")
    assert shown_photo(phone) == shown, "a pan moved to another photo"
    # Pinching in goes back to the whole photo; a double tap zooms in again, and out.
    pinch(phone, centre, 240, 40)
    wait_for(phone, lambda: transform(phone, image)[2] == 1, message=f"the pinch in did not end the zoom: {transform(phone, image)}")
    tap(phone, centre)
    time.sleep(0.08)
    tap(phone, centre)
    wait_for(phone, lambda: transform(phone, image)[2] > 1.5, message="a double tap did not zoom")
    time.sleep(0.4)
    tap(phone, centre)
    time.sleep(0.08)
    tap(phone, centre)
    wait_for(phone, lambda: transform(phone, image)[2] == 1, message="a second double tap did not zoom out")
    assert shown_photo(phone) == shown


def test_phone_long_press_starts_selecting(phone):
    long_press(phone, centre_of(phone, cell(phone, 2)))
    wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".selection-count").text == "1 selected",
             message="a long press did not select the photo")
    assert cell(phone, 2).get_attribute("aria-selected") == "true"
    time.sleep(0.3)
    assert not phone.find_elements(By.CSS_SELECTOR, "dialog.viewer[open]"), "the long press opened the photo"
    # Selecting now: taps toggle.
    tap(phone, centre_of(phone, cell(phone, 0)))
    wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".selection-count").text == "2 selected")
    tap(phone, centre_of(phone, cell(phone, 2)))
    wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".selection-count").text == "1 selected")
    assert cell(phone, 2).get_attribute("aria-selected") == "false" and cell(phone, 0).get_attribute("aria-selected") == "true"
    assert not phone.find_elements(By.CSS_SELECTOR, "dialog.viewer[open]")
    screenshot(phone, "selecting")
    actions = phone.find_element(By.CSS_SELECTOR, ".selection-actions")
    box = rect(phone, actions)
    assert box["right"] <= WIDTH + 1, f"the selection's actions run off the screen: {box}"
    deselect = phone.find_element(By.CSS_SELECTOR, '.selection-actions [data-action="clear"]')
    phone.execute_script("arguments[0].scrollIntoView({inline: 'nearest', block: 'nearest'})", deselect)
    tap(phone, centre_of(phone, deselect))
    wait_for(phone, lambda: not actions.is_displayed(), message="Deselect did not end the selection")


def test_phone_selection_shows_every_action_without_scrolling_sideways(phone):
    # Issue 39 item 15: Share, Delete and Add to Album were behind a sideways scroll.
    long_press(phone, centre_of(phone, cell(phone, 1)))
    wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".selection-count").text == "1 selected")
    screenshot(phone, "selection-actions")
    actions = phone.find_element(By.CSS_SELECTOR, ".selection-actions")
    assert phone.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", actions), "the actions scroll sideways"
    for selector in ['[data-action="share"]', '[data-action="delete"]', '.add-to-album select', '[data-action="favorite"]', '[data-action="clear"]']:
        control = actions.find_element(By.CSS_SELECTOR, selector)
        box = rect(phone, control)
        assert control.is_displayed() and box["left"] >= 0 and box["right"] <= WIDTH + 1, f"{selector} is not in sight: {box}"
        assert is_on_top(phone, control), f"{selector} is covered"
    grid_top = rect(phone, phone.find_element(By.CSS_SELECTOR, "#photos"))["top"]
    assert grid_top < HEIGHT / 3, f"the toolbar takes {grid_top} px of {HEIGHT} while selecting"
    tap(phone, centre_of(phone, actions.find_element(By.CSS_SELECTOR, '[data-action="clear"]')))
    wait_for(phone, lambda: not actions.is_displayed(), message="Deselect did not end the selection")
