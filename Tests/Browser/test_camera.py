"""The camera page with Chromium's fake camera (getUserMedia, MediaRecorder)."""

import time
import urllib.parse

from selenium.webdriver.common.by import By

from conftest import Pick, click_by_name, probe_duration, wait_for


def test_take_a_photo_then_use_it_and_save_it(server, library, driver):
    pick = Pick(library, "--source", "camera", "--save")
    driver.get(pick.url)
    video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-view video"))
    wait_for(driver, lambda: driver.execute_script("return arguments[0].videoWidth", video) > 0, message="the fake camera never started")
    click_by_name(driver, "Take Photo")
    click_by_name(driver, "Retake")
    click_by_name(driver, "Take Photo")
    wait_for(driver, lambda: driver.execute_script(
        "const i = document.querySelector('.review:not([hidden]) .review-media img'); return !!i && i.naturalWidth > 0"),
        message="the photo under review never showed")
    click_by_name(driver, "Use Photo")
    code, infos, err = pick.result()
    assert code == 0, err
    info = infos[0]
    assert info["mediaType"] == "public.image"
    assert info["pixelWidth"] > 0 and "mediaMetadata" in info
    assert info["mediaMetadata"]["dateTimeOriginal"]
    assert "referenceURL" not in info and "localIdentifier" not in info, "a capture is not a library pick"
    saved = info["savedAssetIdentifier"]
    status, detail = server.api("GET", f"/api/assets/{urllib.parse.quote(saved, safe='')}")
    assert status == 200
    asset = detail["asset"]
    assert asset["mediaType"] == "image" and asset["pixelWidth"] == info["pixelWidth"]
    assert asset["creationDate"].startswith(info["mediaMetadata"]["dateTimeOriginal"][:10]), "the capture's date became the asset's"


def test_record_two_seconds_into_an_asset_that_plays(server, library, driver):
    pick = Pick(library, "--source", "camera", "--media", "movie", "--save")
    driver.get(pick.url)
    video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-view video"))
    wait_for(driver, lambda: driver.execute_script("return arguments[0].videoWidth", video) > 0, message="the fake camera never started")
    click_by_name(driver, "Record")
    time.sleep(2.2)
    click_by_name(driver, "Stop")
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".review-media video"), timeout=60)
    click_by_name(driver, "Play")
    click_by_name(driver, "Choose")
    code, infos, err = pick.result(timeout=180)
    assert code == 0, err
    info = infos[0]
    assert info["mediaType"] == "public.movie"
    assert abs(probe_duration(info["mediaURL"]) - 2.2) < 0.6
    saved = info["savedAssetIdentifier"]
    status, detail = server.api("GET", f"/api/assets/{urllib.parse.quote(saved, safe='')}")
    assert status == 200 and detail["asset"]["mediaType"] == "video"
    assert abs(detail["asset"]["duration"] - 2.2) < 0.6
    # It plays in the browser: the library serves a playable file and the video element runs it.
    driver.get(server.base + "/")
    driver.execute_script("""
        const video = document.createElement('video');
        video.id = 'check'; video.muted = true; video.src = arguments[0]; document.body.append(video); video.play();
    """, f"/api/assets/{urllib.parse.quote(saved, safe='')}/video")
    wait_for(driver, lambda: driver.execute_script("return document.getElementById('check').currentTime") > 0.5, timeout=30,
             message="the recorded asset did not play")
    duration = driver.execute_script("return document.getElementById('check').duration")
    assert abs(duration - 2.2) < 0.6


def test_custom_controls_take_several_pictures(server, library, driver):
    status, created = server.api("POST", "/api/picker/sessions", {
        "sourceType": "camera", "camera": {"showsControls": False,
                                           "overlay": '<button data-picker-action="takePicture" aria-label="Snap">Snap</button>'
                                                      '<button data-picker-action="done" aria-label="Done">Done</button>'}})
    assert status == 201
    driver.get(created["url"])
    video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-view video"))
    wait_for(driver, lambda: driver.execute_script("return arguments[0].videoWidth", video) > 0)
    assert not driver.find_elements(By.XPATH, '//button[normalize-space()="Take Photo"]'), "no standard controls"
    def taken():
        # What the client sees so far: with custom controls each picture is delivered at once.
        status, pending = server.api("GET", f"/api/picker/sessions/{created['id']}")
        return len(pending.get("results") or []) if status == 200 else -1
    click_by_name(driver, "Snap")
    wait_for(driver, lambda: taken() == 1, timeout=30, message="the first picture never arrived")
    # The app (here over HTTP) takes one itself: the page answers with the browser's camera.
    status, answer = server.api("POST", f"/api/picker/sessions/{created['id']}/takePicture")
    assert status == 200, answer
    wait_for(driver, lambda: taken() == 2, timeout=30, message="the app's picture never arrived")
    click_by_name(driver, "Snap")
    wait_for(driver, lambda: taken() == 3, timeout=30, message="the third picture never arrived")
    click_by_name(driver, "Done")
    status, result = server.api("GET", f"/api/picker/sessions/{created['id']}?wait=30")
    assert result["status"] == "picked"
    assert len(result["results"]) == 3
