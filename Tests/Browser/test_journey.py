"""A new user's first hour, as the README tells it (issue 18, "Done means"): a new library from the
CLI, `shoebox serve`, then in the browser the grid, Import, the viewer and its Info, a favorite, a
new album filled by dragging, a deletion recovered from Recently Deleted, the Oldest First switch,
and a client registered with `shoebox privacy register` whose request for the photos the page
asks about. Each step checks what the user would see, and the CLI agrees at the end."""

import json
import shutil
import tempfile
import threading
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Server, bench, by_name, cell, choose_order, make_driver, shoebox, wait_for


def sidebar_count(driver, title):
    for link in driver.find_elements(By.CSS_SELECTOR, ".album-link"):
        label = link.get_attribute("aria-label") or ""
        if label.startswith(title + ", "):
            return int(label.rsplit(", ", 1)[1])
    return None


def test_a_new_users_tour(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="shoebox-journey-"))
    library = folder / "Photos.shoebox"
    bench("generate", str(tmp_path / "photos"), "--count", "4", "--width", "1200", "--height", "800")
    bench("generate", str(tmp_path / "later"), "--count", "1", "--width", "900", "--height", "600")
    # The README's first steps: init, import.
    assert shoebox("init", "--library", str(library)).returncode == 0
    imported = shoebox("import", "--library", str(library), "--json", str(tmp_path / "photos"))
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["imported"] == 4
    server = Server(library)
    driver = make_driver()
    try:
        # The URL serve printed signs the browser in: the grid, its month header, the counts.
        driver.get(server.user_url)
        wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 4, message="the four photos")
        assert driver.find_elements(By.CSS_SELECTOR, ".grid-header"), "a month header"
        assert sidebar_count(driver, "Recents") == 4

        # Import by the Import button: a progress row, then the photo in the grid.
        later = next((tmp_path / "later").glob("*.jpg"))
        driver.find_element(By.CSS_SELECTOR, 'input[aria-label="Import"]').send_keys(str(later))
        wait_for(driver, lambda: "imported" in driver.find_element(By.CSS_SELECTOR, ".uploads").text)
        wait_for(driver, lambda: sidebar_count(driver, "Recents") == 5, message="the import did not reach the sidebar")

        # The viewer: its own URL, Info, Favorite; Escape closes it.
        driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, Keys.ENTER)
        viewer = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.viewer[open]"))
        wait_for(driver, lambda: "#/photo/" in driver.current_url)
        by_name(driver, "Info").click()
        wait_for(driver, lambda: "Taken" in viewer.find_element(By.CSS_SELECTOR, ".info-panel").text)
        by_name(driver, "Favorite").click()
        viewer.send_keys(Keys.ESCAPE)
        wait_for(driver, lambda: sidebar_count(driver, "Favorites") == 1, message="the favorite")

        # A new album (Enter makes it), filled by dragging a selected photo onto it.
        by_name(driver, "New Album").click()
        wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open] input")).send_keys("Holidays", Keys.ENTER)
        wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".view-title").text == "Holidays")
        # The sidebar re-renders when the new album's change arrives: find and click together.
        wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, '.album-link[aria-label^="Recents, "]').click() or True)
        wait_for(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".cell img")) == 5)
        driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.HOME, " ")
        wait_for(driver, lambda: "1 selected" in driver.find_element(By.CSS_SELECTOR, ".selection-count").text)
        x, y = driver.execute_script("""
            const r = document.querySelector('.album-link[aria-label="Holidays, 0"]').getBoundingClientRect();
            return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]""")
        drag = ActionChains(driver).click_and_hold(cell(driver, 0)).move_by_offset(10, 10)
        drag.w3c_actions.pointer_action.move_to_location(x, y)
        drag.w3c_actions.pointer_action.move_to_location(x + 2, y)
        drag.pause(0.3).release().perform()
        wait_for(driver, lambda: sidebar_count(driver, "Holidays") == 1, message="the drop did not fill the album")

        # Delete (to Recently Deleted, days left shown), then Recover All.
        driver.find_element(By.CSS_SELECTOR, "#photos").send_keys(Keys.ESCAPE, Keys.END, " ")
        wait_for(driver, lambda: "1 selected" in driver.find_element(By.CSS_SELECTOR, ".selection-count").text)
        by_name(driver, "Delete").click()
        wait_for(driver, lambda: sidebar_count(driver, "Recently Deleted") == 1, message="Delete")
        driver.find_element(By.CSS_SELECTOR, '.album-link[aria-label="Recently Deleted, 1"]').click()
        wait_for(driver, lambda: "days left" in (driver.find_element(By.CSS_SELECTOR, ".cell").get_attribute("aria-label") or ""))
        by_name(driver, "Recover All").click()
        wait_for(driver, lambda: "No recently deleted items" in driver.find_element(By.CSS_SELECTOR, ".empty-state").text)
        driver.find_element(By.CSS_SELECTOR, '.album-link[aria-label^="Recents, "]').click()
        wait_for(driver, lambda: sidebar_count(driver, "Recents") == 5)

        # Newest First is the default; Oldest First reverses the grid and is remembered.
        newest = wait_for(driver, lambda: cell(driver, 0).get_attribute("data-id"))
        choose_order(driver, "Oldest First")
        wait_for(driver, lambda: cell(driver, 0).get_attribute("data-id") != newest, message="Oldest First")
        driver.refresh()
        wait_for(driver, lambda: cell(driver, 0).get_attribute("data-id") != newest, message="the order was not remembered")

        # A client, registered as the README says, asks for the photos; the page asks the user.
        manifest = folder / "booth.json"
        manifest.write_text(json.dumps({"identifier": "com.example.booth", "displayName": "Photo Booth",
                                        "usageDescriptions": {"NSPhotoLibraryUsageDescription": "To print your photos"}}))
        registered = shoebox("privacy", "register", "--library", str(library), str(manifest))
        assert registered.returncode == 0, registered.stderr
        token = next(line.split()[1] for line in registered.stdout.splitlines() if line.startswith("token "))
        answers = []
        asking = threading.Thread(target=lambda: answers.append(server.api("POST", "/api/authorization/photoLibrary", token=token)))
        asking.start()
        prompt = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=20)
        assert "Photo Booth" in prompt.text and "To print your photos" in prompt.text
        by_name(driver, "Allow").click()
        asking.join(timeout=20)
        assert answers and answers[0][0] == 200 and answers[0][1]["status"] == "authorized", answers
        driver.get(server.base + "/#/privacy")
        card = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'article.client[aria-label="Photo Booth"]'))
        assert card.find_element(By.CSS_SELECTOR, 'select[aria-label="Photos access for Photo Booth"]').get_attribute("value") == "authorized"

        # The CLI sees the same library.
        listed = json.loads(shoebox("ls", "--library", str(library), "--json").stdout)
        assert len(listed) == 5
        assert len(json.loads(shoebox("ls", "--library", str(library), "--favorites", "--json").stdout)) == 1
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
