"""The camera page with Chromium's fake camera (getUserMedia, MediaRecorder)."""

import json
import re
import shutil
import tempfile
import time
import urllib.parse
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, Pick, click_by_name, make_driver, probe_duration, report_cameras, shoebox, wait_for


def test_take_a_photo_then_use_it_and_save_it(server, library, driver):
    report_cameras(driver, server)
    pick = Pick(library, "--source", "camera", "--save")
    driver.get(pick.url)
    video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-view video"))
    wait_for(driver, lambda: driver.execute_script("return arguments[0].videoWidth", video) > 0, message="the fake camera never started")
    # Issue 39 item 23: the camera page showed two Cancel buttons (the picker bar's and the
    # camera's own, beside the shutter); one is enough.
    cancels = driver.execute_script("""return [...document.querySelectorAll('button')].filter((b) =>
        b.textContent.trim() === 'Cancel' && b.getClientRects().length > 0 && getComputedStyle(b).visibility === 'visible').length""")
    assert cancels == 1, f"{cancels} Cancel buttons on the camera page"
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


def fresh_library():
    """A new, empty library no browser has ever reported its cameras to, in a folder of its own."""
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-fresh-"))
    library = folder / "Fresh.shoebox"
    assert shoebox("init", "--library", str(library)).returncode == 0
    return folder, library


def test_pick_from_the_camera_on_a_fresh_library():
    """Issue 39.11: the README's `shoebox pick --source camera` on a library no page of the app
    was ever open on (the command starts its own server): the page asks the browser for its camera."""
    folder, library = fresh_library()
    driver = make_driver()
    try:
        pick = Pick(library, "--source", "camera")
        driver.get(pick.url)
        video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-view video"),
                         message="no camera preview: " + driver.execute_script("return document.querySelector('.status')?.textContent ?? ''"))
        wait_for(driver, lambda: driver.execute_script("return arguments[0].videoWidth", video) > 0, message="the fake camera never started")
        click_by_name(driver, "Take Photo")
        click_by_name(driver, "Use Photo")
        code, infos, err = pick.result()
        assert code == 0, err
        assert infos[0]["mediaType"] == "public.image" and infos[0]["pixelWidth"] > 0
    finally:
        driver.quit()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_browser_without_a_camera_gets_a_page_that_says_so():
    """Issue 39.11: when the browser has no camera the page says so in words, offers nothing but
    Cancel, and Cancel ends the pick (exit 1, nothing picked)."""
    folder, library = fresh_library()
    driver = make_driver(cameras=0)
    try:
        pick = Pick(library, "--source", "camera")
        driver.get(pick.url)
        notice = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-unavailable[role=alert]"),
                          message="no page saying there is no camera")
        assert notice.find_element(By.TAG_NAME, "h2").text == "No Camera", notice.text
        assert "no camera" in notice.text
        assert not driver.find_elements(By.XPATH, '//button[normalize-space()="Take Photo"]'), "nothing to take a photo with"
        click_by_name(driver, "Cancel")
        code, infos, err = pick.result()
        assert code == 1 and infos is None, (code, infos, err)
    finally:
        driver.quit()
        shutil.rmtree(folder, ignore_errors=True)


def test_record_two_seconds_into_an_asset_that_plays(server, library, driver):
    report_cameras(driver, server)
    pick = Pick(library, "--source", "camera", "--media", "movie", "--save")
    driver.get(pick.url)
    video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-view video"))
    wait_for(driver, lambda: driver.execute_script("return arguments[0].videoWidth", video) > 0, message="the fake camera never started")
    started = time.monotonic()
    click_by_name(driver, "Record")
    # Two seconds on the page's recording timer (which a camera shows while it records).
    timer = lambda: driver.find_element(By.CSS_SELECTOR, '.camera-controls .recording-time[role="timer"]')
    assert re.fullmatch(r"0:0[0-2]", wait_for(driver, timer).text), timer().text
    wait_for(driver, lambda: int(timer().get_attribute("data-seconds")) >= 2, message="the recording timer did not reach 0:02")
    assert re.fullmatch(r"0:0[2-9]", timer().text), timer().text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "camera-recording.png"))
    click_by_name(driver, "Stop")
    # What was recorded lies between the timer's two seconds and the time from Record's click to
    # Stop's (longer on a loaded machine, where the clicks land late).
    longest = time.monotonic() - started + 0.6
    wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".review-media video"), timeout=60)
    click_by_name(driver, "Play")
    click_by_name(driver, "Choose")
    code, infos, err = pick.result(timeout=180)
    assert code == 0, err
    info = infos[0]
    assert info["mediaType"] == "public.movie"
    assert 1.6 < probe_duration(info["mediaURL"]) < longest, (probe_duration(info["mediaURL"]), longest)
    saved = info["savedAssetIdentifier"]
    status, detail = server.api("GET", f"/api/assets/{urllib.parse.quote(saved, safe='')}")
    assert status == 200 and detail["asset"]["mediaType"] == "video"
    assert 1.6 < detail["asset"]["duration"] < longest
    # It plays in the browser: the library serves a playable file and the video element runs it.
    driver.get(server.base + "/")
    driver.execute_script("""
        const video = document.createElement('video');
        video.id = 'check'; video.muted = true; video.src = arguments[0]; document.body.append(video); video.play();
    """, f"/api/assets/{urllib.parse.quote(saved, safe='')}/video")
    wait_for(driver, lambda: driver.execute_script("return document.getElementById('check').currentTime") > 0.5, timeout=30,
             message="the recorded asset did not play")
    duration = driver.execute_script("return document.getElementById('check').duration")
    assert 1.6 < duration < longest, (duration, longest)


def test_custom_controls_take_several_pictures(server, library, driver):
    report_cameras(driver, server)
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


def test_the_browsers_cameras_are_listed_and_its_camera_zooms(server):
    """Two fake cameras: the server learns both from the page, the picker lists them and switches,
    and the zoom slider and keys zoom the camera's own track."""
    driver = make_driver(cameras=2)
    try:
        known = report_cameras(driver, server)
        assert len(known["cameras"]) == 2 and set(known["available"]) == {"rear", "front"}, known
        status, created = server.api("POST", "/api/picker/sessions", {"sourceType": "camera"})
        assert status == 201, created
        driver.get(created["url"])
        video = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".camera-view video"))
        wait_for(driver, lambda: driver.execute_script("return arguments[0].videoWidth", video) > 0, message="the fake camera never started")
        track_id = "return document.querySelector('.camera-view video')?.srcObject?.getVideoTracks()[0]?.getSettings().deviceId"
        cameras = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'select[aria-label="Camera"]'), message="no camera list")
        options = driver.execute_script("return [...arguments[0].options].map(o => [o.value, o.textContent])", cameras)
        assert len(options) == 2 and all(label for _, label in options), options
        first = driver.execute_script(track_id)
        other = next(value for value, _ in options if value != first)
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", cameras, other)
        wait_for(driver, lambda: driver.execute_script(track_id) == other, message="the picker did not switch cameras")
        wait_for(driver, lambda: driver.execute_script(
            "return document.querySelector('.camera-view video').videoWidth") > 0, message="the second camera never started")
        # Chromium's fake camera has no zoom of its own (its track offers exposure and focus): the
        # picker zooms digitally for photos, 1x to 4x, the preview enlarged and the photo cut
        # from the frame's middle at the frame's size.
        assert "zoom" not in driver.execute_script(
            "return document.querySelector('.camera-view video').srcObject.getVideoTracks()[0].getCapabilities()")
        slider = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'input[aria-label="Zoom"]'), message="no zoom slider")
        assert (float(slider.get_attribute("min")), float(slider.get_attribute("max"))) == (1.0, 4.0)
        scale = "return document.querySelector('.camera-view video').style.transform"
        driver.execute_script("arguments[0].value = '2'; arguments[0].dispatchEvent(new Event('change'))", slider)
        wait_for(driver, lambda: driver.execute_script(scale) == "scale(2)", message="the slider did not zoom the preview")
        driver.find_element(By.TAG_NAME, "body").send_keys("+")
        wait_for(driver, lambda: driver.execute_script(scale) == "scale(2.5)", message="the + key did not zoom in")
        # Its exposure: the fake track's exposure time, set in manual mode.
        exposure = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'input[aria-label="Exposure"]'), message="no exposure slider")
        wanted = float(exposure.get_attribute("max"))
        driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'))", exposure, str(wanted))
        settings = "return document.querySelector('.camera-view video').srcObject.getVideoTracks()[0].getSettings()"
        wait_for(driver, lambda: driver.execute_script(settings).get("exposureTime") == wanted
                 and driver.execute_script(settings).get("exposureMode") == "manual", message="the exposure slider did not set the track")
        # A photo at 2.5x is the frame's size.
        width, height = driver.execute_script("const v = document.querySelector('.camera-view video'); return [v.videoWidth, v.videoHeight]")
        click_by_name(driver, "Take Photo")
        wait_for(driver, lambda: driver.execute_script(
            "const i = document.querySelector('.review:not([hidden]) .review-media img'); return !!i && i.naturalWidth > 0"),
            message="the zoomed photo never showed")
        assert driver.execute_script("const i = document.querySelector('.review-media img'); return [i.naturalWidth, i.naturalHeight]") == [width, height]
        status, _ = server.api("DELETE", f"/api/picker/sessions/{created['id']}")
        assert status in (200, 204)
    finally:
        driver.quit()


def test_a_capture_device_zooms_from_the_picker(server, driver):
    """The server's synthetic camera: the picker's slider and keys zoom the device itself."""
    status, created = server.api("POST", "/api/picker/sessions", {"sourceType": "camera", "camera": {"source": "captureDevice"}})
    assert status == 201, created
    driver.get(created["url"])
    wait_for(driver, lambda: driver.execute_script(
        "const i = document.querySelector('.camera-view img'); return !!i && i.naturalWidth > 0"), message="no preview from the synthetic camera")
    slider = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'input[aria-label="Zoom"]'), message="no zoom slider")
    assert (float(slider.get_attribute("min")), float(slider.get_attribute("max"))) == (1.0, 8.0)
    def factor():
        status, state = server.api("GET", f"/api/picker/sessions/{created['id']}/ui")
        return state["zoom"]["factor"] if status == 200 else None
    driver.find_element(By.TAG_NAME, "body").send_keys("+")
    wait_for(driver, lambda: factor() == 1.25, message="the + key did not zoom the camera")
    driver.execute_script("arguments[0].value = '4'; arguments[0].dispatchEvent(new Event('change'))", slider)
    wait_for(driver, lambda: factor() == 4, message="the slider did not zoom the camera")
    status, answer = server.api("POST", f"/api/picker/sessions/{created['id']}/ui/camera/settings", {"zoom": 9})
    assert status == 400 and "outside" in json.dumps(answer), answer
    # The exposure bias, −3…3 EV on the synthetic camera.
    exposure = wait_for(driver, lambda: driver.find_element(By.CSS_SELECTOR, 'input[aria-label="Exposure"]'), message="no exposure slider")
    assert (float(exposure.get_attribute("min")), float(exposure.get_attribute("max"))) == (-3.0, 3.0)
    driver.execute_script("arguments[0].value = '-1'; arguments[0].dispatchEvent(new Event('change'))", exposure)
    wait_for(driver, lambda: server.api("GET", f"/api/picker/sessions/{created['id']}/ui")[1]["exposure"]["bias"] == -1,
             message="the exposure slider did not bias the camera")
    server.api("DELETE", f"/api/picker/sessions/{created['id']}")
