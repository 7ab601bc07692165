"""Browser tests: the web app in headless Chromium (selenium), against `shoebox serve` on a
temporary library, with Chromium's fake camera and microphone. test_firefox.py runs the web app in
headless Firefox too (firefox.py: Marionette, no geckodriver); its browsers join OPEN_BROWSERS,
so their failures leave the same screenshot and console log.

Run by scripts/test (or: SHOEBOX_BIN=.build/debug python3 -m pytest Tests/Browser). A test that
fails in its setup or its call leaves a screenshot and the console log of every browser it had
open in $SHOEBOX_ARTIFACTS (default .build/browser-artifacts).
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

# The app re-renders often (live changes): a lookup that meets a replaced element tries again.
RETRIED = (StaleElementReferenceException, NoSuchElementException)

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("SHOEBOX_BIN", ROOT / ".build" / "debug"))
ARTIFACTS = Path(os.environ.get("SHOEBOX_ARTIFACTS", ROOT / ".build" / "browser-artifacts"))


def shoebox(*arguments, **options):
    return subprocess.run([str(BIN / "shoebox"), *arguments], capture_output=True, text=True, timeout=300, **options)


def bench(*arguments):
    return subprocess.run([str(BIN / "shoebox-bench"), *arguments], capture_output=True, text=True, timeout=600, check=True)


def make_movie(path, seconds=4, size="640x480"):
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate=30:duration={seconds}",
                    "-f", "lavfi", "-i", f"sine=duration={seconds}", "-c:v", "libx264", "-preset", "veryfast",
                    "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(path)], check=True, timeout=120)


def probe_duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(path)],
                         capture_output=True, text=True, check=True).stdout.strip()
    return float(out)


class Server:
    """`shoebox serve` on a library, on a free port."""

    def __init__(self, library, extra=()):
        self.library = Path(library)
        self.key = "browser-test-key"
        self.process = subprocess.Popen(
            [str(BIN / "shoebox"), "serve", "--library", str(self.library), "--port", "0", "--key", self.key, "--json", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("shoebox serve did not start: " + self.process.stderr.read())
        ready = json.loads(line)
        self.port = ready["port"]
        self.base = f"http://127.0.0.1:{self.port}"
        self.user_url = ready["url"]

    def api(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if token != "":  # "" sends no credentials at all
            request.add_header("Authorization", f"Bearer {token or self.key}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                raw = response.read()
                return response.status, (json.loads(raw) if raw and response.headers.get_content_type() == "application/json" else raw)
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, (json.loads(raw) if raw.startswith(b"{") else raw)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def report_cameras(browser, server, timeout=20):
    """Opens the web app in `browser` (Chromium's driver or the Firefox wrapper), which reports the
    browser's cameras to `server`, and waits until the server knows them: the web presenter offers
    camera pickers only the cameras a browser reported."""
    _, before = server.api("GET", "/api/picker/cameras")  # reports are timed to the millisecond
    browser.get(server.user_url)
    deadline = time.time() + timeout
    known = before
    while time.time() < deadline:
        status, known = server.api("GET", "/api/picker/cameras")
        if status == 200 and known["cameras"] and known.get("reportedAt") != before.get("reportedAt"):
            return known
        time.sleep(0.1)
    raise AssertionError(f"the browser reported no camera to the server: {known}")


class Pick:
    """`shoebox pick` (a Swift client of the running server) in the background."""

    def __init__(self, library, *arguments):
        self.process = subprocess.Popen([str(BIN / "shoebox"), "pick", "--library", str(library), "--json", *arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        if "http" not in line:
            raise RuntimeError("shoebox pick printed no URL: " + line + self.process.stderr.read())
        self.url = line.strip().split()[-1]

    def result(self, timeout=120):
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, (json.loads(out) if out.strip() else None), err


def serve_imported(folder, inputs, name):
    """`shoebox serve` on a new library `folder/name` holding what `shoebox import` makes of the
    folder `inputs`, for a fixture to `yield from`; `folder` goes afterwards."""
    library = folder / name
    assert shoebox("init", "--library", str(library)).returncode == 0
    result = shoebox("import", "--library", str(library), str(inputs))
    assert result.returncode == 0, result.stderr
    server = Server(library)
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def photos_folder():
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-inputs-"))
    bench("generate", str(folder / "photos"), "--count", "6", "--width", "1600", "--height", "1200")
    make_movie(folder / "clip.mp4", seconds=4)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def library(photos_folder):
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-library-"))
    path = folder / "Browser.shoebox"
    assert shoebox("init", "--library", str(path)).returncode == 0
    result = shoebox("import", "--library", str(path), str(photos_folder / "photos"), str(photos_folder / "clip.mp4"))
    assert result.returncode == 0, result.stderr
    yield path
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def server(library):
    running = Server(library, extra=["--synthetic-camera"])
    yield running
    running.stop()


# Every browser make_driver started and not yet really quit. A browser's quit() only marks it: it
# ends after the test's teardown, so a failing test's report still sees the browsers it closed
# itself (in a `finally`) and photographs them with the rest.
OPEN_BROWSERS = []


def make_driver(width=1400, height=900, performance_log=False, cameras=1):
    """Chromium with `cameras` fake cameras; with 0, none at all (this machine has no camera)."""
    options = webdriver.ChromeOptions()
    arguments = [f"--window-size={width},{height}", "--use-fake-ui-for-media-stream", "--autoplay-policy=no-user-gesture-required"]
    if cameras:
        arguments.append("--use-fake-device-for-media-stream" + (f"=device-count={cameras}" if cameras != 1 else ""))
    for argument in arguments:
        options.add_argument(argument)
    # The network log (performance) is what tests of redirects read.
    return start_chromium(options, logs={"browser": "ALL", **({"performance": "ALL"} if performance_log else {})})


def make_phone_driver(width=390, height=844):
    """A phone: Chromium's mobile emulation at WIDTH x HEIGHT with a touch screen (the DevTools
    protocol's touch events, see touch(), reach the page as touch and pointer events)."""
    options = webdriver.ChromeOptions()
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3, "touch": True}})
    return start_chromium(options, logs={"browser": "ALL"})


def start_chromium(options, logs):
    """Headless Chromium with `options`, listed in OPEN_BROWSERS; its quit() only marks it."""
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--mute-audio"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", logs)
    browser = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    browser.really_quit = browser.quit
    browser.quit_requested = False
    browser.quit = lambda: setattr(browser, "quit_requested", True)
    OPEN_BROWSERS.append(browser)
    return browser


def quit_browsers(only_requested):
    for browser in list(OPEN_BROWSERS):
        if browser.quit_requested or not only_requested:
            OPEN_BROWSERS.remove(browser)
            try:
                browser.really_quit()
            except Exception:  # already gone (crashed): nothing left to end
                pass


@pytest.fixture
def driver(server, request):
    browser = make_driver()
    try:
        browser.get(server.user_url)  # signs in (the key's cookie)
        yield browser
    finally:
        browser.quit()  # also when signing in failed: the setup's screenshot is taken first


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when in ("setup", "call") and report.failed:
        save_artifacts(item.name, report.when)


def save_artifacts(test, phase):
    """A screenshot and the console log of every open browser: NAME.png and NAME.console.txt, with
    -2, -3… for a test's further browsers (in the order they were opened)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[^\w.\[\]-]+", "_", test) + ("" if phase == "call" else f".{phase}")
    for number, browser in enumerate(OPEN_BROWSERS, start=1):
        name = stem if number == 1 else f"{stem}-{number}"
        lines = []
        try:
            lines.append(f"url {browser.current_url}")
            browser.save_screenshot(str(ARTIFACTS / f"{name}.png"))
            lines += [f"{entry['level']} {entry['message']}" for entry in browser.get_log("browser")]
        except Exception as error:  # a crashed browser still gets its line
            lines.append(f"could not read the browser: {error!r}")
        (ARTIFACTS / f"{name}.console.txt").write_text("\n".join(lines) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    quit_browsers(only_requested=True)


def pytest_sessionfinish(session, exitstatus):
    quit_browsers(only_requested=False)  # also any a test or fixture never quit


# Helpers the tests share.

def by_name(browser, name, timeout=20):
    """The visible control whose accessible name is `name` (aria-label, else its text)."""
    xpath = (f'//*[(self::button or self::a or self::label or @role="button") and '
             f'(@aria-label="{name}" or (not(@aria-label) and normalize-space()="{name}"))]')
    def find(_):
        for element in browser.find_elements(By.XPATH, xpath):
            if element.is_displayed():
                return element
        return False
    return WebDriverWait(browser, timeout, ignored_exceptions=RETRIED).until(find, f"no visible control named {name!r}")


def click_by_name(browser, name, timeout=20):
    """Clicks the visible control named `name`, finding it again if the app re-renders it
    between finding and clicking (a stale element)."""
    def click():
        by_name(browser, name, timeout).click()
        return True
    return wait_for(browser, click, timeout, f"could not click {name!r}")


def click_settled(browser, selector):
    """Clicks the element `selector` finds, or returns False when there is none yet or it was
    drawn again meanwhile (for wait_for: views that redraw as they open)."""
    try:
        browser.find_element(By.CSS_SELECTOR, selector).click()
        return True
    except RETRIED:
        return False


def choose_order(browser, label):
    """Picks `label` (Newest First, Oldest First, Album Order) in the view's Sort menu."""
    from selenium.webdriver.support.ui import Select
    menu = wait_for(browser, lambda: next((m for m in browser.find_elements(By.CSS_SELECTOR, ".order-select") if m.is_displayed()), None),
                    message="no Sort menu")
    Select(menu).select_by_visible_text(label)


def wait_for(browser, condition, timeout=20, message=""):
    def check(_):
        try:
            return condition()
        except WebDriverException as error:
            # A look while the page navigates (a sign-in's redirects) is asked again, not a failure.
            if "aborted by navigation" in (error.msg or ""):
                return False
            raise
    return WebDriverWait(browser, timeout, poll_frequency=0.1, ignored_exceptions=RETRIED).until(check, message)


def animations_done(browser, element):
    """Returns once the transitions and animations running on `element` and inside it (a zoom's
    easing, a sheet sliding in) have finished: the page's own end of an animation, not a pause."""
    browser.execute_async_script("""
        const [element, done] = arguments;
        Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)).then(() => done(), () => done());
    """, element)


def cell(browser, index):
    return WebDriverWait(browser, 20, ignored_exceptions=RETRIED).until(
        lambda b: b.find_element(By.CSS_SELECTOR, f'.grid .cell[data-index="{index}"] img').find_element(By.XPATH, ".."), f"no cell {index}")


def register(server, identifier, usage):
    """Registers a client over the API; returns its token."""
    status, body = server.api("POST", "/api/clients", {"identifier": identifier, "displayName": identifier.split(".")[-1].title(),
                                                       "usageDescriptions": usage}, token="")
    assert status == 201, body
    return body["token"]


def ask(server, token, service, answers):
    """A client's access request (it waits for the user's answer); appends (status, body) to answers."""
    answers.append(server.api("POST", f"/api/authorization/{service}", token=token))


def asset_path(identifier):
    return "/api/assets/" + urllib.parse.quote(identifier, safe="")


def is_favorite(server, identifier):
    status, detail = server.api("GET", asset_path(identifier))
    assert status == 200, detail
    return detail["asset"]["isFavorite"]


# Touch, as a phone's screen sends it (DevTools protocol): points are (x, y) in CSS pixels of the
# viewport, one per finger.

def touch(browser, kind, points):
    """kind: touchStart, touchMove, touchEnd (points: the fingers still down) or touchCancel."""
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": finger} for finger, (x, y) in enumerate(points)]})


def tap(browser, point):
    touch(browser, "touchStart", [point])
    touch(browser, "touchEnd", [])


def long_press(browser, point, seconds=0.9):
    touch(browser, "touchStart", [point])
    time.sleep(seconds)
    touch(browser, "touchEnd", [])


def drag(browser, start, end, steps=10, pause=0.016):
    """One finger from start to end (a swipe, or a pan)."""
    touch(browser, "touchStart", [start])
    for step in range(1, steps + 1):
        touch(browser, "touchMove", [(start[0] + (end[0] - start[0]) * step / steps, start[1] + (end[1] - start[1]) * step / steps)])
        time.sleep(pause)
    touch(browser, "touchEnd", [])


def pinch(browser, centre, from_gap, to_gap, steps=10, pause=0.016):
    """Two fingers on a horizontal line through centre, from from_gap apart to to_gap apart."""
    x, y = centre
    fingers = lambda gap: [(x - gap / 2, y), (x + gap / 2, y)]
    touch(browser, "touchStart", fingers(from_gap))
    for step in range(1, steps + 1):
        touch(browser, "touchMove", fingers(from_gap + (to_gap - from_gap) * step / steps))
        time.sleep(pause)
    touch(browser, "touchEnd", [])


def centre_of(browser, element):
    return tuple(browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", element))
