"""Movies as older cameras and phones made them: imported as they are, played in the viewer from
the library's H.264 rendition until the video element reaches `ended`."""

import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver, serve_imported, wait_for

# (file name, frame size, ffmpeg output options): one of each family `CameraMovieFormatTests` covers.
FORMATS = [
    ("MVI_0001.AVI", "320x240", ["-c:v", "mjpeg", "-q:v", "4", "-c:a", "pcm_s16le"]),
    ("VID0001.3gp", "176x144", ["-c:v", "h263", "-c:a", "aac", "-ac", "1", "-ar", "8000"]),
    ("00001.MTS", "320x240", ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "ac3",
                              "-mpegts_m2ts_mode", "1", "-f", "mpegts"]),
    ("MOV001.MPG", "320x240", ["-c:v", "mpeg2video", "-c:a", "mp2", "-f", "vob"]),
    ("holiday.mkv", "320x240", ["-c:v", "mpeg4", "-c:a", "libmp3lame"]),
    ("clip.wmv", "320x240", ["-c:v", "wmv2", "-c:a", "wmav2"]),
]


@pytest.fixture(scope="module")
def movie_server():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-movies-"))
    inputs = folder / "inputs"
    inputs.mkdir()
    for name, size, options in FORMATS:
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate=25:duration=1.5",
                        "-f", "lavfi", "-i", "sine=duration=1.5:sample_rate=48000", *options, str(inputs / name)],
                       check=True, timeout=120)
    yield from serve_imported(folder, inputs, "Movies.shoebox")


def test_old_movie_formats_play_to_the_end_in_the_viewer(movie_server):
    status, page = movie_server.api("GET", "/api/assets?limit=100")
    assert status == 200
    movies = {asset["originalFilename"]: asset for asset in page["assets"]}
    assert sorted(movies) == sorted(name for name, _, _ in FORMATS)
    browser = make_driver()
    try:
        browser.get(movie_server.user_url)
        for name, asset in movies.items():
            identifier = urllib.parse.quote(asset["localIdentifier"], safe="")
            browser.get(movie_server.user_url.split("#")[0].split("?")[0] + "#/photo/" + identifier)
            wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, "dialog.viewer[open] video"), timeout=30,
                     message=f"{name}: the viewer shows no video element")
            # The viewer may put a new video element in place while the movie loads (under load
            # it did, and a held element went stale): listen on the document, which sees every
            # video's ended and error in the capture phase, and play whichever is shown now.
            browser.execute_script("""
                window.movieEnded = 'no';
                if (!window.movieListening) {
                    window.movieListening = true;
                    document.addEventListener('ended', () => { window.movieEnded = 'yes'; }, true);
                    document.addEventListener('error', (event) => {
                        if (event.target instanceof HTMLVideoElement) window.movieEnded = 'error ' + (event.target.error && event.target.error.code);
                    }, true);
                }
            """)
            play = """
                const video = document.querySelector('dialog.viewer[open] video');
                if (video && window.movieEnded === 'no' && video.paused && !video.ended) {
                    video.muted = true;
                    video.play().catch((error) => { if (video.isConnected) window.movieEnded = 'play failed: ' + error.message; });
                }
                return window.movieEnded;
            """
            ready_state = "return document.querySelector('dialog.viewer[open] video')?.readyState"
            wait_for(browser, lambda: browser.execute_script(play) != "no", timeout=90,
                     message=f"{name}: the movie never ended (readyState {browser.execute_script(ready_state)})")
            ended = browser.execute_script("return window.movieEnded")
            assert ended == "yes", f"{name}: {ended}"
            video = "document.querySelector('dialog.viewer[open] video')"
            duration = browser.execute_script(f"return {video}.duration")
            assert abs(duration - 1.5) < 0.3, f"{name}: the rendition lasts {duration} s"
            assert browser.execute_script(f"return {video}.videoWidth") > 0
    finally:
        browser.quit()
