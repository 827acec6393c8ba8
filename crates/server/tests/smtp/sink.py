"""A real SMTP server for the mail tests (Debian's python3-aiosmtpd).

Usage: sink.py PORT DIR [--starttls CERT KEY | --tls CERT KEY] [--auth USER:PASSWORD]

Every mail accepted is appended to DIR/mails.jsonl as one JSON object: the envelope, the
headers as decoded, the plain-text and HTML parts, each picture (its type, Content-ID,
disposition and bytes in base64) and the MIME types of every part in order.

While DIR/slow exists, each recipient is answered after the milliseconds it holds (50
when it is empty); when it holds three numbers, `RCPT DATA END`, the second delays the
answer to DATA (the 354) and the third the answer to the message's end (the 250), the
message being recorded before that wait: a client killed then has had its mail taken.
While DIR/refuse exists, every recipient is refused with a temporary 451; while
DIR/refuse-end exists, every message is refused at its end with a temporary 451; a
recipient whose local part starts with "bounce", or who is a line of DIR/bounce, is
refused for good with 550. Each recipient given is appended to DIR/events.jsonl with the
reply's code (`{"event": "rcpt", "address": …, "reply": "250"}`).

Each connection that ends without QUIT is appended there too (`"event": "lost"`) with the point of
the conversation it ended at: "idle" (between mails), "mail", "rcpt", "data" (DATA given,
354 not yet sent), "content" (the message being received), "end" (the message whole and
recorded, the 250 not yet sent). The server writes DIR/ready once it is listening.

--starttls offers STARTTLS with the certificate, --tls speaks TLS from the first byte;
--auth requires AUTH (PLAIN or LOGIN) with that user and password, and every session's
user is recorded with its mails ("auth_user").
"""

import asyncio
import base64
import email
import email.policy
import json
import os
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult


def delays(folder):
    """(rcpt, data, end) in seconds while DIR/slow exists, else None."""
    slow = os.path.join(folder, "slow")
    if not os.path.exists(slow):
        return None
    try:
        with open(slow, encoding="utf-8") as f:
            numbers = [int(n) for n in f.read().split()] or [50]
    except (OSError, ValueError):
        numbers = [50]
    numbers = (numbers + [0, 0])[:3]
    return tuple(n / 1000 for n in numbers)


class Sink:
    def __init__(self, folder):
        self.folder = folder
        self.out = open(os.path.join(folder, "mails.jsonl"), "a", encoding="utf-8")
        self.events = open(os.path.join(folder, "events.jsonl"), "a", encoding="utf-8")

    def event(self, record):
        self.events.write(json.dumps(record) + "\n")
        self.events.flush()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        pace = delays(self.folder)
        if pace:
            # A slow mail server, so that a sender killed by a test dies mid-conversation.
            await asyncio.sleep(pace[0])
        if os.path.exists(os.path.join(self.folder, "refuse")):
            reply = "451 4.3.0 Refusing mail for a while, try again later"
        elif address.split("@")[0].startswith("bounce") or address in self.bouncing():
            reply = "550 5.1.1 No such mailbox here"
        else:
            envelope.rcpt_tos.append(address)
            reply = "250 OK"
        self.event({"event": "rcpt", "address": address, "reply": reply[:3]})
        return reply

    def bouncing(self):
        try:
            with open(os.path.join(self.folder, "bounce"), encoding="utf-8") as f:
                return {line.strip() for line in f if line.strip()}
        except OSError:
            return set()

    async def handle_DATA(self, server, session, envelope):
        server.phase = "end"
        if os.path.exists(os.path.join(self.folder, "refuse-end")):
            return "451 4.3.0 Not taking messages for a while, try again later"
        # Recorded before the answer, as a mail server queues a message before it says
        # 250: a client killed while it waits has had its mail taken.
        # STARTTLS sets the session's ssl; TLS from the first byte shows on the transport.
        tls = session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None
        self.record(envelope.content, envelope.mail_from, list(envelope.rcpt_tos), session, tls)
        pace = delays(self.folder)
        if pace and pace[2]:
            await asyncio.sleep(pace[2])
        return "250 Message accepted"

    def record(self, content, mail_from, rcpt_tos, session, tls):
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
            "tls": tls,
            "auth_user": session.auth_data.decode() if isinstance(session.auth_data, bytes) else None,
        }
        self.out.write(json.dumps(record) + "\n")
        # Flushed, not synced: the sink is never killed.
        self.out.flush()


class Recording(SMTP):
    """The protocol, noting where each conversation is, to say where a killed one ended."""

    phase = "idle"
    ended = False

    def note_end(self):
        if not self.ended:
            self.ended = True
            self.event_handler.event({"event": "lost", "phase": self.phase})

    def connection_lost(self, error):
        self.note_end()
        super().connection_lost(error)

    def eof_received(self):
        self.note_end()
        return super().eof_received()

    async def smtp_MAIL(self, arg):
        self.phase = "mail"
        await super().smtp_MAIL(arg)

    async def smtp_RCPT(self, arg):
        self.phase = "rcpt"
        await super().smtp_RCPT(arg)

    async def smtp_DATA(self, arg):
        self.phase = "data"
        pace = delays(self.event_handler.folder)
        if pace and pace[1]:
            await asyncio.sleep(pace[1])
        self.phase = "content"
        await super().smtp_DATA(arg)
        self.phase = "idle"

    async def smtp_RSET(self, arg):
        self.phase = "idle"
        await super().smtp_RSET(arg)

    async def smtp_QUIT(self, arg):
        self.ended = True
        await super().smtp_QUIT(arg)


class RecordingController(Controller):
    def factory(self):
        return Recording(self.handler, **self.SMTP_kwargs)


def main():
    port, folder = int(sys.argv[1]), sys.argv[2]
    rest = sys.argv[3:]
    smtp_kwargs = {}
    server_tls = None
    while rest:
        option = rest.pop(0)
        if option in ("--starttls", "--tls"):
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(rest.pop(0), rest.pop(0))
            if option == "--starttls":
                smtp_kwargs["tls_context"] = context
                smtp_kwargs["require_starttls"] = True
            else:
                server_tls = context
                # aiosmtpd knows of STARTTLS only; this connection is TLS throughout.
                smtp_kwargs["auth_require_tls"] = False
        elif option == "--auth":
            user, password = rest.pop(0).split(":", 1)

            def check(server, session, envelope, mechanism, data, user=user, password=password):
                ok = data.login.decode() == user and data.password.decode() == password
                return AuthResult(success=ok, handled=False, auth_data=data.login if ok else None)

            smtp_kwargs["authenticator"] = check
            smtp_kwargs["auth_required"] = True
        else:
            raise SystemExit(f"sink.py: unknown option {option}")
    controller = RecordingController(
        Sink(folder), hostname="127.0.0.1", port=port, ssl_context=server_tls, **smtp_kwargs
    )
    controller.start()
    open(os.path.join(folder, "ready"), "w").close()
    # The controller serves on a thread of its own; this one only waits to be killed.
    threading.Event().wait()


if __name__ == "__main__":
    main()
