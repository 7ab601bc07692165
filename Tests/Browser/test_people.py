"""Several people on one server (issue 41): signing in with a password at desktop and phone
sizes, the admin adding a person in Settings › People who then signs in to an empty library of
their own, two people importing the same photo and editing it each their own way, disabling a
person (signed out within a second), and signing out everywhere."""

import json
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import ARTIFACTS, BIN, ROOT, Server, asset_path, by_name, make_driver, make_phone_driver, shoebox, wait_for


@pytest.fixture
def household(tmp_path):
    """A library whose admin `ann` (password `ann-password`) has one photo; served."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)  # the screenshots this test leaves to look at
    library = tmp_path / "Household.shoebox"
    made = subprocess.run([str(BIN / "shoebox"), "init", "--library", str(library), "--admin", "Ann", "--password-stdin"],
                          input="ann-password\n", capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    photo = tmp_path / "beach.jpg"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", str(photo)],
                   check=True, timeout=60)
    imported = shoebox("import", "--library", str(library), str(photo))
    assert imported.returncode == 0, imported.stderr
    server = Server(library)
    try:
        yield server, photo
    finally:
        server.stop()


def sign_in(browser, server, name, password):
    browser.get(server.base + "/")
    browser.find_element(By.NAME, "name").send_keys(name)
    browser.find_element(By.NAME, "password").send_keys(password)
    by_name(browser, "Sign In").click()


def session_request(server, method, path, cookie, body=None):
    """A request with a session cookie (`NAME=TOKEN`), as a second browser of the same person."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.base + path, data=data, method=method, headers={"Cookie": cookie})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def second_session(server, name, password):
    status, headers, body = session_request(server, "POST", "/api/session", "", {"name": name, "password": password})
    assert status == 201, body
    return headers["Set-Cookie"].split(";")[0]


def grid_count(browser):
    return len(browser.find_elements(By.CSS_SELECTOR, ".grid .cell"))


def in_page(browser, method, path, body=None):
    """A JSON request from the page, with its CSRF token and its session cookie."""
    return browser.execute_async_script("""
        const [method, path, body, done] = arguments;
        const csrf = document.querySelector('meta[name="shoebox-csrf"]').content;
        fetch(path, { method, headers: { 'Content-Type': 'application/json', 'X-Shoebox-CSRF': csrf }, body: body === null ? undefined : JSON.stringify(body) })
          .then(async (r) => done({ status: r.status, body: await r.text() }));
    """, method, path, body)


def test_people_sign_in_each_to_a_library_of_their_own(household):
    server, photo = household
    ann = make_driver()
    bob = make_phone_driver()
    try:
        # Ann signs in with her password (a wrong one is refused, and says so).
        sign_in(ann, server, "ann", "not-her-password")
        wait_for(ann, lambda: "do not match" in ann.find_element(By.CSS_SELECTOR, ".sign-in-error").text)
        ann.save_screenshot(str(ARTIFACTS / "people-sign-in-refused-desktop.png"))
        ann.find_element(By.NAME, "password").send_keys("ann-password")
        by_name(ann, "Sign In").click()
        wait_for(ann, lambda: grid_count(ann) == 1, timeout=30, message="Ann's photo did not show")
        assert ann.find_element(By.CSS_SELECTOR, ".person-link").text == "Ann"

        # She adds Bob in Settings › People.
        ann.get(server.base + "/#/people")
        wait_for(ann, lambda: ann.find_elements(By.CSS_SELECTOR, ".people-table tbody tr"), timeout=20)
        form = ann.find_element(By.CSS_SELECTOR, ".add-person-form")
        form.find_element(By.NAME, "name").send_keys("bob")
        form.find_element(By.NAME, "displayName").send_keys("Bob")
        form.find_element(By.NAME, "password").send_keys("bob-password")
        form.find_element(By.NAME, "quota").send_keys("1 GB")
        by_name(ann, "Add").click()
        wait_for(ann, lambda: len(ann.find_elements(By.CSS_SELECTOR, ".people-table tbody tr")) == 2, message="Bob was not added")
        assert "of 1.0 GB" in ann.find_elements(By.CSS_SELECTOR, ".people-table tbody tr")[1].text
        ann.save_screenshot(str(ARTIFACTS / "people-settings-desktop.png"))

        # Bob signs in on his phone: an empty library, and no admin settings.
        sign_in(bob, server, "bob", "bob-password")
        wait_for(bob, lambda: not bob.find_element(By.CSS_SELECTOR, ".empty-state").get_attribute("hidden") is not None or
                 bob.find_element(By.CSS_SELECTOR, ".empty-state").is_displayed(), timeout=30, message="Bob's library is not empty")
        assert grid_count(bob) == 0
        assert all(not item.is_displayed() for item in bob.find_elements(By.CSS_SELECTOR, ".admin-only"))
        bob.save_screenshot(str(ARTIFACTS / "people-empty-library-phone.png"))
        # Another's routes are closed to him; his apps and background work are his own, none yet.
        assert in_page(bob, "GET", "/api/people")["status"] == 403
        apps = in_page(bob, "GET", "/api/clients")
        assert apps["status"] == 200 and json.loads(apps["body"]) == [], apps
        jobs = in_page(bob, "GET", "/api/jobs")
        assert jobs["status"] == 200 and json.loads(jobs["body"])["open"] == 0 and not json.loads(jobs["body"])["failed"], jobs

        # Both import the same photo; each edits their own.
        bob.find_element(By.ID, "import-input").send_keys(str(photo))
        wait_for(bob, lambda: grid_count(bob) == 1, timeout=60, message="Bob's import did not show")
        ann_assets = json.loads(in_page(ann, "GET", "/api/assets")["body"])["assets"]
        bob_assets = json.loads(in_page(bob, "GET", "/api/assets")["body"])["assets"]
        assert len(ann_assets) == 1 and len(bob_assets) == 1
        assert ann_assets[0]["localIdentifier"] != bob_assets[0]["localIdentifier"]
        assert ann_assets[0]["contentHash"] == bob_assets[0]["contentHash"]
        # Bob cannot read Ann's photo by its identifier.
        assert in_page(bob, "GET", asset_path(ann_assets[0]["localIdentifier"]))["status"] == 404
        assert in_page(ann, "PUT", asset_path(ann_assets[0]["localIdentifier"]) + "/adjustments", {"rotation": 90})["status"] == 200
        assert in_page(bob, "PUT", asset_path(bob_assets[0]["localIdentifier"]) + "/adjustments", {"rotation": 180})["status"] == 200
        ann_after = json.loads(in_page(ann, "GET", asset_path(ann_assets[0]["localIdentifier"]))["body"])["asset"]
        bob_after = json.loads(in_page(bob, "GET", asset_path(bob_assets[0]["localIdentifier"]))["body"])["asset"]
        assert (ann_after["pixelWidth"], ann_after["pixelHeight"]) == (240, 320)
        assert (bob_after["pixelWidth"], bob_after["pixelHeight"]) == (320, 240)

        # Account: Bob sees his sessions; a second one (another browser) is listed.
        cookie = second_session(server, "bob", "bob-password")
        bob.get(server.base + "/#/account")
        wait_for(bob, lambda: len(bob.find_elements(By.CSS_SELECTOR, ".session-row")) == 2, timeout=20)
        bob.save_screenshot(str(ARTIFACTS / "people-account-phone.png"))

        # Ann disables Bob: his sessions end within a second, on the page and elsewhere.
        status, _ = server.api("PATCH", "/api/people/bob", {"state": "disabled"})
        assert status == 200
        time.sleep(1.2)
        assert session_request(server, "GET", "/api/me", cookie)[0] == 401
        assert in_page(bob, "GET", "/api/me")["status"] == 401
        # Enabled again, he signs in; Sign Out Everywhere ends every session he has.
        assert server.api("PATCH", "/api/people/bob", {"state": "active"})[0] == 200
        cookie = second_session(server, "bob", "bob-password")
        sign_in(bob, server, "bob", "bob-password")
        wait_for(bob, lambda: grid_count(bob) == 1, timeout=30)
        bob.get(server.base + "/#/account")
        by_name(bob, "Sign Out Everywhere").click()
        confirm = wait_for(bob, lambda: bob.find_element(By.CSS_SELECTOR, ".ask-dialog button[value=confirm]"))
        confirm.click()
        wait_for(bob, lambda: bob.find_elements(By.CSS_SELECTOR, "body.sign-in form.sign-in-form"), timeout=20,
                 message="Bob's browser is still signed in")
        bob.save_screenshot(str(ARTIFACTS / "people-signed-out-phone.png"))
        assert session_request(server, "GET", "/api/me", cookie)[0] == 401
        # Ann is still signed in, and her photo is still hers alone.
        assert in_page(ann, "GET", "/api/me")["status"] == 200
        assert len(json.loads(in_page(ann, "GET", "/api/assets")["body"])["assets"]) == 1
    finally:
        ann.quit()
        bob.quit()


def test_sign_in_is_throttled_per_name(household):
    server, _ = household
    for _ in range(5):
        status, _, _ = session_request(server, "POST", "/api/session", "", {"name": "ann", "password": "wrong-password"})
        assert status == 401
    status, headers, body = session_request(server, "POST", "/api/session", "", {"name": "ann", "password": "ann-password"})
    assert status == 429 and int(headers["Retry-After"]) > 0, body
    # Another name from the same address is not yet refused.
    status, _, _ = session_request(server, "POST", "/api/session", "", {"name": "nobody", "password": "whatever-it-is"})
    assert status == 401


def bearer_request(server, method, path, token):
    """A request as a script sends it, with a person's key."""
    request = urllib.request.Request(server.base + path, method=method, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_key_made_in_account_reads_for_a_script_until_it_is_revoked_there(household):
    server, _ = household
    phone = make_phone_driver()
    try:
        sign_in(phone, server, "ann", "ann-password")
        wait_for(phone, lambda: grid_count(phone) == 1, timeout=30, message="Ann's photo did not show")
        phone.get(server.base + "/#/account")
        form = wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, "section.keys .key-form"), timeout=20)
        assert "No keys yet." in phone.find_element(By.CSS_SELECTOR, "section.keys").text
        form.find_element(By.NAME, "name").send_keys("photo frame")
        # Chosen as a script would (a phone's select opens a picker of its own, not the page's options).
        Select(form.find_element(By.CSS_SELECTOR, "select[name=scope]")).select_by_value("read")
        by_name(phone, "Make Key").click()
        token_field = wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".key-made .key-token"), message="no token shown")
        token = token_field.get_attribute("value")
        assert token.startswith("sbk_")
        assert "not shown again" in phone.find_element(By.CSS_SELECTOR, ".key-made").text
        row = phone.find_element(By.CSS_SELECTOR, "section.keys .key-row")
        assert "photo frame" in row.text and "Read only" in row.text and token[:8] in row.text and token not in row.text
        phone.save_screenshot(str(ARTIFACTS / "people-key-made-phone.png"))

        # A script reads Ann's library with it, and may not change it.
        status, body = bearer_request(server, "GET", "/api/assets", token)
        assert status == 200 and len(json.loads(body)["assets"]) == 1
        status, body = bearer_request(server, "POST", "/api/albums", token)
        assert status == 403 and json.loads(body)["error"]["code"] == "insufficientScope"

        # Revoked in Account: the script is refused at once; the token is shown nowhere now.
        phone.refresh()
        revoke = wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, '.key-row button[aria-label="Revoke photo frame"]'), timeout=20)
        revoke.click()
        wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".ask-dialog button[value=confirm]")).click()
        wait_for(phone, lambda: not phone.find_elements(By.CSS_SELECTOR, "section.keys .key-row"), message="the key is still listed")
        assert bearer_request(server, "GET", "/api/assets", token)[0] == 401
        assert token not in phone.page_source
    finally:
        phone.quit()


def add_virtual_authenticator(browser):
    """Chromium's virtual authenticator (CDP): a platform authenticator that keeps passkeys and
    says yes, as a phone or a laptop's fingerprint reader would."""
    browser.execute_cdp_cmd("WebAuthn.enable", {})
    return browser.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})["authenticatorId"]


def test_a_passkey_made_in_account_signs_in_and_stops_when_removed(household):
    server, _ = household
    # WebAuthn takes a name, not an IP address: localhost is this server too.
    base = server.base.replace("127.0.0.1", "localhost")
    browser = make_driver()
    try:
        authenticator = add_virtual_authenticator(browser)
        # At the IP address, the sign-in page offers no passkey and Account says why.
        browser.get(server.base + "/")
        assert not browser.find_element(By.CSS_SELECTOR, ".passkey-sign-in").is_displayed()

        browser.get(base + "/")
        browser.find_element(By.NAME, "name").send_keys("ann")
        browser.find_element(By.NAME, "password").send_keys("ann-password")
        by_name(browser, "Sign In").click()
        wait_for(browser, lambda: grid_count(browser) == 1, timeout=30, message="Ann's photo did not show")
        browser.get(base + "/#/account")
        form = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".passkey-form"), timeout=20)
        name = form.find_element(By.NAME, "name")
        name.clear()
        name.send_keys("Laptop")
        by_name(browser, "Add a Passkey").click()
        row = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".passkey-row"), timeout=20, message="no passkey listed")
        assert "Laptop" in row.text and "never used" in row.text
        credentials = browser.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
        assert len(credentials) == 1 and credentials[0]["isResidentCredential"] and credentials[0]["rpId"] == "localhost"
        browser.save_screenshot(str(ARTIFACTS / "people-passkey-added-desktop.png"))

        # Signed out, the passkey signs Ann in without her password.
        by_name(browser, "Sign Out").click()
        passkey = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".passkey-sign-in"), timeout=20)
        wait_for(browser, passkey.is_displayed, message="no passkey button on the sign-in page")
        browser.save_screenshot(str(ARTIFACTS / "people-passkey-sign-in-desktop.png"))
        passkey.click()
        wait_for(browser, lambda: grid_count(browser) == 1, timeout=30, message="the passkey did not sign Ann in")
        assert json.loads(in_page(browser, "GET", "/api/me")["body"])["person"]["name"] == "ann"
        browser.get(base + "/#/account")
        row = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".passkey-row"), timeout=20)
        assert "last used" in row.text

        # Removed, it signs in no more: the page says so, and nobody is signed in.
        row.find_element(By.CSS_SELECTOR, "button").click()
        wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".ask-dialog button[value=confirm]")).click()
        wait_for(browser, lambda: not browser.find_elements(By.CSS_SELECTOR, ".passkey-row"), message="the passkey is still listed")
        by_name(browser, "Sign Out").click()
        passkey = wait_for(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".passkey-sign-in"), timeout=20)
        wait_for(browser, passkey.is_displayed)
        passkey.click()
        note = browser.find_element(By.CSS_SELECTOR, ".passkey-note")
        wait_for(browser, lambda: "does not sign in" in note.text, timeout=20, message=f"the note: {note.text!r}")
        assert browser.find_elements(By.CSS_SELECTOR, "body.sign-in form.sign-in-form")
    finally:
        browser.quit()


def test_an_app_asks_the_person_it_is_for_and_only_them(household):
    # Issue 41 item 6: apps are each person's, and so are the cameras a browser reports. An app
    # registered for Bob asks Bob, on his phone; Ann's page never shows the question; Bob's
    # Privacy page lists the app with his decision, Ann's does not list it; the app then reads
    # Bob's photos, none of Ann's.
    server, photo = household
    status, made = server.api("POST", "/api/people", {"name": "bob", "password": "bob-password"})
    assert status == 201, made
    ann = make_driver()
    bob = make_phone_driver()
    try:
        sign_in(ann, server, "ann", "ann-password")
        sign_in(bob, server, "bob", "bob-password")
        for browser in (ann, bob):
            wait_for(browser, lambda: browser.execute_script("return window.shoebox?.state?.events?.readyState") == 1, timeout=30,
                     message="the page did not open its change stream")
        # Each page reported its browser's cameras for its own person: Bob's phone (no camera
        # here) for Bob, Ann's desktop (Chromium's one fake camera) for Ann; neither's is the other's.
        def reported(answer):
            status, known = answer
            return known if status == 200 and known.get("reportedAt") else None
        bobs = wait_for(bob, lambda: reported((lambda r: (r["status"], json.loads(r["body"])))(in_page(bob, "GET", "/api/picker/cameras"))),
                        timeout=20, message="Bob's phone reported no cameras for Bob")
        assert bobs["cameras"] == [], bobs
        anns = wait_for(ann, lambda: reported(server.api("GET", "/api/picker/cameras")), timeout=20,
                        message="Ann's browser reported no cameras for Ann")
        assert len(anns["cameras"]) == 1, anns
        status, registered = server.api("POST", "/api/clients", {"identifier": "com.example.frames", "displayName": "Frames",
                                                                  "usageDescriptions": {"NSPhotoLibraryUsageDescription": "To put your photos in frames"},
                                                                  "person": "bob"}, token="")
        assert status == 201, registered
        token = registered["token"]
        answers = []
        thread = threading.Thread(target=lambda: answers.append(server.api("POST", "/api/authorization/photoLibrary", token=token)))
        thread.start()
        dialog = wait_for(bob, lambda: bob.find_element(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), timeout=30,
                          message="Bob was not asked")
        assert "Frames" in dialog.text and "To put your photos in frames" in dialog.text
        bob.save_screenshot(str(ARTIFACTS / "people-app-asks-bob-phone.png"))
        assert not ann.find_elements(By.CSS_SELECTOR, "dialog.prompt-dialog[open]"), "Ann was shown Bob's app's question"
        by_name(bob, "Allow").click()
        thread.join(timeout=30)
        assert answers and answers[0][0] == 200 and answers[0][1]["status"] == "authorized", answers

        # Bob imports a photo; the app reads it, and nothing of Ann's.
        bob.find_element(By.ID, "import-input").send_keys(str(photo))
        wait_for(bob, lambda: grid_count(bob) == 1, timeout=60, message="Bob's import did not show")
        status, page = server.api("GET", "/api/assets", token=token)
        _, anns = server.api("GET", "/api/assets")
        assert status == 200 and len(page["assets"]) == 1, page
        assert page["assets"][0]["localIdentifier"] not in [asset["localIdentifier"] for asset in anns["assets"]]

        # Each person's Privacy page: Bob's lists Frames as allowed; Ann's has no apps.
        bob.get(server.base + "/#/privacy")
        card = wait_for(bob, lambda: bob.find_element(By.CSS_SELECTOR, 'article.client[aria-label="Frames"]'), timeout=20)
        assert "Frames" in card.text
        bob.save_screenshot(str(ARTIFACTS / "people-privacy-bob-phone.png"))
        ann.get(server.base + "/#/privacy")
        wait_for(ann, lambda: ann.find_element(By.CSS_SELECTOR, ".privacy-view:not([hidden])"), timeout=20)
        assert not ann.find_elements(By.CSS_SELECTOR, 'article.client[aria-label="Frames"]'), "Ann's Privacy lists Bob's app"
        ann.save_screenshot(str(ARTIFACTS / "people-privacy-ann-desktop.png"))
    finally:
        ann.quit()
        bob.quit()


@pytest.fixture
def provider(tmp_path):
    """The test OpenID Connect provider (scripts/oidc: Authlib's JOSE), for client `shoebox`."""
    folder = tmp_path / "oidc"
    started = subprocess.run([str(ROOT / "scripts" / "oidc"), "start", str(folder), "--client-id", "shoebox"],
                             capture_output=True, text=True, timeout=300)
    assert started.returncode == 0, started.stderr
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run([str(ROOT / "scripts" / "oidc"), "stop", str(folder)], timeout=60)


def test_a_person_connects_their_account_and_signs_in_with_it(tmp_path, provider):
    # Issue 41 item 2: OpenID Connect. Bob, signed in with his password on his phone, connects his
    # account at the provider in Settings › Account; then, at a desktop, he signs in with it.
    library = tmp_path / "Household.shoebox"
    made = subprocess.run([str(BIN / "shoebox"), "init", "--library", str(library), "--admin", "Ann", "--password-stdin"],
                          input="ann-password\n", capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    server = Server(library, extra=["--oidc-issuer", provider, "--oidc-client-id", "shoebox", "--oidc-name", "Home Login"])
    phone = make_phone_driver()
    desktop = make_driver()
    try:
        status, made = server.api("POST", "/api/people", {"name": "bob", "password": "bob-password"})
        assert status == 201, made
        sign_in(phone, server, "bob", "bob-password")
        wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, ".person-link").is_displayed(), timeout=30)
        phone.get(server.base + "/#/account")
        by_name(phone, "Connect Home Login").click()
        # The provider's own page: Bob types his name there.
        wait_for(phone, lambda: "Sign in to the test provider" in phone.page_source, timeout=30, message="the provider's page did not open")
        phone.find_element(By.NAME, "username").send_keys("bob")
        phone.find_element(By.XPATH, '//button[normalize-space()="Continue"]').click()
        section = wait_for(phone, lambda: phone.find_element(By.CSS_SELECTOR, "section.sign-in-account"), timeout=30,
                           message="the account page did not come back")
        wait_for(phone, lambda: "Signs you in as bob@example.org" in phone.find_element(By.CSS_SELECTOR, "section.sign-in-account").text,
                 timeout=30, message=section.text)
        phone.save_screenshot(str(ARTIFACTS / "people-oidc-connected-phone.png"))

        desktop.get(server.base + "/")
        by_name(desktop, "Sign In with Home Login").click()
        wait_for(desktop, lambda: "Sign in to the test provider" in desktop.page_source, timeout=30)
        desktop.find_element(By.NAME, "username").send_keys("bob")
        desktop.find_element(By.XPATH, '//button[normalize-space()="Continue"]').click()
        wait_for(desktop, lambda: desktop.find_element(By.CSS_SELECTOR, ".person-link").text == "bob", timeout=30,
                 message="the desktop did not sign in as Bob")
        desktop.save_screenshot(str(ARTIFACTS / "people-oidc-signed-in-desktop.png"))

        # An account nobody connected is refused on the sign-in page, in words.
        desktop.delete_all_cookies()
        desktop.get(server.base + "/")
        by_name(desktop, "Sign In with Home Login").click()
        wait_for(desktop, lambda: "Sign in to the test provider" in desktop.page_source, timeout=30)
        desktop.find_element(By.NAME, "username").send_keys("mallory")
        desktop.find_element(By.XPATH, '//button[normalize-space()="Continue"]').click()
        error = wait_for(desktop, lambda: desktop.find_element(By.CSS_SELECTOR, ".sign-in-error"), timeout=30)
        assert "No one here signs in with mallory@example.org" in error.text, error.text
        desktop.save_screenshot(str(ARTIFACTS / "people-oidc-refused-desktop.png"))
    finally:
        phone.quit()
        desktop.quit()
        server.stop()
