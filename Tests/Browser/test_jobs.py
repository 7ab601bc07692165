"""Background work in the web app: the indicator in the top bar, the Background Work page with a
failed job's error, Retry and Remove; and the page at a phone's size."""

import shutil
import subprocess
import tempfile
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, BIN, Server, make_driver, shoebox, wait_for


def clean_up(worker, server, folder, browsers=()):
    """Ends the test's browsers (their pages would go on asking a server that is gone, for the
    rest of the run), stops the worker (if one started) and the server, and removes the test's
    folder."""
    for browser in browsers:
        if browser:
            browser.quit()
    if worker:
        worker.kill()
        worker.wait(timeout=30)
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


def test_failed_work_is_shown_retried_and_removed(photos_folder):
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-jobs-"))
    library = folder / "Jobs.shoebox"
    assert shoebox("init", "--library", str(library)).returncode == 0
    result = shoebox("import", "--library", str(library), "--queue", str(photos_folder / "photos"))
    assert result.returncode == 0, result.stderr
    # Two photos lose their originals: their thumbnail jobs can only fail.
    for original in sorted(path for path in (library / "originals").rglob("*") if path.is_file())[:2]:
        original.unlink()
    server = Server(library, extra=["--no-worker"])
    worker = browser = phone = None
    try:
        status, listing = server.api("GET", "/api/jobs")
        assert status == 200 and listing["open"] == 6, listing
        # A worker runs them: five attempts of each broken one, 2 + 4 + 8 + 16 s apart.
        worker = subprocess.Popen([str(BIN / "shoebox"), "worker", "--library", str(library), "--json"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        browser = make_driver()
        browser.get(server.user_url)
        indicator = browser.find_element(By.CSS_SELECTOR, ".jobs-indicator")
        wait_for(browser, lambda: indicator.is_displayed() and "2 failed" in indicator.text, timeout=90)
        assert "has-failures" in indicator.get_attribute("class")
        indicator.click()
        cards = wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".jobs-view .job.failed")) == 2
                         and browser.find_elements(By.CSS_SELECTOR, ".jobs-view .job.failed"))
        for card in cards:
            assert "No such file" in card.find_element(By.CSS_SELECTOR, ".job-error").text
            assert "5 of 5 attempts" in card.text
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "jobs-desktop.png"))

        # Remove takes one away; Retry queues the other again.
        cards[0].find_element(By.XPATH, ".//button[starts-with(@aria-label, 'Remove ')]").click()
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".jobs-view .job.failed")) == 1)
        browser.find_element(By.CSS_SELECTOR, ".jobs-view .job.failed").find_element(
            By.XPATH, ".//button[starts-with(@aria-label, 'Retry ')]").click()
        wait_for(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".jobs-view .job.failed"))
        status, listing = server.api("GET", "/api/jobs")
        assert not listing["failed"] and listing["open"] == 1, listing
        assert "1 failed" not in indicator.text

        # A phone: the albums start closed over the page, which fits the width.
        phone = make_driver(width=390, height=844)
        # A desktop window cannot be narrower than 500 px: the phone's viewport is emulated.
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        phone.get(server.user_url)
        phone.get(server.base + "/#/jobs")
        wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".jobs-view:not([hidden]) .job-panel table"))
        assert not phone.find_element(By.ID, "sidebar").is_displayed()
        width, viewport = phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert viewport == 390 and width <= 390, f"the page is {width} px wide on a {viewport} px phone"
        phone.save_screenshot(str(ARTIFACTS / "jobs-phone.png"))
    finally:
        clean_up(worker, server, folder, [browser, phone])


def test_a_placeholder_waits_for_the_worker_then_shows_the_thumbnail(photos_folder):
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-pending-"))
    library = folder / "Pending.shoebox"
    assert shoebox("init", "--library", str(library)).returncode == 0
    result = shoebox("import", "--library", str(library), "--queue", str(photos_folder / "photos"))
    assert result.returncode == 0, result.stderr
    server = Server(library, extra=["--no-worker"])
    worker = browser = None
    try:
        status, page = server.api("GET", "/api/assets")
        count = len(page["assets"])
        assert status == 200 and count >= 3 and all(asset.get("thumbnailPending") for asset in page["assets"]), page
        browser = make_driver()
        browser.get(server.user_url)
        # No worker yet: every cell shows a placeholder and asks for no picture.
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".grid .cell.pending .placeholder")) == count)
        assert not browser.find_elements(By.CSS_SELECTOR, ".grid .cell img")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "pending-placeholders.png"))
        # A worker makes the thumbnails: the change events swap each placeholder for its picture,
        # well before the cells would ask the server themselves (15 s after the page loaded).
        worker = subprocess.Popen([str(BIN / "shoebox"), "worker", "--library", str(library), "--json"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".grid .cell.pending")
                 and len(browser.find_elements(By.CSS_SELECTOR, ".grid .cell img")) == count, timeout=60,
                 message="the placeholders were not replaced")
        assert browser.execute_script("return performance.now()") < 15000, "the pictures came from the cells' own fallback, not the change events"
        wait_for(browser, lambda: browser.execute_script(
            "return [...document.querySelectorAll('.grid .cell img')].every((image) => image.complete && image.naturalWidth > 0)"),
            message="a thumbnail did not load")
    finally:
        clean_up(worker, server, folder, [browser])
