"""Sending email: the one transport behind invitations and security notices (domain/notifications.py).

Two backends, chosen by ``MAIL_BACKEND``:

- ``file`` (the default, for development and tests): each message is written, mode 0600, as one
  RFC 5322 ``.eml`` file under ``<CUSTODY_DATA_DIR>/mail/``. Messages may carry secrets (an
  invitation's acceptance token), hence the mode.
- ``smtp``: ``SMTP_URL`` is ``smtp://[user:password@]host[:port]`` (STARTTLS when the server
  offers it) or ``smtps://...`` (TLS from the start). Sent with the standard library's smtplib in
  a worker thread.

Nothing here logs a message body.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
import uuid
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from urllib.parse import unquote, urlsplit

from common.files import write_private_file
from core import clock
from core.settings import Settings, get_settings

SMTP_TIMEOUT_SECONDS = 30.0


def compose(*, sender: str, to: list[str], subject: str, body: str) -> EmailMessage:
    """A plain-text message."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = ", ".join(to)
    message["Subject"] = subject
    message["Date"] = formatdate(clock.now().timestamp(), usegmt=True)
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "localhost")
    message.set_content(body)
    return message


def mail_dir(settings: Settings) -> Path:
    """Where the ``file`` backend writes messages."""
    return Path(settings.data_dir) / "mail"


def _write_file(message: EmailMessage, settings: Settings) -> None:
    name = f"{clock.now().strftime('%Y%m%dT%H%M%S%f')}-{uuid.uuid4().hex[:8]}.eml"
    write_private_file(mail_dir(settings) / name, message.as_bytes())


def _send_smtp(message: EmailMessage, url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("SMTP_URL must be smtp://host[:port] or smtps://host[:port]")
    context = ssl.create_default_context()
    if parts.scheme == "smtps":
        client: smtplib.SMTP = smtplib.SMTP_SSL(parts.hostname, parts.port or 465, timeout=SMTP_TIMEOUT_SECONDS,
                                               context=context)
    else:
        client = smtplib.SMTP(parts.hostname, parts.port or 587, timeout=SMTP_TIMEOUT_SECONDS)
    with client:
        if parts.scheme == "smtp":
            client.ehlo()
            if client.has_extn("starttls"):
                client.starttls(context=context)
                client.ehlo()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        client.send_message(message)


async def send(*, to: list[str], subject: str, body: str, settings: Settings | None = None) -> None:
    """Send one message through the configured backend (raises on failure: the caller retries)."""
    settings = settings or get_settings()
    message = compose(sender=settings.mail_from, to=to, subject=subject, body=body)
    if settings.mail_backend == "smtp":
        if not settings.smtp_url:
            raise ValueError("MAIL_BACKEND=smtp needs SMTP_URL")
        await asyncio.to_thread(_send_smtp, message, settings.smtp_url)
    else:
        await asyncio.to_thread(_write_file, message, settings)
