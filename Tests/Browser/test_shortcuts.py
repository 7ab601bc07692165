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
