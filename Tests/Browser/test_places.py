"""Places and a map (issue 19 item 3): the Places view draws the photos' places as clusters on an
offline world map and lists countries and cities with counts and covers; a cluster, a country or
a city opens a grid of its photos; the viewer's info panel shows the place on a small map."""

import subprocess
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import bench, click_settled, make_driver, make_phone_driver, serve_imported, wait_for


@pytest.fixture(scope="module")
def places_server():
    """Four photos: two in Rome, one in Paris, one in Kyoto (GPS written by exiftool)."""
    folder = Path(tempfile.mkdtemp(prefix="shoebox-browser-places-"))
    inputs = folder / "inputs"
    bench("generate", str(inputs), "--count", "4", "--width", "480", "--height", "360")
    spots = [("41.8902", "N", "12.4922", "E"), ("41.9009", "N", "12.4833", "E"), ("48.8584", "N", "2.2945", "E"), ("35.0116", "N", "135.7681", "E")]
    for photo, (latitude, north, longitude, east) in zip(sorted(inputs.iterdir()), spots):
        written = subprocess.run(["exiftool", "-q", "-overwrite_original", f"-GPSLatitude={latitude}", f"-GPSLatitudeRef={north}",
                                  f"-GPSLongitude={longitude}", f"-GPSLongitudeRef={east}", str(photo)], capture_output=True, text=True)
        assert written.returncode == 0, written.stderr
    yield from serve_imported(folder, inputs, "Places.shoebox")


def clusters(browser):
    return browser.execute_script("return [...document.querySelectorAll('.map-cluster')].map((g) => Number(g.dataset.count))")



def title_and_count(browser):
    return browser.execute_script("return [document.querySelector('.view-title').textContent, document.querySelector('.view-count').textContent]")


def open_places(browser, server, by_link=True):
    browser.get(server.user_url)
    if by_link:
        link = wait_for(browser, lambda: next((e for e in browser.find_elements(By.CSS_SELECTOR, ".places-link") if e.is_displayed()), None),
                        message="no Places in the sidebar")
        link.click()
    else:
        browser.execute_script("location.hash = '#/places'")
    wait_for(browser, lambda: sum(clusters(browser)) == 4, message="the map did not show the four photos as clusters")


def test_the_map_and_the_list_open_the_photos_of_a_place(places_server):
    browser = make_driver()
    try:
        open_places(browser, places_server)
        assert sorted(clusters(browser), reverse=True) == [2, 1, 1], "Rome's two photos are one cluster at the world's scale"
        outlines = browser.execute_script("return document.querySelectorAll('.world-land path').length")
        assert outlines > 150, "the countries' outlines are drawn"
        visited = browser.execute_script("return [...document.querySelectorAll('.world-land path.visited')].map((p) => p.dataset.code).sort()")
        assert visited == ["FR", "IT", "JP"]
        cards = browser.execute_script(
            "return [...document.querySelectorAll('.country-card')].map((c) => [c.querySelector('.place-name').textContent, c.querySelector('.place-count').textContent])")
        assert cards == [["Italy", "2"], ["France", "1"], ["Japan", "1"]]
        covers = browser.execute_script("return [...document.querySelectorAll('.place-cover img')].filter((i) => i.complete && i.naturalWidth > 0).length")
        assert covers == 3 or wait_for(browser, lambda: browser.execute_script(
            "return [...document.querySelectorAll('.place-cover img')].every((i) => i.complete && i.naturalWidth > 0)"), message="covers did not load")

        # Zooming in halves the view and asks for smaller cells: Rome's two stay together, the rest apart.
        before = browser.execute_script("return document.querySelector('.world-map-svg').viewBox.baseVal.width")
        browser.find_element(By.CSS_SELECTOR, '.map-controls [aria-label="Zoom in"]').click()
        wait_for(browser, lambda: browser.execute_script("return document.querySelector('.world-map-svg').viewBox.baseVal.width") == before / 2)
        browser.find_element(By.CSS_SELECTOR, '.map-controls [aria-label="Whole world"]').click()

        # The largest cluster opens its photos.
        browser.execute_script("[...document.querySelectorAll('.map-cluster')].find((g) => g.dataset.count === '2').dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        wait_for(browser, lambda: title_and_count(browser)[1] == "2 items", message="the cluster did not open its two photos")
        assert title_and_count(browser)[0] == "Near Rome, Italy"
        assert "#/place/region" in browser.current_url

        # A city from the list, then a photo's info panel with its small map.
        browser.find_element(By.CSS_SELECTOR, ".places-link").click()
        wait_for(browser, lambda: click_settled(browser, '.city-link[aria-label^="Paris"]'), message="no Paris in the list")
        wait_for(browser, lambda: title_and_count(browser) == ["Paris, France", "1 item"], message="the city did not open its photo")
        browser.refresh()
        wait_for(browser, lambda: title_and_count(browser) == ["Paris, France", "1 item"], message="a reload keeps the place")
        wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#photos .cell img"))
        browser.execute_script("document.querySelector('#photos .cell').dispatchEvent(new MouseEvent('dblclick', {bubbles: true}))")
        wait_for(browser, lambda: "/photo/" in browser.current_url)
        wait_for(browser, lambda: browser.execute_script("return document.querySelector('.viewer').open"))
        ActionChains(browser).send_keys("i").perform()
        pin = wait_for(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".info-panel .point-map .map-pin"), message="no map in the info panel")
        assert abs(float(pin[0].get_attribute("cx")) - 2.2945) < 0.001 and abs(float(pin[0].get_attribute("cy")) + 48.8584) < 0.001
        assert "Paris, France" in browser.find_element(By.CSS_SELECTOR, ".info-panel").text
    finally:
        browser.quit()


def test_places_on_a_phone(places_server):
    browser = make_phone_driver()
    try:
        open_places(browser, places_server, by_link=False)
        width = browser.execute_script("return document.querySelector('.world-map').getBoundingClientRect().width")
        assert width <= 390
        columns = browser.execute_script("return getComputedStyle(document.querySelector('.place-list')).gridTemplateColumns.split(' ').length")
        assert columns == 2, "two countries a row on a phone"
        # The controls sit under the map, not over its marks.
        controls = browser.execute_script("return document.querySelector('.map-controls').getBoundingClientRect().top")
        bottom = browser.execute_script("return document.querySelector('.world-map').getBoundingClientRect().bottom")
        assert controls >= bottom
    finally:
        browser.quit()
