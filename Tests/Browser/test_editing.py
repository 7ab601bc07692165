"""Editing in the browser (issue 19 item 4): crop with a ratio, straighten, light and a filter
previewed live on a canvas, saved as adjustments the library renders at full size from the
original — the render matches the preview — then continued and reverted; a movie trimmed."""

import tempfile
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from selenium.webdriver.common.action_chains import ActionChains

from conftest import RETRIED, asset_path, bench, click_settled, make_driver, make_movie, make_phone_driver, serve_imported, wait_for


@pytest.fixture(scope="module")
def editing_server():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-editing-"))
    inputs = folder / "inputs"
    bench("generate", str(inputs), "--count", "2", "--width", "1200", "--height", "900")
    make_movie(inputs / "clip.mp4", seconds=4)
    yield from serve_imported(folder, inputs, "Editing.shoebox")


def assets(server):
    status, page = server.api("GET", "/api/assets?limit=10")
    assert status == 200
    return page["assets"]


def open_viewer(browser, server, asset):
    """Signs in with the key, then opens the asset's own URL."""
    browser.get(server.user_url)
    wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".cell img"), message="the grid did not load")
    browser.get(server.user_url.split("#")[0].split("?")[0] + "#/photo/" + urllib.parse.quote(asset["localIdentifier"], safe=""))
    wait_for(browser, lambda: browser.execute_script("return document.querySelector('dialog.viewer').open"), message="the viewer did not open")


def open_editor(browser):
    wait_for(browser, lambda: click_settled(browser, 'dialog.viewer button[aria-label="Edit"]'))
    wait_for(browser, lambda: browser.execute_script(
        "return Number(document.querySelector('dialog.editor').dataset.previewReady || 0) > 0"), message="the editor drew no preview")


def set_slider(browser, label, value):
    browser.execute_script("""
        const input = document.querySelector(`dialog.editor input[aria-label="${arguments[0]}"]`);
        input.value = String(arguments[1]);
        input.dispatchEvent(new Event('input'));""", label, value)


def preview_drawn(browser, before):
    return browser.execute_script("return Number(document.querySelector('dialog.editor').dataset.previewReady || 0)") > before


def draws(browser):
    return browser.execute_script("return Number(document.querySelector('dialog.editor').dataset.previewReady || 0)")


# The preview's pixels, kept in the page for COMPARE_AFTER (the canvas goes with the editor).
KEEP_PREVIEW = """
const canvas = document.querySelector('dialog.editor .editor-canvas');
window.__previewSize = [canvas.width, canvas.height];
window.__previewPixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
"""

# The kept preview against two images drawn at its size: the mean difference per channel (0…255).
COMPARE_AFTER = """
const done = arguments[arguments.length - 1];
const [renderURL, originalURL] = arguments;
const [width, height] = window.__previewSize;
const preview = window.__previewPixels;
const pixels = async (url) => {
  const bitmap = await createImageBitmap(await (await fetch(url)).blob());
  const out = new OffscreenCanvas(width, height);
  const context = out.getContext('2d');
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  return context.getImageData(0, 0, width, height).data;
};
const meanDifference = (a, b) => {
  let sum = 0, count = 0;
  for (let i = 0; i < a.length; i += 4) { for (let c = 0; c < 3; c += 1) { sum += Math.abs(a[i + c] - b[i + c]); count += 1; } }
  return sum / count;
};
Promise.all([pixels(renderURL), pixels(originalURL)])
  .then(([render, original]) => done({ render: meanDifference(preview, render), original: meanDifference(preview, original) }))
  .catch((error) => done({ error: String(error) }));
"""


def test_photo_edit_previews_what_is_rendered_and_reverts(editing_server):
    photo = next(asset for asset in assets(editing_server) if asset["mediaType"] == "image")
    path = asset_path(photo["localIdentifier"])
    browser = make_driver()
    try:
        open_viewer(browser, editing_server, photo)
        open_editor(browser)
        # Crop: square, straightened 6° clockwise.
        before = draws(browser)
        wait_for(browser, lambda: click_settled(browser, 'dialog.editor button[data-aspect="square"]'))
        set_slider(browser, "Straighten", 6)
        wait_for(browser, lambda: preview_drawn(browser, before))
        crop = browser.execute_script("return document.querySelector('dialog.editor .editor-crop').getBoundingClientRect().toJSON()")
        assert abs(crop["width"] - crop["height"]) <= 2, f"a square crop drew as {crop['width']}×{crop['height']}"
        # Light, then a filter.
        wait_for(browser, lambda: click_settled(browser, "#editor-tab-adjust"))
        before = draws(browser)
        for label, value in [("Exposure", 0.5), ("Contrast", 0.3), ("Shadows", 0.4), ("Warmth", 0.6), ("Saturation", -0.2)]:
            set_slider(browser, label, value)
        wait_for(browser, lambda: preview_drawn(browser, before))
        wait_for(browser, lambda: click_settled(browser, "#editor-tab-filters"))
        before = draws(browser)
        wait_for(browser, lambda: click_settled(browser, '.filter-choice[data-filter="vivid"]'))
        wait_for(browser, lambda: preview_drawn(browser, before)
                 and browser.find_element(By.CSS_SELECTOR, '.filter-choice[data-filter="vivid"]').get_attribute("aria-pressed") == "true")
        browser.execute_script(KEEP_PREVIEW)
        browser.save_screenshot(str(Path(tempfile.gettempdir()) / "shoebox-editor-desktop.png"))

        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-bar .button.primary"))
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"), message="Save did not close the editor")
        status, state = editing_server.api("GET", f"{path}/adjustments")
        assert status == 200
        saved = state["adjustments"]
        assert saved["straighten"] == 6 and saved["filter"] == "vivid"
        assert saved["light"] == {"exposure": 0.5, "contrast": 0.3, "shadows": 0.4, "warmth": 0.6, "saturation": -0.2}
        crop = saved["crop"]
        status, edited = editing_server.api("GET", path)
        edited = edited["asset"]
        assert edited["hasAdjustments"] and abs(edited["pixelWidth"] - edited["pixelHeight"]) <= 1, edited

        # What the library rendered at full size is what the preview showed (JPEG and resampling
        # apart), and far from the unedited original.
        size = max(browser.execute_script("return window.__previewSize"))
        render_url = f"{path}/thumbnail?size={size}&mode=fit&v={edited['version']}"
        original_url = f"{path}/thumbnail?size={size}&mode=fit&version=original&crop={crop['x']},{crop['y']},{crop['width']},{crop['height']}"
        differences = browser.execute_async_script(COMPARE_AFTER, render_url, original_url)
        assert "error" not in differences, differences
        assert differences["render"] < 5, f"the render differs from the preview by {differences['render']:.1f} levels on average"
        assert differences["original"] > 3 * differences["render"], differences

        # The viewer shows the edit; the editor continues it (sliders where they were), and Revert
        # to Original brings the photo back.
        wait_for(browser, lambda: f"v={edited['version']}" in browser.find_element(By.CSS_SELECTOR, "dialog.viewer .viewer-stage img").get_attribute("src"))
        open_editor(browser)
        wait_for(browser, lambda: click_settled(browser, "#editor-tab-adjust"))
        assert browser.find_element(By.CSS_SELECTOR, 'dialog.editor input[aria-label="Warmth"]').get_attribute("value") == "0.6"
        assert browser.find_element(By.CSS_SELECTOR, 'dialog.editor input[aria-label="Straighten"]').get_attribute("value") == "6"
        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-revert"))
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"))
        status, reverted = editing_server.api("GET", path)
        assert not reverted["asset"]["hasAdjustments"] and reverted["asset"]["pixelWidth"] == 1200 and reverted["asset"]["pixelHeight"] == 900
        assert editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"] is None
    finally:
        browser.quit()


def test_cancel_changes_nothing_and_rotate_flip_crop(editing_server):
    photo = [asset for asset in assets(editing_server) if asset["mediaType"] == "image"][1]
    path = asset_path(photo["localIdentifier"])
    browser = make_driver()
    try:
        open_viewer(browser, editing_server, photo)
        open_editor(browser)
        set_slider(browser, "Exposure", 1)
        browser.find_element(By.CSS_SELECTOR, "dialog.editor").send_keys("\ue00c")  # Escape
        # Something changed: Escape asks before discarding it, as Cancel does.
        wait_for(browser, lambda: click_settled(browser, 'dialog.ask-dialog[open] button[value="confirm"]'), message="Escape did not ask")
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"), message="Escape did not cancel")
        assert editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"] is None

        # Rotate left, flip, and drag the crop's right edge in by a quarter; the crop follows the keyboard too.
        open_editor(browser)
        wait_for(browser, lambda: click_settled(browser, 'dialog.editor button[aria-label="Rotate left"]'))
        wait_for(browser, lambda: click_settled(browser, 'dialog.editor button[aria-label="Flip"]'))
        box = browser.execute_script("return document.querySelector('dialog.editor .editor-canvas').getBoundingClientRect().toJSON()")
        assert box["height"] > box["width"], "a quarter turn makes the landscape photo portrait"
        handle = browser.find_element(By.CSS_SELECTOR, "dialog.editor .crop-handle.e")
        ActionChains(browser).click_and_hold(handle).move_by_offset(-box["width"] / 4, 0).release().perform()
        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-bar .button.primary"))
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"))
        saved = editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"]
        assert saved["rotation"] == 270 and saved["flip"] is True
        assert abs(saved["crop"]["width"] - 0.75) < 0.03 and saved["crop"]["x"] == 0 and saved["crop"]["height"] == 1, saved
        edited = editing_server.api("GET", path)[1]["asset"]
        assert edited["pixelHeight"] == 1200 and abs(edited["pixelWidth"] - 900 * saved["crop"]["width"]) <= 1, edited
    finally:
        browser.quit()


def click_settled_xpath(browser, xpath):
    try:
        browser.find_element(By.XPATH, xpath).click()
        return True
    except RETRIED:
        return False


def editor_open(browser):
    return browser.execute_script("return document.querySelector('dialog.editor').open")


def test_cancel_asks_before_discarding_changes_only_when_there_are_some(editing_server):
    # Issue 39 item 4: as Photos asks "Discard Changes?", and only when something changed.
    photo = [asset for asset in assets(editing_server) if asset["mediaType"] == "image"][0]
    path = asset_path(photo["localIdentifier"])
    before = editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"]
    browser = make_driver()
    try:
        open_viewer(browser, editing_server, photo)
        open_editor(browser)
        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-bar button:first-child"))  # Cancel, nothing changed
        wait_for(browser, lambda: not editor_open(browser), message="Cancel with no changes did not close the editor")
        assert not browser.find_elements(By.CSS_SELECTOR, "dialog.ask-dialog"), "Cancel asked with nothing to discard"

        open_editor(browser)
        set_slider(browser, "Exposure", 0.8)
        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-bar button:first-child"))
        question = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"), message="Cancel did not ask")
        assert "Discard Changes?" in question.text, question.text
        buttons = [button.text for button in question.find_elements(By.CSS_SELECTOR, "button")]
        assert buttons == ["Discard Changes", "Keep Editing"], buttons
        question.find_element(By.XPATH, './/button[normalize-space()="Keep Editing"]').click()
        wait_for(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, "dialog.ask-dialog"))
        assert editor_open(browser), "Keep Editing closed the editor"
        assert browser.execute_script("return document.querySelector('dialog.editor input[aria-label=\"Exposure\"]').value") == "0.8"

        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-bar button:first-child"))
        wait_for(browser, lambda: click_settled(browser, 'dialog.ask-dialog[open] button[value="confirm"]'))
        wait_for(browser, lambda: not editor_open(browser), message="Discard Changes did not close the editor")
        assert editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"] == before, "a discarded edit was saved"
    finally:
        browser.quit()


def test_movie_trim_and_phone_editor(editing_server):
    movie = next(asset for asset in assets(editing_server) if asset["mediaType"] == "video")
    path = asset_path(movie["localIdentifier"])
    browser = make_driver()
    try:
        open_viewer(browser, editing_server, movie)
        wait_for(browser, lambda: click_settled(browser, 'dialog.viewer button[aria-label="Edit"]'))
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "dialog.editor .trim-video"), message="no trimmer for the movie")
        set_slider(browser, "Start", 1)
        set_slider(browser, "End", 3)
        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-controls .button.primary"))
        wait_for(browser, lambda: editing_server.api("GET", path)[1]["asset"]["hasAdjustments"], message="the trim was not saved")
        edited = editing_server.api("GET", path)[1]["asset"]
        assert abs(edited["duration"] - 2) < 0.15, edited
        assert editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"]["trim"] == {"start": 1, "end": 3}
        # Trimmed again, the trimmer plays the whole original (4 s), starting from the cut as saved.
        open_viewer(browser, editing_server, edited)
        wait_for(browser, lambda: click_settled(browser, 'dialog.viewer button[aria-label="Edit"]'))
        wait_for(browser, lambda: (browser.execute_script(
            "const v = document.querySelector('dialog.editor .trim-video'); return v && v.readyState >= 1 ? v.duration : 0") or 0) > 3.8,
            message="the trimmer does not play the original")
        assert browser.find_element(By.CSS_SELECTOR, 'dialog.editor input[aria-label="Start"]').get_attribute("value") == "1"
        # Escape leaves the trimmer and changes nothing; Edit opens it again.
        browser.find_element(By.CSS_SELECTOR, "dialog.editor").send_keys("\ue00c")
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"), message="Escape did not close the trimmer")
        assert editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"]["trim"] == {"start": 1, "end": 3}
        wait_for(browser, lambda: click_settled(browser, 'dialog.viewer button[aria-label="Edit"]'))
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "dialog.editor[open] .trim-video"), message="Edit did not open the trimmer again")
        # Issue 39 item 4: a changed trim is dropped only when the person says so, from Cancel and
        # from Escape alike, as Photos asks.
        set_slider(browser, "Start", 0.5)
        wait_for(browser, lambda: click_settled_xpath(browser, "//dialog[contains(@class, 'editor')]//div[contains(@class, 'editor-controls')]//button[normalize-space()='Cancel']"))
        question = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"), message="Cancel dropped a changed trim without asking")
        assert "Discard Changes?" in question.text, question.text
        question.find_element(By.XPATH, './/button[normalize-space()="Keep Editing"]').click()
        wait_for(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, "dialog.ask-dialog[open]"))
        assert browser.execute_script("return document.querySelector('dialog.editor').open"), "Keep Editing closed the trimmer"
        assert browser.find_element(By.CSS_SELECTOR, 'dialog.editor input[aria-label="Start"]').get_attribute("value") == "0.5"
        browser.find_element(By.CSS_SELECTOR, "dialog.editor").send_keys("\ue00c")
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.ask-dialog[open]"), message="Escape dropped a changed trim without asking")
        assert browser.execute_script("return document.querySelector('dialog.editor').open"), "Escape closed the trimmer before the answer"
        wait_for(browser, lambda: click_settled(browser, 'dialog.ask-dialog[open] button[value="confirm"]'))
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"), message="Discard Changes did not close the trimmer")
        assert editing_server.api("GET", f"{path}/adjustments")[1]["adjustments"]["trim"] == {"start": 1, "end": 3}, "a discarded trim was saved"
    finally:
        browser.quit()

    photo = next(asset for asset in assets(editing_server) if asset["mediaType"] == "image")
    phone = make_phone_driver()
    try:
        open_viewer(phone, editing_server, photo)
        open_editor(phone)
        layout = phone.execute_script("""
            const rect = (selector) => document.querySelector(selector).getBoundingClientRect().toJSON();
            return { stage: rect('dialog.editor .editor-stage'), tools: rect('dialog.editor .editor-tools'), save: rect('dialog.editor .editor-bar .button.primary'),
                     width: window.innerWidth, height: window.innerHeight };""")
        assert layout["tools"]["top"] >= layout["stage"]["bottom"] - 1, "on a phone the tools sit under the photo"
        assert layout["save"]["right"] <= layout["width"] and layout["tools"]["bottom"] <= layout["height"] + 1, layout
        phone.save_screenshot(str(Path(tempfile.gettempdir()) / "shoebox-editor-phone.png"))
    finally:
        phone.quit()


VIDEO_DURATION = "const v = document.querySelector('dialog.viewer video'); return v && v.readyState >= 1 ? v.duration : 0"


def test_movie_trim_says_it_works_then_plays_the_trim_and_reverts(editing_server):
    # Issue 39 item 13: the trimmer said nothing while the trim was made, the viewer went on
    # playing the untrimmed movie, and a trimmed movie had no Revert to Original.
    movie = next(asset for asset in assets(editing_server) if asset["mediaType"] == "video")
    path = asset_path(movie["localIdentifier"])
    editing_server.api("DELETE", f"{path}/adjustments")  # whatever an earlier test left
    movie = editing_server.api("GET", path)[1]["asset"]
    browser = make_driver()
    try:
        open_viewer(browser, editing_server, movie)
        wait_for(browser, lambda: (browser.execute_script(VIDEO_DURATION) or 0) > 3.8, message="the viewer does not play the movie")
        wait_for(browser, lambda: click_settled(browser, 'dialog.viewer button[aria-label="Edit"]'))
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "dialog.editor .trim-video"), message="no trimmer for the movie")
        assert not browser.find_elements(By.XPATH, '//dialog[contains(@class, "editor")]//button[normalize-space()="Revert to Original"]'), \
            "an unedited movie offers Revert"
        set_slider(browser, "Start", 1)
        set_slider(browser, "End", 3)
        # What the trimmer says while the trim is made, as it says it.
        browser.execute_script("""
            window.__trimSaid = [];
            const dialog = document.querySelector('dialog.editor');
            new MutationObserver(() => window.__trimSaid.push((dialog.open ? 'open: ' : 'closed: ') + (dialog.querySelector('.trim-status')?.textContent ?? '')))
              .observe(dialog, { subtree: true, childList: true, characterData: true, attributes: true });""")
        wait_for(browser, lambda: click_settled(browser, "dialog.editor .editor-controls .button.primary"))
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"), timeout=60,
                 message="the trimmer did not close")
        said = browser.execute_script("return window.__trimSaid")
        assert any(line.startswith("open: ") and "Trimming" in line for line in said), f"the trimmer never said it was trimming: {said}"
        assert editing_server.api("GET", path)[1]["asset"]["hasAdjustments"], "the trim was not saved"
        # The viewer plays the trimmed movie at once.
        wait_for(browser, lambda: 0 < (browser.execute_script(VIDEO_DURATION) or 0) < 2.5, timeout=30,
                 message=f"the viewer plays a {browser.execute_script(VIDEO_DURATION)} s movie, not the 2 s trim")
        # Revert to Original, from the trimmer.
        wait_for(browser, lambda: click_settled(browser, 'dialog.viewer button[aria-label="Edit"]'))
        revert = wait_for(browser, lambda: browser.find_element(By.XPATH, '//dialog[contains(@class, "editor")]//button[normalize-space()="Revert to Original"]'),
                          message="a trimmed movie offers no Revert to Original")
        revert.click()
        wait_for(browser, lambda: not browser.execute_script("return document.querySelector('dialog.editor').open"), timeout=60,
                 message="the trimmer did not close after reverting")
        assert not editing_server.api("GET", path)[1]["asset"]["hasAdjustments"], "the movie was not reverted"
        wait_for(browser, lambda: (browser.execute_script(VIDEO_DURATION) or 0) > 3.8, timeout=30,
                 message="the viewer does not play the original again")
    finally:
        browser.quit()


def test_the_crop_box_names_its_size_as_the_photo_is_turned(editing_server):
    # Issue 39 item 23: the crop's text kept the unturned sides after a quarter turn.
    photo = next(asset for asset in assets(editing_server) if asset["mediaType"] == "image")
    browser = make_driver()
    try:
        open_viewer(browser, editing_server, photo)
        open_editor(browser)
        text = lambda: browser.find_element(By.CSS_SELECTOR, "dialog.editor .editor-crop").get_attribute("aria-valuetext")
        wait_for(browser, lambda: "1200 × 900" in text(), message=f"the crop says {text()!r}")
        drawn = draws(browser)
        browser.find_element(By.CSS_SELECTOR, 'dialog.editor button[aria-label="Rotate right"]').click()
        wait_for(browser, lambda: preview_drawn(browser, drawn))
        wait_for(browser, lambda: "900 × 1200" in text(), message=f"after a quarter turn the crop says {text()!r}")
        browser.find_element(By.CSS_SELECTOR, "dialog.editor").send_keys("\ue00c")
    finally:
        browser.quit()


def test_a_small_photo_is_not_blown_up_in_the_editor():
    # Issue 39 item 23: the editor stretched a small photo to the stage and blurred it; the viewer
    # shows it at its own size, and so does the editor now (one photo pixel per CSS pixel at most).
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-small-"))
    inputs = folder / "inputs"
    bench("generate", str(inputs), "--count", "1", "--width", "240", "--height", "160")
    for server in serve_imported(folder, inputs, "Small.shoebox"):
        photo = assets(server)[0]
        browser = make_driver()
        try:
            open_viewer(browser, server, photo)
            open_editor(browser)
            size = lambda: browser.execute_script(
                "const r = document.querySelector('dialog.editor canvas').getBoundingClientRect(); return [r.width, r.height]")
            width, height = size()
            assert abs(width - 240) < 1 and abs(height - 160) < 1, f"the 240 × 160 photo is drawn {width} × {height}"
            browser.find_element(By.CSS_SELECTOR, "dialog.editor").send_keys("\ue00c")
        finally:
            browser.quit()
