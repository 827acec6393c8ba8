"""A real SMTP server for the mail tests (Debian's python3-aiosmtpd).

Usage: sink.py PORT DIR. Every mail accepted is appended to DIR/mails.jsonl as one JSON
object: the envelope, the headers as decoded, the plain-text and HTML parts, each
picture (its type, Content-ID, disposition and bytes in base64) and the MIME types of
every part in order.

While DIR/slow exists, each recipient is answered after the milliseconds it holds (50
when it is empty). While DIR/refuse exists, every recipient is refused with a temporary 451; a recipient
whose local part starts with "bounce" is refused for good with 550. The server writes
DIR/ready once it is listening.
"""

import asyncio
import base64
import email
import email.policy
import json
import os
import sys
import threading

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder):
        self.folder = folder
        self.out = open(os.path.join(folder, "mails.jsonl"), "a", encoding="utf-8")

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        slow = os.path.join(self.folder, "slow")
        if os.path.exists(slow):
            # A slow mail server, so that a sender killed by a test dies mid-conversation.
            try:
                with open(slow, encoding="utf-8") as f:
                    ms = int(f.read().strip() or "50")
            except (OSError, ValueError):
                ms = 50
            await asyncio.sleep(ms / 1000)
        if os.path.exists(os.path.join(self.folder, "refuse")):
            return "451 4.3.0 Refusing mail for a while, try again later"
        if address.split("@")[0].startswith("bounce"):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        # Answered first and read after, as a mail server that queues the raw message
        # and parses it later: reading it here would hold the 250 back, and widen the
        # window in which a killed sender cannot know its mail was taken.
        content, mail_from, rcpt_tos = envelope.content, envelope.mail_from, list(envelope.rcpt_tos)
        asyncio.get_running_loop().call_soon(self.record, content, mail_from, rcpt_tos)
        return "250 Message accepted"

    def record(self, content, mail_from, rcpt_tos):
        message = email.message_from_bytes(content, policy=email.policy.default)
        parts = {}
        images = []
        for part in message.walk():
            kind = part.get_content_type()
            if kind in ("text/plain", "text/html") and kind not in parts:
                parts[kind] = part.get_content()
            elif part.get_content_maintype() == "image":
                images.append({
                    "content_type": kind,
                    "content_id": str(part.get("content-id", "")),
                    "disposition": str(part.get("content-disposition", "")),
                    "base64": base64.b64encode(part.get_payload(decode=True)).decode("ascii"),
                })
        headers = {}
        for name, value in message.items():
            headers.setdefault(name.lower(), str(value))
        record = {
            "mail_from": mail_from,
            "rcpt_tos": rcpt_tos,
            "headers": headers,
            "content_type": message.get_content_type(),
            "text": parts.get("text/plain", ""),
            "html": parts.get("text/html", ""),
            "images": images,
            "structure": [p.get_content_type() for p in message.walk()],
        }
        self.out.write(json.dumps(record) + "\n")
        # Flushed, not synced: the sink is never killed, and a sync here would widen the
        # window in which a killed sender cannot know its mail was taken.
        self.out.flush()


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Sink(folder), hostname="127.0.0.1", port=port)
    controller.start()
    open(os.path.join(folder, "ready"), "w").close()
    # The controller serves on a thread of its own; this one only waits to be killed.
    threading.Event().wait()


if __name__ == "__main__":
    main()
