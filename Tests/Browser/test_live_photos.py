"""Live Photos in the web app: the grid marks one LIVE, and the viewer plays its motion (an
iPhone's HEVC movie, through the library's H.264 rendition) while the mouse rests on the photo,
then shows the photo again."""

import struct
import subprocess
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import make_driver, serve_imported, wait_for


def apple_exif(identifier):
    """A big-endian EXIF block: Make = Apple and an Apple maker note whose tag 0x11 is
    `identifier` (as an iPhone writes it; SyntheticLivePhoto in Swift makes the same)."""
    def entry(tag, kind, count, value):
        return struct.pack(">HHII", tag, kind, count, value)
    make = b"Apple\0"
    value = identifier.encode() + b"\0"
    note_header = b"Apple iOS\0" + b"\0\x01" + b"MM"
    note = note_header + struct.pack(">H", 1) + entry(0x11, 2, len(value), len(note_header) + 2 + 12 + 4) + struct.pack(">I", 0) + value
    ifd0, make_at = 8, 8 + 2 + 24 + 4
    exif_ifd = make_at + len(make)
    note_at = exif_ifd + 2 + 12 + 4
    tiff = b"MM" + struct.pack(">HI", 42, ifd0) + struct.pack(">H", 2) + entry(0x010F, 2, len(make), make_at) \
        + entry(0x8769, 4, 1, exif_ifd) + struct.pack(">I", 0) + make \
        + struct.pack(">H", 1) + entry(0x927C, 7, len(note), note_at) + struct.pack(">I", 0) + note
    return b"Exif\0\0" + tiff


@pytest.fixture(scope="module")
def live_server():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-live-"))
    inputs = folder / "inputs"
    inputs.mkdir()
    identifier = str(uuid.uuid4()).upper()
    plain = folder / "plain.jpg"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x480", "-frames:v", "1", str(plain)],
                   check=True, timeout=60)
    jpeg = plain.read_bytes()
    payload = apple_exif(identifier)
    (inputs / "IMG_0001.JPG").write_bytes(b"\xff\xd8\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30:duration=1.5",
                    "-c:v", "libx265", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error",
                    "-metadata", f"com.apple.quicktime.content.identifier={identifier}", "-movflags", "use_metadata_tags",
                    str(inputs / "IMG_0001.MOV")], check=True, timeout=120)
    yield from serve_imported(folder, inputs, "Live.shoebox")


def test_live_photo_plays_its_motion_on_hover(live_server):
    status, page = live_server.api("GET", "/api/assets?limit=10")
    assert status == 200
    assert len(page["assets"]) == 1, [asset["originalFilename"] for asset in page["assets"]]
    asset = page["assets"][0]
    assert "live" in asset["mediaSubtypes"] and asset["originalFilename"] == "IMG_0001.JPG"
    browser = make_driver()
    try:
        browser.get(live_server.user_url)
        wait_for(browser, lambda: "LIVE" in browser.find_element(By.CSS_SELECTOR, ".cell .badge").text,
                 message="the grid does not mark the Live Photo")
        identifier = urllib.parse.quote(asset["localIdentifier"], safe="")
        browser.get(live_server.user_url.split("#")[0].split("?")[0] + "#/photo/" + identifier)
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.viewer[open] .viewer-stage img"),
                 message="the viewer shows no photo")
        browser.execute_script("""
            window.liveEnded = 'no';
            window.livePlays = 0;
            document.addEventListener('play', () => { window.livePlays += 1; }, true);
            document.addEventListener('ended', (event) => { window.liveEnded = 'yes'; window.liveWidth = event.target.videoWidth; }, true);
            document.addEventListener('error', (event) => { if (event.target.tagName === 'VIDEO') window.liveEnded = 'error'; }, true);
            // Issue 39 item 23: the motion replaced the photo before it had a frame, and showed
            // black. What each motion had to show when it came in: its ready state.
            window.liveReadyStates = [];
            new MutationObserver((records) => {
              for (const record of records) for (const node of record.addedNodes) {
                if (node.tagName === 'VIDEO' && node.classList.contains('live-motion')) window.liveReadyStates.push(node.readyState);
              }
            }).observe(document.body, { childList: true, subtree: true });
        """)
        moved = [0.0, 0]

        def motion():
            # The mouse comes to rest on the photo; if the viewer drew it again meanwhile (its
            # thumbnail job finishing), it moves a pixel over the new one after a second at rest.
            found = browser.find_elements(By.CSS_SELECTOR, "dialog.viewer[open] video.live-motion")
            if not found and time.monotonic() - moved[0] > 1:
                photos = browser.find_elements(By.CSS_SELECTOR, "dialog.viewer[open] .viewer-stage img")
                if photos:
                    moved[1] += 1
                    ActionChains(browser).move_to_element_with_offset(photos[0], moved[1] % 5, 0).perform()
                    moved[0] = time.monotonic()
            return found

        wait_for(browser, motion, message="resting the mouse on a Live Photo plays no motion")
        wait_for(browser, lambda: browser.execute_script("return window.liveEnded") != "no", timeout=90,
                 message="the motion never ended")
        assert browser.execute_script("return window.liveEnded") == "yes"
        states = browser.execute_script("return window.liveReadyStates")
        assert states and all(state >= 2 for state in states), f"the motion came in with nothing to show: ready states {states}"
        assert browser.execute_script("return window.liveWidth") == 640
        # The photo comes back when the motion ends.
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "dialog.viewer[open] .viewer-stage img"),
                 message="the photo did not come back after the motion")
        # Once per visit: the photo back under the resting mouse does not play again (watched for a second).
        plays = browser.execute_async_script("const done = arguments[0]; setTimeout(() => done(window.livePlays), 1000);")
        assert plays == 1 and not browser.find_elements(By.CSS_SELECTOR, "dialog.viewer[open] video.live-motion")
    finally:
        browser.quit()
