#!/usr/bin/env python3
"""Writes the seed corpora of the text fuzz targets into Tools/fuzzing/corpus/<target>/.

    python3 Tools/fuzzing/make-seeds.py

Seeds are small hand-written inputs in the shape of real traffic and files (Dovecot and Gmail style IMAP
responses, RFC 5322 / MIME messages, mbox files, SMTP replies). The record seeds come from the fuzz-record
target itself (`fuzz-record --write-seeds DIR`: one record per event type, plain and compressed, at its current
schema version); when a type's schema grows, its seeds of the older version are kept renamed NN-Type-vN-plain and
-zstd (the upcasting of old records is fuzzed from them) and the new ones copied in beside them
(CatalogDocTests.testTheRecordFuzzSeedsHoldEveryType checks both).
Rerunning rewrites the seeds named here and leaves other files alone.
"""
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def crlf(text):
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


# --- IMAP responses -------------------------------------------------------------------------------
imap = {
    "greeting": "* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot ready.\n",
    "preauth": "* PREAUTH [CAPABILITY IMAP4rev2 IDLE] Logged in as bob\n",
    "capability": "* CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT THREAD=REFERENCES MULTIAPPEND UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE SPECIAL-USE\na1 OK Pre-login capabilities listed, post-login capabilities have more.\n",
    "login": "a2 OK [CAPABILITY IMAP4rev1 IDLE CONDSTORE QRESYNC] Logged in\n",
    "list": '* LIST (\\HasNoChildren) "/" INBOX\n* LIST (\\HasNoChildren \\Sent) "/" Sent\n* LIST (\\HasNoChildren \\Trash) "/" Trash\n* LIST (\\HasChildren \\Noselect) "/" "Archive"\n* LIST (\\HasNoChildren) "/" "Archive/2024"\n* LIST (\\HasNoChildren) "/" "&AMk-t&AOk-"\na3 OK List completed (0.001 + 0.000 secs).\n',
    "list-literal": '* LIST () "/" {11}\nodd"name\\x\na4 OK done\n',
    "list-nil-delim": '* LIST (\\Noselect) NIL ""\n',
    "list-status": '* LIST (\\HasNoChildren) "." INBOX\n* STATUS INBOX (MESSAGES 17 UIDNEXT 4392 UIDVALIDITY 1721000000 UNSEEN 3 HIGHESTMODSEQ 9921)\na5 OK List completed\n',
    "namespace": '* NAMESPACE (("" "/")) (("Other Users/" "/")) (("Shared/" "/" "X-PARAM" ("a" "b")))\na6 OK Namespace completed\n',
    "select": "* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded $Junk)\n* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded $Junk \\*)] Flags permitted.\n* 4 EXISTS\n* 0 RECENT\n* OK [UNSEEN 2] First unseen.\n* OK [UIDVALIDITY 1721000000] UIDs valid\n* OK [UIDNEXT 42] Predicted next UID\n* OK [HIGHESTMODSEQ 118] Highest\na7 OK [READ-WRITE] Select completed (0.002 + 0.000 secs).\n",
    "select-nomodseq": "* NO [NOMODSEQ] Sorry, this mailbox format doesn't support modsequences\na8 OK [READ-ONLY] Examine completed\n",
    "qresync": "* OK [CLOSED] Previous mailbox closed\n* VANISHED (EARLIER) 41,43:116,118\n* 1 FETCH (UID 40 MODSEQ (110) FLAGS (\\Seen $Forwarded))\na9 OK [READ-WRITE] Select completed\n",
    "vanished": "* VANISHED 1:3,5\n* 3 EXPUNGE\n",
    "fetch-flags": "* 1 FETCH (UID 1 FLAGS (\\Seen \\Recent $Forwarded) MODSEQ (3))\n* 2 FETCH (UID 41 MODSEQ (118) FLAGS ())\na10 OK Fetch completed.\n",
    "fetch-body": '* 1 FETCH (UID 40 MODSEQ (110) FLAGS (\\Seen) RFC822.SIZE 62 INTERNALDATE "17-Jul-2024 10:11:12 +0200" BODY[] {62}\nFrom: a@example.org\nTo: b@example.org\nSubject: hi\n\nhello\n)\na11 OK Fetch completed.\n',
    "fetch-binary": "* 2 FETCH (UID 9 BINARY[1] ~{5}\n\x00\x01\x02\x03\x04 BODY[1.2] NIL BODY[]<0> {3}\nabc)\n",
    "fetch-envelope": '* 3 FETCH (UID 7 ENVELOPE ("Wed, 17 Jul 1996 02:23:25 -0700 (PDT)" "IMAP4rev1 WG mtg summary and minutes" (("Terry Gray" NIL "gray" "cac.washington.edu")) (("Terry Gray" NIL "gray" "cac.washington.edu")) (("Terry Gray" NIL "gray" "cac.washington.edu")) ((NIL NIL "imap" "cac.washington.edu")) ((NIL NIL "minutes" "CNRI.Reston.VA.US")("John Klensin" NIL "KLENSIN" "MIT.EDU")) NIL NIL "<B27397-0100000@cac.washington.edu>"))\n',
    "fetch-envelope-group": '* 4 FETCH (ENVELOPE (NIL "=?utf-8?q?caf=C3=A9?=" NIL NIL NIL ((NIL NIL "undisclosed-recipients" NIL)(NIL NIL NIL NIL)) NIL NIL NIL NIL))\n',
    "fetch-bodystructure": '* 5 FETCH (BODYSTRUCTURE (("TEXT" "PLAIN" ("CHARSET" "US-ASCII") NIL NIL "7BIT" 1152 23)("TEXT" "PLAIN" ("CHARSET" "US-ASCII" "NAME" "cc.diff") "<960723163407.20117h@cac.washington.edu>" "Compiler diff" "BASE64" 4554 73) "MIXED"))\n',
    "fetch-gmail": '* 1232 FETCH (X-GM-THRID 1798123456789012400 X-GM-MSGID 1798123456789012401 X-GM-LABELS (\\Inbox \\Important "Work/Projects") UID 98762 RFC822.SIZE 5 BODY[] {5}\nhello)\n',
    "fetch-objectid": '* 1 FETCH (EMAILID (M6d99ac3275bb4e) THREADID NIL SAVEDATE "01-Jan-2024 00:00:00 +0000")\n',
    "fetch-partial": "* 1 FETCH (BODY[HEADER.FIELDS (FROM SUBJECT)] {20}\nSubject: x\nFrom: y\n BODY[TEXT]<100> {2}\nab)\n",
    "search": "* SEARCH 2 84 882\na12 OK Search completed (0.001 + 0.000 secs).\n",
    "search-modseq": "* SEARCH 2 5 (MODSEQ 917162500)\n",
    "esearch": '* ESEARCH (TAG "a13") UID MIN 2 MAX 40 COUNT 7 ALL 2,5:9,40\na13 OK done\n',
    "esearch-empty": '* ESEARCH (TAG "a14") UID\n',
    "status": '* STATUS "Sent Items" (MESSAGES 231 UIDNEXT 44292 UIDVALIDITY 3 UNSEEN 0 SIZE 102400)\n',
    "idle": "+ idling\n* 5 EXISTS\n* 2 EXPUNGE\n* 3 FETCH (FLAGS (\\Deleted))\nDONE-ok OK IDLE terminated\n",
    "auth-continuation": "+ \na15 OK [CAPABILITY IMAP4rev1] Logged in\n",
    "auth-challenge": "+ PDE4OTYuNjk3MTcwOTUyQHBvc3RvZmZpY2UucmVzdG9uLm1jaS5uZXQ+\n",
    "appenduid": "a16 OK [APPENDUID 38505 3955] APPEND completed\n",
    "copyuid": "a17 OK [COPYUID 38505 304,319:320 3956:3958] Done\n",
    "modified": "a18 NO [MODIFIED 7,9] Conditional STORE failed\n",
    "alerts": "* OK [ALERT] Mailbox almost full\n* NO [OVERQUOTA] Quota exceeded\n* BAD [PARSE] Bad command\n* OK [UNKNOWN-CODE foo bar] x\n",
    "bye": "* BYE Logging out\na19 OK Logout completed.\n",
    "id": '* ID ("name" "Dovecot" "version" "2.3.19")\n',
    "id-nil": "* ID NIL\n",
    "enabled": "* ENABLED CONDSTORE QRESYNC\n",
    "quota": '* QUOTAROOT INBOX ""\n* QUOTA "" (STORAGE 10 512)\n',
    "unknown": "* XYZZY foo (bar [baz) \"q\" {3}\nabc\n* 5 XSTUFF whatever\n",
    "literal-plus": "* 1 FETCH (BODY[] {4+}\nabcd)\n",
    "bare-lf-mixed": "* 1 EXISTS\n* 2 EXISTS\r\n\r\n* 3 RECENT\n",
}
for name, text in imap.items():
    write("imap", name, crlf(text) if "bare-lf" not in name and "binary" not in name else text)

# --- RFC 5322 / MIME messages ---------------------------------------------------------------------
mime = {
    "plain": "From: Alice Example <alice@example.org>\nTo: Bob <bob@example.net>, carol@example.com\nSubject: Lunch on Friday?\nDate: Tue, 1 Oct 2024 12:34:56 +0200\nMessage-ID: <1234@mail.example.org>\n\nHi Bob,\n\nshall we have lunch on Friday?\n\nAlice\n",
    "reply": "From: Bob <bob@example.net>\nTo: Alice Example <alice@example.org>\nSubject: Re: Lunch on Friday?\nDate: Tue, 1 Oct 2024 13:00:00 +0200\nMessage-ID: <5678@mail.example.net>\nIn-Reply-To: <1234@mail.example.org>\nReferences: <1234@mail.example.org>\n\nOn Tue, 1 Oct 2024 Alice wrote:\n> shall we have lunch on Friday?\n\nYes!\n",
    "encoded-words": "From: =?UTF-8?Q?Andr=C3=A9_M=C3=BCller?= <andre@example.de>\nTo: =?ISO-8859-1?B?SvxyZ2Vu?= <j@example.de>\nSubject: =?utf-8?b?w4TDpMOfIG1lZXRpbmc=?= =?utf-8?q?_next_week?=\nDate: Wed, 2 Oct 2024 08:00:00 +0000\n\nHallo\n",
    "multipart-alt": 'From: news@example.com\nTo: you@example.org\nSubject: Newsletter\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="b1"\n\n--b1\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nCaf=C3=A9 news =\nthis week\n--b1\nContent-Type: text/html; charset=utf-8\n\n<html><body><p>Caf&eacute; <b>news</b></p><style>p{}</style></body></html>\n--b1--\n',
    "multipart-mixed": 'From: a@example.org\nTo: b@example.org\nSubject: report\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="==outer=="\n\npreamble\n--==outer==\nContent-Type: text/plain\n\nsee attached\n--==outer==\nContent-Type: application/pdf; name="report.pdf"\nContent-Disposition: attachment; filename="report.pdf"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSL0ZpbHRlci9GbGF0ZURl\n--==outer==--\nepilogue\n',
    "related": 'From: a@example.org\nSubject: pic\nContent-Type: multipart/related; boundary=rel; type="text/html"\n\n--rel\nContent-Type: text/html\n\n<img src="cid:img1@x">\n--rel\nContent-Type: image/png\nContent-ID: <img1@x>\nContent-Disposition: inline\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--rel--\n',
    "nested": 'Subject: nested\nContent-Type: multipart/mixed; boundary=a\n\n--a\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\ninner\n--b--\n--a\nContent-Type: message/rfc822\n\nFrom: x@example.org\nSubject: forwarded\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\nfor\xe9 body\n--a--\n',
    "rfc2231": "Subject: params\nContent-Type: application/octet-stream; name*0*=utf-8''%E2%82%AC; name*1=\" rates.xls\"\nContent-Disposition: attachment; filename*=UTF-8''%E2%82%AC%20rates.xls\n\nxx\n",
    "digest": "Subject: digest\nContent-Type: multipart/digest; boundary=d\n\n--d\n\nSubject: one\n\nfirst\n--d\n\nSubject: two\n\nsecond\n--d--\n",
    "charsets": "Subject: =?koi8-r?B?8NLJ18XU?=\nContent-Type: text/plain; charset=windows-1252\n\n\x93quoted\x94 \x80\n",
    "utf7-body": "Subject: x\nContent-Type: text/plain; charset=utf-7\n\nHi Mom -+Jjo--!\n",
    "iso2022jp": "Subject: =?ISO-2022-JP?B?GyRCRnxLXDhsGyhC?=\nContent-Type: text/plain; charset=iso-2022-jp\n\n\x1b$BF|K\\8l\x1b(B\n",
    "folded": "Subject: a very long subject that is\n folded over\n\tseveral lines\nFrom: \"Last, First\" <first.last@example.org> (comment)\nTo: undisclosed-recipients:;\nCc: group: a@b.c, \"d e\" <d@e.f>;\n\nbody\n",
    "received-date": "Received: from mx.example.org by mail.example.net; Thu, 3 Oct 2024 09:00:00 +0000\nSubject: no date header\n\nx\n",
    "bad-date": "Date: 31 Feb 99 25:61:61 XYZ\nSubject: bad\n\nx\n",
    "no-body": "Subject: headers only\nFrom: a@b.c",
    "crlf": "From: a@example.org\r\nSubject: crlf\r\nContent-Type: text/plain\r\n\r\nline one\r\nline two\r\n",
    "mbox-from-line": "From alice@example.org Mon Jan  1 00:00:00 2024\nSubject: with envelope\n\nx\n",
    "list-mail": "List-Id: Dev list <dev.lists.example.org>\nList-Unsubscribe: <mailto:leave@example.org>\nX-GM-THRID: 1798123456789012400\nSubject: [dev] Re: Re: Fwd: patch\n\n-- \nsig\n",
    "qp-soft": "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nsoft=\nbreak =3D sign =E2=82=AC =ZZ bad\n",
    "base64-bad": "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\naGVsbG8gd29y!!bGQ=\n====\n",
    "html-only": "Content-Type: text/html; charset=utf-8\n\n<!DOCTYPE html><html><head><meta charset=\"iso-8859-1\"><title>t</title><script>x()</script></head><body>A &amp; B &#8364; &#x1F600;<br>next</body></html>\n",
    "missing-boundary": "Content-Type: multipart/mixed; boundary=zz\n\nno boundary ever appears\n",
    "empty-boundary": "Content-Type: multipart/mixed; boundary=\"\"\n\n--\n\nx\n----\n",
    "calendar": 'Content-Type: multipart/mixed; boundary=c\n\n--c\nContent-Type: text/calendar; method=REQUEST; charset=utf-8\n\nBEGIN:VCALENDAR\nEND:VCALENDAR\n--c\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx\n--c--\n',
}
for name, text in mime.items():
    data = text.encode("latin-1") if any(ord(c) > 127 for c in text) else text.encode()
    write("mime", name, data)

# --- mbox files -----------------------------------------------------------------------------------
mbox = {
    "two": "From alice@example.org Mon Jan  1 00:00:00 2024\nSubject: one\n\nbody one\n\nFrom bob@example.net Tue Jan  2 10:00:00 2024\nSubject: two\n\nbody two\n",
    "quoted": "From a@b Mon Jan  1 00:00:00 2024\nSubject: q\n\n>From the start\n>>From deeper\nFrom not a separator\n\n>From after blank\n",
    "crlf": "From a@b Mon Jan  1 00:00:00 2024\r\nSubject: crlf\r\n\r\nx\r\n\r\nFrom c@d Mon Jan  1 00:00:01 2024\r\nSubject: y\r\n\r\ny\r\n",
    "no-envelope-first": "Subject: no From_ line\n\nbody\n\nFrom a@b Mon Jan  1 00:00:00 2024\nSubject: second\n\nz\n",
    "leading-blanks": "\n\n\nFrom a@b Thu Jan  1 00:00:00 1970\nSubject: x\n\n\n\nbody after blanks\n\n\n",
    "empty-messages": "From a@b Mon Jan  1 00:00:00 2024\n\nFrom c@d Mon Jan  1 00:00:00 2024\n\nFrom e@f Mon Jan  1 00:00:00 2024\n",
    "not-envelope": "From a@b Mon Jan  1 00:00:00 2024\nx\n\nFrom nobody\n\nFrom \n\nFrom x y 1\n",
    "zone": "From MAILER-DAEMON Fri Jul  8 12:08:34 2011 +0200\nSubject: z\n\nz\n",
    "no-final-newline": "From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\nlast line",
    "cr-only": "From a@b Mon Jan  1 00:00:00 2024\r\rx\r\n\r",
    "list-archive": "From dev-return-1@lists.example.org Wed Mar  6 09:15:00 2024\nReturn-Path: <dev-return-1@lists.example.org>\nList-Id: <dev.lists.example.org>\nFrom: Carol <carol@example.com>\nSubject: [dev] build broken\n\nThe build is broken since\n>From yesterday's merge.\n\n-- \nCarol\n\nFrom dev-return-2@lists.example.org Wed Mar  6 10:00:00 2024\nFrom: Dan <dan@example.com>\nSubject: Re: [dev] build broken\nIn-Reply-To: <x@example.com>\n\nFixed.\n",
}
for name, text in mbox.items():
    write("mbox", name, text)

# --- SMTP replies ---------------------------------------------------------------------------------
smtp = {
    "greeting": "220 mail.example.org ESMTP Postfix (Debian/GNU)\n",
    "ehlo": "250-mail.example.org\n250-PIPELINING\n250-SIZE 10240000\n250-VRFY\n250-ETRN\n250-STARTTLS\n250-AUTH PLAIN LOGIN\n250-ENHANCEDSTATUSCODES\n250-8BITMIME\n250-DSN\n250-SMTPUTF8\n250 CHUNKING\n",
    "ok": "250 2.0.0 Ok\n",
    "rcpt-rejected": "550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in local recipient table\n",
    "greylist": "450 4.2.0 <a@example.org>: Recipient address rejected: Greylisted, see https://example.org/\n",
    "data": "354 End data with <CR><LF>.<CR><LF>\n",
    "queued": "250 2.0.0 Ok: queued as 4Xk2Qh0Z1rz9s\n",
    "auth": "334 VXNlcm5hbWU6\n334 UGFzc3dvcmQ6\n235 2.7.0 Authentication successful\n",
    "auth-failed": "535 5.7.8 Error: authentication failed: authentication failure\n",
    "starttls": "220 2.0.0 Ready to start TLS\n",
    "bye": "221 2.0.0 Bye\n",
    "shutdown": "421 4.3.2 Service shutting down, closing transmission channel\n",
    "multiline-reject": "554-5.7.1 This message was rejected\n554-5.7.1 because it looks like spam.\n554 5.7.1 See https://example.org/why\n",
    "pipelined": "250 2.1.0 Ok\n250 2.1.5 Ok\n250 2.1.5 Ok\n354 go ahead\n",
    "bare-code": "250\n",
    "mixed-codes": "250-first\n251 second\n",
    "bad-line": "hello there\n",
    "too-large": "552 5.3.4 Message size exceeds fixed limit\n",
    "utf8": "250 2.0.0 Ok caf\xc3\xa9 \xff\xfe\n",
}
for name, text in smtp.items():
    data = text.encode("latin-1")
    write("smtp-reply", name, data.replace(b"\n", b"\r\n") if name not in ("bare-code",) else data)

# --- Discovery: DNS answers, autoconfig documents, HTTP responses -----------------------------------
# The first byte chooses the parser (modulo 4): 0 DNS SRV, 1 DNS MX, 2 autoconfig, 3 HTTP. A DNS seed's first
# two bytes after it are its transaction id, which the target asks for.


def dns_name(name):
    out = b""
    for label in name.split("."):
        out += bytes([len(label)]) + label.encode()
    return out + b"\x00"


def dns_response(qname, qtype, answers, rcode=0):
    head = bytes([0x12, 0x34, 0x81, 0x80 | rcode, 0, 1, 0, len(answers), 0, 0, 0, 0])
    body = dns_name(qname) + qtype.to_bytes(2, "big") + b"\x00\x01"
    for rtype, rdata in answers:
        # The owner as a pointer to the question (offset 12), class IN, TTL 300.
        body += b"\xc0\x0c" + rtype.to_bytes(2, "big") + b"\x00\x01\x00\x00\x01\x2c" + len(rdata).to_bytes(2, "big") + rdata
    return head + body


def srv(priority, weight, port, target):
    return priority.to_bytes(2, "big") + weight.to_bytes(2, "big") + port.to_bytes(2, "big") + dns_name(target)


discovery = {
    "srv-imaps": b"\x00" + dns_response("_imaps._tcp.example.org", 33,
                                        [(33, srv(0, 1, 993, "imap.example.org")), (33, srv(10, 5, 993, "imap2.example.org"))]),
    "srv-none": b"\x00" + dns_response("_imap._tcp.example.org", 33, [(33, srv(0, 0, 0, ""))]),
    "srv-nxdomain": b"\x00" + dns_response("_submission._tcp.example.org", 33, [], rcode=3),
    # An exchange compressed against the question's name ("mx" then a pointer to "example.org" at offset 12 + 1 + 2).
    "mx-google": b"\x01" + dns_response("example.org", 15,
                                         [(15, b"\x00\x0a" + dns_name("aspmx.l.google.com")), (15, b"\x00\x05\x02mx\xc0\x0c")]),
    "mx-cname": b"\x01" + dns_response("example.org", 15, [(5, dns_name("other.example.org")), (15, b"\x00\x01\xc0\x0c")]),
    "autoconfig": b"\x02" + b"""<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="example.org">
    <domain>example.org</domain>
    <incomingServer type="imap"><hostname>imap.example.org</hostname><port>993</port><socketType>SSL</socketType>
      <authentication>password-cleartext</authentication><username>%EMAILADDRESS%</username></incomingServer>
    <incomingServer type="pop3"><hostname>pop.example.org</hostname><port>995</port><socketType>SSL</socketType></incomingServer>
    <outgoingServer type="smtp"><hostname>smtp.example.org</hostname><port>587</port><socketType>STARTTLS</socketType></outgoingServer>
  </emailProvider>
</clientConfig>
""",
    "autoconfig-entities": b"\x02" + b"""<?xml version="1.0"?>
<!DOCTYPE clientConfig [<!ENTITY h "imap.example.org"><!ENTITY x SYSTEM "file:///etc/passwd">]>
<clientConfig><emailProvider><incomingServer type="IMAP"><hostname>&h;</hostname><port>143</port>
<socketType>starttls</socketType></incomingServer><outgoingServer type="smtp"><hostname>&x;</hostname><port>465</port>
<socketType>TLS</socketType></outgoingServer></emailProvider></clientConfig>
""",
    "http-length": b"\x03" + b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 60\r\nCache-Control: no-store\r\n\r\n"
                   b'{"access_token":"x","token_type":"Bearer","expires_in":3599}',
    "http-chunked": b"\x03" + b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/xml\r\n\r\n"
                    b"1a;ext=1\r\n<clientConfig version=\"1.1\">\r\n10\r\n</clientConfig>\r\n\r\n0\r\nTrailer: x\r\n\r\n",
    "http-redirect": b"\x03" + b"HTTP/1.1 301 Moved Permanently\r\nLocation: /v1.1/example.org\r\nContent-Length: 0\r\n\r\n",
    "http-to-the-end": b"\x03" + b"HTTP/1.0 404 Not Found\r\nServer: x\r\n\r\nnot here",
}
for name, data in discovery.items():
    write("discovery", name, data)

# --- Compose: a draft's fields separated by NUL ------------------------------------------------------
# subject, text, recipient's name, recipient's local part, attachment name, its type, its bytes, a reference id,
# flags (bit 0: 8BITMIME).
compose = {
    "plain": ["Lunch", "Hello Bob,\nsee you at noon.\n", "Bob", "bob", "", "", "", "", "\x01"],
    "umlauts-qp": ["Grüße aus Köln", "Grüße,\n\nÜmlaute und ☕\n=Gleich= am Anfang\n.\n", "Jürgen Müller", "juergen", "", "", "", "", "\x00"],
    "reply-attachment": ["Re: report", "See attached.\r\n", "Carol \"CJ\" Jones", "carol", "Prüfbericht 2026 (final).pdf",
                         "application/pdf", "%PDF-1.4 fake\n", "abc123@mail.example.org", "\x01"],
    "injection": ["Hi\r\nBcc: evil@example.com", "x\r\n.\r\nMAIL FROM:<a@b>\r\n", "Bob\r\nX-Evil: 1", "bob", "a\r\nb.txt",
                  "text/plain\r\nX: y", "data", "<x>\r\nY: z", "\x00"],
    "long-line": ["=?utf-8?q?not_a_word?= " + "word " * 40, "x" * 2100 + "\n", "", "l", "", "", "", "", "\x01"],
}
for name, fields in compose.items():
    write("compose", name, "\x00".join(fields))
