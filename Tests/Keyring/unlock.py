"""Unlocks gnome-keyring-daemon's login collection with the test password in
$SESSION_KEYRING_PASSWORD, through the daemon's own D-Bus interface (what its unlock prompt does),
for Tests/Keyring/run.sh. Needs Debian's python3-dbus (run it with /usr/bin/python3)."""
import os

import dbus

bus = dbus.SessionBus()
service = bus.get_object("org.freedesktop.secrets", "/org/freedesktop/secrets")
_, session = service.OpenSession("plain", dbus.String("", variant_level=1), dbus_interface="org.freedesktop.Secret.Service")
daemon = dbus.Interface(service, "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface")
password = os.environ["SESSION_KEYRING_PASSWORD"].encode()
daemon.UnlockWithMasterPassword(dbus.ObjectPath("/org/freedesktop/secrets/collection/login"),
                                (session, dbus.ByteArray(b""), dbus.ByteArray(password), "text/plain"))
