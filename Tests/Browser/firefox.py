"""Headless Firefox for the browser tests, driven over Marionette (marionette_driver from PyPI; no
geckodriver), with Firefox's fake camera and microphone.

A Firefox joins conftest's OPEN_BROWSERS and offers what its failure report reads (current_url,
save_screenshot, get_log("browser")), so a failing test leaves the same screenshot and console
log as a Chromium one. The console log is the page's console (devtools.console.stdout.content)
and its uncaught errors, read back from Firefox's own log file.
"""

import os
import re
import shutil
import tempfile
import time
import warnings
from pathlib import Path

with warnings.catch_warnings():  # mozinfo and mozrunner's own DeprecationWarnings (distro, telnetlib)
    warnings.simplefilter("ignore", DeprecationWarning)
    from marionette_driver import errors
    from marionette_driver.by import By
    from marionette_driver.keys import Keys
    from marionette_driver.marionette import Marionette
    from mozlog import unstructured

# mozversion's INFO lines (Firefox's build) on every start: only its warnings.
unstructured.getLogger("mozversion").setLevel(unstructured.WARNING)

import conftest

__all__ = ["Firefox", "By", "Keys"]

BINARY = os.environ.get("SHOEBOX_FIREFOX") or shutil.which("firefox-esr") or shutil.which("firefox") or "/usr/bin/firefox-esr"

PREFS = {
    # The fake camera and microphone (a coloured frame, a tone), granted without asking.
    "media.navigator.streams.fake": True,
    "media.navigator.permission.disabled": True,
    "media.autoplay.default": 0,  # allowed
    "media.volume_scale": "0.0",
    # The page's console into the log file (the failure report's console.txt); not Firefox's own.
    "devtools.console.stdout.content": True,
    "devtools.console.stdout.chrome": False,
    # Firefox's own fetches from Mozilla's servers (experiments, studies), which log errors of
    # their own when the network is not there.
    "messaging-system.rsexperimentloader.enabled": False,
    "app.normandy.enabled": False,
    "app.shield.optoutstudies.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
}

# A lookup that meets an element the app has just replaced tries again.
RETRIED = (errors.NoSuchElementException, errors.StaleElementException, errors.ElementNotInteractableException)

LEVELS = {"console.error": "SEVERE", "JavaScript error": "SEVERE", "console.warn": "WARNING",
          "JavaScript warning": "WARNING"}
# Errors of Firefox's own modules name their source first; the page's name its http:// URL.
FIREFOX_OWN = ("resource://", "chrome://", "moz-extension://")
ENTRY = re.compile(r"^(console\.\w+|JavaScript error|JavaScript warning): ?(.*)")


class Firefox:
    def __init__(self, width=1400, height=900, timezone=None):
        """`timezone` (an IANA name) is the zone Firefox believes it is in (its TZ at start)."""
        self.folder = Path(tempfile.mkdtemp(prefix="shoebox-firefox-"))
        self.log_path = self.folder / "gecko.log"
        self.log_mark = 0
        previous = os.environ.get("TZ")
        if timezone:
            os.environ["TZ"] = timezone  # Firefox's process inherits it
        try:
            self.marionette = Marionette(bin=BINARY, port=0, headless=True, gecko_log=str(self.log_path), prefs=PREFS,
                                         startup_timeout=60, workspace=str(self.folder))
        finally:
            if previous is None:
                os.environ.pop("TZ", None)
            else:
                os.environ["TZ"] = previous
        try:
            self.marionette.start_session()
            self.marionette.set_window_rect(width=width, height=height)
        except Exception:
            self.really_quit()
            raise
        self.quit_requested = False
        conftest.OPEN_BROWSERS.append(self)

    # The browser list's protocol (conftest.quit_browsers): quit() only asks; the report comes first.

    def quit(self):
        self.quit_requested = True

    def really_quit(self):
        marionette = self.marionette
        instance = marionette.instance
        first = instance.profile if instance else None
        try:
            marionette.cleanup()
        finally:
            # cleanup() leaves a fresh profile object behind (close() sets profile = None, which
            # makes a new one); remove it now, and keep both from cleaning up again while the
            # interpreter shuts down (mozprofile's __del__ then prints an ImportError).
            fresh = instance._profile if instance else None
            for profile in (first, fresh):
                if profile is not None:
                    if profile is fresh and profile is not first:
                        profile.cleanup()
                    profile.restore = False
            if instance:
                instance._profile = None
            shutil.rmtree(self.folder, ignore_errors=True)

    # What the failure report reads (the names selenium's WebDriver gives them).

    @property
    def current_url(self):
        return self.marionette.get_url()

    def save_screenshot(self, path):
        Path(path).write_bytes(self.marionette.screenshot(format="binary", full=False))

    def mark_log(self):
        """The console log of get_log starts here (each test's own lines)."""
        self.log_mark = self.log_path.stat().st_size if self.log_path.exists() else 0

    def get_log(self, kind="browser"):
        if not self.log_path.exists():
            return []
        with open(self.log_path, "rb") as log:
            log.seek(self.log_mark)
            text = log.read().decode("utf-8", "replace")
        entries = []
        for line in text.splitlines():
            match = ENTRY.match(line)
            if match and match.group(2).startswith(FIREFOX_OWN):
                entries.append(None)  # Firefox's own code (its backup service, say): not the page's
            elif match:
                entries.append({"level": LEVELS.get(match.group(1), "INFO"), "message": f"{match.group(1)}: {match.group(2)}"})
            elif entries and entries[-1] and line.startswith((" ", "\t")):  # a message's further lines (a stack)
                entries[-1]["message"] += "\n" + line
        return [entry for entry in entries if entry and not self.is_firefox_own(entry["message"])]

    @staticmethod
    def is_firefox_own(message):
        """Whether a console entry is Firefox's own module's: it names one of Firefox's own
        sources (resource://, chrome://) and no page of the server (http://), as its
        "RSLoader: Failed to retrieve recipes… @resource://nimbus/…" does."""
        return any(source in message for source in FIREFOX_OWN) and "http://" not in message and "https://" not in message

    # What the tests use.

    def get(self, url):
        self.marionette.navigate(url)

    def js(self, script, *arguments):
        """Runs `script` as the page's own script (sandbox=None: the page's globals, no X-rays)."""
        return self.marionette.execute_script(script, script_args=list(arguments), sandbox=None)

    def find(self, css, within=None):
        return (within or self.marionette).find_element(By.CSS_SELECTOR, css)

    def find_all(self, css, within=None):
        return (within or self.marionette).find_elements(By.CSS_SELECTOR, css)

    def wait_for(self, condition, timeout=20, message=""):
        """The first truthy value of condition(), retried while the app replaces elements."""
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                value = condition()
                if value:
                    return value
            except RETRIED as error:
                last = error
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s: {message or condition}" + (f" (last error: {last})" if last else ""))
            time.sleep(0.1)

    def by_name(self, name, timeout=20):
        """The visible control whose accessible name is `name`, found as conftest.by_name finds it
        (aria-label, else its text) and confirmed by Firefox's accessibility tree."""
        xpath = (f'//*[(self::button or self::a or self::label or @role="button") and '
                 f'(@aria-label="{name}" or (not(@aria-label) and normalize-space()="{name}"))]')

        def find():
            for element in self.marionette.find_elements(By.XPATH, xpath):
                if element.is_displayed():
                    return element
            return None
        element = self.wait_for(find, timeout, f"no visible control named {name!r}")
        if element.tag_name == "button":
            assert element.computed_label == name, f"the button's accessible name is {element.computed_label!r}, not {name!r}"
        return element

    def press(self, *keys):
        """Types `keys` (characters or Keys.*) into whatever has the focus, as a keyboard does."""
        keyboard = self.marionette.actions.sequence("key", "keyboard")
        for key in keys:
            keyboard.key_down(key).key_up(key)
        keyboard.perform()

    def active_element_id(self):
        return self.js("return document.activeElement?.id ?? null")
