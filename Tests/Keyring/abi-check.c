// Compares the declarations Sources/CLibSecret/shim.h transcribes (it loads libsecret at run time,
// without its headers) with libsecret's and GLib's real headers: struct layouts and enum values
// (the function pointers take GLib objects as void *; the keyring tests exercise each of them).
// Run by Tests/Keyring/run.sh, where libsecret-1-dev is installed; a mismatch fails the compile.
#include <stddef.h>
#include <libsecret/secret.h>
#include "../../Sources/CLibSecret/shim.h"

#define SAME(a, b) _Static_assert((long)(a) == (long)(b), #a " differs from " #b)

SAME(sizeof(clibsecret_gerror), sizeof(GError));
SAME(offsetof(clibsecret_gerror, domain), offsetof(GError, domain));
SAME(offsetof(clibsecret_gerror, code), offsetof(GError, code));
SAME(offsetof(clibsecret_gerror, message), offsetof(GError, message));
SAME(sizeof(clibsecret_glist), sizeof(GList));
SAME(offsetof(clibsecret_glist, data), offsetof(GList, data));
SAME(offsetof(clibsecret_glist, next), offsetof(GList, next));
SAME(sizeof(clibsecret_schema), sizeof(SecretSchema));
SAME(offsetof(clibsecret_schema, flags), offsetof(SecretSchema, flags));
SAME(offsetof(clibsecret_schema, attributes), offsetof(SecretSchema, attributes));
SAME(sizeof(clibsecret_schema_attribute), sizeof(SecretSchemaAttribute));
SAME(offsetof(clibsecret_schema, reserved), offsetof(SecretSchema, reserved));
SAME(SECRET_SCHEMA_ATTRIBUTE_STRING, 0);
SAME(SECRET_SCHEMA_NONE, 0);
SAME(SECRET_COLLECTION_NONE, 0);
SAME(CLIBSECRET_SEARCH_ALL, SECRET_SEARCH_ALL);
SAME(CLIBSECRET_SEARCH_UNLOCK, SECRET_SEARCH_UNLOCK);
SAME(CLIBSECRET_SEARCH_LOAD_SECRETS, SECRET_SEARCH_LOAD_SECRETS);
SAME(CLIBSECRET_SERVICE_LOAD_COLLECTIONS, SECRET_SERVICE_LOAD_COLLECTIONS);
SAME(CLIBSECRET_ERROR_IS_LOCKED, SECRET_ERROR_IS_LOCKED);
SAME(CLIBSECRET_ERROR_PROTOCOL, SECRET_ERROR_PROTOCOL);
SAME(CLIBSECRET_DBUS_SERVICE_UNKNOWN, G_DBUS_ERROR_SERVICE_UNKNOWN);
SAME(CLIBSECRET_DBUS_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NAME_HAS_NO_OWNER);
SAME(CLIBSECRET_DBUS_NO_REPLY, G_DBUS_ERROR_NO_REPLY);
SAME(CLIBSECRET_DBUS_NO_SERVER, G_DBUS_ERROR_NO_SERVER);
SAME(CLIBSECRET_DBUS_TIMEOUT, G_DBUS_ERROR_TIMEOUT);
SAME(CLIBSECRET_DBUS_DISCONNECTED, G_DBUS_ERROR_DISCONNECTED);
SAME(CLIBSECRET_DBUS_FILE_NOT_FOUND, G_DBUS_ERROR_FILE_NOT_FOUND);
SAME(CLIBSECRET_DBUS_TIMED_OUT, G_DBUS_ERROR_TIMED_OUT);
SAME(CLIBSECRET_IO_NOT_FOUND, G_IO_ERROR_NOT_FOUND);
SAME(CLIBSECRET_IO_CANCELLED, G_IO_ERROR_CANCELLED);
SAME(CLIBSECRET_IO_TIMED_OUT, G_IO_ERROR_TIMED_OUT);

int main(void) {
    // And the library really loads, every symbol found.
    const clibsecret_api *api = clibsecret();
    return api->unavailable == NULL ? 0 : 1;
}
