"""A support call, in a real headless Chromium, against a running Provisio.

The cardholder's card is in Wallet but "needs verification". The agent signs in to the
console (naming the bank's tenant), finds the token by the card's last four digits, sees it
pending verification, activates it by customer service with a reason, and sees it active with
the audit entry. The same search lists the card's Google Pay token too: the agent reads each
token's wallet and device as a person names them ("Apple Pay", "Google Pay", "phone"), on the
results and on the Google token's own page.
Along the way the page is checked for what a keyboard and a screen reader need.

Run by ConsoleBrowserTests (Swift), which starts the server and checks the sandbox pass
afterwards. Prints one JSON line on success; exits 1 with the reason otherwise.
"""

import argparse
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait


def fail(message):
    print(json.dumps({"ok": False, "error": message}))
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def wait_until(driver, condition, what):
    """A click or an Enter starts a navigation; wait for the page it leads to."""
    try:
        WebDriverWait(driver, 15).until(condition)
    except Exception:
        fail(f"timed out waiting for {what} on {driver.current_url}")


def unlabelled_fields(driver):
    """Every visible form field must have a <label for=…> naming it."""
    missing = []
    for field in driver.find_elements(By.CSS_SELECTOR, "input, select, textarea"):
        if field.get_attribute("type") == "hidden":
            continue
        field_id = field.get_attribute("id")
        if not field_id or not driver.find_elements(By.CSS_SELECTOR, f'label[for="{field_id}"]'):
            missing.append(field.get_attribute("name"))
    return missing


def cells(row):
    """A token row's wallet and device, as the page shows them."""
    return {name: row.find_element(By.CSS_SELECTOR, f"td.{name}").text for name in ("wallet", "device")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--tenant", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--last4", required=True)
    parser.add_argument("--reason", required=True)
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--google-token", required=True, help="the card's Google Pay token id")
    parser.add_argument("--google-device", required=True, help="its device as the console names it")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()

    options = Options()
    options.binary_location = args.chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1100"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(args.chromedriver), options=options)
    driver.set_page_load_timeout(30)
    try:
        # Signed out, the console sends the browser to its sign-in page.
        driver.get(args.url + "/console")
        expect(driver.current_url.endswith("/console/sign-in"), f"not sent to sign in: {driver.current_url}")
        expect(not unlabelled_fields(driver), f"sign-in fields without a label: {unlabelled_fields(driver)}")
        # The first Tab reaches the skip link: the page is usable from the keyboard.
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        expect(driver.switch_to.active_element.get_attribute("class") == "skip", "the first Tab is not the skip link")

        driver.find_element(By.ID, "tenant").send_keys(args.tenant)
        driver.find_element(By.ID, "email").send_keys(args.email)
        password = driver.find_element(By.ID, "password")
        password.send_keys(args.password)
        password.send_keys(Keys.ENTER)  # submitting from the keyboard
        wait_until(driver, lambda d: d.current_url.endswith("/console"), "the search page")
        expect(driver.current_url.endswith("/console"), f"sign-in did not land on the search page: {driver.current_url}")
        expect(not unlabelled_fields(driver), f"search fields without a label: {unlabelled_fields(driver)}")

        # Find the customer's token by the card's last four digits.
        driver.find_element(By.ID, "token-last4").send_keys(args.last4)
        driver.find_element(By.XPATH, "//button[text()='Search tokens']").click()
        wait_until(driver, lambda d: "/console/tokens?" in d.current_url, "the token search's results")
        results = driver.current_url
        google_rows = driver.find_elements(By.XPATH, f"//a[text()='{args.google_token}']/ancestor::tr")
        expect(len(google_rows) == 1, f"the Google token is not among the results for last 4 {args.last4}")
        google_row = cells(google_rows[0])
        expect(
            google_row["wallet"] == "Google Pay" and google_row["device"] == args.google_device,
            f"the Google token's row reads {google_row}",
        )
        rows = driver.find_elements(
            By.XPATH,
            "//tr[td[@class='state' and text()='pending_verification'] and td[@class='wallet' and text()='Apple Pay']]",
        )
        expect(
            len(rows) == 1,
            f"expected one pending Apple Pay token for last 4 {args.last4}, found {len(rows)} on {driver.current_url}: "
            + driver.find_element(By.TAG_NAME, "main").text[:1500],
        )
        expect(cells(rows[0])["device"] == "phone", f"the Apple token's row reads {cells(rows[0])}")

        # The Google token's own page names its wallet and device the same way.
        google_rows[0].find_element(By.TAG_NAME, "a").click()
        wait_until(driver, lambda d: d.find_elements(By.ID, "token-wallet"), "the Google token's page")
        wallet = driver.find_element(By.ID, "token-wallet").text
        device = driver.find_element(By.ID, "token-device").text
        expect(wallet == "Google Pay" and device == args.google_device, f"the Google token's page reads {wallet!r}, {device!r}")
        driver.get(results)
        wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "td.wallet"), "the token search's results again")
        rows = driver.find_elements(
            By.XPATH,
            "//tr[td[@class='state' and text()='pending_verification'] and td[@class='wallet' and text()='Apple Pay']]",
        )
        expect(len(rows) == 1, "the pending Apple Pay token is gone from the results")
        rows[0].find_element(By.TAG_NAME, "a").click()
        wait_until(driver, lambda d: d.find_elements(By.ID, "token-state"), "the token's page")
        expect(driver.find_element(By.ID, "token-state").text == "pending_verification", "the token is not pending")
        expect(driver.find_element(By.ID, "token-wallet").text == "Apple Pay", "the pending token is not Apple Pay's")
        token_id = driver.current_url.rsplit("/", 1)[-1]

        # Activate it by customer service, with the agent's reason.
        expect(not unlabelled_fields(driver), f"token page fields without a label: {unlabelled_fields(driver)}")
        Select(driver.find_element(By.ID, "action")).select_by_value("activate")
        driver.find_element(By.ID, "reason").send_keys(args.reason)
        driver.find_element(By.XPATH, "//button[text()='Apply']").click()
        wait_until(driver, lambda d: "done=activate" in d.current_url, "the token's page after the action")

        expect(driver.find_element(By.ID, "token-state").text == "active", "the token did not become active")
        notice = driver.find_element(By.CSS_SELECTOR, "p.notice").text
        expect("activated" in notice, f"no confirmation on the page: {notice!r}")
        audit = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "tr.audit-row")]
        expect(
            any("token.activated" in row and args.reason in row and "operator" in row for row in audit),
            f"no audit entry for the activation: {audit}",
        )
        # Tall enough for the history and the audit entries to be in the picture.
        driver.set_window_size(1280, 1900)
        driver.save_screenshot(args.screenshot)
        print(json.dumps({"ok": True, "token_id": token_id, "google_token_id": args.google_token, "audit_rows": len(audit)}))
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
