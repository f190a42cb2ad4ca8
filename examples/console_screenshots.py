"""Screenshots of the web console: starts the gateway on a sample docs folder, drives headless Chromium, saves PNGs.

    python examples/console_screenshots.py [OUT_DIR]          # default /tmp/console-shots
    python examples/console_screenshots.py OUT_DIR --url http://127.0.0.1:8000   # an already running server

The gateway answers through a small fake upstream model (started here too) whose answer has a meta sentence, a
supported one and an unsupported one, so the screenshots show all three validations and a removed sentence.

Needs fastapi + uvicorn (the server), selenium, and a Chromium with its chromedriver (Debian: the chromium and
chromium-driver packages; other paths via --chromium / --chromedriver).
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path

QUESTION = "What is the punishment for cheating under Section 420?"
OFF_TOPIC = "What is the capital of France?"
UNANSWERED = "Is cheating under Section 420 bailable?"
PARTIAL = "What does the Indian Penal Code say about cheating and property?"
# A deliberation whose early round is mostly meta-discussion: the third contribution opens the choice modal.
TOPIC = "Should we move the orders database to PostgreSQL this quarter?"
MEETING = (
    ("Architect", "Move the orders table first, then switch the reads, then drop the old schema."),
    ("Analyst", "Without knowing the deadline, it depends on many factors. When is the launch?"),
    ("Engineer", "I can't assess the risk without more context. Which database do you run today, and how big is it?"),
)


def write_sample_docs(folder: Path) -> None:
    """One Markdown file per statute, a section per sample chunk."""
    from sufficient_context._samples import SAMPLE_CHUNKS

    statutes: dict[str, list[str]] = {}
    for chunk in SAMPLE_CHUNKS:
        meta = chunk["metadata"]
        assert isinstance(meta, dict)
        statutes.setdefault(str(meta["statute"]), []).append(f"## Section {meta['section']}\n\n{chunk['content']}\n")
    for statute, sections in statutes.items():
        (folder / f"{statute.lower()}.md").write_text(f"# {statute}\n\n" + "\n".join(sections), encoding="utf-8")


MODEL_ANSWER = (
    "Based on the retrieved documents, here is the answer. "
    "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]. "
    "The offence is bailable and punishable with up to ten years [S1]."
)


def fake_model() -> object:
    """An OpenAI-compatible upstream that always says MODEL_ANSWER."""
    from fastapi import FastAPI

    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def complete() -> dict[str, object]:
        message = {"role": "assistant", "content": MODEL_ANSWER}
        return {"id": "fake", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}

    return app


def start_gateway(docs: Path, data_dir: Path) -> tuple[str, list[tuple[object, threading.Thread]]]:
    """The fake model and the real gateway (answering through it), each in a background thread."""
    from sufficient_context.server import ServerSettings, UpstreamSettings, create_app

    model_url, model, model_thread = start_server(fake_model())
    settings = ServerSettings(docs=docs, data_dir=data_dir, upstream=UpstreamSettings(url=model_url + "/v1"))
    url, gateway, gateway_thread = start_server(create_app(settings))
    return url, [(model, model_thread), (gateway, gateway_thread)]


def start_server(app: object) -> tuple[str, object, threading.Thread]:
    """`app` under uvicorn in a background thread on a free loopback port: (base url, uvicorn server, thread)."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, thread


def make_driver(chromium: str, chromedriver: str, width: int, height: int):  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"):
        options.add_argument(arg)
    return webdriver.Chrome(options=options, service=Service(chromedriver))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default="/tmp/console-shots", help="folder for the PNGs")
    parser.add_argument("--url", help="use this running server instead of starting one on sample docs")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    args = parser.parse_args()

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        servers: list[tuple[object, threading.Thread]] = []
        if args.url:
            base = args.url.rstrip("/")
        else:
            docs = Path(tmp) / "docs"
            docs.mkdir()
            write_sample_docs(docs)
            base, servers = start_gateway(docs, Path(tmp) / "data")
        driver = make_driver(args.chromium, args.chromedriver, 1400, 1000)
        wait = WebDriverWait(driver, 20)
        saved: list[Path] = []

        def shot(name: str) -> None:
            path = out / name
            driver.save_screenshot(str(path))
            saved.append(path)

        def deliberate() -> None:
            """Start a session on the deliberation page and post MEETING until the modal opens."""
            driver.get(base + "/deliberation")
            wait.until(ec.element_to_be_clickable((By.ID, "topic"))).send_keys(TOPIC)
            driver.find_element(By.ID, "start-button").click()
            wait.until(ec.text_to_be_present_in_element((By.ID, "stream-status"), "Listening"))
            for expert, text in MEETING:
                box = driver.find_element(By.ID, "expert")
                box.clear()
                box.send_keys(expert)
                driver.find_element(By.ID, "contribution").send_keys(text + "\n")
                wait.until(lambda d: d.find_element(By.ID, "contribution").get_attribute("value") == "")
            wait.until(ec.visibility_of_element_located((By.ID, "choice-dialog")))

        def ask(question: str) -> None:
            driver.get(base + "/")
            box = wait.until(ec.element_to_be_clickable((By.ID, "question")))
            box.clear()
            box.send_keys(question)
            driver.find_element(By.ID, "ask-button").click()
            wait.until(lambda d: d.find_element(By.ID, "status").text == "Answer ready.")

        try:
            for scheme, suffix in (("light", ""), ("dark", "-dark")):
                driver.execute_cdp_cmd(
                    "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
                )
                ask(QUESTION)
                first = driver.find_element(By.CSS_SELECTOR, "#claims details")
                first.find_element(By.TAG_NAME, "summary").click()
                shot(f"01-answer{suffix}.png")
                driver.find_element(By.ID, "feedback-correct").click()
                wait.until(ec.text_to_be_present_in_element((By.ID, "feedback-status"), "recorded"))
                driver.find_element(By.CSS_SELECTOR, "#claims a.cite").click()
                wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#panel-doc mark")))
                shot(f"02-source-panel{suffix}.png")
                ask(OFF_TOPIC)
                shot(f"03-refusal{suffix}.png")
                ask(UNANSWERED)
                shot(f"06-declined{suffix}.png")
                ask(PARTIAL)
                shot(f"07-caveat{suffix}.png")
                driver.get(base + "/history")
                wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#history-rows tr")))
                shot(f"04-history{suffix}.png")
                deliberate()
                driver.find_element(By.ID, "modal-context").send_keys("About 2 TB on MySQL 8; launch in March.")
                shot(f"09-deliberation-modal{suffix}.png")
                driver.find_element(By.ID, "choice-continue").click()
                wait.until(ec.invisibility_of_element_located((By.ID, "choice-modal")))
                driver.find_element(By.CSS_SELECTOR, "#prompt-wrap summary").click()
                driver.execute_script("window.scrollTo(0, 0)")
                shot(f"10-deliberation-continued{suffix}.png")
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            driver.set_window_size(420, 1100)
            ask(QUESTION)
            shot("05-narrow.png")
            driver.find_element(By.CSS_SELECTOR, "#claims a.cite").click()
            wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#panel-doc mark")))
            shot("08-narrow-source-panel.png")
            deliberate()
            shot("11-narrow-deliberation-modal.png")
        finally:
            driver.quit()
            for server, thread in reversed(servers):
                server.should_exit = True  # type: ignore[attr-defined]
                thread.join(10)
        for path in saved:
            print(path)


if __name__ == "__main__":
    main()
