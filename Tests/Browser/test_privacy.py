"""Authorization prompts in the web app, and the Privacy page."""

import threading

from selenium.webdriver.common.by import By

from conftest import by_name, wait_for


def register(server, identifier, usage):
    status, body = server.api("POST", "/api/clients", {"identifier": identifier, "displayName": identifier.split(".")[-1].title(),
                                                       "usageDescriptions": usage}, token="")
    assert status == 201, body
    return body["token"]


def ask(server, token, service, answers):
    status, body = server.api("POST", f"/api/authorization/{service}", token=token)
    answers.append((status, body))


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
    by_name(driver, "Report for Frames").click()
    wait_for(driver, lambda: "fetch" in driver.find_element(By.CSS_SELECTOR, "article.client .report").text)


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
