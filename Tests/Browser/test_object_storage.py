"""A library whose blobs are in S3 (SeaweedFS via scripts/s3): in the default redirect mode the
grid's thumbnails and the viewer's photo come straight from the object store with presigned URLs
(Chromium's network log shows each 302 and the store's 200), the page's Content-Security-Policy
allows exactly that endpoint, and no image fails to load."""

import json
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, Server, make_driver, shoebox, wait_for

S3_SCRIPT = ROOT / "scripts" / "s3"
S3_KEYS = {"AWS_ACCESS_KEY_ID": "shoeboxtest", "AWS_SECRET_ACCESS_KEY": "shoeboxtestsecret"}


@pytest.fixture(scope="module")
def endpoint():
    """The test store: the one scripts/test started (SHOEBOX_TEST_S3), else one of our own."""
    given = os.environ.get("SHOEBOX_TEST_S3")
    if given:
        yield given
        return
    folder = tempfile.mkdtemp(prefix="shoebox-browser-s3-")
    started = subprocess.run([str(S3_SCRIPT), "start", folder], capture_output=True, text=True, timeout=300)
    assert started.returncode == 0, "an S3 store is needed and could not be started: " + started.stderr
    yield started.stdout.strip()
    subprocess.run([str(S3_SCRIPT), "stop", folder], capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def s3_server(endpoint, photos_folder):
    os.environ.update(S3_KEYS)  # the identity, for shoebox and for the server it starts
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-s3-library-"))
    library = folder / "Bucket.shoebox"
    blobs = f"s3://shoebox-browser/{uuid.uuid4().hex[:12]}?endpoint={endpoint}&region=us-east-1"
    created = shoebox("init", "--library", str(library), "--blobs", blobs, "--create-bucket")
    assert created.returncode == 0, created.stderr
    imported = shoebox("import", "--library", str(library), str(photos_folder / "photos"))
    assert imported.returncode == 0, imported.stderr
    running = Server(library)
    yield running
    running.stop()
    shutil.rmtree(folder, ignore_errors=True)


def network_log(browser):
    """(url, status) of every response Chromium received, redirects included, in order."""
    answers = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.responseReceived":
            answers.append((params["response"]["url"], params["response"]["status"]))
        elif message["method"] == "Network.requestWillBeSent" and "redirectResponse" in params:
            answers.append((params["redirectResponse"]["url"], params["redirectResponse"]["status"]))
    return answers


def test_the_grid_loads_thumbnails_straight_from_the_object_store(s3_server, endpoint):
    browser = make_driver(performance_log=True)
    try:
        browser.get(s3_server.user_url)
        wait_for(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, ".grid .cell img")) == 6, 30, "six cells")
        # Every thumbnail decoded (naturalWidth > 0): none was blocked by the page's policy.
        wait_for(browser, lambda: browser.execute_script(
            "return [...document.querySelectorAll('.grid .cell img')].every(i => i.complete && i.naturalWidth > 0)"), 30,
            "every thumbnail loaded")
        # The log holds each response once Chromium has reported it: read it until all twelve are in.
        answers = []
        redirects = lambda: [url for url, status in answers if "/thumbnail" in url and status == 302]
        from_store = lambda: [url for url, status in answers if url.startswith(endpoint) and status == 200 and "X-Amz-Signature=" in url]
        wait_for(browser, lambda: answers.extend(network_log(browser)) or (len(redirects()) >= 6 and len(from_store()) >= 6), 10,
                 "six redirects and six thumbnails from the store in the network log")
        redirects, from_store = redirects(), from_store()
        assert len(redirects) == 6, answers
        assert len(from_store) == 6, answers
        assert all("/derivatives/" in url for url in from_store)
        assert not [url for url, status in answers if url.startswith(s3_server.base) and "/thumbnail" in url and status == 200], \
            "no thumbnail bytes through the server"
        policy = browser.execute_script(
            "return fetch('/', {credentials: 'same-origin'}).then(r => r.headers.get('content-security-policy'))")
        assert f"img-src 'self' blob: data: {endpoint}" in policy
        errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, errors

        # The viewer's large photo comes from the store too.
        browser.find_element(By.CSS_SELECTOR, '[role="listbox"][aria-label="Photos"]').send_keys(Keys.ENTER)
        wait_for(browser, lambda: browser.execute_script(
            "const i = document.querySelector('dialog.viewer[open] img'); return !!i && i.complete && i.naturalWidth > 0"), 30,
            "the viewer's photo")
        later = network_log(browser)
        assert any(url.startswith(endpoint) and "fit-2048x2048" in url and status == 200 for url, status in later), later
    finally:
        browser.quit()
