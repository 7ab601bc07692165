"""The web app in headless Firefox (Marionette, see firefox.py): the library grid on a few hundred
assets, keyboard operation of the grid and the viewer, a picker session, authorization prompts
and the camera with Firefox's fake camera.

One Firefox and one `shoebox serve` (on its own library, started as the Chromium tests start
theirs) serve the whole module; every test begins by loading the page it needs.
"""

import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import OPEN_BROWSERS, Server, ask, asset_path, bench, is_favorite, register, report_cameras
from firefox import By, Firefox, Keys

ASSETS = 300


@pytest.fixture(scope="module")
def ff_library():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-firefox-library-"))
    path = folder / "Firefox.shoebox"
    bench("populate", str(path), "--count", str(ASSETS), "--originals", "6")
    yield path
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def ff_server(ff_library):
    running = Server(ff_library, extra=["--synthetic-camera"])
    yield running
    running.stop()


@pytest.fixture(scope="module")
def ff_browser(ff_server):
    browser = Firefox()
    try:
        yield browser
    finally:
        # Ended here, before the module's server stops (not after the next module's first test,
        # as a quit() would): the last test's report has taken its screenshot already.
        if browser in OPEN_BROWSERS:
            OPEN_BROWSERS.remove(browser)
        browser.really_quit()


@pytest.fixture
def firefox(ff_server, ff_browser):
    """The module's Firefox, signed in and on the library page."""
    ff_browser.mark_log()
    ff_browser.get(ff_server.user_url)  # signs in (the key's cookie)
    # Settled before the test goes on: leaving a page mid-load makes Firefox (not Chromium) log its
    # aborted fetches as uncaught errors, which assert_no_page_errors would blame on the app.
    ff_browser.wait_for(lambda: ff_browser.js("return window.shoebox?.firstRowPaintedAt ?? null") is not None,
                        message="the library page never painted its first row")
    return ff_browser






def loaded_visible_thumbnails(browser):
    return browser.js("""
        const grid = document.querySelector('#photos');
        const box = grid.getBoundingClientRect();
        return [...grid.querySelectorAll('.cell img')].filter((img) => {
            const r = img.getBoundingClientRect();
            return r.bottom > box.top && r.top < box.bottom && img.complete && img.naturalWidth > 0;
        }).length;""")


def assert_no_page_errors(browser):
    """The page logged no error and threw nothing uncaught during the test (Firefox's console)."""
    # Firefox reports a fetch its own navigation aborted (a page left while a load was in flight, as
    # the tests' `get` does on a loaded machine) as an error with no script and line 0: the
    # browser's report, not a script's; an error a script threw names its file and line.
    errors = [entry["message"] for entry in browser.get_log("browser")
              if entry["level"] == "SEVERE" and not entry["message"].startswith("JavaScript error: , line 0: AbortError")]
    assert not errors, f"errors in Firefox's console: {errors}"


def cell_id(browser, index):
    return browser.wait_for(lambda: browser.find(f'#photos .cell[data-index="{index}"]').get_attribute("data-id"),
                            message=f"no cell {index}")


def active_index(browser):
    return browser.js("const c = document.querySelector('#photos .cell.active'); return c ? Number(c.dataset.index) : null")


def viewer_shows(browser, identifier):
    """Whether the open viewer shows `identifier` (its image is that asset's)."""
    return browser.js("""
        const img = document.querySelector('dialog.viewer[open] .viewer-stage img');
        return !!img && img.getAttribute('src').startsWith(`/api/assets/${encodeURIComponent(arguments[0])}/`)""", identifier)


def test_firefox_grid_loads_thumbnails_with_a_small_dom(firefox):
    browser = firefox
    browser.wait_for(lambda: f"{ASSETS} items" in browser.find(".view-count").text, message="the count of the library")
    visible = browser.wait_for(lambda: (lambda n: n if n >= 12 else 0)(loaded_visible_thumbnails(browser)),
                               message="the visible thumbnails did not load")
    sizes = browser.js("return [...document.querySelectorAll('#photos .cell img')].filter((i) => i.complete).map((i) => i.naturalWidth)")
    assert len(sizes) >= visible and min(sizes) > 0, f"broken thumbnails: {sizes}"
    cells = browser.js("return document.querySelectorAll('#photos .cell').length")
    assert 0 < cells < ASSETS / 2, f"{cells} cells in the DOM for {ASSETS} assets"
    assert browser.js("return window.shoebox.renderedCells()") == cells
    height = browser.js("return document.querySelector('#photos').scrollHeight")
    client = browser.js("return document.querySelector('#photos').clientHeight")
    assert height > 3 * client, "the grid is as tall as all the assets"
    # Scrolled to the end, the last assets come in and the first ones leave.
    browser.js("const g = document.querySelector('#photos'); g.scrollTop = g.scrollHeight")
    browser.wait_for(lambda: browser.js(
        "return [...document.querySelectorAll('#photos .cell')].some((c) => Number(c.dataset.index) === arguments[0] && c.querySelector('img'))",
        ASSETS - 1), message="the last asset never rendered")
    browser.wait_for(lambda: loaded_visible_thumbnails(browser) >= 6, message="no thumbnails at the end")
    indexes = browser.js("return [...document.querySelectorAll('#photos .cell')].map((c) => Number(c.dataset.index))")
    assert min(indexes) > 0 and len(indexes) < ASSETS / 2, "the first cells left the DOM"
    assert_no_page_errors(browser)

def test_firefox_keyboard_grid_viewer_and_favorite(firefox, ff_server):
    browser, server = firefox, ff_server
    grid = browser.find('[role="listbox"][aria-label="Photos"]')
    assert grid.computed_role == "listbox" and grid.computed_label == "Photos", "Firefox's accessibility tree names the grid"
    browser.wait_for(lambda: loaded_visible_thumbnails(browser) >= 6, message="the thumbnails did not load")
    columns = browser.js("return window.shoebox.grid.columns")
    assert columns > 2
    grid.send_keys(Keys.HOME)  # focuses the grid, then types there; from here on keys go where the focus is
    assert browser.active_element_id() == "photos", "the grid has the focus"
    browser.wait_for(lambda: active_index(browser) == 0, message="Home did not make the first cell active")
    browser.press(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    browser.wait_for(lambda: active_index(browser) == 2, message="→ → did not move to the third cell")
    browser.press(Keys.ARROW_DOWN)
    browser.wait_for(lambda: active_index(browser) == 2 + columns, message="↓ did not move a row down")
    browser.press(Keys.ARROW_LEFT, Keys.ARROW_UP)
    browser.wait_for(lambda: active_index(browser) == 1, message="← ↑ did not come back to the second cell")
    assert grid.get_attribute("aria-activedescendant") == "cell-photos-1"

    first, second = cell_id(browser, 1), cell_id(browser, 2)
    browser.press(Keys.ENTER)
    viewer = browser.wait_for(lambda: browser.find("dialog.viewer[open]"), message="Enter did not open the viewer")
    browser.wait_for(lambda: viewer_shows(browser, first), message="the viewer did not open the active photo")
    image = browser.find(".viewer-stage img", viewer)
    browser.wait_for(lambda: image.get_property("naturalWidth") > 0, message="the viewer's photo did not load")
    browser.press(Keys.ARROW_RIGHT)
    browser.wait_for(lambda: viewer_shows(browser, second), message="→ in the viewer did not go to the next photo")
    browser.press(Keys.ARROW_LEFT)
    browser.wait_for(lambda: viewer_shows(browser, first), message="← in the viewer did not go back")
    browser.press(Keys.ARROW_RIGHT)
    browser.wait_for(lambda: viewer_shows(browser, second))

    # Favorite: pressed by keyboard (Space on the focused button), then clicked; the server agrees.
    start = is_favorite(server, second)
    state = lambda favorite: "true" if favorite else "false"
    favorite = browser.by_name("Favorite")
    assert favorite.get_attribute("aria-pressed") == state(start), "the button shows the asset's state"
    favorite.send_keys(" ")
    browser.wait_for(lambda: browser.by_name("Favorite").get_attribute("aria-pressed") == state(not start),
                     message="Space on Favorite did not toggle it")
    browser.wait_for(lambda: is_favorite(server, second) == (not start), message="the favorite did not reach the library")
    browser.wait_for(lambda: f"Favorites, {1 if not start else 0}" in
                     [link.get_attribute("aria-label") for link in browser.find_all(".album-link")],
                     message="the sidebar's Favorites count did not follow")
    browser.by_name("Favorite").click()
    browser.wait_for(lambda: browser.by_name("Favorite").get_attribute("aria-pressed") == state(start),
                     message="the click on Favorite did not toggle it back")
    browser.wait_for(lambda: is_favorite(server, second) == start, message="the second toggle did not reach the library")
    # The other controls of the viewer bar are there by name.
    assert browser.by_name("Delete") and browser.by_name("Info") and browser.by_name("Close")

    browser.press(Keys.ESCAPE)
    browser.wait_for(lambda: not browser.find_all("dialog.viewer[open]"), message="Escape did not close the viewer")
    browser.wait_for(lambda: browser.active_element_id() == "photos", message="the focus did not return to the grid")
    browser.wait_for(lambda: active_index(browser) == 2, message="the grid's active cell is not the last photo viewed")
    assert browser.by_name("Import")
    assert_no_page_errors(browser)

def test_firefox_picker_session_choose(firefox, ff_server):
    browser, server = firefox, ff_server
    # A limit of 2: with 1 (and no editing) the click would pick at once, leaving no preview to see.
    status, created = server.api("POST", "/api/picker/sessions", {"mediaTypes": ["public.image"], "configuration": {"selectionLimit": 2}})
    assert status == 201, created
    browser.get(created["url"])
    browser.wait_for(lambda: "Recents" in browser.find('nav[aria-label="Albums"]').text, message="the albums pane never listed Recents")
    chosen = browser.wait_for(lambda: browser.find('.grid .cell[data-index="1"] img').find_element(By.XPATH, ".."), message="no cell 1")
    identifier = chosen.get_attribute("data-id")
    assert identifier
    chosen.click()
    browser.wait_for(lambda: "1 of 2 selected" in browser.find(".limit-text").text, message="the click did not select the photo")
    status, detail = server.api("GET", asset_path(identifier))
    assert status == 200
    expected = f"{detail['asset']['pixelWidth']} x {detail['asset']['pixelHeight']}"
    browser.wait_for(lambda: browser.find(".size-label").text == expected, message=f"the preview's size is not {expected}")
    preview = browser.wait_for(lambda: browser.find(".preview-media img"))
    browser.wait_for(lambda: preview.get_property("naturalWidth") > 0, message="the preview never loaded")
    browser.by_name("Choose").click()
    status, result = server.api("GET", f"/api/picker/sessions/{created['id']}?wait=30")
    assert status == 200 and result["status"] == "picked", result
    assert [item["info"]["localIdentifier"] for item in result["results"]] == [identifier]
    item = result["results"][0]
    assert item["info"]["mediaType"] == "public.image"
    status, image = server.api("GET", item["files"]["image"])
    _, original = server.api("GET", asset_path(identifier) + "/original")
    assert status == 200 and image == original, "the session delivers the chosen photo's bytes"
    browser.wait_for(lambda: browser.find(".finished-title").text == "Done", message="the page did not show it finished")
    assert_no_page_errors(browser)

def test_firefox_authorization_prompts_allow_and_deny(firefox, ff_server):
    browser, server = firefox, ff_server
    token = register(server, "com.example.firefox", {"NSPhotoLibraryUsageDescription": "To frame your photos in Firefox",
                                                     "NSCameraUsageDescription": "To take your portrait in Firefox"})
    assert server.api("GET", "/api/assets?limit=1", token=token)[0] == 403, "no access before the answer"
    browser.wait_for(lambda: browser.js("return window.shoebox.state.events?.readyState") == 1,
                     message="the page did not subscribe to /api/events")
    answers = []
    thread = threading.Thread(target=ask, args=(server, token, "photoLibrary", answers))
    thread.start()
    try:
        dialog = browser.wait_for(lambda: browser.find("dialog.prompt-dialog[open]"), message="no prompt for the photos")
        browser.wait_for(lambda: "To frame your photos in Firefox" in dialog.text)
        assert "Firefox" in dialog.text and browser.by_name("Select Photos")
        browser.by_name("Allow").click()
    finally:
        thread.join(timeout=30)
    assert answers and answers[0][0] == 200 and answers[0][1]["status"] == "authorized", answers
    browser.wait_for(lambda: not browser.find_all("dialog.prompt-dialog[open]"), message="the prompt stayed open")
    assert server.api("GET", "/api/assets?limit=1", token=token)[0] == 200, "Allow gave access"

    answers.clear()
    thread = threading.Thread(target=ask, args=(server, token, "camera", answers))
    thread.start()
    try:
        dialog = browser.wait_for(lambda: "take your portrait in Firefox" in browser.find("dialog.prompt-dialog[open]").text
                                  and browser.find("dialog.prompt-dialog[open]"), message="no prompt for the camera")
        assert not [b for b in browser.find_all("button", dialog) if b.get_attribute("aria-label") == "Select Photos"]
        browser.by_name("Don't Allow").click()
    finally:
        thread.join(timeout=30)
    assert answers and answers[0][1]["status"] == "denied", answers
    status, client = server.api("GET", "/api/clients/com.example.firefox")
    assert status == 200, client
    status, created = server.api("POST", "/api/picker/sessions", {"sourceType": "camera"}, token=token)
    assert status == 403, f"a camera session for a client denied the camera: {status} {created}"
    assert_no_page_errors(browser)

def test_firefox_fake_camera_take_and_use_photo(firefox, ff_server):
    browser, server = firefox, ff_server
    report_cameras(browser, server)
    status, created = server.api("POST", "/api/picker/sessions", {"sourceType": "camera"})
    assert status == 201, created
    browser.get(created["url"])
    video = browser.wait_for(lambda: browser.find(".camera-view video"),
                             message="no camera preview: " + browser.js("return document.querySelector('.status')?.textContent ?? ''"))
    browser.wait_for(lambda: browser.js("return arguments[0].videoWidth", video) > 0, timeout=30,
                     message="Firefox's fake camera never started")
    width, height = browser.js("return [arguments[0].videoWidth, arguments[0].videoHeight]", video)
    reviewed = lambda: browser.js(
        "const i = document.querySelector('.review:not([hidden]) .review-media img'); return !!i && i.complete && i.naturalWidth > 0")
    browser.by_name("Take Photo").click()
    browser.wait_for(reviewed, timeout=30, message="the photo under review never showed")
    browser.by_name("Retake").click()
    browser.wait_for(lambda: browser.js("return document.querySelector('.review').hidden"), message="Retake did not go back to the camera")
    browser.by_name("Take Photo").click()
    browser.wait_for(reviewed, timeout=30, message="the second photo under review never showed")
    assert browser.js("return document.querySelector('.review-media img').naturalWidth") == width
    browser.by_name("Use Photo").click()
    status, result = server.api("GET", f"/api/picker/sessions/{created['id']}?wait=30")
    assert status == 200 and result["status"] == "picked", result
    assert len(result["results"]) == 1
    info = result["results"][0]["info"]
    assert info["mediaType"] == "public.image"
    assert (info["pixelWidth"], info["pixelHeight"]) == (width, height), "the photo is the camera's frame"
    status, jpeg = server.api("GET", result["results"][0]["files"]["image"])
    assert status == 200 and jpeg[:2] == b"\xff\xd8", "the delivered file is a JPEG"
    assert_no_page_errors(browser)


def test_firefox_leaving_a_page_mid_request_reports_no_error(firefox, ff_server):
    """Firefox cancels a page's loads as a navigation away from it starts and hands each caller a
    network failure: the app holds those failures (the page is going) instead of throwing "Shoebox
    cannot be reached" where nothing catches it (the cause of an intermittent console error when a
    test left the library page mid-load)."""
    browser, server = firefox, ff_server
    # A request that is in flight when the page is left: a jobs long poll answers after 30 s.
    browser.js("""window.leftPending = 'started';
                  import('/app/js/api.js').then(async ({ api }) => {
                      const { tag } = await api.get('/api/jobs');
                      window.leftPending = 'polling';
                      await api.get(`/api/jobs?wait=30&since=${encodeURIComponent(tag)}`);  // not caught, as many calls are not
                      window.leftPending = 'answered';
                  });""")
    browser.wait_for(lambda: browser.js("return window.leftPending") == "polling", message="the long poll did not start")
    time.sleep(0.5)  # it reaches the server
    assert browser.js("return window.leftPending") == "polling", "the long poll answered before the page was left"
    browser.get(server.user_url)
    browser.wait_for(lambda: browser.js("return window.shoebox?.firstRowPaintedAt ?? null") is not None,
                     message="the library page never painted its first row")
    time.sleep(1)  # a rejection left unhandled on the old page is logged by now
    assert_no_page_errors(browser)


def test_firefox_editor_previews_light_and_saves(firefox, ff_server):
    """The editor in Firefox: E opens it on the viewer's photo, a slider brightens the preview at
    once, Save renders the edit, and Revert to Original takes it back."""
    browser, server = firefox, ff_server
    identifier = cell_id(browser, 0)
    browser.find('#photos .cell[data-index="0"]').click()
    browser.wait_for(lambda: viewer_shows(browser, identifier), message="the viewer did not open")
    browser.press("e")
    browser.wait_for(lambda: browser.js("return Number(document.querySelector('dialog.editor[open]')?.dataset.previewReady || 0)") > 0,
                     message="E did not open the editor with a preview")
    brightness = """
        const canvas = document.querySelector('dialog.editor .editor-canvas');
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let sum = 0; for (let i = 0; i < data.length; i += 4) sum += data[i] + data[i + 1] + data[i + 2];
        return sum / (data.length / 4 * 3);"""
    before = browser.js(brightness)
    draws = browser.js("return Number(document.querySelector('dialog.editor').dataset.previewReady)")
    browser.js("""const input = document.querySelector('dialog.editor input[aria-label="Exposure"]');
                  input.value = '1'; input.dispatchEvent(new Event('input'));""")
    browser.wait_for(lambda: browser.js("return Number(document.querySelector('dialog.editor').dataset.previewReady)") > draws,
                     message="the preview was not drawn again")
    after = browser.js(brightness)
    assert after > before + 15, f"+1 stop moved the preview's mean level from {before:.1f} to {after:.1f}"
    browser.by_name("Save").click()
    browser.wait_for(lambda: not browser.find_all("dialog.editor[open]"), message="Save did not close the editor")
    status, state = server.api("GET", asset_path(identifier) + "/adjustments")
    assert status == 200 and state["adjustments"] == {"light": {"exposure": 1}}, state
    browser.press("e")
    browser.wait_for(lambda: browser.find_all("dialog.editor[open] .editor-revert:not([hidden])"), message="no Revert to Original")
    browser.find("dialog.editor .editor-revert").click()
    browser.wait_for(lambda: server.api("GET", asset_path(identifier) + "/adjustments")[1]["adjustments"] is None,
                     message="Revert to Original did not drop the edit")
    browser.press(Keys.ESCAPE)
    assert_no_page_errors(browser)
