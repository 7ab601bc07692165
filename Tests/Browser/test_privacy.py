"""Authorization prompts in the web app, and the Privacy page."""

import re
import threading

from selenium.webdriver.common.by import By

from conftest import ask, by_name, make_driver, register, wait_for




def test_allow_and_deny_prompts(server, driver):
    token = register(server, "com.example.frames", {"NSPhotoLibraryUsageDescription": "To put your photos in frames",
                                                    "NSCameraUsageDescription": "To take your portrait"})
    answers = []
    thread = threading.Thread(target=ask, args=(server, token, "photoLibrary", answers))
    thread.start()
    dialog = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=20)
    assert "Frames" in dialog.text and "To put your photos in frames" in dialog.text
    assert by_name(driver, "Select Photos")
    by_name(driver, "Allow").click()
    thread.join(timeout=20)
    assert answers and answers[0][0] == 200 and answers[0][1]["status"] == "authorized"
    status, _ = server.api("GET", "/api/assets?limit=1", token=token)
    assert status == 200

    answers.clear()
    thread = threading.Thread(target=ask, args=(server, token, "camera", answers))
    thread.start()
    dialog = wait_for(driver, lambda: "take your portrait" in driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog").text
                      and driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=20)
    assert not [b for b in dialog.find_elements(By.CSS_SELECTOR, "button") if b.get_attribute("aria-label") == "Select Photos"]
    by_name(driver, "Don't Allow").click()
    thread.join(timeout=20)
    assert answers[0][1]["status"] == "denied"

    # The Privacy page shows both decisions and changes them.
    driver.get(server.base + "/#/privacy")
    card = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'article.client[aria-label="Frames"]'))
    photos = card.find_element(By.CSS_SELECTOR, 'select[aria-label="Photos access for Frames"]')
    camera = card.find_element(By.CSS_SELECTOR, 'select[aria-label="Camera access for Frames"]')
    assert photos.get_attribute("value") == "authorized" and camera.get_attribute("value") == "denied"
    driver.execute_script("arguments[0].value = 'denied'; arguments[0].dispatchEvent(new Event('change'))", photos)
    wait_for(driver, lambda: server.api("GET", "/api/assets?limit=1", token=token)[0] == 403, message="revoking did not take effect")
    # The card is drawn again from the server's answer, with the focus kept on the changed menu;
    # Report is clicked on the new card (the old one may still be on screen when the server has
    # already answered).
    wait_for(driver, lambda: driver.switch_to.active_element.get_attribute("aria-label") == "Photos access for Frames"
             and driver.switch_to.active_element.get_attribute("value") == "denied", message="the card was not redrawn with the focus kept")
    by_name(driver, "Report for Frames").click()
    wait_for(driver, lambda: "Listed" in driver.find_element(By.CSS_SELECTOR, "article.client .report").text)


def test_select_photos_gives_limited_access(server, driver):
    token = register(server, "com.example.album", {"NSPhotoLibraryUsageDescription": "To make an album"})
    answers = []
    thread = threading.Thread(target=ask, args=(server, token, "photoLibrary", answers))
    thread.start()
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=20)
    by_name(driver, "Select Photos").click()
    choices = wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, ".select-photos button") or None)
    choices[0].click()
    chosen = choices[0].get_attribute("aria-label")
    by_name(driver, "Done").click()
    thread.join(timeout=20)
    assert answers[0][1]["status"] == "limited"
    status, page = server.api("GET", "/api/assets", token=token)
    assert status == 200 and [asset["originalFilename"] for asset in page["assets"]] == [chosen]


def test_prompts_reach_the_privacy_page_opened_directly(server, driver):
    token = register(server, "com.example.direct", {"NSCameraUsageDescription": "To scan documents"})
    driver.get(server.base + "/#/privacy")
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'article.client[aria-label="Direct"]'))
    # Subscribed to the change events (which carry the prompts) without visiting an album first.
    wait_for(driver, lambda: driver.execute_script("return window.shoebox.state.events?.readyState") == 1,
             message="the Privacy page did not subscribe to /api/events")
    answers = []
    thread = threading.Thread(target=ask, args=(server, token, "camera", answers))
    thread.start()
    wait_for(driver, lambda: "scan documents" in driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]").text, timeout=20)
    by_name(driver, "Don't Allow").click()
    thread.join(timeout=20)
    assert answers[0][1]["status"] == "denied"
    # The page shows the answer.
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'select[aria-label="Camera access for Direct"]').get_attribute("value") == "denied")


def test_privacy_page_changes_a_limited_selection(server, driver):
    token = register(server, "com.example.collage", {"NSPhotoLibraryUsageDescription": "To make collages"})
    status, page = server.api("GET", "/api/assets?limit=1&ascending=false")
    first = page["assets"][0]["localIdentifier"]
    assert server.api("PUT", "/api/clients/com.example.collage/services/photoLibrary", {"status": "limited"})[0] == 200
    assert server.api("PUT", "/api/clients/com.example.collage/limited", {"assets": [first]})[0] == 200
    driver.get(server.base + "/#/privacy")
    card = lambda: driver.find_element(By.CSS_SELECTOR, 'article.client[aria-label="Collage"]')
    wait_for(driver, lambda: "1 photo shared" in card().text)
    # Issue 39 item 23: the access menus stretched across the card (950 px); a menu is as wide as
    # its choices.
    widths = driver.execute_script("return [...arguments[0].querySelectorAll('select')].map((s) => s.getBoundingClientRect().width)", card())
    assert widths and max(widths) < 320, f"the access menus are {widths} px wide"
    by_name(driver, "Choose photos for Collage").click()
    dialog = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.chooser-dialog[open]"))
    choices = wait_for(driver, lambda: dialog.find_elements(By.CSS_SELECTOR, ".select-photos button")[:3] or None)
    assert [choice.get_attribute("data-id") for choice in choices if choice.get_attribute("aria-pressed") == "true"] == [first], \
        "the chooser starts from the client's selection"
    for choice in choices:  # the first off, the next two on
        choice.click()
    chosen = [choice.get_attribute("data-id") for choice in choices[1:]]
    by_name(driver, "Save").click()
    wait_for(driver, lambda: "2 photos shared" in card().text, message="the page did not show the new count")
    status, client = server.api("GET", "/api/clients/com.example.collage")
    assert status == 200 and sorted(client["limitedSelection"]) == sorted(chosen)
    status, seen = server.api("GET", "/api/assets", token=token)
    assert status == 200 and sorted(asset["localIdentifier"] for asset in seen["assets"]) == sorted(chosen)


def test_the_chooser_offers_albums_months_and_search_and_the_report_names_photos(server, driver):
    """Issue 39.18: Select Photos… is not a flat list: an album menu, the timeline's months and a
    search; the report shows each photo's name and thumbnail instead of its identifier."""
    status, page = server.api("GET", "/api/assets?limit=100&ascending=false")
    assets = page["assets"]
    pair = [asset["localIdentifier"] for asset in assets[:2]]
    status, album = server.api("POST", "/api/albums", {"title": "Chooser Trip", "assets": pair})
    assert status == 201, album
    token = register(server, "com.example.chooser", {"NSPhotoLibraryUsageDescription": "To choose"})
    assert server.api("PUT", "/api/clients/com.example.chooser/services/photoLibrary", {"status": "limited"})[0] == 200
    try:
        driver.get(server.base + "/#/privacy")
        by_name(driver, "Choose photos for Chooser").click()
        dialog = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.chooser-dialog[open]"))
        months = wait_for(driver, lambda: dialog.find_elements(By.CSS_SELECTOR, ".select-photos .chooser-month") or None,
                          message="no month headings")
        assert re.fullmatch(r"\w+ \d{4}", months[0].text), months[0].text
        show = dialog.find_element(By.CSS_SELECTOR, 'select[aria-label="Show"]')
        wait_for(driver, lambda: any(o.text == "Chooser Trip (2)" for o in show.find_elements(By.TAG_NAME, "option")),
                 message="the album is not offered")
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", show, album["localIdentifier"])
        wait_for(driver, lambda: sorted(b.get_attribute("data-id") for b in dialog.find_elements(By.CSS_SELECTOR, ".select-photos button")) == sorted(pair),
                 message="the album shows other photos")
        dialog.find_elements(By.CSS_SELECTOR, ".select-photos button")[0].click()
        # A search across the whole library again: only what matches the name typed.
        driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('change'))", show)
        wanted = assets[-1]
        field = dialog.find_element(By.CSS_SELECTOR, 'input[aria-label="Search photos to share"]')
        field.send_keys(wanted["originalFilename"].rsplit(".", 1)[0])
        wait_for(driver, lambda: [b.get_attribute("aria-label") for b in dialog.find_elements(By.CSS_SELECTOR, ".select-photos button")] == [wanted["originalFilename"]],
                 message="the search did not narrow the chooser to the photo named")
        assert "1 photo selected" in dialog.text, "the choice made in the album stayed"
        by_name(driver, "Save").click()
        card = lambda: driver.find_element(By.CSS_SELECTOR, 'article.client[aria-label="Chooser"]')
        wait_for(driver, lambda: "1 photo shared" in card().text)
        status, seen = server.api("GET", "/api/assets", token=token)
        assert status == 200 and len(seen["assets"]) == 1
        shown = seen["assets"][0]
        by_name(driver, "Report for Chooser").click()
        row = wait_for(driver, lambda: [r for r in card().find_elements(By.CSS_SELECTOR, ".report tbody tr") if r.find_elements(By.CSS_SELECTOR, ".report-asset img")] or None,
                       message="the report shows no photo")
        assert shown["originalFilename"] in row[0].text and shown["localIdentifier"] not in row[0].text, row[0].text
    finally:
        server.api("DELETE", f"/api/albums/{album['localIdentifier']}")
        server.api("DELETE", "/api/clients/com.example.chooser")


def test_select_photos_pages_through_the_whole_library(server, driver):
    status, first = server.api("GET", "/api/assets?limit=1000&ascending=false")
    total = len(first["assets"])
    token = register(server, "com.example.pages", {"NSPhotoLibraryUsageDescription": "To page"})
    answers = []
    thread = threading.Thread(target=ask, args=(server, token, "photoLibrary", answers))
    thread.start()
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=20)
    # Small pages, so that even this library needs several.
    driver.execute_script("""
        const original = window.fetch;
        window.fetch = (url, ...rest) => original(String(url).replace(/([?&])limit=200\\b/, '$1limit=2'), ...rest);""")
    by_name(driver, "Select Photos").click()
    grid = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".select-photos"))

    def loaded():
        driver.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight", grid)
        return len(grid.find_elements(By.CSS_SELECTOR, "button")) == total
    wait_for(driver, loaded, message="the chooser did not reach the oldest photo")
    by_name(driver, "Back").click()
    by_name(driver, "Don't Allow").click()
    thread.join(timeout=20)


def test_a_question_answered_in_one_tab_leaves_the_other(server, driver):
    token = register(server, "com.example.twotabs", {"NSMicrophoneUsageDescription": "To record your voice"})
    other = make_driver()
    try:
        other.get(server.user_url)
        answers = []
        thread = threading.Thread(target=ask, args=(server, token, "microphone", answers))
        thread.start()
        for browser in (driver, other):
            wait_for(browser, lambda: "record your voice" in browser.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]").text, timeout=20)
        by_name(driver, "Allow").click()
        thread.join(timeout=20)
        assert answers and answers[0][1]["status"] == "authorized"
        # The second tab heard that the question was settled and stopped asking it.
        wait_for(other, lambda: not other.find_elements(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=10,
                 message="the other tab still asks a question answered elsewhere")
    finally:
        other.quit()
    status, pending = server.api("GET", "/api/prompts")
    assert status == 200 and pending == []


def test_remove_app_forgets_a_client(server, driver):
    token = register(server, "com.example.removable", {"NSCameraUsageDescription": "To take pictures"})
    driver.get(server.base + "/#/privacy")
    wait_for(driver, lambda: driver.find_elements(By.CSS_SELECTOR, 'article.client[data-client="com.example.removable"]'))
    by_name(driver, "Remove Removable").click()
    question = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"))
    assert "Remove “Removable”?" in question.text
    question.find_element(By.CSS_SELECTOR, 'button[value="confirm"]').click()
    wait_for(driver, lambda: not driver.find_elements(By.CSS_SELECTOR, 'article.client[data-client="com.example.removable"]'),
             message="the removed app is still listed")
    status, _ = server.api("GET", "/api/authorization/camera", token=token)
    assert status == 401, "its token no longer works"


def test_a_clients_deletion_asks_the_user_first(server, driver):
    # Issue 18 item 2: as PhotoKit does, a client's deletion waits for the user's answer in the
    # web app, which names the count and shows the photos; "Don't Allow" is the default.
    token = register(server, "com.example.tidy", {"NSPhotoLibraryUsageDescription": "To tidy your photos"})
    assert server.api("PUT", "/api/clients/com.example.tidy/services/photoLibrary", {"status": "authorized"})[0] == 200
    status, page = server.api("GET", "/api/assets?limit=2", token=token)
    assert status == 200
    victims = [asset["localIdentifier"] for asset in page["assets"]]
    answers = []

    def delete():
        answers.append(server.api("POST", "/api/assets/batch", {"action": "delete", "assets": victims}, token=token))

    thread = threading.Thread(target=delete)
    thread.start()
    dialog = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=20)
    assert "“Tidy” would like to delete 2 items" in dialog.text, dialog.text
    assert "will move to Recently Deleted" in dialog.text
    wait_for(driver, lambda: len([img for img in dialog.find_elements(By.CSS_SELECTOR, ".prompt-assets img")
                                  if driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", img)]) == 2,
             message="the photos to delete are not shown")
    assert driver.switch_to.active_element.text == "Don't Allow", "the safe answer is the default"
    by_name(driver, "Delete").click()
    thread.join(timeout=20)
    assert answers and answers[0][0] == 200, answers
    try:
        for identifier in victims:
            status, detail = server.api("GET", "/api/assets/" + identifier.replace("/", "%2F"))
            assert status == 200 and detail["asset"]["isTrashed"], detail
    finally:
        server.api("POST", "/api/assets/batch", {"action": "restore", "assets": victims})
