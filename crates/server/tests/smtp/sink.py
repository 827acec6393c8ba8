"""A real SMTP server for the mail tests (Debian's python3-aiosmtpd).

Usage: sink.py PORT DIR. Every mail accepted is appended to DIR/mails.jsonl as one JSON
object: the envelope, the headers as decoded, and the plain-text and HTML parts.

While DIR/refuse exists, every recipient is refused with a temporary 451; a recipient
whose local part starts with "bounce" is refused for good with 550. The server writes
DIR/ready once it is listening.
"""

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
        if os.path.exists(os.path.join(self.folder, "refuse")):
            return "451 4.3.0 Refusing mail for a while, try again later"
        if address.split("@")[0].startswith("bounce"):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        parts = {}
        for part in message.walk():
            kind = part.get_content_type()
            if kind in ("text/plain", "text/html") and kind not in parts:
                parts[kind] = part.get_content()
        headers = {}
        for name, value in message.items():
            headers.setdefault(name.lower(), str(value))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "headers": headers,
            "content_type": message.get_content_type(),
            "text": parts.get("text/plain", ""),
            "html": parts.get("text/html", ""),
        }
        self.out.write(json.dumps(record) + "\n")
        self.out.flush()
        os.fsync(self.out.fileno())
        return "250 Message accepted"


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Sink(folder), hostname="127.0.0.1", port=port)
    controller.start()
    open(os.path.join(folder, "ready"), "w").close()
    # The controller serves on a thread of its own; this one only waits to be killed.
    threading.Event().wait()


if __name__ == "__main__":
    main()
