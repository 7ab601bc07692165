"""Keyboard basics of the library (issue 19 item 8): the shortcut sheet (?), F to favorite,
Delete with an Undo note, the slideshow."""

import time
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import by_name, wait_for


def asset(server, identifier):
    status, detail = server.api("GET", "/api/assets/" + urllib.parse.quote(identifier, safe=""))
    return detail["asset"] if status == 200 else None


def active_id(driver):
    return driver.execute_script("const c = document.querySelector('#photos .cell.active, #photos .cell[aria-current]');"
                                 "return c ? c.dataset.id : window.shoebox.state.source.assetAt(window.shoebox.grid.activeIndex)?.localIdentifier")


def test_the_shortcut_sheet_and_f_to_favorite(server, driver):
    grid = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "#photos"))
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#photos .cell img"))
    grid.send_keys("?")
    sheet = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.shortcuts[open]"), message="? showed no shortcuts")
    assert "Keyboard Shortcuts" in sheet.text and "Favorite" in sheet.text and "Slideshow" in sheet.text, sheet.text
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, "dialog.shortcuts[open]"), message="Escape did not close the sheet")
    grid = driver.find_element(By.CSS_SELECTOR, "#photos")
    grid.send_keys(Keys.HOME)
    identifier = wait_for(driver, lambda: active_id(driver))
    before = asset(server, identifier)["isFavorite"]
    grid.send_keys("f")
    wait_for(driver, lambda: asset(server, identifier)["isFavorite"] != before, message="F did not change the favorite")
    driver.find_element(By.CSS_SELECTOR, "#photos").send_keys("f")
    wait_for(driver, lambda: asset(server, identifier)["isFavorite"] == before, message="a second F did not change it back")


def test_delete_goes_at_once_and_undo_brings_it_back(server, driver):
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#photos .cell img"))
    grid = driver.find_element(By.CSS_SELECTOR, "#photos")
    grid.send_keys(Keys.HOME, " ")
    identifier = wait_for(driver, lambda: active_id(driver))
    grid.send_keys(Keys.DELETE)
    note = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".toasts .toast"), message="no note after Delete")
    assert "Deleted 1 item" in note.text, note.text
    wait_for(driver, lambda: asset(server, identifier)["isTrashed"], message="Delete did not move it to Recently Deleted")
    note.find_element(By.XPATH, './/button[normalize-space()="Undo"]').click()
    wait_for(driver, lambda: not asset(server, identifier)["isTrashed"], message="Undo did not bring it back")
    wait_for(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, ".toasts .toast"), message="the note stayed after Undo")


def test_the_slideshow_moves_on_and_space_pauses_it(server, driver):
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#photos .cell img")) >= 3)
    grid = driver.find_element(By.CSS_SELECTOR, "#photos")
    grid.send_keys(Keys.HOME, Keys.ENTER)
    wait_for(driver, lambda: "/photo/" in driver.current_url, message="the viewer did not open")
    first = driver.current_url
    by_name(driver, "Play Slideshow").click()
    wait_for(driver, lambda: driver.current_url != first, timeout=10, message="the slideshow did not move on")
    second = driver.current_url
    by_name(driver, "Pause Slideshow")  # the button says it plays
    driver.switch_to.active_element.send_keys(" ")
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '.viewer button[aria-label="Play Slideshow"]'), message="Space did not pause")
    paused_at = driver.current_url
    time.sleep(5)
    assert driver.current_url == paused_at, "a paused slideshow moved on"
    assert paused_at in (second, driver.current_url)
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)


def test_arrows_move_on_from_a_movie_and_shift_arrows_j_l_seek_it(server, driver):
    # Issue 39 item 5: in the viewer ← → move between items, a movie's too (its own controls
    # would seek); Shift+← → seek by 5 s and J, L by 10 s, as the ? sheet says.
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#photos .cell img"))
    movie, count = wait_for(driver, lambda: driver.execute_script("""
        const state = window.shoebox.state;
        for (let index = 0; index < state.source.count; index += 1) {
            if (state.source.assetAt(index)?.mediaType === 'video') return [index, state.source.count];
        }
        return null;"""), message="no movie in the grid")
    grid = driver.find_element(By.CSS_SELECTOR, "#photos")
    grid.send_keys(Keys.HOME, *[Keys.ARROW_RIGHT] * movie, Keys.ENTER)
    video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.viewer[open] video"), message="the movie did not open")
    wait_for(driver, lambda: driver.execute_script("return document.activeElement === arguments[0]", video), message="the movie has no focus")
    wait_for(driver, lambda: driver.execute_script("return Number.isFinite(arguments[0].duration)", video), message="no metadata")
    at_movie = driver.current_url
    duration = driver.execute_script("arguments[0].currentTime = 0; return arguments[0].duration", video)
    driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.ARROW_RIGHT)
    wait_for(driver, lambda: abs(driver.execute_script("return arguments[0].currentTime", video) - min(5, duration)) < 0.3,
             message="Shift+→ did not seek 5 s")
    assert driver.current_url == at_movie, "Shift+→ moved to another item"
    driver.switch_to.active_element.send_keys("j")
    wait_for(driver, lambda: driver.execute_script("return arguments[0].currentTime", video) < 0.3, message="J did not seek back")
    driver.switch_to.active_element.send_keys("l")
    wait_for(driver, lambda: driver.execute_script("return arguments[0].currentTime", video) > min(5, duration) - 0.3, message="L did not seek on")
    # The movie has the focus, and → (or ← from the last item) moves to the next item.
    assert driver.execute_script("return document.activeElement.tagName") == "VIDEO"
    driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT if movie < count - 1 else Keys.ARROW_LEFT)
    wait_for(driver, lambda: driver.current_url != at_movie, message="an arrow on a movie did not move to the next item")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_for(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, "dialog.viewer[open]"))
    driver.find_element(By.CSS_SELECTOR, "#photos").send_keys("?")
    sheet = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.shortcuts[open]"))
    assert "Shift+← →" in sheet.text and "J L" in sheet.text, sheet.text
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
