"""Administration of a Tools/test-server/cyrus server over IMAPS, as its admin "cyrus".

    python3 cyrus_admin.py DIR login USER                    proxy-log in as USER (makes INBOX and folders)
    python3 cyrus_admin.py DIR setacl USER FOLDER RIGHTS     SETACL on USER's FOLDER for USER
    python3 cyrus_admin.py DIR append USER FOLDER FILE...    APPEND each file to USER's FOLDER

The admin's password is in DIR/admin.password; the admin acts for USER through SASL PLAIN with an
authorization identity (Cyrus's `proxyservers`). FOLDER is a name in the user's own namespace
(INBOX, Archive, Projects/2026, ...).
"""
import imaplib
import os
import ssl
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serverenv import read_env  # noqa: E402


def connect(directory):
    env = read_env(os.path.join(directory, "env"))
    context = ssl.create_default_context(cafile=env["CA_FILE"])
    return imaplib.IMAP4_SSL(env["IMAP_HOST"], int(env["IMAPS_PORT"]), ssl_context=context, timeout=30)


def admin_password(directory):
    with open(os.path.join(directory, "admin.password")) as f:
        return f.read()


def as_user(directory, user):
    """A session logged in as USER by the admin (PLAIN with authzid USER, authcid cyrus)."""
    imap = connect(directory)
    secret = admin_password(directory)
    imap.authenticate("PLAIN", lambda _: f"{user}\0cyrus\0{secret}".encode())
    return imap


def as_admin(directory):
    imap = connect(directory)
    imap.login("cyrus", admin_password(directory))
    return imap


def admin_mailbox(user, folder):
    """USER's FOLDER as the admin names it: user/NAME[/FOLDER]@DOMAIN (alternate namespace, '/' separator)."""
    local, _, domain = user.partition("@")
    name = f"user/{local}" if folder.upper() == "INBOX" else f"user/{local}/{folder}"
    return f"{name}@{domain}" if domain else name


def quoted(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check(result, what):
    status, data = result
    if status != "OK":
        sys.exit(f"cyrus_admin: {what} failed: {status} {data}")
    return data


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    directory, command, user = sys.argv[1], sys.argv[2], sys.argv[3]
    if command == "login":
        imap = as_user(directory, user)
        check(imap.list(), "LIST")
        imap.logout()
    elif command == "setacl" and len(sys.argv) == 6:
        folder, rights = sys.argv[4], sys.argv[5]
        imap = as_admin(directory)
        check(imap.setacl(quoted(admin_mailbox(user, folder)), quoted(user), rights), "SETACL")
        imap.logout()
    elif command == "append" and len(sys.argv) >= 6:
        folder = sys.argv[4]
        imap = as_user(directory, user)
        for path in sys.argv[5:]:
            with open(path, "rb") as f:
                check(imap.append(quoted(folder), None, None, f.read()), f"APPEND {path}")
        imap.logout()
        print(f"cyrus: {len(sys.argv) - 5} message(s) appended to {folder} of {user}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
