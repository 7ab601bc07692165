"""The library app's actions as a new user meets them (issue 18 items 2, 3, 13, 14): dialogs that
take Enter and Escape, deletions that ask, Recently Deleted and Hidden, albums that can be
renamed and deleted."""

import json
import socket
import subprocess
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import BIN, bench, by_name, make_driver, wait_for


def open_album(driver, title, count):
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, f'.album-link[aria-label="{title}, {count}"]'))
    driver.find_element(By.CSS_SELECTOR, f'.album-link[aria-label="{title}, {count}"]').click()
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".view-title").text == title)


def upload(server, path):
    request = urllib.request.Request(server.base + "/api/assets?filename=" + urllib.parse.quote(path.name), data=path.read_bytes(), method="POST")
    request.add_header("Authorization", f"Bearer {server.key}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())["localIdentifier"]


def dialog(driver):
    return wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"))


def no_dialog(driver):
    wait_for(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, "dialog.ask-dialog"))


def test_dialogs_take_enter_and_escape(server, driver):
    by_name(driver, "New Album").click()
    dialog(driver).find_element(By.CSS_SELECTOR, "input").send_keys("Enter Makes It", Keys.ENTER)
    no_dialog(driver)
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".view-title").text == "Enter Makes It",
             message="Enter in the New Album dialog did not create the album")
    # Escape cancels; Enter renames.
    by_name(driver, "Rename Album").click()
    field = dialog(driver).find_element(By.CSS_SELECTOR, "input")
    field.send_keys("Never Mind")  # the name is selected: typing replaces it
    field.send_keys(Keys.ESCAPE)
    no_dialog(driver)
    assert driver.find_element(By.CSS_SELECTOR, ".view-title").text == "Enter Makes It"
    by_name(driver, "Rename Album").click()
    field = dialog(driver).find_element(By.CSS_SELECTOR, "input")
    field.send_keys("Renamed By Enter", Keys.ENTER)
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '.album-link[aria-label="Renamed By Enter, 0"]'))
    # Deleting the album asks, and Enter answers with the dialog's default button.
    by_name(driver, "Delete Album").click()
    question = dialog(driver)
    assert "Renamed By Enter" in question.text and "stay in the library" in question.text, question.text
    question.find_element(By.CSS_SELECTOR, 'button[value="confirm"]').send_keys(Keys.ENTER)
    wait_for(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, '.album-link[aria-label^="Renamed By Enter"]'))
    status, albums = server.api("GET", "/api/albums")
    assert not any(album["title"] in ("Enter Makes It", "Renamed By Enter") for album in albums["albums"])


def test_in_an_album_remove_is_primary_and_delete_asks(server, driver):
    status, page = server.api("GET", "/api/assets?limit=2")
    ids = [asset["localIdentifier"] for asset in page["assets"]]
    status, album = server.api("POST", "/api/albums", {"title": "Two Photos", "assets": ids})
    assert status == 201, album
    open_album(driver, "Two Photos", 2)
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 2)
    grid = driver.find_element(By.CSS_SELECTOR, "#photos")
    grid.send_keys(Keys.HOME, " ")
    remove = by_name(driver, "Remove from Album")
    assert "primary" in remove.get_attribute("class")
    remove.click()
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '.album-link[aria-label="Two Photos, 1"]'))
    status, library = server.api("GET", "/api/assets?limit=500")
    assert set(ids) <= {asset["localIdentifier"] for asset in library["assets"]}, "removing from the album deleted nothing"
    # Delete (from the library) asks; Escape keeps the photo.
    driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, " ")
    by_name(driver, "Delete").click()
    assert "Delete 1 item from the library?" in dialog(driver).text
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    no_dialog(driver)
    status, library = server.api("GET", "/api/assets?limit=500")
    assert set(ids) <= {asset["localIdentifier"] for asset in library["assets"]}
    by_name(driver, "Delete").click()
    dialog(driver).find_element(By.CSS_SELECTOR, 'button[value="confirm"]').click()
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, '.album-link[aria-label="Two Photos, 0"]'))
    status, _ = server.api("POST", "/api/assets/batch", {"action": "restore", "assets": ids})
    assert status == 200
    server.api("DELETE", "/api/albums/" + urllib.parse.quote(album["localIdentifier"], safe=""))


def test_recently_deleted_and_hidden(server, driver, tmp_path):
    # Two photos of this test's own, so purging one leaves the shared library as it was.
    bench("generate", str(tmp_path / "gen"), "--count", "2", "--width", "700", "--height", "500")
    ids = [upload(server, path) for path in sorted((tmp_path / "gen").glob("*.jpg"))]
    status, _ = server.api("POST", "/api/assets/batch", {"action": "delete", "assets": ids})
    assert status == 200
    open_album(driver, "Recently Deleted", 2)
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 2)
    labels = [cell.get_attribute("aria-label") for cell in driver.find_elements(By.CSS_SELECTOR, ".cell")]
    assert all("30 days left" in label for label in labels), labels
    driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, " ")
    by_name(driver, "Recover")
    assert not driver.find_element(By.CSS_SELECTOR, '[data-action="favorite"]').is_displayed(), "only Recover and Delete Forever"
    by_name(driver, "Delete Forever").click()
    assert "Delete 1 item forever?" in dialog(driver).text
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    no_dialog(driver)
    driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.ESCAPE)
    # Recover All brings both back; the empty Recently Deleted says what it is for.
    by_name(driver, "Recover All").click()
    wait_for(driver, lambda: "No recently deleted items" in driver.find_element(By.CSS_SELECTOR, ".empty-state").text)
    assert driver.find_element(By.CSS_SELECTOR, ".empty-state").is_displayed()
    # Delete All asks, naming the count, and empties it.
    status, _ = server.api("POST", "/api/assets/batch", {"action": "delete", "assets": ids[:1]})
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 1)
    by_name(driver, "Delete All").click()
    assert "Delete all 1 item forever?" in dialog(driver).text
    dialog(driver).find_element(By.CSS_SELECTOR, 'button[value="confirm"]').click()
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 0)
    status, _ = server.api("GET", "/api/assets/" + urllib.parse.quote(ids[0], safe=""))
    assert status == 404, "deleted for good"
    # Hidden: its button reads Unhide.
    status, _ = server.api("POST", "/api/assets/batch", {"action": "hide", "assets": ids[1:]})
    open_album(driver, "Hidden", 1)
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 1)
    driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, " ")
    by_name(driver, "Unhide").click()
    wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 0)


def start_serving(library, port, key):
    process = subprocess.Popen([str(BIN / "shoebox"), "serve", "--library", str(library), "--port", str(port), "--key", key, "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    assert line, process.stderr.read()
    return process, json.loads(line)["url"]


def test_a_lost_connection_shows_a_banner_and_failed_actions_say_so(library):
    # Issue 18 item 10: failures are visible, and the page recovers when the server is back.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    key = "offline-test-key"
    process, url = start_serving(library, port, key)
    driver = make_driver()
    try:
        driver.get(url)
        wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, ".grid .cell img"))
        process.terminate()
        process.wait(timeout=20)
        wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, ".banner.offline"), timeout=20,
                 message="no banner while the server is away")
        assert "cannot be reached" in driver.find_element(By.CSS_SELECTOR, ".banner.offline").text
        driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, " ")
        by_name(driver, "Favorite").click()
        error = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".banner.error"), message="a failed action said nothing")
        assert "not done" in error.text, error.text
        process, _ = start_serving(library, port, key)
        wait_for(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, ".banner.offline"), timeout=30,
                 message="the banner stayed after the server came back")
    finally:
        driver.quit()
        process.terminate()
        process.wait(timeout=20)
